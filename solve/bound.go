package solve

import (
	"context"
	"fmt"
	"math"
	"time"

	"alak/rules"
)

// Bound is the answer to "is Black's margin under perfect play at least
// V?" (komi included, a draw by repetition counting 0).
type Bound struct {
	AtLeast float64       // V, the threshold asked about
	Holds   bool          // the value is at least V
	Bound   float64       // proved: the value is at least Bound when Holds, at most Bound otherwise
	Nodes   int64         // positions searched
	Elapsed time.Duration // wall time
}

// AtLeast answers whether the value of g's position is at least v. For
// positional linear Go (the tromp-taylor preset on a line) it proves the
// one bound alone by the depth-limited search of superko_id.go, which can
// be far less work than the value; for other rules it solves the position
// (Solve) and compares. An error (cancelled, node limit, memory) means
// nothing was proved.
func AtLeast(ctx context.Context, g *rules.Game, v float64, opt Options) (Bound, error) {
	return atLeast(ctx, g, v, opt, nil)
}

// atLeast is AtLeast. For positional linear Go, keep (when not nil) holds
// the solver to search with: one of an earlier search on a board of the
// same size is reset to g's line and keeps its table, whose entries hold
// wherever their conditions do (superkoSolver.reset); otherwise a new one is
// made and left in keep.
func atLeast(ctx context.Context, g *rules.Game, v float64, opt Options, keep **superkoSolver) (Bound, error) {
	start := time.Now()
	out := Bound{AtLeast: v}
	r := g.Rules()
	if o := g.Outcome(); o.Over() {
		out.Holds, out.Bound = o.Margin >= v, o.Margin
		out.Elapsed = time.Since(start)
		return out, nil
	}
	if !superkoApplies(r) || opt.exactHistory {
		opt.ValueOnly = true
		res, err := Solve(ctx, g, opt)
		out.Nodes, out.Elapsed = res.Nodes, time.Since(start)
		if err != nil {
			return out, err
		}
		out.Holds, out.Bound = res.Value >= v, res.Value
		return out, nil
	}
	var s *superkoSolver
	if keep != nil && *keep != nil && (*keep).n == r.Width {
		s = *keep
		s.reset(ctx, g, opt, start)
	} else {
		s = newSuperkoSolverFor(ctx, g, opt, start)
		if keep != nil {
			*keep = s
		}
	}
	s.total = 1
	pos := g.Position()
	// Black's margin m (komi aside) is a whole number: m - komi >= v
	// when m >= t.
	t := int(math.Ceil(v + r.Komi))
	white := pos.ToMove() == rules.White
	beta := t // Black to move: is m >= t?
	if white {
		beta = 1 - t // White to move: White's value -m >= 1-t means m < t
	}
	a, bound := s.decide(int32(len(s.path)-1), white, pos.Passes() > 0, beta)
	out.Nodes, out.Elapsed = s.nodes, time.Since(start)
	if s.abort != nil || a == skUnknown {
		return out, fmt.Errorf("bound search cut off after %d positions: %w", s.nodes, s.abort)
	}
	if white {
		bound = -bound // Black's margin; a true answer for White bounds m from above
	}
	out.Holds = (a == skTrue) != white
	out.Bound = float64(bound) - r.Komi + 0
	return out, nil
}
