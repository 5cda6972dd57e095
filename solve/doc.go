// Package solve finds the exact game-theoretic value of Alak positions under
// every preset of the rules kernel: Black's margin under perfect play, every
// best move, a principal variation and the value of every legal move.
//
//	g, _ := rules.NewGame(rules.MustPreset("alak"))
//	res, err := solve.Solve(ctx, g, solve.Options{})
//	// res.Value is Black's margin, res.Best the best moves.
//
// # Engines: which rules each answers, and where it is
//
// Solve picks the engine from the rules and the game's history; the
// others are called by name. The numbers are docs/solver.md's methods,
// where each is shown exact.
//
//   - Method 1, state graph (retro.go, history.go): rules whose value is a
//     property of the position (a repetition rule, no superko, no passes,
//     no prisoners in the score; retroEligible): every position reachable
//     from the start enumerated and solved by retrograde analysis, one
//     attractor per threshold; history.go unfolds the graph for a history
//     that has used positions up.
//   - Method 1a, compact state graph (compact.go, compact_*.go): method 1
//     for placements on a line where the mover's own chains stay (the alak
//     preset and its variants in size, edge capture, komi, repetition and
//     ko=captured|none; compactEligible), a state one word. Solve uses it
//     in place of retro.go wherever it applies.
//   - Method 1b, dense (dense.go, dense_index.go, dense_gaps.go,
//     dense_generic.go, dense_slide.go; dense_file.go the file, dense_map_*.go
//     its mapping): every state of a line at once, one bit a state a
//     threshold, for the rules DenseApplies takes (alak and its
//     history-free variants up to 24 points, alterigo on a line, dewdney
//     and golf). DenseSolve and SolveLab (lab.go, the rule lab's variants)
//     call it; its DenseTable answers every position after.
//   - Methods 2 and 3, alpha-beta (search.go, tt.go): every other rule set
//     and history: a transposition table keyed by the mirror-canonical
//     position, with path-dependence marks for repetitions under passes
//     and prisoners (method 2), keyed by the history under superko
//     (method 3).
//   - Method 4, positional superko (superko.go, superko_id.go): positional
//     linear Go, the tromp-taylor preset on a line of up to 14 points
//     (superkoApplies): MTD(f) over the board with the line as the superko
//     history, each table entry carrying the history conditions it holds
//     under. Solve sends these rules here first. AtLeast (bound.go) proves
//     one bound with it, and AtLeastSplit (split.go) splits a bound
//     question too long for one search into its moves'.
//   - Method 5, one-sided proofs (prove.go): Prove finds the fewest plies
//     to a forced win (or draw) under any preset.
//
// Depths and NewGraph (depth.go) give the length of perfect play on
// method 1's graph, for choosing among moves of one value; Analyze
// (analyze.go) judges every move of a game with Solve. Solved
// positions can be kept between runs in a Table (table.go: LoadTable,
// Save), which also serves a dense table found in its directory.
package solve
