package player

import (
	"math/bits"

	"alak/rules"
)

// lineSim plays random games on a line under placement rules straight on
// the bitboards, without building a Position per move: it is the playouts'
// fast path, about ten times quicker than Position.Play, whose hashing,
// bookkeeping and end test a throw-away game does not need. It follows the
// kernel's placement, capture and own-liberty rules and the forbidden points
// of KoCaptured; a test checks it move by move against the kernel. Rules it
// does not cover (passing, simple ko, counts other than stones) go through
// the kernel (see lineSimFor).
type lineSim struct {
	mask      uint64
	top       uint64 // the bit of the last point
	edge      bool   // the ends are not liberties
	own       rules.OwnLiberty
	captured  bool // KoCaptured: the points just captured are forbidden
	unchanged bool // a placement that leaves the board unchanged loses
	counted   bool // the end is counted (stones); otherwise only wins by rule count
	komi      float64
}

// lineSimFor returns the simulator for r, or false when r needs the kernel.
func lineSimFor(r rules.Rules) (lineSim, bool) {
	if !r.IsLine() || r.Movement != rules.Placement || r.Pass || r.Ko == rules.KoSimple {
		return lineSim{}, false
	}
	if r.Scoring != rules.ScoreStones && r.Scoring != rules.ScoreNone {
		return lineSim{}, false
	}
	n := r.Width
	return lineSim{
		mask: ^uint64(0) >> (64 - n), top: 1 << (n - 1), edge: r.EdgeCapture, own: r.Own,
		captured: r.Ko == rules.KoCaptured, unchanged: r.UnchangedLoses,
		counted: r.Scoring == rules.ScoreStones, komi: r.Komi,
	}, true
}

// leftRun returns the points of run extending towards point 0 from the
// point next to bit, and whether the run is closed on that side (by a point
// of wall, or by the end when the ends are not liberties).
func (s *lineSim) leftRun(run, wall, bit uint64) (uint64, bool) {
	below := bit - 1
	x := ^run & below
	if x == 0 {
		return below, s.edge
	}
	hb := uint64(1) << (63 - bits.LeadingZeros64(x))
	return below &^ (hb<<1 - 1), wall&hb != 0
}

// rightRun is leftRun towards the last point.
func (s *lineSim) rightRun(run, wall, bit uint64) (uint64, bool) {
	above := s.mask &^ (bit<<1 - 1)
	x := ^run & above
	if x == 0 {
		return above, s.edge
	}
	lb := x & -x
	return above & (lb - 1), wall&lb != 0
}

// place puts a stone of the mover (me) on the empty point bit, the
// opponent's stones being op, and returns both sides' stones after captures
// and the own-liberty rule, the points captured, and ok false when the move
// is suicide under OwnIllegal.
func (s *lineSim) place(me, op, bit uint64) (nme, nop, capt uint64, ok bool) {
	me |= bit
	if op&(bit>>1) != 0 {
		if run, closed := s.leftRun(op, me, bit); closed {
			capt |= run
		}
	}
	if op&(bit<<1) != 0 {
		if run, closed := s.rightRun(op, me, bit); closed {
			capt |= run
		}
	}
	var lost uint64
	if s.own != rules.OwnStays {
		wall := op &^ capt
		if s.own == rules.OwnRemovedTogether {
			wall = op
		}
		lrun, lc := s.leftRun(me, wall, bit)
		rrun, rc := s.rightRun(me, wall, bit)
		if lc && rc {
			if s.own == rules.OwnIllegal {
				return me, op, 0, false
			}
			lost = lrun | bit | rrun
		}
	}
	return me &^ lost, op &^ capt, capt, true
}

// legal returns the points the mover may place on.
func (s *lineSim) legal(me, op, forbid uint64) uint64 {
	cand := s.mask &^ (me | op | forbid)
	if s.own != rules.OwnIllegal {
		return cand
	}
	for set := cand; set != 0; set &= set - 1 {
		bit := set & -set
		if _, _, _, ok := s.place(me, op, bit); !ok {
			cand &^= bit
		}
	}
	return cand
}

// run plays a random game from the stones black and white, forbidden
// points forbid and the player toMove, for at most limit moves, and returns
// Black's margin. Under the unchanged-board rule it avoids the losing move
// while another is left.
func (s *lineSim) run(black, white, forbid uint64, toMove rules.Color, rng *fastRand, limit int) playoutResult {
	me, op := black, white
	if toMove == rules.White {
		me, op = white, black
	}
	if !s.unchanged && s.own != rules.OwnIllegal {
		// The common case (alak): every empty point that is not forbidden
		// is legal and no move loses at once.
		for range limit {
			pts := s.mask &^ (me | op | forbid)
			if pts == 0 {
				return s.result(me, op, toMove, true)
			}
			bit := uint64(1) << nthBit(pts, rng.n(bits.OnesCount64(pts)))
			nme, nop, capt, _ := s.place(me, op, bit)
			forbid = 0
			if s.captured {
				forbid = capt
			}
			me, op = nop, nme
			toMove = toMove.Opp()
		}
		return s.result(me, op, toMove, false)
	}
	for range limit {
		pts := s.legal(me, op, forbid)
		if pts == 0 {
			return s.result(me, op, toMove, true)
		}
		var nme, nop, capt uint64
		for {
			bit := uint64(1) << nthBit(pts, rng.n(bits.OnesCount64(pts)))
			nme, nop, capt, _ = s.place(me, op, bit)
			if !s.unchanged || nme != me || nop != op {
				break
			}
			if pts &^= bit; pts == 0 {
				// Every move leaves the board unchanged: the mover loses.
				return playoutResult{-sideSign(toMove), true}
			}
		}
		forbid = 0
		if s.captured {
			forbid = capt
		}
		me, op = nop, nme
		toMove = toMove.Opp()
	}
	return s.result(me, op, toMove, false)
}

// result counts the board, me being the stones of toMove.
func (s *lineSim) result(me, op uint64, toMove rules.Color, ended bool) playoutResult {
	if !s.counted && ended {
		return playoutResult{0, true}
	}
	d := float64(bits.OnesCount64(me)-bits.OnesCount64(op)) * sideSign(toMove)
	return playoutResult{d - s.komi, ended}
}
