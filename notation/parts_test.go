package notation

import (
	"strings"
	"testing"

	"alak/rules"
)

func partsGame(t *testing.T, spec string) *rules.Game {
	t.Helper()
	r, err := rules.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestReadParts: the lines a split writes (PartsHeader, FormatPartLine)
// read back as written, the older "cut off at N positions, split" form of
// docs/data reads as a cut-off, and comments and blank lines are skipped.
func TestReadParts(t *testing.T) {
	g := partsGame(t, "tromp-taylor size=12")
	r := g.Rules()
	want := []PartLine{
		{CutOff: true, Note: "80000000 positions, 81.0s"},
		{Moves: []rules.Move{rules.Place(3), rules.Place(6), rules.Place(0)}, Bound: 1, Note: "34916219 positions, 27.2s"},
		{Moves: []rules.Move{rules.Place(3), rules.Place(6), rules.Place(1), rules.Place(7)}, Lower: true, Bound: 4},
		{Moves: []rules.Move{rules.Place(1), rules.Pass}, Lower: true, Bound: 12, Note: "known"},
		{Moves: []rules.Move{rules.Place(1), rules.Place(10), rules.Place(8)}, Open: true},
		{Moves: []rules.Move{rules.Place(1)}, Lower: true, Bound: -0.5},
	}
	var b strings.Builder
	b.WriteString(PartsHeader(g))
	b.WriteString("# a comment\n\n")
	for _, p := range want {
		b.WriteString(FormatPartLine(r, p) + "  # trailing comment\n")
	}
	b.WriteString("2 11: cut off at 80000000 positions, split\n")
	got, err := ReadParts([]byte(b.String()), g)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	want = append(want, PartLine{Moves: []rules.Move{rules.Place(1), rules.Place(10)}, CutOff: true})
	if len(got) != len(want) {
		t.Fatalf("read %d lines, wrote %d:\n%s", len(got), len(want), b.String())
	}
	for i := range want {
		if PartMovesKey(r, got[i].Moves) != PartMovesKey(r, want[i].Moves) || got[i].CutOff != want[i].CutOff ||
			got[i].Open != want[i].Open || got[i].Lower != want[i].Lower || got[i].Bound != want[i].Bound || got[i].Note != want[i].Note {
			t.Errorf("line %d: read %+v, wrote %+v", i+1, got[i], want[i])
		}
	}
	if s := FormatPartLine(r, want[1]); s != "4 7 1: at most 1 (34916219 positions, 27.2s)" {
		t.Errorf("FormatPartLine = %q", s)
	}
}

// TestReadPartsErrors: a bad line is refused with its line number and
// what is wrong, and nothing is returned.
func TestReadPartsErrors(t *testing.T) {
	g := partsGame(t, "tromp-taylor size=12")
	cases := []struct{ text, want string }{
		{"rules: tromp-taylor size=13\n", `the file is for the rules "tromp-taylor size=13"`},
		{"start: x-----------, o to move\n", "the file starts from"},
		{"4 7\n", "line 1"},
		{"\n4 7: maybe 2\n", "line 2"},
		{"4 7: at least two\n", `"two": want a bound`},
		{"4 7: at least 2.25\n", "want a bound"},
		{"4 7: at most 1 trailing\n", "note in parentheses"},
		{"4 4: at most 1\n", "move 2 (4)"},
		{"4 13: at most 1\n", "move 2"},
		{"2 pass pass 3: at most 1\n", "move 4"},
	}
	for _, c := range cases {
		got, err := ReadParts([]byte(c.text), g)
		if err == nil || !strings.Contains(err.Error(), c.want) || got != nil {
			t.Errorf("%q: %v (%d lines); want an error saying %q", c.text, err, len(got), c.want)
		}
	}
}
