package solve

// State returns the state numbered i of the table (0 <= i < States()) as
// Position.Line gives a position: the points of each colour, the points
// forbidden to the player to move, and whether White is to move; ok is
// false when i is out of range. A state and its mirror image share a
// number; State gives the one the index keeps. Every number is a state of
// the index, which holds the positions of every history-free game of the
// rules and the line's other boards alike (not every one is reachable from
// the empty line): puzzle.FromTable samples positions by it.
func (t *DenseTable) State(i uint64) (black, white, forbidden uint64, whiteToMove, ok bool) {
	if i >= t.ix.total {
		return 0, 0, 0, false, false
	}
	b, w, f, wh := t.ix.state(t.ix.region(i), i)
	return b, w, f, wh, true
}
