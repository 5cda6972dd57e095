package rules

import "testing"

// TestSameState: positions reached by other move orders are the same
// state; a position with another prisoner difference, pass count, player
// to move or rules is not, and grids never are.
func TestSameState(t *testing.T) {
	r := preset(t, "traditional", 5, 1)
	line := func(ms ...Move) Position {
		pos := start(t, r)
		for _, m := range ms {
			pos = play(t, pos, m)
		}
		return pos
	}
	a := line(Place(0), Place(4), Place(2))
	b := line(Place(2), Place(4), Place(0))
	if !a.SameState(b) || !b.SameState(a) || a.Ply() != b.Ply() || a.LastMove() == b.LastMove() {
		t.Errorf("1 5 3 and 3 5 1: SameState %v, last moves %v %v", a.SameState(b), a.LastMove(), b.LastMove())
	}
	// 2 3 4: Black's 4 captures White's 3. 2 pass 4 leaves the same
	// stones, forbidden points and player to move, and no prisoner.
	c, d := line(Place(1), Place(2), Place(3)), line(Place(1), Pass, Place(3))
	cb, cw, cf, _ := c.Bits()
	db, dw, df, _ := d.Bits()
	if c.Prisoners(Black) != 1 || d.Prisoners(Black) != 0 || cb != db || cw != dw || cf != df || c.ToMove() != d.ToMove() {
		t.Fatalf("%s and %s: want the same stones, one capture apart", c, d)
	}
	for _, tc := range []struct {
		name string
		p, q Position
	}{
		{"another prisoner difference", c, d},
		{"another player to move", line(Place(0), Place(4)), line(Pass, Place(4), Place(0))},
		{"a pass more", line(Place(0), Place(4), Pass), line(Pass, Place(4), Place(0))},
		{"other stones", line(Place(0)), line(Place(1))},
		{"another size", start(t, r), start(t, preset(t, "traditional", 6, 1))},
		{"a grid", asGrid(t, r), asGrid(t, r)},
	} {
		if tc.p.SameState(tc.q) {
			t.Errorf("%s: %s and %s are the same state", tc.name, tc.p, tc.q)
		}
	}
	if !a.SameState(a) {
		t.Error("a position is not its own state")
	}
	// Where the score does not count prisoners (tromp-taylor's area, or
	// traditional with score=area), the prisoner difference changes no
	// move and no result, so the two positions above are one state there.
	area := preset(t, "traditional", 5, 1)
	area.Scoring = ScoreArea
	for _, r := range []Rules{preset(t, "tromp-taylor", 5, 1), area} {
		line := func(ms ...Move) Position {
			pos := start(t, r)
			for _, m := range ms {
				pos = play(t, pos, m)
			}
			return pos
		}
		c, d := line(Place(1), Place(2), Place(3)), line(Place(1), Pass, Place(3))
		if c.Prisoners(Black) != 1 || d.Prisoners(Black) != 0 || !c.SameState(d) {
			t.Errorf("%s: %s (prisoners %d) and %s (prisoners %d): SameState %v, want true", r, c, c.Prisoners(Black), d, d.Prisoners(Black), c.SameState(d))
		}
	}
}
