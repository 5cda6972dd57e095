// Package puzzles is the play server's puzzles and lessons: where the
// puzzles come from, and the API and the pages that play them
// (docs/puzzles.md, "The play server").
//
//   - work.go: the background work that makes the puzzles, one at a
//     time, resting between them: a first set for each preset the store
//     has none of (Config.Seed, SeedRules), and the mistakes of each
//     finished game once its analysis is done (GameAnalysed). Every
//     puzzle is proved by the solver that found it, checked again by a
//     second method and by playing its own line, and stored (Add).
//   - api.go: GET /api/puzzles/next, /daily and /{id}, POST
//     /api/puzzles/{id}/attempt (the verdict on the moves so far, and the
//     puzzle ratings of a first attempt), GET /api/me/puzzles, and the
//     lessons of package learn (GET /api/lessons, POST
//     /api/lessons/{id}/try), with their rate limits by address.
//   - pages.go: the pages /puzzles, /puzzles/{id} and /learn, and each
//     preset's lessons for the rules page (PresetLessons).
//
// It takes the store's puzzles role (store.PuzzleStore), the server's
// solver and pages, and the clock; the server feeds it the finished
// games' analyses (analysis.Config.Analysed calls GameAnalysed) and
// registers its routes (Routes). It reads two pure rules of package
// ratings: which rules are a preset's own (a puzzle's pool is its preset,
// as a rated game's is) and the rounding of a rating as the API shows it.
//
//	pz := puzzles.New(puzzles.Config{Store: st, Solver: tables, Pages: pg, Log: log, Now: time.Now, Stop: ctx})
//	pz.Start(spawn)
//	pz.Routes(mux)
package puzzles
