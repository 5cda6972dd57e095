package solve

import (
	"alak/rules"
)

// DenseTable holds the margin of every state of the dense index of one
// rule set: Black's margin under perfect play, in half points, one byte a
// state.
type DenseTable struct {
	rules   rules.Rules
	ix      *dindex
	margins []int8
}

// Rules returns the rules the table is for.
func (t *DenseTable) Rules() rules.Rules { return t.rules }

// States returns the number of states the table holds.
func (t *DenseTable) States() uint64 { return t.ix.total }

// Lookup returns the value of pos (Black's margin under perfect play, with a
// fresh history: the graph value that Solve gives) and true, or false when
// pos is not one of the table's states: other rules, or forbidden points no
// capture leaves.
func (t *DenseTable) Lookup(pos rules.Position) (float64, bool) {
	if pos.Rules().String() != t.rules.String() {
		return 0, false
	}
	v, ok := t.lookup(pos)
	return float64(v)/2 + 0, ok
}

// lookup is Lookup in half points, for positions of the table's rules.
func (t *DenseTable) lookup(pos rules.Position) (int32, bool) {
	b, w, f, ok := pos.Line()
	if !ok {
		return 0, false
	}
	i, ok := t.ix.index(b, w, f, pos.ToMove() == rules.White)
	if !ok {
		return 0, false
	}
	return int32(t.margins[i]), true
}
