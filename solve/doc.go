// Package solve finds the exact game-theoretic value of Alak positions under
// every preset of the rules kernel: Black's margin under perfect play, every
// best move, a principal variation and the value of every legal move.
//
// Tables (tables.go) is the entry point the commands, the players and the
// play server use: it decides which method answers, where the tables live,
// when a dense table is made, and how much memory and how many cores a
// solve takes. Its methods (Method):
//
//   - the dense table (MethodTable): every position's value of a rule set
//     and line, kept in a table directory (DenseTable, dense_file.go) or
//     made in memory; answers at once.
//   - the dense solver (MethodDense, DenseSolve: dense.go, dense_index.go,
//     dense_generic.go, dense_gaps.go, dense_slide.go): every state of a
//     line at once, for the alak rules and their history-free variants,
//     alterigo, dewdney and golf on lines of up to 24 points (DenseApplies);
//     the fastest wherever it applies, and the default there.
//   - the search (MethodSearch, Solve: solve.go, search.go, retro.go,
//     compact.go, superko.go, history.go): the state graph for rules whose
//     values are free of the history, alpha-beta with path-dependence marks
//     for passes and prisoners, the superko searches; any board of up to 64
//     points, any history.
//
// Besides: AtLeast and AtLeastSplit (bound.go, split.go) answer threshold
// questions, Prove (prove.go) one-sided proofs on any board, Graph and
// Depths (depth.go) the depth to the end, SolveLab (lab.go) the rule lab.
// Repetition draws and superko make values depend on the game's history
// (the graph-history-interaction problem); how the solver stays exact is
// explained in docs/solver.md.
//
// Usage:
//
//	g, _ := rules.NewGame(rules.MustPreset("alak"))
//	ts := &solve.Tables{Dir: dir, Build: solve.DefaultBuild}
//	res, err := ts.Solve(ctx, g, solve.Options{})
//	// res.Value is Black's margin, res.Best the best moves, res.Method
//	// the method that answered.
package solve
