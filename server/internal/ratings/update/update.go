// Package update is a rated game's update as a pure function: which ends
// change ratings (Rates), a rating aged by the idle weeks before a game
// (At), and the two players' changes (Game), by glicko2. It imports only
// the store's types and glicko2, so that the store, which applies an
// update once in the transaction that finishes the game, needs nothing
// else of the server; package ratings holds the rest of the ratings.
package update

import (
	"time"

	"alak/glicko2"
	"alak/server/store"
)

// IdlePeriod is a rating period without a game. Each rated game is its
// own rating period; a player without a rated game in a pool for a week
// has one empty period (the deviation grows), and so on each week.
const IdlePeriod = 7 * 24 * time.Hour

// At returns the rating r at t: the deviation grown by one empty rating
// period for every whole IdlePeriod since the last rated game (capped at
// glicko2.MaxRD). The puzzle ratings age the same way.
func At(r store.Rating, t time.Time) glicko2.Rating {
	if r.Last.IsZero() || !t.After(r.Last) {
		return r.Glicko()
	}
	return r.Glicko().Idle(int(t.Sub(r.Last) / IdlePeriod))
}

// blackScore is Black's score by the game's winner; a void result (any
// other winner) has none.
var blackScore = map[string]float64{"x": glicko2.Win, "o": glicko2.Loss, "draw": glicko2.Draw}

// Game returns what the finished game g does to its players' ratings:
// black and white are their ratings in g's pool as their last rated games
// left them (store.NewRating's for a first game). Each player starts from
// the rating at the game's end (At: grown by the idle weeks before it);
// the game is one rating period with one result for each, both updated
// from the ratings before it (glicko2, τ = glicko2.Tau). It reports false,
// and no change, when g changes no rating (Rates). No I/O: the store
// writes the two changes, once, in the transaction that finishes g.
func Game(g store.Game, black, white store.Rating) (b, w store.RatingChange, ok bool) {
	score := blackScore[g.Winner]
	if !Rates(g) {
		return b, w, false
	}
	bb, wb := At(black, g.Ended), At(white, g.Ended)
	b = store.RatingChange{GameID: g.ID, AccountID: g.Black.AccountID, Pool: g.Preset, Before: bb, At: g.Ended,
		After: bb.Update([]glicko2.Result{{Opponent: wb, Score: score}}, glicko2.Tau)}
	w = store.RatingChange{GameID: g.ID, AccountID: g.White.AccountID, Pool: g.Preset, Before: wb, At: g.Ended,
		After: wb.Update([]glicko2.Result{{Opponent: bb, Score: 1 - score}}, glicko2.Tau)}
	return b, w, true
}

// Rates reports whether g, as written, is a rated game's end that changes
// its players' ratings: rated, finished with a winner or a draw (not void),
// between two accounts that are not the same one. The store applies such
// an end once (a later write of the finished game changes nothing).
func Rates(g store.Game) bool {
	_, scored := blackScore[g.Winner]
	return g.Rated && g.State == store.StateFinished && scored &&
		g.Black.AccountID != 0 && g.White.AccountID != 0 && g.Black.AccountID != g.White.AccountID
}
