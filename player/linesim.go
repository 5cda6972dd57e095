package player

import (
	"math/bits"

	"alak/rules"
	"alak/rules/bitline"
)

// lineSim plays random games on a line under placement rules straight on
// the bitboards, without building a Position per move: it is the playouts'
// fast path, about ten times quicker than Position.Play, whose hashing,
// bookkeeping and end test a throw-away game does not need. Its placements
// are the kernel's own (bitline.Line.Place, with the forbidden points of
// KoCaptured); a test checks it move by move against the kernel. Rules it
// does not cover (passing, simple ko, counts other than stones) go through
// the kernel (see lineSimFor).
type lineSim struct {
	ln        bitline.Line
	open      bool // every empty point that is not forbidden is legal (not OwnIllegal)
	stays     bool // the mover's stones always stay (OwnStays)
	captured  bool // KoCaptured: the points just captured are forbidden
	unchanged bool // a placement that leaves the board unchanged loses
	counted   bool // the end is counted (stones); otherwise only wins by rule count
	komi      float64
}

// lineSimFor returns the simulator for r, or false when r needs the kernel.
func lineSimFor(r rules.Rules) (lineSim, bool) {
	if !r.IsLine() || r.Movement != rules.Placement || r.Pass || r.Ko == rules.KoSimple || r.Safe != rules.SafeOff {
		return lineSim{}, false
	}
	if r.Scoring != rules.ScoreStones && r.Scoring != rules.ScoreNone {
		return lineSim{}, false
	}
	ln, ok := rules.Bitline(r)
	if !ok {
		return lineSim{}, false
	}
	return lineSim{
		ln: ln, open: r.Own != rules.OwnIllegal, stays: r.Own == rules.OwnStays,
		captured: r.Ko == rules.KoCaptured, unchanged: r.UnchangedLoses,
		counted: r.Scoring == rules.ScoreStones, komi: r.Komi,
	}, true
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
	if !s.unchanged && s.open {
		// The common case (alak): every empty point that is not forbidden
		// is legal and no move loses at once. Where the mover's stones
		// always stay, a placement is its captures, found without
		// branches as the kernel's fast path finds them.
		mask := s.ln.Mask()
		for range limit {
			pts := mask &^ (me | op | forbid)
			if pts == 0 {
				return s.result(me, op, toMove, true)
			}
			p := nthBit(pts, rng.n(bits.OnesCount64(pts)))
			var nme, nop, capt uint64
			if s.stays {
				bit := uint64(1) << p
				nme = me | bit
				capt = s.ln.CapturesFlat(op, nme, bit)
				nop = op &^ capt
			} else {
				nme, nop, capt, _, _ = s.ln.Place(me, op, p)
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
	for range limit {
		pts := s.ln.Legal(me, op, forbid)
		if pts == 0 {
			return s.result(me, op, toMove, true)
		}
		var nme, nop, capt uint64
		for {
			p := nthBit(pts, rng.n(bits.OnesCount64(pts)))
			nme, nop, capt, _, _ = s.ln.Place(me, op, p)
			if !s.unchanged || nme != me || nop != op {
				break
			}
			if pts &^= 1 << p; pts == 0 {
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
