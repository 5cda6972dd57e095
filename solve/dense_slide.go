package solve

import (
	"math/bits"
	"sync/atomic"

	"alak/rules"
	"alak/rules/bitline"
)

// The sliding family of the dense index (denseSlide): Dewdney's game as
// Burke read it (dewdney), the code-golf reading (golf), and their
// options (edge, selfcapture=off|piece|run, min, komi, start, repetition)
// on a line of up to denseMaxPoints slots.
//
// A state is the board and the player to move: sliding rules have no
// forbidden points, so only the index's two open regions exist, and every
// board of the line has a number, whatever the start layout and however
// many pieces each side has (a set-up position included). A move slides
// one of the mover's pieces to the nearest empty slot on its left or its
// right (bitline.SlideTargets) and applies the captures and the
// self-capture rule (bitline.Slide, the kernel's own primitive). A state
// is finished when a side has fewer pieces than the minimum (the player
// who just moved wins if the player to move is short, else the player to
// move wins: the mover's captures come first), or when the player to move
// cannot move (no empty slot, or no piece under min=0): then the pieces
// are counted. The finished states are enumerated family by family for
// each threshold (seedSlide); predecessors undo a slide (predsSlide).
// docs/solver-dense.md, "Other presets".

// slideApplies reports whether the dense index covers the sliding rules r
// (valid, on a line of at most denseMaxPoints slots, with a repetition
// rule): komi in half points that keeps every margin within a byte.
func slideApplies(r rules.Rules) bool {
	return r.Komi*2 == float64(half(r.Komi)) && 2*r.Width+int(abs32(half(r.Komi))) <= 127
}

// slideSigned reports whether the only values of the states with an empty
// slot are -1, 0 and 1 (half points: -2, 0, 2): sliding rules where a side
// short of pieces loses. The pieces are counted only when no slot is
// empty, and no slide fills the last one, so from a state with an empty
// slot a game ends by a loss, or never. A solve without margins then needs
// no exact pass: a state's sign is its value.
func (ix *dindex) slideSigned() bool { return ix.kind == denseSlide && ix.minPieces > 0 }

// slideCone limits a solve to the states where neither side has more
// pieces than the side with more on the board (b, w): pieces are never
// added, so these states, which hold every one a game from (b, w) reaches
// and the same with the colours swapped (slideSwapped), have successors
// only among themselves, and their won sets are those of the whole index.
// The others are left out of every won set: their values are not solved
// (a solve that keeps no table). On the default layouts it leaves out 18%
// of the states of 20 slots, 25% of 21, 29% of 19.
func (ix *dindex) slideCone(b, w uint64) {
	m := max(bits.OnesCount64(b), bits.OnesCount64(w))
	ix.maxPieces = [2]int{m, m}
}

// slideSwaps reports whether the rules treat the colours alike (sliding,
// a short side loses, no komi): then White can force a win from a state
// exactly when Black can from the state with the colours swapped (each
// piece the other colour's, the other player to move), and one pass,
// Black's, gives every value.
func (ix *dindex) slideSwaps() bool { return ix.slideSigned() && ix.komi2 == 0 }

// swapped is the number of the state (b, w, White to move if white) with
// the colours swapped.
func (ix *dindex) swapped(b, w uint64, white bool) uint64 {
	return ix.at(ix.openReg(!white), w, b)
}

// slideSwapped completes a solve without margins after Black's pass, when
// the colours are alike (slideSwaps): a state is worth 1 when it is in
// Black's won set (the bitmap), -1 when the state with the colours swapped
// is, else 0 (a state with an empty slot, slideSigned). It gives the
// watched states their values and returns the values of states.
func (d *dsolver) slideSwapped(ws []watch) func(uint64) (int32, bool) {
	ix := d.ix
	value := func(i uint64) (int32, bool) {
		if d.won(i) {
			return 2, true
		}
		b, w, _, white := ix.state(ix.region(i), i)
		if d.won(ix.swapped(b, w, white)) {
			return -2, true
		}
		return 0, true
	}
	for k := range ws {
		if !ws[k].fixed {
			ws[k].v, _ = value(ws[k].i)
		}
	}
	return value
}

// inCone reports whether the board (b, w) is among the states solved.
func (ix *dindex) inCone(b, w uint64) bool {
	return bits.OnesCount64(b) <= ix.maxPieces[0] && bits.OnesCount64(w) <= ix.maxPieces[1]
}

// slideOver returns the margin (Black's, half points) of the state (b, w,
// White to move if white) and true when the game is over there, as the
// kernel decides it (rules.Position.Outcome of a position reached by a
// move): a side short of pieces loses, captures first; a player to move
// with no piece or no empty slot ends the game, and the pieces are
// counted.
func (ix *dindex) slideOver(b, w uint64, white bool) (int32, bool) {
	nb, nw := bits.OnesCount64(b), bits.OnesCount64(w)
	if nb < ix.minPieces || nw < ix.minPieces {
		short := nb < ix.minPieces // the player to move is short
		if white {
			short = nw < ix.minPieces
		}
		if short {
			return loss2(white), true
		}
		return -loss2(white), true
	}
	mover := b
	if white {
		mover = w
	}
	if ix.mask&^(b|w) == 0 || mover == 0 {
		return 2*int32(nb-nw) - ix.komi2, true
	}
	return 0, false
}

// addSet returns o with the digit d added at every point of set, all
// empty (or, d negative as a uint64, taken away from them).
func (ix *dindex) addSet(o dopen, set uint64, d uint64) dopen {
	for ; set != 0; set &= set - 1 {
		o = ix.add(o, bits.TrailingZeros64(set), d)
	}
	return o
}

// slideSucc is the number of the state after the player to move (White if
// white) on the board (b, w), whose place in the open regions is o, slides
// the piece on from to the slot to (a target of SlideTargets): the digits
// of the slots the slide changes are moved in o.
func (ix *dindex) slideSucc(b, w uint64, o dopen, white bool, from, to int) uint64 {
	me, op, next, dm, do := b, w, ix.openReg(true), uint64(1), uint64(2)
	if white {
		me, op, next, dm, do = w, b, ix.openReg(false), 2, 1
	}
	o = ix.add(ix.add(o, from, -dm), to, dm)
	// With no piece of the other player beside to, the slide captures
	// nothing and, but under selfcapture=run, loses nothing.
	if bit := uint64(1) << to; op&(bit<<1|bit>>1) != 0 || ix.selfCapture == rules.SelfRun {
		_, _, capt, lost := ix.ln.Slide(me, op, from, to)
		o = ix.addSet(ix.addSet(o, capt, -do), lost, -dm)
	}
	return pair(next, o.x, o.y, o.md)
}

// settledSlide is settled for the sliding games: the state (b, w, White to
// move if white), live, whose place in the open regions is o.
func (d *dsolver) settledSlide(b, w uint64, o dopen, white bool) bool {
	ix := d.ix
	me := b
	if white {
		me = w
	}
	empty := ix.mask &^ (b | w)
	attacker := white == d.attackerWhite
	for ps := me; ps != 0; ps &= ps - 1 {
		from := bits.TrailingZeros64(ps)
		l, r := ix.ln.SlideTargets(empty, from)
		if l >= 0 && d.won(ix.slideSucc(b, w, o, white, from, l)) == attacker {
			return attacker
		}
		if r >= 0 && d.won(ix.slideSucc(b, w, o, white, from, r)) == attacker {
			return attacker
		}
	}
	return !attacker
}

// predsSlide is preds for the sliding games: every live state with a
// slide leading to (b, w, White to move if white), once per such slide.
// The player who just moved (the mover) slid a piece from a slot that is
// now empty to the slot to, which was empty before, and either
//
//   - the piece stayed: to is one of the mover's pieces, and the runs it
//     captured are none, either or both of the empty runs next to it closed
//     on their far side by the mover's pieces (or an end, with edge
//     captures), put back as the other player's; or
//   - the piece was lost (selfcapture=piece or run; nothing captured, the
//     capture making a gap next to it): the run it joined, which is then
//     a whole empty run closed on both sides by the other player's pieces
//     (or an end, with edge captures), one slot under selfcapture=piece,
//     put back as the mover's, to among it.
//
// The piece came from the nearest slot on one side of to that is empty
// now and was not put back: the slots between were full before the slide,
// so the slide is one of the predecessor's moves. A predecessor is kept
// when it is live (each side has its minimum) and the slide, played, gives
// the state: where the piece stayed, when it captures exactly the runs put
// back and the piece, on the state's board, would not be lost (which does
// not depend on the slot it came from); where it was lost, by replaying
// it (bitline.Slide). Numbers follow from the state's by moving digits.
func (ix *dindex) predsSlide(b, w uint64, white bool, out []dstate) []dstate {
	mover, op, dm, do := b, w, uint64(1), uint64(2) // the player who just moved, the other, their digits
	if !white {
		mover, op, dm, do = w, b, 2, 1
	}
	nop := bits.OnesCount64(op)
	empty := ix.mask &^ (b | w)
	o := ix.open(b, w)
	reg := ix.openReg(!white)
	// add appends the predecessor where the mover's pieces are pm, the
	// other's po, and whose place in the open regions is q.
	add := func(pm, po uint64, q dopen) {
		pb, pw := pm, po
		if !white {
			pb, pw = po, pm
		}
		if ix.inCone(pb, pw) {
			out = append(out, dstate{pair(reg, q.x, q.y, q.md), pb, pw, 0})
		}
	}
	stayed := mover
	if bits.OnesCount64(mover) < ix.minPieces {
		stayed = 0 // the mover was short before the slide too: finished
	}
	for ps := stayed; ps != 0; ps &= ps - 1 {
		to := bits.TrailingZeros64(ps)
		bit := uint64(1) << to
		if ix.slideLost(mover, op, to) {
			continue // a piece that arrived on to would be lost
		}
		l, r := ix.ln.ClosedRuns(empty, mover, bit)
		for k, capt := range [4]uint64{0, l, r, l | r} {
			if k > 0 && (capt == 0 || k == 3 && (l == 0 || r == 0)) {
				continue
			}
			if nop+bits.OnesCount64(capt) < ix.minPieces || ix.ln.Captures(op|capt, mover, bit) != capt {
				continue
			}
			q := ix.add(ix.addSet(o, capt, do), to, -dm)
			avail := empty &^ capt // the slots the piece can have come from
			if x := avail & (bit - 1); x != 0 {
				f := 63 - bits.LeadingZeros64(x)
				add(mover&^bit|1<<f, op|capt, ix.add(q, f, dm))
			}
			if x := avail &^ (bit<<1 - 1); x != 0 {
				f := bits.TrailingZeros64(x)
				add(mover&^bit|1<<f, op|capt, ix.add(q, f, dm))
			}
		}
	}
	if ix.selfCapture == rules.SelfOff || nop < ix.minPieces {
		return out
	}
	for r := range bitline.Runs(empty) {
		run, a, c := r.Points, r.First, r.Last
		if below, above := ix.ln.Closed(r, op); !below || !above {
			continue
		}
		if ix.selfCapture == rules.SelfPiece && a != c {
			continue
		}
		if bits.OnesCount64(mover|run) < ix.minPieces {
			continue
		}
		avail := empty &^ run
		for to := a; to <= c; to++ {
			bit := uint64(1) << to
			pm := mover | run&^bit
			q := ix.addSet(o, run&^bit, dm)
			var froms [2]int
			froms[0], froms[1] = -1, -1
			if x := avail & (bit - 1); x != 0 {
				froms[0] = 63 - bits.LeadingZeros64(x)
			}
			if x := avail &^ (bit<<1 - 1); x != 0 {
				froms[1] = bits.TrailingZeros64(x)
			}
			for _, f := range froms {
				if f < 0 {
					continue
				}
				if nm, no, _, _ := ix.ln.Slide(pm|1<<f, op, f, to); nm == mover && no == op {
					add(pm|1<<f, op, ix.add(q, f, dm))
				}
			}
		}
	}
	return out
}

// slideLost reports whether a piece of the mover (pieces me, the other
// player's op) that slid to the slot to, where it stands on the board
// (me, op) after the captures, is lost by the self-capture rule.
func (ix *dindex) slideLost(me, op uint64, to int) bool {
	bit := uint64(1) << to
	switch ix.selfCapture {
	case rules.SelfPiece:
		left := op&(bit>>1) != 0 || to == 0 && ix.ln.Edge()
		right := op&(bit<<1) != 0 || to == ix.n-1 && ix.ln.Edge()
		return left && right
	case rules.SelfRun:
		_, lc := ix.ln.LeftRun(me, op, bit)
		_, rc := ix.ln.RightRun(me, op, bit)
		return lc && rc
	}
	return false
}

// slideItem is a block of finished states that seedSlide enumerates: the
// player to move, and
//
//   - kind slideShort: the side short (short: 0 x, 1 o) has exactly the
//     pieces set, fewer than the minimum; the other side any of the other
//     slots;
//   - kind slideFull: no empty slot, x on count slots;
//   - kind slideBare (min=0): the player to move has no piece, the other
//     count pieces anywhere.
type slideItem struct {
	white bool
	kind  uint8
	short uint8
	set   uint64
	count int
}

const (
	slideShort = iota
	slideFull
	slideBare
)

// slideItems lists the blocks of finished states whose margins can be
// from lo to hi (half points).
func (ix *dindex) slideItems(lo, hi int32) []slideItem {
	var items []slideItem
	in := func(m int32) bool { return m >= lo && m <= hi }
	for _, white := range []bool{false, true} {
		if ix.minPieces > 0 && (in(2) || in(-2)) {
			for short := range uint8(2) {
				for k := 0; k < ix.minPieces && k <= ix.n; k++ {
					eachSubset(ix.n, k, func(s uint64) {
						items = append(items, slideItem{white: white, kind: slideShort, short: short, set: s})
					})
				}
			}
		}
		for k := 0; k <= ix.n; k++ {
			// Every state of a block has the same counts, hence the same
			// margin: that of any one of them.
			x := uint64(1)<<k - 1
			if m, over := ix.slideOver(x, ix.mask&^x, white); over && in(m) {
				items = append(items, slideItem{white: white, kind: slideFull, count: k})
			}
			if ix.minPieces > 0 {
				continue
			}
			b, w := x, uint64(0) // White to move with no piece
			if !white {
				b, w = 0, x
			}
			if m, _ := ix.slideOver(b, w, white); in(m) {
				items = append(items, slideItem{white: white, kind: slideBare, count: k})
			}
		}
	}
	return items
}

// eachSubset calls fn with every set of k of the points 0 to n-1 (n <=
// 63), in increasing order (Gosper's hack).
func eachSubset(n, k int, fn func(uint64)) {
	if k > n {
		return
	}
	if k == 0 {
		fn(0)
		return
	}
	for v := uint64(1)<<k - 1; v < 1<<n; {
		fn(v)
		c := v & -v
		r := v + c
		v = (r^v)>>2/c | r
	}
}

// seedSlide is seed for the sliding games: the finished states whose
// margin is from lo to hi join the won set and are expanded, enumerated
// block by block (slideItems), the blocks shared among the workers.
func (d *dsolver) seedSlide(lo, hi int32) error {
	ix := d.ix
	items := ix.slideItems(lo, hi)
	var next atomic.Int64
	d.parallel(func(wk *dworker) bool {
		k := int(next.Add(1) - 1)
		if k >= len(items) {
			return false
		}
		it := items[k]
		reg := ix.openReg(it.white)
		add := func(b, w uint64) {
			if m, over := ix.slideOver(b, w, it.white); !over || m < lo || m > hi || !ix.inCone(b, w) {
				return
			}
			wk.handled++
			if d.join(ix.at(reg, b, w)) {
				wk.expand(b, w, 0, it.white)
			}
		}
		switch it.kind {
		case slideShort:
			free := ix.mask &^ it.set
			for t := free; ; t = (t - 1) & free {
				if it.short == 0 {
					add(it.set, t)
				} else {
					add(t, it.set)
				}
				if t == 0 {
					break
				}
			}
		case slideFull:
			eachSubset(ix.n, it.count, func(x uint64) { add(x, ix.mask&^x) })
		case slideBare:
			eachSubset(ix.n, it.count, func(x uint64) {
				if it.white {
					add(x, 0)
				} else {
					add(0, x)
				}
			})
		}
		return true
	})
	return d.ctx.Err()
}
