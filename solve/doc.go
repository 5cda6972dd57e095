// Package solve finds the exact game-theoretic value of Alak positions under
// every preset of the rules kernel: Black's margin under perfect play, every
// best move, a principal variation and the value of every legal move.
//
// The search is alpha-beta with a transposition table keyed by the
// mirror-canonical position. Repetition draws and superko make values depend
// on the game's history (the graph-history-interaction problem); how the
// solver stays exact is explained in docs/solver.md.
//
// Usage:
//
//	g, _ := rules.NewGame(rules.MustPreset("alak"))
//	res, err := solve.Solve(ctx, g, solve.Options{})
//	// res.Value is Black's margin, res.Best the best moves.
//
// Solved positions can be kept between runs in a Table (LoadTable, Save).
package solve
