// Package around is what surrounds a game on the play server: the
// rematch after a game (an offer, its acceptance or refusal), the
// messages between its players and their mutes, and the games in
// progress to watch, with their spectators (docs/api.md describes the
// calls). It also answers a game's view with the player's messages
// (WriteGame) and gives the pieces of the view and of the your-turn mail
// that show them (RematchView, ChatFrames, ChatFor, QuoteLastMessage).
//
// A rematch, a message and a mute are changes of the game made through
// the game core (package game), so that every process's streams send
// them. It touches the store through its around and games roles, and
// takes what it needs of the other concerns as functions in Config: a
// join's seating, the account streams' news of a new game, the
// computer's move, the lists' summaries. It never imports package server.
//
//	a := around.New(around.Config{Store: st, Games: st, Core: core, Pages: p, ...})
//	a.Routes(mux)
//	parts.Rematch, parts.Private = a.RematchView, a.ChatFrames
package around
