// Package puzzle makes puzzles proved by perfect play: positions where the
// player to move has one move (or a short set of moves) that keeps the
// outcome perfect play gives them, a win or a draw, and every other move
// changes it; with the solution line, the themes the kernel finds on it, a
// starting rating, and the check of a player's attempt. It is pure: no
// I/O, no database, no HTTP; a solver is passed in (Solver, which
// *solve.Tables is) and randomness is a seeded generator the caller owns.
// docs/puzzles.md says what a puzzle is exactly and how puzzles are made.
//
// The files:
//
//   - puzzle.go: Puzzle, the data the command line writes and the server
//     stores (JSON), Step, Source, ID, Challenge (what a player is shown).
//   - find.go: Find, which decides whether a position with its history is
//     a puzzle and builds its line, every position solved; Options.
//   - themes.go: the themes (ThemeWin, ThemeCapture, ThemeEndIn, ...),
//     found by replaying the line with the kernel.
//   - rating.go: Difficulty and the starting rating.
//   - check.go: Check, the verdict on an attempt, move by move, from the
//     puzzle's data alone.
//   - verify.go: Verify, every claim checked again by a second solver
//     method.
//   - sources.go: FromGame and FromAnalysis (a finished game's mistakes),
//     FromSelfPlay (seeded weak-player games), FromTable (states sampled
//     from a dense table), Analyze.
//   - reach.go: Reach, the rules and boards the solver answers quickly
//     enough to make puzzles.
//   - codec.go: Decode and UnmarshalJSON, which check that a puzzle holds
//     together.
//
// Usage:
//
//	ts := &solve.Tables{Build: solve.DefaultBuild}
//	p, err := puzzle.Find(ctx, ts, game, puzzle.Options{})
//	// errors.Is(err, puzzle.ErrNotPuzzle): the position is no puzzle
//	_, err = puzzle.Verify(ctx, p, puzzle.VerifyOptions{}) // a second method
//	att, err := puzzle.Check(p, []string{"2"}) // att.Answers[0].Correct
package puzzle
