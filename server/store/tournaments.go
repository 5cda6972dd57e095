package store

import "time"

// Tournaments: a tournament, its players and the games it
// paired. The pairing itself is package tournament's; the store keeps what
// it decided. A tournament changes only through UpdateTournament, which
// applies a change when the tournament's version is still the one the
// caller read, like Update for a game; the games a round adds are keyed
// unique by (tournament, round, slot), so a round is paired once however
// many processes try at the same time.

// Tournament states.
const (
	TournamentOpen     = "open"     // players join and leave
	TournamentRunning  = "running"  // paired round by round (or all at once)
	TournamentFinished = "finished" // over, with a winner
)

// KindTournament is the kind of a game a tournament created: both seats
// are taken by the pairing, nobody joins it.
const KindTournament = "tournament"

// Tournament is a tournament's row.
type Tournament struct {
	ID         string
	Name       string
	Organiser  int64  // the account that created it, and starts it
	Rules      string // rules.Rules.String()
	Clock      string // as a game's
	Format     string // tournament.Format: round-robin, double-round-robin, swiss, knockout
	Rated      bool
	Rounds     int       // a Swiss tournament's rounds (0: the format decides)
	MaxPlayers int       // 0: no limit
	Starts     time.Time // it starts by itself then (zero: when the organiser says)
	State      string
	Round      int    // the last round paired (0 before the start)
	Winner     string // the winner's name, once finished
	// Version counts every change (joins, starts, pairings): the
	// optimistic lock of UpdateTournament.
	Version                 int
	Created, Started, Ended time.Time
	// Players counts the players, for lists (read by Tournaments only;
	// written: ignored).
	Players int
}

// TournamentPlayer is a player of a tournament.
type TournamentPlayer struct {
	AccountID int64
	Name      string  // read from the account (written: ignored)
	Rating    float64 // the rating the pairing seeds by (taken at the join, again at the start)
	Withdrawn bool
	Joined    time.Time
}

// TournamentGame is one place of a round's pairing (a slot) and the game
// played for it.
type TournamentGame struct {
	TournamentID string
	Round, Slot  int
	X, O         int64  // the players' accounts; O == 0: a bye for X
	GameID       string // the game played for the slot; "" for a bye or a slot decided without one
	// Tries counts the games made for the slot: an aborted game is
	// replayed by a new one.
	Tries int
	// Forfeit is the colour that wins the slot without (or whatever) its
	// game: "x" or "o"; "" when the game decides.
	Forfeit string

	// The game's state, winner and moves on the board, read with the slot
	// (written: ignored).
	State, Winner string
	Ply           int
}

// TournamentChange is one change of a tournament for UpdateTournament,
// applied in one transaction when the stored tournament is at version
// Expect (T.Version must be Expect+1).
type TournamentChange struct {
	T      Tournament
	Expect int
	// Join adds players (ErrDuplicate when one is in already); Leave
	// removes players by account.
	Join  []TournamentPlayer
	Leave []int64
	// Players rewrites the rating and withdrawal of players already in.
	Players []TournamentPlayer
	// Games are new games to store (a round's, a replay's).
	Games []Game
	// Pair adds slots (the key (tournament, round, slot) must be new:
	// ErrConflict otherwise); Set rewrites the game, tries and forfeit of
	// slots already stored.
	Pair []TournamentGame
	Set  []TournamentGame
}
