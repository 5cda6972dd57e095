package solve

import (
	"context"
	"fmt"

	"alak/rules"
)

// PlyValue is the verdict of perfect play on one move of a game: the value
// of the position before it, the value after it (the solver's value of that
// move), and the moves that would have kept the value.
type PlyValue struct {
	Ply    int         // 1 for the first move
	Player rules.Color // who played it
	Move   rules.Move
	Before float64 // Black's margin under perfect play before the move
	After  float64 // and after it
	Best   []rules.Move
	// Method is the method that answered the position before the move,
	// set by Tables.Analyze ("" from Analyze).
	Method Method
}

// Changed reports whether the move changed the outcome (win, draw, loss)
// that perfect play gives.
func (p PlyValue) Changed() bool { return Sign(p.Before) != Sign(p.After) }

// Analyze solves the position before every move of g, under the game's
// history (repetitions and superko count), and returns one PlyValue per
// move, stopping at a resignation. It is what `alak analyze` prints and
// what the play server shows after a game. On an error (ctx ended, a limit
// of opt reached) it returns the plies it finished with the error.
func Analyze(ctx context.Context, g *rules.Game, opt Options) ([]PlyValue, error) {
	return analyze(g, func(replay *rules.Game) (Result, error) { return Solve(ctx, replay, opt) })
}

// analyze is Analyze with each position solved by solve.
func analyze(g *rules.Game, solve func(*rules.Game) (Result, error)) ([]PlyValue, error) {
	r := g.Rules()
	replay := rules.NewGameFrom(g.Start())
	var plies []PlyValue
	for i, m := range g.Moves() {
		if m == rules.Resign {
			break
		}
		res, err := solve(replay)
		if err != nil {
			return plies, fmt.Errorf("ply %d: %w", i+1, err)
		}
		after, ok := res.Moves[m]
		if !ok {
			return plies, fmt.Errorf("ply %d: the solver has no value for %s", i+1, r.MoveText(m))
		}
		plies = append(plies, PlyValue{Ply: i + 1, Player: replay.Position().ToMove(), Move: m,
			Before: res.Value, After: after, Best: res.Best, Method: res.Method})
		if err := replay.Play(m); err != nil {
			return plies, fmt.Errorf("ply %d: %w", i+1, err)
		}
	}
	return plies, nil
}
