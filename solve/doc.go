// Package solve finds the exact game-theoretic value of Alak positions under
// every preset of the rules kernel: Black's margin under perfect play, every
// best move, a principal variation and the value of every legal move.
//
// Tables (tables.go) is the entry point the commands, the players and the
// play server use: it decides which method answers, where the tables live,
// when a dense table is made, and how much memory and how many cores a
// solve takes; Plan says which method a solve would take without solving.
// Its methods (Method):
//
//   - the dense table (MethodTable): every position's value of a rule set
//     and line, kept in a table directory (DenseTable, dense_file.go) or
//     made in memory; answers at once. A small line's (Small: an index of
//     at most DefaultSmall states, alak up to 13 points) is made at the
//     first solve of its rules, once, in the background, and kept in
//     memory within KeepMB (Make, Stats: tables_keep.go), even by a
//     frozen or read-only Tables.
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
// Settle (settle.go) answers the rules the search does not finish on
// (Settles: traditional) by outcome: the proof certificates of proofdata/
// where they settle the position (Certificates, certified.go: their
// claims and checksums, in the binary as certified.txt), else the search
// within a short budget, else the proof-number search with the state
// graph with prisoners (MethodCertificate, MethodSearch, MethodProof).
//
// Besides: AtLeast and AtLeastSplit (bound.go, split.go) answer threshold
// questions, Prove (prove.go) one-sided proofs on any board, Graph and
// Depths (depth.go) the depth to the end, SolveLab (lab.go) the rule lab
// and LabTable (labtable.go) its table as data (the server ships it).
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
//     and golf). DenseSolve calls it, Tables through DenseSolve (and
//     SolveLab, lab.go, the rule lab's variants, through Tables); its
//     DenseTable answers every position after, and DenseTable.State
//     (dense_state.go) gives the state of a number (package puzzle draws
//     positions by it).
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
//     to a forced win (or draw) under any preset; with
//     ProveOptions.Certificate it records the proof tree (certificate.go)
//     that package proofcheck writes and checks. With
//     ProveOptions.Superko, under positional linear Go, it proves the
//     claim (a bound with komi) by method 4 instead and writes its
//     certificate from the solver's proof, each state a shared subtree
//     where the history allows (superko_cert.go). ProveOptions.Table
//     (provetable.go) shares the results no history can change, and
//     ProveOptions.Graph with ProveGraph (provegraph.go) the state graph
//     with prisoners (methods 5a and 5b, docs/solver-proof-search.md).
//
// Depths and NewGraph (depth.go) give the length of perfect play on
// method 1's graph, for choosing among moves of one value; Analyze
// (analyze.go) judges every move of a game with Solve. Solved
// positions can be kept between runs in a Table (table.go: LoadTable,
// Save), which also serves a dense table found in its directory.
//
// Result.Answer (answer.go) writes a result with its moves in the
// project's notation, in board order: the numbers `alak solve --json`
// prints and GET /api/analysis answers, each in its own wire shape.
package solve
