package notation

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"alak/rules"
)

// A game with declarations (the safe-eye rule) is written and read back by
// every notation: Human *3, GTP *C1, the move list and SGF B[*ca].
func TestSafeDeclarations(t *testing.T) {
	r, err := rules.Parse("alak size=5 safe=eye")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    Notation
		text string
	}{{Human, "*2"}, {GTP, "*B1"}} {
		m, err := c.n.Decode(r, c.text)
		if err != nil || m != rules.Declare(1) || c.n.Encode(r, m) != c.text {
			t.Errorf("%T: %q read as %v (%v), written %q", c.n, c.text, m, err, c.n.Encode(r, m))
		}
	}
	if _, err := Human.Decode(r, "*9"); !errors.Is(err, ErrNotation) {
		t.Errorf("*9 on 5 points: %v, want ErrNotation", err)
	}
	if _, err := Human.Decode(rules.MustPreset("alak"), "*2"); err == nil {
		t.Error("a declaration under rules without safe points was read")
	}
	// Black 1, White 5, Black 3, White 4, Black declares 2: the game ends
	// (White has no legal move), 2 stones each.
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []rules.Move{rules.Place(0), rules.Place(4), rules.Place(2), rules.Place(3), rules.Declare(1)} {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	rec := NewRecord(g)
	writers := map[string]func(*bytes.Buffer, Record) error{
		"movelist": func(w *bytes.Buffer, rec Record) error { return WriteMoveList(w, rec) },
		"sgf":      func(w *bytes.Buffer, rec Record) error { return WriteSGF(w, rec) },
	}
	readers := map[string]func([]byte) (Record, error){"movelist": ReadMoveList, "sgf": ReadSGF}
	want := map[string]string{"movelist": "1 5 3 4 *2", "sgf": "B[*ba]"}
	for name, write := range writers {
		var buf bytes.Buffer
		if err := write(&buf, rec); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Contains(buf.Bytes(), []byte(want[name])) {
			t.Errorf("%s does not hold %q:\n%s", name, want[name], buf.String())
		}
		back, err := readers[name](buf.Bytes())
		if err != nil {
			t.Fatalf("%s: read back: %v\n%s", name, err, buf.String())
		}
		if !slices.Equal(back.Moves, rec.Moves) || back.Rules.String() != r.String() {
			t.Errorf("%s: read back %v under %q, want %v under %q", name, back.Moves, back.Rules, rec.Moves, r)
		}
		if g2, err := back.Game(); err != nil || !g2.Over() || g2.Outcome().Margin != 0 {
			t.Errorf("%s: replay: %v", name, err)
		}
	}
}

// The rules in words say what a declaration is.
func TestSafeRulesText(t *testing.T) {
	for s, want := range map[string]string{
		"alak safe=eye":   "declare one of your eyes safe",
		"alak safe=field": "declare any empty point safe",
	} {
		r, err := rules.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		if text := RulesText(r); !bytes.Contains([]byte(text), []byte(want)) || !bytes.Contains([]byte(text), []byte("can neither place nor declare")) {
			t.Errorf("%s:\n%s", s, text)
		}
	}
}
