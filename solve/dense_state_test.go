package solve

import (
	"testing"

	"alak/rules"
)

// TestDenseTableState: every number of the alak table on 7 points, of its
// edge=off variant and of dewdney on 8 slots is a state whose kernel
// position (its diagram read by the kernel) the table looks up to the
// margin it holds at that number; numbers past the last are refused.
func TestDenseTableState(t *testing.T) {
	t.Parallel()
	for _, r := range []rules.Rules{denseRules(t, 7), denseRules(t, 7, "edge=off"), newGame(t, "dewdney", 8).Rules()} {
		tab := denseTable(t, r, 1)
		for i := range tab.States() {
			b, w, f, white, ok := tab.State(i)
			if !ok {
				t.Fatalf("%s: state %d of %d refused", r.String(), i, tab.States())
			}
			pos := kernelPosition(t, r, b, w, f, white)
			if r.Movement == rules.Sliding && b|w == 0 {
				continue // no pieces: the kernel's sliding position needs some
			}
			v, ok := tab.Lookup(pos)
			if o := pos.Outcome(); !o.Over() && (!ok || v*2 != float64(tab.margins[i])) {
				t.Fatalf("%s: state %d (%s, white %v): Lookup %v %v, the table holds %v", r.String(), i, pos, white, v, ok, float64(tab.margins[i])/2)
			}
		}
		if _, _, _, _, ok := tab.State(tab.States()); ok {
			t.Errorf("%s: state %d (one past the last) accepted", r.String(), tab.States())
		}
	}
}
