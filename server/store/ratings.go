package store

import (
	"time"

	"alak/glicko2"
)

// SeatRating is a seat's rating when the seat was taken.
type SeatRating struct {
	Rating, RD float64
}

// Rating is an account's Glicko-2 rating in a pool (a preset's name), as
// its last rated game left it.
type Rating struct {
	AccountID int64
	Name      string // the account's name (Leaderboard)
	Pool      string
	// Rating, RD and Volatility are the Glicko-2 rating (the Glicko scale).
	Rating, RD, Volatility float64
	Games                  int       // rated games played in the pool
	Last                   time.Time // the end of the last one
}

// Glicko returns the rating as glicko2 takes it.
func (r Rating) Glicko() glicko2.Rating {
	return glicko2.Rating{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}
}

// NewRating is an account's rating in a pool before its first rated game.
func NewRating(account int64, pool string) Rating {
	d := glicko2.Default()
	return Rating{AccountID: account, Pool: pool, Rating: d.Rating, RD: d.RD, Volatility: d.Volatility}
}

// RatingChange is what a rated game did to one player's rating.
type RatingChange struct {
	GameID    string
	AccountID int64
	Pool      string
	// Before is the rating the update started from (the deviation grown
	// by the idle periods before the game); After the new one.
	Before glicko2.Rating
	After  glicko2.Rating
	At     time.Time
}

// Change is the rating's change, After minus Before.
func (c RatingChange) Change() float64 { return c.After.Rating - c.Before.Rating }
