package proofcheck

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"alak/rules"
)

// TestSwapAfterPass: Black's bound on 1×5 (a draw, opening on 3) with the
// colours exchanged after a first pass is White's bound after Black's
// pass, which checks with as many positions and every result negated
// (the same finished games); a proof whose root answers Black's moves,
// White's win on 1×7 with komi 2.5, becomes Black's claim with komi -2.5
// after the pass and is refuted there (Black's second pass ends the game);
// a certificate from another start is refused.
func TestSwapAfterPass(t *testing.T) {
	x3, err := os.ReadFile("testdata/tromp-taylor-5-x-draw-after-3.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	xRoot, _, err := join([][]byte{x3})
	if err != nil {
		t.Fatal(err)
	}
	swap := func(b []byte) ([]byte, Header, error) {
		var out bytes.Buffer
		h, err := SwapAfterPass(&out, bytes.NewReader(b), "test")
		return out.Bytes(), h, err
	}
	out, h, err := swap(xRoot)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := check(out)
	if err != nil {
		t.Fatalf("Black's bound on 1×5, exchanged: %v", err)
	}
	orig, err := check(xRoot)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Header.Claim(); got != "o can force a draw or better after pass (tromp-taylor size=5)" || h.Claim() != got || rep.Nodes != orig.Nodes || rep.Ends != orig.Ends {
		t.Errorf("exchanged: %q, %d positions, %d finished games; want White's draw after pass, %d and %d", got, rep.Nodes, rep.Ends, orig.Nodes, orig.Ends)
	}

	t7, err := os.ReadFile("testdata/tromp-taylor-7-o-win-komi-2.5.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	out, h, err = swap(t7)
	if err != nil {
		t.Fatal(err)
	}
	if h.Rules != "tromp-taylor size=7 komi=-2.5" || h.For != rules.Black || len(h.Line) != 1 || h.Line[0] != rules.Pass {
		t.Errorf("White's win on 1×7 exchanged: %q for %v after %v", h.Rules, h.For, h.Line)
	}
	if _, err := check(out); !errors.Is(err, ErrRefuted) {
		t.Errorf("a proof whose root answers a pass, exchanged after a pass: %v, want it refuted", err)
	}

	hd, err := (&reader{r: bufio.NewReader(bytes.NewReader(xRoot))}).header()
	if err != nil {
		t.Fatal(err)
	}
	moved := hd
	moved.Start = "--x-- o"
	other := append(moved.Append(nil), xRoot[len(hd.Append(nil)):]...)
	if _, _, err := swap(other); err == nil || !strings.Contains(err.Error(), "not from the start of its rules") {
		t.Errorf("another start: %v", err)
	}
	for n := 0; n < len(xRoot); n += 1 + n/40 {
		if _, _, err := swap(xRoot[:n]); !errors.Is(err, ErrFormat) {
			t.Fatalf("cut at byte %d of %d: %v, want an error of ErrFormat", n, len(xRoot), err)
		}
	}
}

// FuzzSwapAfterPass: whatever the bytes, SwapAfterPass answers without
// panicking, and where the input and its exchange both check, they check
// as many positions and finished games.
func FuzzSwapAfterPass(f *testing.F) {
	addJoinedSeed(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		if _, err := SwapAfterPass(&out, bytes.NewReader(data), "fuzz"); err != nil {
			return
		}
		rep, err := check(data)
		if err != nil {
			return
		}
		srep, err := check(out.Bytes())
		if err != nil {
			return
		}
		if srep.Nodes != rep.Nodes || srep.Ends != rep.Ends {
			t.Errorf("%d positions and %d finished games, exchanged %d and %d", rep.Nodes, rep.Ends, srep.Nodes, srep.Ends)
		}
	})
}
