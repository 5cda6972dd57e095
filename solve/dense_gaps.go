package solve

import (
	"math/bits"

	"alak/rules"
	"alak/rules/bitline"
)

// The gap descriptors of the dense index: the forbidden points that
// own=together (every chain left without a liberty is removed at once, the
// mover's included) leaves under ko=captured, the rule lab's own=together
// column (docs/rulelab.md).
//
// A placement on m captures the other player's runs next to m closed on
// their far side by the mover's stones (or an end, with edge capture), and
// the captured stones still close the mover's chain: when that chain (m's,
// [l, r]) is then closed on both sides, by the other player's stones, the
// captured runs or an end, it goes too. The forbidden points are the
// captured runs. When the mover's chain stays they are a shape of the
// stone descriptors (dense_index.go: one run, closed by the mover's stones;
// two runs around m cannot stay, m's chain being closed by them). When it
// goes there are three shapes, each a whole empty run of the state (the
// captured runs and the chain removed) between stones or ends:
//
//   - dkGap: both sides of m captured, so m's chain is m alone: the runs
//     [a, m-1] and [m+1, c] around the empty point m, closed by the
//     previous mover's stones (or ends);
//   - dkBelow: the run above m captured and m's chain [l, m] removed: the
//     run [a, c] (a = m+1) closed above by the previous mover's stone (or
//     the end), with the empty run [l, a-1] below it, closed below by a
//     stone of the player to move (what closed the chain) or, with edge
//     capture, the end of the line. The descriptor's m is l;
//   - dkAbove: its mirror image, [a, c] with the empty run [c+1, r] above.
//
// A descriptor fixes its window (the points from the closer below to the
// closer above), so the regions number the prefix and the suffix as the
// stone descriptors' do, and a state's descriptor follows from its
// forbidden points and the board: the gap m of two runs is empty (dkGap)
// or a stone (dkStone), the point below a run empty (dkBelow), above it
// (dkAbove), or neither (dkStone). Unlike the stone descriptors, a window
// may take the whole line with no stone (every chain removed, edge
// capture): the state with the empty board and those forbidden points.
// A gap descriptor's states are never finished: the player to move may
// place on the gap.
//
// A window cannot say whether the placed stone's chain, which runs on
// into the free points, was closed on its far side (and so went with the
// captures), so under own=together the index also numbers states no
// placement leaves, a stone descriptor's among them: unreachable states,
// solved and never asked. The regions no placement leaves whatever the
// free points hold are left out (noPlacementLeaves).

// together reports whether the index has the gap descriptors: own=together
// under ko=captured (the generic family), whose captures can leave their
// runs beside empty points; the two runs around a stone, which these rules
// never leave, then have no region.
func (ix *dindex) together() bool {
	return ix.kind == denseGeneric && ix.own == rules.OwnRemovedTogether && ix.ko && !ix.simple
}

// The kinds of descriptors: a descriptor (a, c, m) of kind dk has the key
// dk*n^3 + (a*n+c)*n + m.
const (
	dkStone = iota // the run [a, c] (m = 0), or the runs [a, m-1] and [m+1, c] around the stone m
	dkGap          // the runs [a, m-1] and [m+1, c] around the empty point m
	dkBelow        // the run [a, c] with the empty run [m, a-1] below it
	dkAbove        // the run [a, c] with the empty run [c+1, m] above it
)

// dkKinds is the number of descriptor kinds an index has.
func dkKinds(together bool) int {
	if together {
		return dkAbove + 1
	}
	return dkStone + 1
}

// span returns the points from a to c (none when c < a).
func span(a, c int) uint64 {
	if c < a {
		return 0
	}
	return (uint64(1)<<(c+1) - 1) &^ (uint64(1)<<a - 1)
}

// dkey is the key of the descriptor (a, c, m) of kind dk.
func (ix *dindex) dkey(dk, a, c, m int) int {
	n := ix.n
	return dk*n*n*n + (a*n+c)*n + m
}

// mirrorKey is the key of the mirror image of the descriptor (a, c, m) of
// kind dk: a dkBelow descriptor's is a dkAbove one and the other way round.
func (ix *dindex) mirrorKey(dk, a, c, m int) int {
	n := ix.n
	switch dk {
	case dkBelow:
		dk = dkAbove
	case dkAbove:
		dk = dkBelow
	}
	mm := n - 1 - m
	if dk == dkStone && m == 0 {
		mm = 0
	}
	return ix.dkey(dk, n-1-c, n-1-a, mm)
}

// addGapDescriptors adds the regions of the gap descriptors with White to
// move if white, after the stone descriptors, in the order of their keys
// (a dkAbove descriptor is the mirror image of a dkBelow one, which comes
// first).
func (ix *dindex) addGapDescriptors(white bool) {
	n := ix.n
	for dk := dkGap; dk <= dkAbove; dk++ {
		for a := range n {
			for c := a; c < n; c++ {
				ms, me := a+1, c-1 // dkGap: a < m < c
				switch dk {
				case dkBelow:
					ms, me = 0, a-1
				case dkAbove:
					ms, me = c+1, n-1
				}
				for m := ms; m <= me; m++ {
					ix.addDescriptor(dk, a, c, m, white)
				}
			}
		}
	}
}

// noPlacementLeaves reports whether no placement leaves the descriptor
// (a, c, m) of kind dk under own=together, whatever the free points hold:
// with edge capture, the stone placed (a closer of a dkStone descriptor)
// is removed when its chain is closed on its far side, and that side is
// free to have a liberty unless the chain is the closer at an end of the
// line; and the player to move's closer beside a dkBelow descriptor's
// one-point empty run (the stone placed, whose chain was itself) was
// captured too, not left, when it is at the end.
func (ix *dindex) noPlacementLeaves(dk, a, c, m int) bool {
	if !ix.ln.Edge() {
		return false
	}
	n := ix.n
	switch dk {
	case dkStone: // the window is the whole line: every closer is at an end
		return m == 0 && a <= 1 && c >= n-2
	case dkBelow:
		return m == 1 && a == 2
	case dkAbove:
		return m == n-2 && c == n-3
	}
	return false
}

// gapKey is the key of the descriptor of the state (b, w, f) whose
// forbidden points span [a, c] with the gap m (0: none), under
// own=together.
func (ix *dindex) gapKey(b, w, f uint64, a, c, m int) int {
	empty := ix.mask &^ (b | w | f)
	switch {
	case m != 0:
		if empty>>m&1 != 0 {
			return ix.dkey(dkGap, a, c, m)
		}
	case a > 0 && empty>>(a-1)&1 != 0:
		run, _ := ix.ln.LeftRun(empty, 0, uint64(1)<<a)
		return ix.dkey(dkBelow, a, c, bits.TrailingZeros64(run))
	case c < ix.n-1 && empty>>(c+1)&1 != 0:
		run, _ := ix.ln.RightRun(empty, 0, uint64(1)<<c)
		return ix.dkey(dkAbove, a, c, 63-bits.LeadingZeros64(run))
	}
	return ix.dkey(dkStone, a, c, m)
}

// gapShapes is shapes for the gap descriptors: it calls fn with the region
// of every gap shape the placement of the player with the stones op can
// have left on the board (me, op), me to move (side). Each is in one
// empty run [e0, e1], which it fills: closed on both sides by op's stones
// or ends, every gap m inside it (dkGap); closed below by me's stone or an
// end and above by op's stone or an end, every split into an empty run
// and a forbidden one (dkBelow); and its mirror image (dkAbove).
func (ix *dindex) gapShapes(me, op uint64, side int, fn func(*dregion, bool)) {
	call := func(k int) {
		if id := ix.key[side][k]; id >= 0 {
			fn(&ix.regs[id>>1], id&1 != 0)
		}
	}
	for r := range bitline.Runs(ix.mask &^ (me | op)) {
		e0, e1 := r.First, r.Last
		loOp, hiOp := ix.ln.Closed(r, op)
		loMe, hiMe := ix.ln.Closed(r, me)
		if loOp && hiOp {
			for m := e0 + 1; m < e1; m++ {
				call(ix.dkey(dkGap, e0, e1, m))
			}
		}
		if loMe && hiOp {
			for a := e0 + 1; a <= e1; a++ {
				call(ix.dkey(dkBelow, a, e1, e0))
			}
		}
		if loOp && hiMe {
			for c := e0; c < e1; c++ {
				call(ix.dkey(dkAbove, e0, c, e1))
			}
		}
	}
}

// undoRemoved calls try with each predecessor of the state whose player
// to move has the stones op, the other player (who moved) mover, the
// empty points empty and the forbidden points f, by a placement whose own
// chain was removed (own=together): the points removed, the captured runs
// (f under ko=captured, any under ko=none) and the chain, make a whole
// empty run of the state, the chain's points given back to the mover but
// the one placed, which is next to the captured runs (any point of the
// chain when none was captured). The caller replays each candidate.
func (ix *dindex) undoRemoved(empty, mover, op, f uint64, try func(pm, po uint64, p int)) {
	for r := range bitline.Runs(empty) {
		run, e0, e1 := r.Points, r.First, r.Last
		if ix.ko {
			// Under ko=captured the captured runs are f.
			switch {
			case f == 0: // nothing captured: the run was the chain
				for p := e0; p <= e1; p++ {
					try(mover|run&^(uint64(1)<<p), op, p)
				}
			case f&run == f && run != f:
				own := run &^ f
				l, r := bits.TrailingZeros64(own), 63-bits.LeadingZeros64(own)
				switch {
				case l > e0 && r < e1: // captured on both sides: the chain is p alone
					if l == r {
						try(mover, op|f, l)
					}
				case l > e0: // captured below: p is the chain's lowest point
					try(mover|own&^(uint64(1)<<l), op|f, l)
				default:
					try(mover|own&^(uint64(1)<<r), op|f, r)
				}
			}
			continue
		}
		// ko=none: any split of the run into the chain [l0, l1] and the
		// captured runs beside it, p at the chain's end next to each (the
		// loops of predsTogether, dense_index.go, where try inlines).
		for l0 := e0; l0 <= e1; l0++ {
			for l1 := l0; l1 <= e1; l1++ {
				own := span(l0, l1)
				for p := l0; p <= l1; p++ {
					if l0 > e0 && p != l0 || l1 < e1 && p != l1 {
						continue
					}
					try(mover|own&^(uint64(1)<<p), op|run&^own, p)
				}
			}
		}
	}
}
