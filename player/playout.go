package player

import (
	"math/bits"

	"alak/rules"
)

// playoutResult is a finished (or cut off) random game: Black's margin and
// whether the game really ended.
type playoutResult struct {
	margin float64
	ended  bool
}

// playoutLimit is the number of moves after which a playout is stopped and
// the board counted: captures can make random games on some rules run long.
func playoutLimit(r rules.Rules) int { return 3*r.Points() + 30 }

// playouter plays random games (playouts) from positions of one rule set:
// the rules' playout kernel (rules.Position.Playout) or the fast simulators
// where they cover the rules, the kernel's Apply and LegalMoves otherwise.
type playouter struct {
	limit  int
	kernel bool // rules.PlayoutRules: alak and the line rules like it
	line   lineSim
	lineOK bool
	grid   *gridSim
	buf    []rules.Move
}

func newPlayouter(r rules.Rules) *playouter {
	p := &playouter{limit: playoutLimit(r), kernel: rules.PlayoutRules(r), buf: make([]rules.Move, 0, 64)}
	p.line, p.lineOK = lineSimFor(r)
	p.grid, _ = gridSimFor(r)
	return p
}

// run plays random moves from pos to the end of the game and returns
// Black's margin. It follows the position's own rules (ko, forbidden points,
// the unchanged-board loss) but not the game's history: a playout is a
// sample, and the tree above it follows the history exactly. Its policy:
//   - on lines under placement rules, a uniformly random legal point: by
//     the rules' playout kernel (Position.Playout) where it plays under
//     the rules, else on the bitboards (lineSim) where it covers them,
//     otherwise from Position.LegalPoints; the three draw the same
//     numbers from rng and choose the same points;
//   - never fill one's own eye (an empty point whose neighbours are all
//     one's own stones or the edge) where passing is allowed, or on grids,
//     and pass only when nothing else is left;
//   - never make a move that loses at once (such as Alter Igo's suicide
//     that leaves the board unchanged) while another move is left.
//
// A playout cut off after playoutLimit moves is counted as the board stands.
func (p *playouter) run(pos rules.Position, rng *fastRand) playoutResult {
	if pos.Over() {
		return playoutResult{pos.Outcome().Margin, true}
	}
	r := pos.Rules()
	switch {
	case p.kernel:
		pos.Playout((*rules.Rand)(&rng.s), p.limit)
		return countOutcome(pos)
	case p.lineOK:
		black, white, forbid, _ := pos.Line()
		return p.line.run(black, white, forbid, pos.ToMove(), rng, p.limit)
	case p.grid != nil:
		p.grid.load(pos)
		return p.grid.run(pos.ToMove(), rng, p.limit)
	case r.IsLine() && r.Movement == rules.Placement && !r.UnchangedLoses && r.Safe == rules.SafeOff:
		return linePlayout(pos, rng, p.limit)
	}
	for range p.limit {
		if pos.Over() {
			return playoutResult{pos.Outcome().Margin, true}
		}
		p.buf = pos.LegalMoves(p.buf[:0])
		pos = pickMove(pos, p.buf, rng)
	}
	return countOutcome(pos)
}

// countOutcome counts an unfinished position as if it had ended.
func countOutcome(pos rules.Position) playoutResult {
	if pos.Over() {
		return playoutResult{pos.Outcome().Margin, true}
	}
	b, w := pos.Score()
	return playoutResult{b - w, false}
}

// linePlayout is playout on a line under placement rules.
func linePlayout(pos rules.Position, rng *fastRand, limit int) playoutResult {
	r := pos.Rules()
	n := r.Width
	top := uint64(1) << (n - 1)
	for range limit {
		pts, _ := pos.LegalPoints()
		if pts == 0 {
			if pos.Over() {
				return playoutResult{pos.Outcome().Margin, true}
			}
			next, err := pos.Play(rules.Pass)
			if err != nil {
				return countOutcome(pos)
			}
			pos = next
			continue
		}
		if r.Pass {
			black, white, _, _ := pos.Line()
			own := black
			if pos.ToMove() == rules.White {
				own = white
			}
			eyes := (own<<1 | 1) & (own>>1 | top)
			pts &^= eyes
			if pts == 0 {
				next, err := pos.Play(rules.Pass)
				if err != nil {
					return countOutcome(pos)
				}
				pos = next
				continue
			}
		}
		p := nthBit(pts, rng.n(bits.OnesCount64(pts)))
		next, err := pos.Play(rules.Place(p))
		if err != nil {
			return countOutcome(pos)
		}
		pos = next
	}
	return countOutcome(pos)
}

// pickMove plays a random move of moves (the legal moves of pos), avoiding
// own eyes (where passing is allowed, and on grids), passes, and moves that
// lose at once.
func pickMove(pos rules.Position, moves []rules.Move, rng *fastRand) rules.Position {
	r := pos.Rules()
	me := pos.ToMove()
	k := len(moves)
	if r.Pass && k > 0 && moves[k-1] == rules.Pass {
		k-- // the kernel lists pass last
	}
	for k > 0 {
		i := rng.n(k)
		m := moves[i]
		if (r.Pass || !r.IsLine()) && m.IsPlace() && ownEye(pos, m.Point(), me) {
			moves[i], moves[k-1] = moves[k-1], moves[i]
			k--
			continue
		}
		next, err := pos.Play(m)
		if err == nil && !(next.Over() && next.Outcome().Winner == me.Opp()) {
			return next
		}
		moves[i], moves[k-1] = moves[k-1], moves[i]
		k--
	}
	// Only passing, losing or eye-filling moves are left: pass if allowed,
	// otherwise play any of them.
	if next, err := pos.Play(rules.Pass); err == nil {
		return next
	}
	for _, m := range moves {
		if next, err := pos.Play(m); err == nil {
			return next
		}
	}
	next, _ := pos.Play(rules.Resign)
	return next
}

// ownEye reports whether the empty point p has only stones of colour c (or
// the edge) around it.
func ownEye(pos rules.Position, p int, c rules.Color) bool {
	w, h := pos.Size()
	n := w * h
	eye := true
	forEachNeighbour(p, w, n, func(q int) {
		if pos.At(q) != c {
			eye = false
		}
	})
	return eye
}
