package solve

import (
	"math/bits"

	"alak/rules"
	"alak/rules/bitline"
)

// The dense index of the dense solver (dense.go): a number for every state
// of a line game under the alak rules and their variants that keep the state
// history-free (placement, the mover's own chains stay, ko=captured or none,
// edge capture on or off, no passing, stones counted), with no key stored.
//
// A state is the board, the player to move and the forbidden points. With
// ko=captured the forbidden points are none, or what the last placement
// captured: one run of empty points closed on both sides by the previous
// mover's stones (or, with edge capture, by an end of the line), or two
// such runs on either side of the stone just placed. The states are split
// into regions, each a block of consecutive numbers:
//
//   - two open regions (no forbidden point), Black to move then White to
//     move: the number is the board's rank in base 3, point i the digit
//     of weight 3^i (0 empty, 1 x, 2 o);
//   - with ko=captured, one region per player to move and per shape of the
//     forbidden points, its descriptor: the run [a, c] (m = 0), or the runs
//     [a, m-1] and [m+1, c] around the stone m. The descriptor fixes the
//     points from the closer below a to the closer above c (the window): its
//     runs are empty and its closers (and m) are the previous mover's
//     stones. Only the points below the window (the prefix, [0, lo)) and
//     above it (the suffix, [s, n)) are free; the number is the region's
//     offset + the prefix's rank + 3^lo times the suffix's rank.
//
// Every number is a state and every state has one number (index and
// state are inverse: TestDenseIndexRoundTrip), so the solver keeps one bit
// a state per question and one byte a state for margins, and nothing else.

// denseMaxPoints is the longest line the index handles: its rank tables
// cover three bytes of a word.
const denseMaxPoints = 24

// dindex is the dense index of one rule set.
type dindex struct {
	ln    bitline.Line
	n     int
	mask  uint64
	ko    bool // KoCaptured: the regions with forbidden points exist
	komi2 int32
	pow3  [denseMaxPoints + 1]uint64
	total uint64     // states
	regs  []dregion  // in index order; regs[0] and regs[1] are the open regions
	key   [2][]int32 // player to move, then (a*n+c)*n+m: the region of a descriptor, -1 for none
	e8    [3][256]uint64
	dec   [6561]uint16 // 8 base-3 digits: the x points in the low byte, the o points in the high byte
}

// dregion is a block of states: one player to move and one descriptor.
type dregion struct {
	off   uint64 // the first state's number
	size  uint64 // 3^(free points)
	p3    uint64 // 3^lo: the weight of the suffix's rank
	lmask uint64 // the prefix's points
	f     uint64 // the forbidden points
	stone uint64 // the previous mover's stones the descriptor fixes
	free  uint64 // the prefix's and the suffix's points
	lo, s uint8  // the prefix is [0, lo), the suffix [s, n)
	white bool   // White to move
}

// denseApplies reports whether the dense index covers the rules: the alak
// rules on a line of at most denseMaxPoints points, with the options that
// keep a state's value a property of the state (a repetition rule, no
// superko, no passing) and komi in half points that keeps every margin
// within a byte.
func denseApplies(r rules.Rules) bool {
	return r.Validate() == nil && r.IsLine() && r.Movement == rules.Placement && r.Width <= denseMaxPoints &&
		r.Own == rules.OwnStays && (r.Ko == rules.KoCaptured || r.Ko == rules.KoNone) &&
		!r.Pass && r.Scoring == rules.ScoreStones && !r.UnchangedLoses && r.Repetition >= 2 &&
		r.Komi*2 == float64(half(r.Komi)) && 2*r.Width+int(abs32(half(r.Komi))) <= 127
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// newDindex builds the index of rules r (denseApplies(r)).
func newDindex(r rules.Rules) *dindex {
	n := r.Width
	ln, _ := rules.Bitline(r)
	ix := &dindex{ln: ln, n: n, mask: ln.Mask(), ko: r.Ko == rules.KoCaptured, komi2: half(r.Komi)}
	ix.pow3[0] = 1
	for i := 1; i <= denseMaxPoints; i++ {
		ix.pow3[i] = 3 * ix.pow3[i-1]
	}
	for k := range ix.e8 {
		for v := range 256 {
			var e uint64
			for j := range 8 {
				if v>>j&1 != 0 && 8*k+j < denseMaxPoints {
					e += ix.pow3[8*k+j]
				}
			}
			ix.e8[k][v] = e
		}
	}
	for d := range ix.dec {
		var x, y uint16
		for j, v := 0, d; j < 8; j, v = j+1, v/3 {
			switch v % 3 {
			case 1:
				x |= 1 << j
			case 2:
				y |= 1 << j
			}
		}
		ix.dec[d] = x | y<<8
	}
	for side := range 2 {
		ix.regs = append(ix.regs, dregion{size: ix.pow3[n], p3: ix.pow3[n], lmask: ix.mask,
			free: ix.mask, lo: uint8(n), s: uint8(n), white: side == 1})
	}
	for side := range 2 {
		ix.key[side] = make([]int32, n*n*n)
		for i := range ix.key[side] {
			ix.key[side][i] = -1
		}
		if !ix.ko {
			continue
		}
		// m = 0: the single run [a, c]; a < m < c: the runs [a, m-1]
		// and [m+1, c] around the stone m.
		for a := range n {
			for c := a; c < n; c++ {
				ix.addDescriptor(a, c, 0, side == 1)
				for m := a + 1; m < c; m++ {
					ix.addDescriptor(a, c, m, side == 1)
				}
			}
		}
	}
	var off uint64
	for i := range ix.regs {
		ix.regs[i].off = off
		off += ix.regs[i].size
	}
	ix.total = off
	return ix
}

// addDescriptor adds the region of the descriptor (a, c, m) with White to
// move if white, when the descriptor is the shape of a capture.
func (ix *dindex) addDescriptor(a, c, m int, white bool) {
	n := ix.n
	f := (uint64(1)<<(c+1) - 1) &^ (uint64(1)<<a - 1)
	var stone uint64
	if m != 0 {
		f &^= 1 << m
		stone |= 1 << m
	}
	lo, hi := a, c
	switch {
	case a > 0:
		stone |= 1 << (a - 1)
		lo = a - 1
	case !ix.ln.Edge():
		return
	}
	switch {
	case c < n-1:
		stone |= 1 << (c + 1)
		hi = c + 1
	case !ix.ln.Edge():
		return
	}
	if stone == 0 {
		return // the whole line: no stone captured it
	}
	free := ix.mask&^(uint64(1)<<(hi+1)-1) | (uint64(1)<<lo - 1)
	side := 0
	if white {
		side = 1
	}
	ix.key[side][(a*n+c)*n+m] = int32(len(ix.regs))
	ix.regs = append(ix.regs, dregion{size: ix.pow3[bits.OnesCount64(free)], p3: ix.pow3[lo],
		lmask: uint64(1)<<lo - 1, f: f, stone: stone, free: free, lo: uint8(lo), s: uint8(hi + 1), white: white})
}

// e is the rank in base 3 of the points of x, each a digit 1: the sum of
// 3^i over the points i of x.
func (ix *dindex) e(x uint64) uint64 {
	return ix.e8[0][x&255] + ix.e8[1][x>>8&255] + ix.e8[2][x>>16&255]
}

// rank is the base-3 rank of the board (b, w): digit 1 for x, 2 for o.
func (ix *dindex) rank(b, w uint64) uint64 { return ix.e(b) + 2*ix.e(w) }

// at is the number of the state of the region reg with the board (b, w),
// whose fixed points are those of the descriptor.
func (ix *dindex) at(reg *dregion, b, w uint64) uint64 {
	return reg.off + ix.rank(b&reg.lmask, w&reg.lmask) + reg.p3*ix.rank(b>>reg.s, w>>reg.s)
}

// descriptorOf returns the region of the forbidden points f (not empty)
// with White to move if white, and false when f is not the shape of a
// capture.
func (ix *dindex) descriptorOf(f uint64, white bool) (*dregion, bool) {
	if !ix.ko || f&^ix.mask != 0 {
		return nil, false
	}
	n := ix.n
	a, c := bits.TrailingZeros64(f), 63-bits.LeadingZeros64(f)
	m := 0
	if gap := ^f & (uint64(1)<<c - 1) &^ (uint64(1)<<a - 1); gap != 0 {
		if gap&(gap-1) != 0 {
			return nil, false
		}
		m = bits.TrailingZeros64(gap)
	}
	side := 0
	if white {
		side = 1
	}
	id := ix.key[side][(a*n+c)*n+m]
	if id < 0 {
		return nil, false
	}
	return &ix.regs[id], true
}

// index returns the number of the state (b, w, f, White to move if white),
// and false when it has none: forbidden points that no capture leaves (a
// set-up position), or a board that is not one of the line's.
func (ix *dindex) index(b, w, f uint64, white bool) (uint64, bool) {
	if (b|w|f)&^ix.mask != 0 || b&w != 0 || (b|w)&f != 0 {
		return 0, false
	}
	if f == 0 {
		reg := &ix.regs[0]
		if white {
			reg = &ix.regs[1]
		}
		return reg.off + ix.rank(b, w), true
	}
	reg, ok := ix.descriptorOf(f, white)
	if !ok {
		return 0, false
	}
	mover := b // the player who just moved owns the descriptor's stones
	if !white {
		mover = w
	}
	if mover&reg.stone != reg.stone {
		return 0, false
	}
	return ix.at(reg, b, w), true
}

// region returns the region of the state number i (< total).
func (ix *dindex) region(i uint64) *dregion {
	lo, hi := 0, len(ix.regs)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ix.regs[mid].off <= i {
			lo = mid
		} else {
			hi = mid
		}
	}
	return &ix.regs[lo]
}

// digits decodes a base-3 rank into the points of x (digit 1) and of o
// (digit 2).
func (ix *dindex) digits(d uint64) (x, y uint64) {
	for sh := uint(0); d != 0; sh += 8 {
		q := d / 6561
		t := ix.dec[d-q*6561]
		x |= uint64(t&255) << sh
		y |= uint64(t>>8) << sh
		d = q
	}
	return x, y
}

// state decodes the state number i of the region reg.
func (ix *dindex) state(reg *dregion, i uint64) (b, w, f uint64, white bool) {
	r := i - reg.off
	if reg.stone == 0 { // an open region
		b, w = ix.digits(r)
		return b, w, 0, reg.white
	}
	suf := r / reg.p3
	b, w = ix.digits(r - suf*reg.p3)
	sb, sw := ix.digits(suf)
	b |= sb << reg.s
	w |= sw << reg.s
	if reg.white {
		b |= reg.stone
	} else {
		w |= reg.stone
	}
	return b, w, reg.f, reg.white
}

// legal returns the points the player to move may place on; none means the
// game is over.
func (ix *dindex) legal(b, w, f uint64) uint64 { return ix.mask &^ (b | w | f) }

// margin2 is the score of a finished state: Black's stones minus White's
// minus komi, in half points.
func (ix *dindex) margin2(b, w uint64) int32 {
	return 2*int32(bits.OnesCount64(b)-bits.OnesCount64(w)) - ix.komi2
}

// child returns the number of the state after the player to move (White if
// white) places on p, an empty point that is not forbidden, on the board
// (b, w) whose rank is full.
func (ix *dindex) child(b, w, full uint64, white bool, p int) uint64 {
	bit := uint64(1) << p
	me, op, d, od, next := b, w, uint64(1), uint64(2), &ix.regs[1]
	if white {
		me, op, d, od, next = w, b, 2, 1, &ix.regs[0]
	}
	capt := ix.ln.CapturesFlat(op, me|bit, bit)
	if capt == 0 {
		return next.off + full + d*ix.pow3[p]
	}
	if !ix.ko {
		return next.off + full + d*ix.pow3[p] - od*ix.e(capt)
	}
	a, c := bits.TrailingZeros64(capt), 63-bits.LeadingZeros64(capt)
	m := 0
	if a < p && c > p {
		m = p
	}
	side := 1
	if white {
		side = 0
	}
	reg := &ix.regs[ix.key[side][(a*ix.n+c)*ix.n+m]]
	if white {
		return ix.at(reg, b&^capt, w|bit)
	}
	return ix.at(reg, b|bit, w&^capt)
}

// dstate is a state with its number: the board, the forbidden points and
// (known from the context) the player to move.
type dstate struct {
	i, b, w, f uint64
}

// preds appends to out every predecessor of the state (b, w, f, White to
// move if white): every state with a placement that leads to it, once per
// such placement (a state has at most one placement to any other). The
// player to move in each is the one who did not move in the state.
func (ix *dindex) preds(b, w, f uint64, white bool, out []dstate) []dstate {
	mover, op := b, w // the player who just moved, and the other
	if !white {
		mover, op = w, b
	}
	if f == 0 && ix.ko {
		return ix.predsOpen(b, w, white, out)
	}
	ps := mover
	if f != 0 {
		ps &= f<<1 | f>>1 // the stone that captured f is next to it
	}
	for ; ps != 0; ps &= ps - 1 {
		p := bits.TrailingZeros64(ps)
		bit := uint64(1) << p
		if ix.ko {
			// The captured points are the forbidden ones.
			if ix.ln.CapturesFlat(op|f, mover, bit) == f {
				out = ix.predsWith(mover&^bit, op|f, p, !white, out)
			}
			continue
		}
		// No ko: the captured runs are the empty runs next to p closed on
		// their far side by the mover, or none.
		empty := ix.mask &^ (b | w)
		var l, r uint64
		if empty&(bit>>1) != 0 {
			if run, closed := ix.ln.LeftRun(empty, mover, bit); closed {
				l = run
			}
		}
		if empty&(bit<<1) != 0 {
			if run, closed := ix.ln.RightRun(empty, mover, bit); closed {
				r = run
			}
		}
		capts := [4]uint64{0, l, r, l | r}
		for k, capt := range capts {
			if k > 0 && (capt == 0 || k == 3 && (l == 0 || r == 0)) {
				continue
			}
			if ix.ln.CapturesFlat(op|capt, mover, bit) == capt {
				out = ix.predsWith(mover&^bit, op|capt, p, !white, out)
			}
		}
	}
	return out
}

// dcand is a forbidden-point shape of a board: its region and the
// number of the board in it.
type dcand struct {
	reg  *dregion
	base uint64
}

// predsOpen is preds for a state with no forbidden point under
// ko=captured: the placement captured nothing. Its predecessors have the
// same stones but the placed one, and as forbidden points none or a shape
// the other player's captures leave; the shapes are those of the state's
// own board (the placed stone is not next to any of them, since it does
// not close a run of the other player's), so they are found once for all
// the stones that can have been placed.
func (ix *dindex) predsOpen(b, w uint64, white bool, out []dstate) []dstate {
	mover, op, d := b, w, uint64(1)
	side := 0 // the player to move in the predecessors: the mover
	if !white {
		mover, op, d, side = w, b, 2, 1
	}
	var cands [2 * denseMaxPoints]dcand
	nc := 0
	ix.shapes(mover, op, side, func(reg *dregion) {
		cands[nc] = dcand{reg, ix.at(reg, b, w)}
		nc++
	})
	open := ix.regs[side].off + ix.rank(b, w)
	for ps := mover; ps != 0; ps &= ps - 1 {
		p := bits.TrailingZeros64(ps)
		bit := uint64(1) << p
		if ix.ln.CapturesFlat(op, mover, bit) != 0 {
			continue
		}
		pb, pw := b, w
		if white {
			pb &^= bit
		} else {
			pw &^= bit
		}
		out = append(out, dstate{open - d*ix.pow3[p], pb, pw, 0})
		for _, c := range cands[:nc] {
			wt := ix.pow3[p]
			if p >= int(c.reg.lo) {
				wt = c.reg.p3 * ix.pow3[p-int(c.reg.s)]
			}
			out = append(out, dstate{c.base - d*wt, pb, pw, c.reg.f})
		}
	}
	return out
}

// shapes calls fn with the region of every forbidden-point shape the
// placement of the player with the stones op can have left on the board
// (me, op) with the player me to move (side): every run of empty points
// closed on both sides by op's stones or an end (one stone at least), and
// every two such runs around one of op's stones.
func (ix *dindex) shapes(me, op uint64, side int, fn func(*dregion)) {
	n := ix.n
	edge := ix.ln.Edge()
	empty := ix.mask &^ (me | op)
	prevA, prevC := -1, 0 // the last run closed on both sides, -1 if the last run was not
	for rem := empty; rem != 0; {
		lo := rem & -rem
		up := (rem + lo) &^ rem // the point just above the run
		rem &^= up - lo
		a, c := bits.TrailingZeros64(lo), bits.TrailingZeros64(up)-1
		lstone := a > 0 && op>>(a-1)&1 != 0
		rstone := c < n-1 && op>>(c+1)&1 != 0
		if !(lstone || a == 0 && edge) || !(rstone || c == n-1 && edge) || !(lstone || rstone) {
			prevA = -1
			continue
		}
		fn(&ix.regs[ix.key[side][(a*n+c)*n]])
		if prevA >= 0 && prevC+2 == a {
			fn(&ix.regs[ix.key[side][(prevA*n+c)*n+a-1]])
		}
		prevA, prevC = a, c
	}
}

// predsWith appends the states where the player to move (White if white)
// has the stones me, the other op, and the point p is empty and not
// forbidden: no forbidden point, or, with ko=captured, any shape the other
// player's last placement can have left.
func (ix *dindex) predsWith(me, op uint64, p int, white bool, out []dstate) []dstate {
	b, w, side := me, op, 0
	if white {
		b, w, side = op, me, 1
	}
	out = append(out, dstate{ix.regs[side].off + ix.rank(b, w), b, w, 0})
	if !ix.ko {
		return out
	}
	pbit := uint64(1) << p
	ix.shapes(me, op, side, func(reg *dregion) {
		if reg.f&pbit == 0 {
			out = append(out, dstate{ix.at(reg, b, w), b, w, reg.f})
		}
	})
	return out
}

// terminals calls fn with the number and the margin (half points) of
// every finished state of the region reg: those whose free points all hold
// stones, so that every empty point is forbidden.
func (ix *dindex) terminals(reg *dregion, fn func(s dstate, m int32)) {
	var sb, sw uint64 // the descriptor's stones
	if reg.white {
		sb = reg.stone
	} else {
		sw = reg.stone
	}
	free := reg.free
	for x := uint64(0); ; x = (x - free) & free {
		b, w := x|sb, free&^x|sw
		fn(dstate{ix.at(reg, b, w), b, w, reg.f}, ix.margin2(b, w))
		if x == free {
			break
		}
	}
}
