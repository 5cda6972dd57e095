package puzzle

import (
	"fmt"

	"alak/rules"
	"alak/solve"
)

// The largest boards puzzles are made on, by the solver that answers the
// rules (docs/puzzles.md gives the measurements behind them). A puzzle
// takes a few solves to make (its position, and two or three for each of
// its player's moves) and as many to verify by a second method, and the
// sources try hundreds of positions, so a board is in reach when one
// solve of a position there takes well under a second.
const (
	// ReachDense: the dense table's rules (alak and its history-free
	// variants, alterigo on a line, dewdney, golf). The table answers at
	// once on any line it is made for (16 points in seconds), but the
	// search with an empty table that verifies each puzzle enumerates the
	// positions reachable from each of its positions: from the empty line
	// 0.9 s on 12 points, 3.5 s on 13 (docs/results.md).
	ReachDense = 12
	// ReachSlide: the sliding games (dewdney, golf), by their dense
	// table; their weak games shuffle, and a history that has used
	// positions up needs the search at each of its positions: on 12
	// slots about 2 s a position in docs/puzzles.md's runs.
	ReachSlide = 11
	// ReachSuperko: positional linear Go (tromp-taylor), by the superko
	// search: 1×7 from the empty line in 0.02 s, 1×8 in 0.1 s
	// (docs/results-tromp-taylor.md), but positions after a few moves of 1×8 took
	// seconds each in docs/puzzles.md's runs.
	ReachSuperko = 7
	// ReachTraditional: Traditional Alak, by the search with prisoners:
	// 5 points in 0.02 s from the empty line; 6 is settled only by
	// proof searches of minutes (docs/results-traditional.md).
	ReachTraditional = 5
	// ReachGrid: Alter Igo's grids, by the state graph: 3×3 in 0.06 s,
	// 2×4 in 0.02 s; 3×4 takes 1.2 s from the empty grid.
	ReachGrid = 9
	// ReachOther: any other variant the search takes.
	ReachOther = 7
)

// Reach returns nil when puzzles are made quickly under the rules r, and
// otherwise an error wrapping ErrBeyondReach that says what the solver
// answers quickly.
func Reach(r rules.Rules) error {
	if err := solve.Check(r); err != nil {
		return fmt.Errorf("%w: %w", ErrBeyondReach, err)
	}
	n := r.Points()
	limit, what := ReachOther, "by the search"
	switch {
	case solve.DenseApplies(r) && r.Movement == rules.Sliding:
		limit, what = ReachSlide, "by the dense table; the history's searches grow beyond"
	case solve.DenseApplies(r):
		limit, what = ReachDense, "by the dense table"
	case r.Preset == "tromp-taylor" && r.IsLine():
		limit, what = ReachSuperko, "by the superko search"
	case r.Preset == "traditional" && r.IsLine():
		limit, what = ReachTraditional, "by the search with prisoners"
	case !r.IsLine():
		limit, what = ReachGrid, "by the state graph"
	}
	if n > limit {
		return fmt.Errorf("%w: %s: puzzles are made on boards of at most %d points under these rules (%s); this board has %d", ErrBeyondReach, r.String(), limit, what, n)
	}
	return nil
}
