// Package computer is the play server's computer player: the workers
// that play the computer's seats (bots.go: a bounded queue of games where
// the computer is to move, each move computed outside the game's lock and
// played only if the game has not moved on), the player of a computer
// seat (a perfect seat answers from the server's solver tables), the
// house bots (housebots.go: a rated bot account for each level, alak-beginner
// ... alak-perfect, that takes every challenge addressed to it), and the
// levels as people see them (levels.go: their names and words, a seat's
// name).
//
// It plays a game through the game core (package game), reads the house
// bots' accounts and challenges through the store's account and game
// roles, and takes what it needs of the other concerns as functions in
// Config: a join's seating of a player, the your-turn mail, the metrics'
// count of perfect moves. It never imports package server.
//
//	b := computer.New(computer.Config{Core: core, Tables: tables, Queue: 1024, ...})
//	spawn(b.Work)                  // one worker; start as many as moves at once
//	hooks.Computer = b.Player      // a computer seat's player
//	hooks.Turn = b.AfterMove       // its reply, or the your-turn mail
//	b.StartHouseBots(ctx)          // with --house-bots
package computer
