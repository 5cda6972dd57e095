package solve

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"alak/rules"
	"alak/rules/bitline"
)

// The generic family of the dense index (denseGeneric): the rules of the
// alak family that keep a state history-free and whose forbidden points are
// still shapes the index has, answered by generic moves rather than the
// alak preset's fast ones. They are the alak rules with one or more of
//
//   - own=illegal (no suicide) or own=removed (a chain left without a
//     liberty by its own placement is removed after the captures; a
//     placement can then leave the board as it was, which passes the turn);
//   - ko=simple: a single stone captured is forbidden to its owner when
//     taking back at once would bring back the board before the capture
//     (the kernel's rule), so only single points are ever forbidden;
//   - score=area: stones plus territory;
//   - own=together with ko=captured or none: every chain left without a
//     liberty is removed at once, the mover's included.
//
// Under each of the first three the points a placement captures are
// closed by the mover's stones (or an end), which stay: own=removed
// removes the mover's chain only when nothing was captured. So the
// forbidden points are the shapes of the index (dense_index.go) and every
// state keeps its number. Under own=together the mover's chain can go
// with its captures, which leaves them beside empty points: the gap
// descriptors of dense_gaps.go number those states. Successors replay the
// placement with bitline.Place; predecessors undo it (the stone placed,
// the runs it captured put back, or, under own=removed and own=together,
// the mover's run it removed put back, dindex.undoRemoved) and keep only
// the candidates whose replay leads to the state; finished states are
// those with no legal placement, which under own=illegal are found by a
// scan of the index.
// docs/solver-dense.md, "Other presets".

// placeGeneric plays the mover's (me) placement on the empty point p
// against op: the stones after it, the forbidden points it leaves to the
// other player, and false when it is illegal (suicide under own=illegal).
func (ix *dindex) placeGeneric(me, op uint64, p int) (nme, nop, f uint64, ok bool) {
	nme, nop, capt, _, ok := ix.ln.Place(me, op, p)
	if !ok {
		return me, op, 0, false
	}
	switch {
	case !ix.ko: // ko=none
	case !ix.simple:
		f = capt
	case bits.OnesCount64(capt) == 1:
		// Simple ko, as the kernel applies it: the point is forbidden when
		// taking back on it would bring back the board before this move.
		if rop, rme, _, _, rok := ix.ln.Place(nop, nme, bits.TrailingZeros64(capt)); rok && rme == me && rop == op {
			f = capt
		}
	}
	return nme, nop, f, true
}

// childGeneric is child for the generic family: the number of the state
// after the player to move (White if white) places on p, a legal point.
// The forbidden points a placement leaves are always a shape of the index
// (see the comment at the top), so the state has a number
// (TestDenseGenericMoves checks every placement of every state up to 7
// points against the kernel).
func (ix *dindex) childGeneric(b, w uint64, white bool, p int) uint64 {
	me, op := b, w
	if white {
		me, op = w, b
	}
	nme, nop, f, _ := ix.placeGeneric(me, op, p)
	nb, nw := nme, nop
	if white {
		nb, nw = nop, nme
	}
	i, _ := ix.index(nb, nw, f, !white)
	return i
}

// predsGeneric is preds for the generic family: every state with a legal
// placement leading to (b, w, f, White to move if white). Candidates: the
// mover's stone p taken back (next to f when f is not empty) with the runs
// it captured put back (f under ko=captured; otherwise none, or the empty
// runs next to p closed on their far side by the mover); and under
// own=removed the mover's run a suicide removed, which is a whole empty
// run of the state closed on both sides by the other player's stones (or
// an end), any of its points the one placed. Each candidate is replayed
// and kept only if the placement is legal and leads to the state.
func (ix *dindex) predsGeneric(b, w, f uint64, white bool, out []dstate) []dstate {
	mover, op := b, w // the player who just moved, and the other
	if !white {
		mover, op = w, b
	}
	try := func(pm, po uint64, p int) {
		nme, nop, nf, ok := ix.placeGeneric(pm, po, p)
		if ok && nme == mover && nop == op && nf == f {
			out = ix.predsWith(pm, po, p, !white, out)
		}
	}
	empty := ix.mask &^ (b | w)
	ps := mover
	if f != 0 {
		ps &= f<<1 | f>>1 // the stone that captured f is next to it
	}
	for ; ps != 0; ps &= ps - 1 {
		p := bits.TrailingZeros64(ps)
		if ix.ko && !ix.simple {
			try(mover&^(1<<p), op|f, p) // ko=captured: the captured points are the forbidden ones
			continue
		}
		ix.undoPlacement(empty, mover, op, p, try)
	}
	if ix.own == rules.OwnRemovedTogether {
		ix.undoRemoved(empty, mover, op, f, try) // dense_gaps.go
		return out
	}
	if ix.own != rules.OwnRemoved || f != 0 {
		return out
	}
	for r := range bitline.Runs(empty) {
		if below, above := ix.ln.Closed(r, op); !below || !above {
			continue
		}
		for p := r.First; p <= r.Last; p++ {
			try(mover|r.Points&^(uint64(1)<<p), op, p)
		}
	}
	return out
}

// settledGeneric is settled for the generic family.
func (d *dsolver) settledGeneric(b, w, f uint64, white bool) bool {
	attacker := white == d.attackerWhite
	for pts := d.ix.legalFor(b, w, f, white); pts != 0; pts &= pts - 1 {
		if d.won(d.ix.childGeneric(b, w, white, bits.TrailingZeros64(pts))) == attacker {
			return attacker
		}
	}
	return !attacker
}

// dfinished is a finished state found by a scan, and its margin.
type dfinished struct {
	i uint64
	m int32
}

// finishedStates scans the index for the states where the player to move
// has no legal placement (under own=illegal, where every empty point that
// is not forbidden can be suicide), with their margins.
func (d *dsolver) finishedStates() []dfinished {
	const chunk = 1 << 16
	ix := d.ix
	var next atomic.Uint64
	var mu sync.Mutex
	var all []dfinished
	d.parallel(func(wk *dworker) bool {
		lo := next.Add(chunk) - chunk
		if lo >= ix.total {
			return false
		}
		var mine []dfinished
		r := ix.region(lo)
		for i := lo; i < min(lo+chunk, ix.total); i++ {
			if i >= r.off+r.size {
				r = ix.region(i)
			}
			b, w, f, white := ix.state(r, i)
			wk.handled++
			if ix.legalFor(b, w, f, white) == 0 {
				mine = append(mine, dfinished{i, ix.margin2(b, w)})
			}
		}
		mu.Lock()
		all = append(all, mine...)
		mu.Unlock()
		return true
	})
	return all
}

// seedFinished is seed by the finished states a scan found (made at the
// first call of a solve): those whose margin is from lo to hi join the won
// set and are expanded.
func (d *dsolver) seedFinished(lo, hi int32) error {
	if !d.finishedDone {
		d.finished, d.finishedDone = d.finishedStates(), true
		if err := d.ctx.Err(); err != nil {
			return err
		}
	}
	const chunk = 1 << 12
	var next atomic.Uint64
	n := uint64(len(d.finished))
	d.parallel(func(wk *dworker) bool {
		k0 := next.Add(chunk) - chunk
		if k0 >= n {
			return false
		}
		for _, s := range d.finished[k0:min(k0+chunk, n)] {
			if s.m < lo || s.m > hi {
				continue
			}
			wk.handled++
			if d.join(s.i) {
				b, w, f, white := d.ix.state(d.ix.region(s.i), s.i)
				wk.expand(b, w, f, white)
			}
		}
		return true
	})
	return d.ctx.Err()
}
