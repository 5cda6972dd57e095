// Package conditional is the play server's conditional moves, the mail
// server's "queue": while it is the opponent's move in a correspondence
// game, a player leaves a tree of answers, keyed by the opponent's
// possible moves. When the opponent plays a move the tree names, the
// reply is played at once, in the same change (one store update, two log
// entries), after the kernel checked it; an illegal reply cancels the
// tree and the owner is told (GET's note and the your-move mail); any
// other move clears it. The tree is stored with the game's log length: it
// holds only while the game is there, so a move it did not name, a
// takeback or the end leave it stale without a write.
//
// Service, built by New, takes the store's conditional moves role
// (store.ConditionalStore) and the game core, under whose lock its calls
// run; the server registers its handlers (ServeGet, ServePut,
// ServeDelete) in its route table, its Reply as the core's Played hook,
// and gives its Note to the mail.
//
//	cm := conditional.New(conditional.Config{Store: st, Core: core, Metrics: &metrics, Log: log, Now: time.Now})
//	core.Hooks.Played = cm.Reply
//	mux.HandleFunc("PUT /api/games/{id}/conditional", cm.ServePut)
package conditional
