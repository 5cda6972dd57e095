package rules

import "testing"

// TestSimpleKoPoint: under ko=simple a position records as forbidden the
// point of a single captured stone only where retaking there would
// recreate the board before the capture (docs/rules.md, Traditional Alak
// rule 2 and A5): the examples of rules.md, on 5 points. The point is part
// of the repetition key (Hash), so the two readings give different keys.
func TestSimpleKoPoint(t *testing.T) {
	r := preset(t, "traditional", 5, 1)
	line := func(ps ...int) (*Game, Position) {
		g, err := NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if err := g.Play(Place(p - 1)); err != nil {
				t.Fatalf("%v: %v", ps, err)
			}
		}
		return g, g.Position()
	}
	// Black's lone stone on 1 captures White's 2, its only liberty.
	g, ko := line(1, 2, 3, 5, 1)
	if _, _, f, _ := ko.Line(); f != 1<<1 || ko.String() != "X/x-o" {
		t.Errorf("1 2 3 5 1: %s, forbidden %b; want X/x-o with point 2 forbidden", ko, f)
	}
	if err := g.Play(Place(1)); err == nil {
		t.Error("1 2 3 5 1: White retakes at 2, which would bring back -ox-o")
	}
	// Black's 4 captures White's 5 but joins the chain 3-4.
	g, none := line(1, 2, 3, 5, 4)
	if _, _, f, _ := none.Line(); f != 0 || none.String() != "-oxX/" {
		t.Errorf("1 2 3 5 4: %s, forbidden %b; want -oxX/ with no point forbidden", none, f)
	}
	if err := g.Play(Place(4)); err != nil {
		t.Errorf("1 2 3 5 4: White's retake at 5 (capturing 3-4, no earlier board) refused: %v", err)
	}
	// The same stones with the point recorded are another key.
	marked := none
	marked.forbid = 1 << 4
	if marked.Hash() == none.Hash() {
		t.Error("a forbidden point does not change the repetition key")
	}
}
