// Package analysis is the play server's analysis: a finished game's
// analysis by the exact solver (GET /api/games/{id}/analysis, queued and
// kept in the store; its mistakes become puzzles), the analysis of any
// position (GET /api/analysis, from a table at once or searched in the
// background, its queues served in turn by address), the opening
// explorer (GET /api/explorer, and the count of each finished game), the
// rule lab (GET /api/rulelab, /rulelab) and the analysis board (/analysis
// and the calls its script makes).
//
// It knows the server's games only through Config.Load, which returns a
// stored game's row and moves, and draws its pages through package pages:
//
//	a := analysis.New(analysis.Config{Store: st, Solver: solver, Pages: p, Load: load, Log: log, Now: time.Now, Stop: ctx})
//	a.Start(spawn)  // the background workers, until Stop is done
//	a.Routes(mux)
//	a.GameEnded(ctx, g) // a finished game counted in the explorer
package analysis
