package rules

import "math/bits"

// engine is a validated rule set compiled for play: board masks, the start
// position, and for grids the neighbour table. It is immutable and shared by
// every position of a game.
type engine struct {
	r    Rules
	n    int    // points
	mask uint64 // lines: the board's bits
	line bool
	nbr  [][4]int16 // grids: up to four neighbours of each point, -1 padded
	// openLegal: on a line, every empty point that is not forbidden is a
	// legal placement (no suicide check, no ko after a pass to test).
	openLegal bool
	// stays: a line under placement rules where the mover's own chains
	// stay (OwnStays), with no passing, no simple ko and no unchanged-board
	// rule: Apply's branch-free fast path (the alak preset).
	stays bool
	// Branch-free captures on lines: edgeHi is the bit just above the
	// board when captures against the ends count (0 otherwise, and on 64
	// points); edgeLo and edgeTop are 1 when the low end, and the high end
	// of a 64-point line, close a run.
	edgeHi, edgeLo, edgeTop uint64
	gm                      gridMasks // grids: board, column and border masks
	gw                      int       // grids: the bitboard words in use (the rest stay 0)
}

// zobrist holds the keys of the incremental hash: one per colour and point
// (up to 19×19), one for White to move, and one per forbidden point.
var zobrist = func() (z struct {
	stone  [2][19 * 19]uint64
	forbid [19 * 19]uint64
	white  uint64
}) {
	s := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		s += 0x9E3779B97F4A7C15
		x := s
		x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
		x = (x ^ x>>27) * 0x94D049BB133111EB
		return x ^ x>>31
	}
	for c := range z.stone {
		for p := range z.stone[c] {
			z.stone[c][p] = next()
		}
	}
	for p := range z.forbid {
		z.forbid[p] = next()
	}
	z.white = next()
	return z
}()

func newEngine(r Rules) (*engine, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	e := &engine{r: r, n: r.Points(), line: r.IsLine()}
	if e.line {
		e.mask = ^uint64(0) >> (64 - e.n)
		e.openLegal = r.Movement == Placement && r.Own != OwnIllegal &&
			!(r.Ko == KoSimple && r.Pass && r.Own != OwnStays)
		e.stays = r.Movement == Placement && r.Own == OwnStays && !r.Pass &&
			!r.UnchangedLoses && (r.Ko == KoNone || r.Ko == KoCaptured)
		if r.EdgeCapture {
			e.edgeLo = 1
			if e.n < 64 {
				e.edgeHi = 1 << e.n
			} else {
				e.edgeTop = 1
			}
		}
		return e, nil
	}
	e.buildGrid()
	return e, nil
}

// buildGrid fills the neighbour table of a grid engine.
func (e *engine) buildGrid() {
	r := e.r
	e.openLegal, e.stays = false, false // line fast paths
	e.gw = (e.n + 63) / 64
	e.nbr = make([][4]int16, e.n)
	for p := range e.n {
		x, y := p%r.Width, p/r.Width
		k := 0
		e.nbr[p] = [4]int16{-1, -1, -1, -1}
		add := func(q int) { e.nbr[p][k] = int16(q); k++ }
		if y > 0 {
			add(p - r.Width)
		}
		if x > 0 {
			add(p - 1)
		}
		if x < r.Width-1 {
			add(p + 1)
		}
		if y < r.Height-1 {
			add(p + r.Width)
		}
	}
	e.buildMasks()
}

// hashRun returns the XOR of the stone keys of colour c on the points of set.
func hashRun(c Color, set uint64) uint64 {
	var h uint64
	for set != 0 {
		h ^= zobrist.stone[c][bits.TrailingZeros64(set)]
		set &= set - 1
	}
	return h
}

// forbidKey mixes the forbidden points of a line into a key.
func forbidKey(set uint64) uint64 {
	var h uint64
	for set != 0 {
		h ^= zobrist.forbid[bits.TrailingZeros64(set)]
		set &= set - 1
	}
	return h
}

// leftRun returns the points of run that extend leftwards (towards point 0)
// from the point next to bit, and whether the run is closed on that side: the
// point beyond it is in wall, or it reaches the end of the line and ends are
// not liberties.
func (e *engine) leftRun(run, wall, bit uint64) (uint64, bool) {
	below := bit - 1
	x := ^run & below
	if x == 0 {
		return below, e.r.EdgeCapture
	}
	hb := uint64(1) << (63 - bits.LeadingZeros64(x))
	return below &^ (hb<<1 - 1), wall&hb != 0
}

// rightRun is leftRun towards the last point.
func (e *engine) rightRun(run, wall, bit uint64) (uint64, bool) {
	above := e.mask &^ (bit<<1 - 1)
	x := ^run & above
	if x == 0 {
		return above, e.r.EdgeCapture
	}
	lb := x & -x
	return above & (lb - 1), wall&lb != 0
}

// captures returns the runs of op next to the stone bit that are closed on
// their far side by me (or by an end of the line that is not a liberty).
func (e *engine) captures(op, me, bit uint64) (capt uint64) {
	if op&(bit>>1) != 0 {
		if run, closed := e.leftRun(op, me, bit); closed {
			capt |= run
		}
	}
	if op&(bit<<1) != 0 {
		if run, closed := e.rightRun(op, me, bit); closed {
			capt |= run
		}
	}
	return capt
}

// nonzero is 1 when x is not 0, else 0, without a branch.
func nonzero(x uint64) uint64 { return (x | -x) >> 63 }

// capturesFlat is captures without branches, for the placement fast path:
// whether a neighbour is an enemy stone is a coin toss in play, and the
// mispredicted branches cost more than computing both sides. The run of op
// above bit is found with a carry: adding the bit above bit to op clears the
// run and sets the point just past it. The run below is bounded by the
// highest point under bit that op does not hold.
func (e *engine) capturesFlat(op, me, bit uint64) uint64 {
	t := op + bit<<1
	diff := t ^ op
	runR := diff & op // op's stones from bit+1 upwards
	qR := diff &^ op  // the point past them (0 only past the 64th point)
	closedR := nonzero(qR&(me|e.edgeHi)) | e.edgeTop&(nonzero(qR)^1)
	below := bit - 1
	x := below &^ op // points under bit that op does not hold
	low := uint64(1)<<bits.Len64(x) - 1
	runL := below &^ low // op's stones from bit-1 downwards
	qL := (low + 1) >> 1 // the point past them (0 at the low end)
	closedL := nonzero(qL&me) | e.edgeLo&(nonzero(x)^1)
	return runR&-closedR | runL&-closedL
}

// place puts a stone of colour c on the empty point p of a line and applies
// captures and the own-liberty rule, without ko checks. It returns the new
// stones, the enemy points captured and the mover's points removed; ok is
// false when the placement is suicide under OwnIllegal.
func (e *engine) place(st [2]uint64, c Color, p int) (nst [2]uint64, capt, lost uint64, ok bool) {
	nst[c], nst[c^1], capt, lost, ok = e.placeBits(st[c], st[c^1], p)
	return nst, capt, lost, ok
}

// placeBits is place on the mover's stones me and the opponent's op, in
// words that travel in registers: the placement hot path.
func (e *engine) placeBits(me, op uint64, p int) (nme, nop, capt, lost uint64, ok bool) {
	bit := uint64(1) << p
	me |= bit
	capt = e.captures(op, me, bit)
	if e.r.Own != OwnStays {
		wall := op &^ capt
		if e.r.Own == OwnRemovedTogether {
			wall = op
		}
		lrun, lc := e.leftRun(me, wall, bit)
		rrun, rc := e.rightRun(me, wall, bit)
		if lc && rc {
			if e.r.Own == OwnIllegal {
				return me &^ bit, op, 0, 0, false
			}
			lost = lrun | bit | rrun
		}
	}
	return me &^ lost, op &^ capt, capt, lost, true
}

// slideTargets returns the slots a piece on from can slide to: the nearest
// empty slot on its left and on its right (-1 where there is none).
func (e *engine) slideTargets(empty uint64, from int) (left, right int) {
	bit := uint64(1) << from
	left, right = -1, -1
	if x := empty & (bit - 1); x != 0 {
		left = 63 - bits.LeadingZeros64(x)
	}
	if x := empty &^ (bit<<1 - 1); x != 0 {
		right = bits.TrailingZeros64(x)
	}
	return left, right
}

// slide moves the piece of colour c from one slot to another (already
// checked) and applies flanking captures and self-capture.
func (e *engine) slide(st [2]uint64, c Color, from, to int) (nst [2]uint64, capt, lost uint64) {
	bit := uint64(1) << to
	me, op := st[c]&^(1<<from)|bit, st[c^1]
	capt = e.captures(op, me, bit)
	op &^= capt
	switch e.r.SelfCapture {
	case SelfPiece:
		left := op&(bit>>1) != 0 || (to == 0 && e.r.EdgeCapture)
		right := op&(bit<<1) != 0 || (to == e.n-1 && e.r.EdgeCapture)
		if left && right {
			lost = bit
		}
	case SelfRun:
		lrun, lc := e.leftRun(me, op, bit)
		rrun, rc := e.rightRun(me, op, bit)
		if lc && rc {
			lost = lrun | bit | rrun
		}
	}
	nst[c], nst[c^1] = me&^lost, op
	return nst, capt, lost
}
