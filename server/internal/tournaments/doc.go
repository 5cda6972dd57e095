// Package tournaments is the play server's tournaments: the runner that
// pairs each round, creates its games, follows their ends and finishes a
// tournament (runner.go), and the tournaments' API, pages and event
// stream (api.go). The pairing itself, a pure function of a tournament's
// state, is package alak/tournament's; this package stores its steps and
// plays them out.
//
// It touches the store through its tournaments role only, a game through
// the game core (package game), and takes what it needs of the other
// concerns as functions in Config: the seats' ratings and a player's
// seeding rating (package ratings, given by the server), the account
// streams' news of a new game, the your-turn mail. It never imports
// package server.
//
//	t := tournaments.New(tournaments.Config{Store: st, Core: core, Pages: p, ...})
//	t.Routes(mux)
//	spawn(t.Work)                            // the runner, until Config.Done
//	core.Hooks.Tournament = t.GameTournament // a game's tournament and round
//	core.Hooks.Published.OnEnd(func(_ context.Context, st *game.State) { t.GameEnded(st.Row) })
package tournaments
