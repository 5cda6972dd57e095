package proofcheck

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"alak/rules"
)

// TestMirror: the mirror image of a certificate checks, claims the
// mirrored line (7 points after 1 becomes after 7, after 3 after 5), and
// mirrored again is the original byte for byte; the certificates are the
// committed ones, a plain tree (5 points), shared subtrees (6 points,
// 7 points after 3) and a win (7 points after 1); those of proofdata/ (a
// module of its own) are skipped where it is absent.
func TestMirror(t *testing.T) {
	for _, c := range []struct {
		file string
		line string // the mirrored line, as rules.MoveText writes it
	}{
		{"testdata/traditional-5-o-draw.alakproof", ""},
		{"testdata/traditional-6-o-draw-shared.alakproof", ""},
		{"../proofdata/traditional-7-o-win-after-1.alakproof", "7"},
		{"../proofdata/traditional-7-x-draw-after-3.alakproof", "5"},
	} {
		if _, err := os.Stat("../proofdata/go.mod"); err != nil && strings.HasPrefix(c.file, "../proofdata/") {
			t.Logf("%s: no proof data here (%v)", c.file, err)
			continue
		}
		orig, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		oh, err := (&reader{r: bufio.NewReader(bytes.NewReader(orig))}).header()
		if err != nil {
			t.Fatal(err)
		}
		var m bytes.Buffer
		mh, err := Mirror(&m, bytes.NewReader(orig), oh.Writer)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		rep, err := check(m.Bytes())
		if err != nil {
			t.Fatalf("%s mirrored does not check: %v", c.file, err)
		}
		r, _ := rules.Parse(oh.Rules)
		var line string
		for _, mv := range rep.Header.Line {
			line += r.MoveText(mv)
		}
		if line != c.line || !slices.Equal(mh.Line, rep.Header.Line) || rep.Header.For != oh.For || rep.Header.Draw != oh.Draw {
			t.Errorf("%s mirrored: %q for %v (draw %v); want the line %q", c.file, rep.Header.Claim(), rep.Header.For, rep.Header.Draw, c.line)
		}
		if c.line != "" && bytes.Equal(m.Bytes(), orig) {
			t.Errorf("%s: the mirror image is the original", c.file)
		}
		var back bytes.Buffer
		if _, err := Mirror(&back, bytes.NewReader(m.Bytes()), oh.Writer); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(back.Bytes(), orig) {
			t.Errorf("%s mirrored twice differs from the original", c.file)
		}
	}
}

// TestMirrorRejects: a truncated certificate, bytes after the tree and a
// tag unknown are errors of ErrFormat, whatever the place.
func TestMirrorRejects(t *testing.T) {
	orig, err := os.ReadFile("testdata/traditional-6-o-draw-shared.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(orig); n += 1 + n/50 {
		if _, err := Mirror(&bytes.Buffer{}, bytes.NewReader(orig[:n]), "test"); !errors.Is(err, ErrFormat) {
			t.Fatalf("cut at byte %d of %d: %v, want an error of ErrFormat", n, len(orig), err)
		}
	}
	if _, err := Mirror(&bytes.Buffer{}, bytes.NewReader(append(slices.Clone(orig), 'E', 0)), "test"); !errors.Is(err, ErrFormat) {
		t.Errorf("bytes after the tree: %v", err)
	}
	r, _ := rules.Parse("traditional size=3")
	g, _ := rules.NewGame(r)
	h, _ := NewHeader(g, rules.Black, false, "test")
	if _, err := Mirror(&bytes.Buffer{}, bytes.NewReader(append(h.Append(nil), 'M', 2, 'Q')), "test"); !errors.Is(err, ErrFormat) {
		t.Errorf("an unknown tag: %v", err)
	}
}

// FuzzMirror: whatever the bytes, Mirror answers without panicking, and
// when the input checks, so does its mirror image, with as many
// positions.
func FuzzMirror(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var m bytes.Buffer
		_, err := Mirror(&m, bytes.NewReader(data), "fuzz")
		rep, cerr := check(data)
		if cerr != nil {
			return
		}
		if err != nil {
			t.Fatalf("the input checks, but Mirror fails: %v", err)
		}
		mrep, err := check(m.Bytes())
		if err != nil {
			t.Fatalf("the input checks, its mirror image does not: %v", err)
		}
		if mrep.Nodes != rep.Nodes {
			t.Errorf("%d positions checked in the input, %d in its mirror image", rep.Nodes, mrep.Nodes)
		}
	})
}
