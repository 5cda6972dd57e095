package notation

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"alak/rules"
)

// A set-up start under the seed's Traditional Alak scoring (stones +
// territory + prisoners) carries the prisoners taken before it: both record
// formats write them and read them back, and the score counts them.
func TestSetUpPrisonersRoundTrip(t *testing.T) {
	r := rules.MustPreset("traditional")
	r.Width = 6
	pos, err := rules.ParseDiagram(r, "x-o---", rules.Black)
	if err != nil {
		t.Fatal(err)
	}
	if pos, err = pos.WithPrisoners(2, 1); err != nil {
		t.Fatal(err)
	}
	g := rules.NewGameFrom(pos)
	for _, m := range []rules.Move{rules.Place(3), rules.Pass, rules.Pass} {
		if err := g.Play(m); err != nil {
			t.Fatalf("play %v: %v", m, err)
		}
	}
	// Final board x-ox--, counted by hand: Black has 2 stones, White 1;
	// point 2 touches both colours (no one's), points 5-6 touch only x and
	// the end (Black's territory, 2). Black: 2 stones + 2 territory + 2
	// prisoners = 6; White: 1 + 0 + 1 = 2.
	b, w := g.Position().Score()
	if b != 6 || w != 2 {
		t.Fatalf("score %v-%v, want 6-2 (prisoners from the set-up counted)", b, w)
	}
	rec := NewRecord(g)
	for name, write := range map[string]func(*bytes.Buffer, Record) error{
		"move list": func(buf *bytes.Buffer, rec Record) error { return WriteMoveList(buf, rec) },
		"SGF":       func(buf *bytes.Buffer, rec Record) error { return WriteSGF(buf, rec) },
	} {
		var buf bytes.Buffer
		if err := write(&buf, rec); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := buf.String()
		if want := map[string]string{"move list": "# position: x-o--- x prisoners=2-1", "SGF": "XP[2:1]"}[name]; !strings.Contains(text, want) {
			t.Errorf("%s does not hold %q:\n%s", name, want, text)
		}
		back, err := ReadRecord(buf.Bytes())
		if err != nil {
			t.Fatalf("%s read back: %v\n%s", name, err, text)
		}
		if p := back.Start; p.Prisoners(rules.Black) != 2 || p.Prisoners(rules.White) != 1 {
			t.Errorf("%s read back prisoners %d-%d, want 2-1", name, p.Prisoners(rules.Black), p.Prisoners(rules.White))
		}
		bg, err := back.Game()
		if err != nil {
			t.Fatalf("%s replay: %v", name, err)
		}
		if b, w := bg.Position().Score(); b != 6 || w != 2 {
			t.Errorf("%s replayed score %v-%v, want 6-2", name, b, w)
		}
	}
}

// Bad prisoner counts are refused with the form that is accepted.
func TestSetUpPrisonersBad(t *testing.T) {
	for _, text := range []string{
		"# rules: traditional size=6\n# position: x-o--- x\n# prisoners: 2\n4\n",
		"# rules: traditional size=6\n# position: x-o--- x\n# prisoners: -1-0\n4\n",
		"# rules: traditional size=6\n# position: x-o--- x\n# prisoners: 2-99999\n4\n",
		"(;FF[4]GM[1]SZ[6:1]RU[traditional]AB[aa]AW[ca]PL[B]XP[two:1];B[da])",
		"(;FF[4]GM[1]SZ[6:1]RU[traditional]AB[aa]AW[ca]PL[B]XP[1-1];B[da])",
	} {
		_, err := ReadRecord([]byte(text))
		if err == nil {
			t.Errorf("%q: read without error", text)
			continue
		}
		if !errors.Is(err, ErrNotation) || !strings.Contains(err.Error(), "such as 2") {
			t.Errorf("%q: error %q should say what is accepted", text, err)
		}
	}
}
