package store

import (
	"context"
	"time"

	"alak/glicko2"
)

// Puzzle is a puzzle as the server keeps it: the puzzle's JSON (package
// puzzle's form, which the store does not read) and what the server looks
// puzzles up by.
type Puzzle struct {
	ID    string
	Rules string // the rules' text, rules.Rules.String ("alak size=7")
	// Preset is the pool the puzzle is offered in: the preset's name when
	// the rules are the preset's own (any size), "" for other rules (a
	// personal puzzle of a game under changed rules, reached by its id).
	Preset string
	Body   []byte // the puzzle's JSON, at most MaxPuzzleBytes
	Themes []string
	Source string // where it was found: "game", "selfplay", "table", "position"
	GameID string // the finished game it was found in ("" for other sources)
	// Rating is the puzzle's current rating: its starting rating moved by
	// the rated attempts (Glicko-2, as a player's).
	Rating  glicko2.Rating
	Plays   int // first attempts at it, rated or not
	Solved  int // those that solved it
	Created time.Time
}

// MaxPuzzleBytes bounds a stored puzzle's JSON.
const MaxPuzzleBytes = 1 << 20

// PersonalPuzzle is a position of a finished game where an account's move
// changed the outcome: a puzzle of the account's own mistake.
type PersonalPuzzle struct {
	AccountID int64
	PuzzleID  string
	GameID    string
	Ply       int    // the moves played before the position
	Played    string // the move the account chose there
	Created   time.Time
	// Filled in when read: the puzzle, and the account's attempts at it
	// (Tries 0: none yet).
	Puzzle Puzzle
	PuzzleTry
}

// PuzzleQuery says which puzzles to offer.
type PuzzleQuery struct {
	// Pool is a preset's name or a rules' text ("" for every preset's).
	Pool string
	// Theme is a theme's name ("" for any; "end-in" for any end-in-N).
	Theme string
	// Account, when not 0, leaves out the puzzles the account has tried.
	Account int64
	// Rating: the puzzles nearest this rating come first.
	Rating float64
	// Limit is how many (1 to 100).
	Limit int
	// Before, when not zero, keeps the puzzles stored before it (the
	// puzzle of the day is drawn from those stored before the day began,
	// so that it stays the day's).
	Before time.Time
}

// PuzzleAttempt is an attempt at a puzzle that has ended (solved or
// missed), for RecordAttempt.
type PuzzleAttempt struct {
	AccountID int64
	PuzzleID  string
	Correct   bool
	// Rated: the account may move the ratings (a named account, not a
	// guest). Only its first attempt at a puzzle does.
	Rated bool
	At    time.Time
}

// PuzzleResult is what RecordAttempt did.
type PuzzleResult struct {
	// First: this was the account's first attempt at the puzzle. Rated:
	// it moved the account's puzzle rating and the puzzle's.
	First, Rated bool
	// Player and Puzzle are the ratings before and after (Rated only).
	PlayerBefore, PlayerAfter glicko2.Rating
	PuzzleBefore, PuzzleAfter glicko2.Rating
}

// PuzzleTry is an account's attempts at one puzzle: the first (which alone
// counts for the ratings) and the last.
type PuzzleTry struct {
	PuzzleID     string
	Rules        string
	Themes       []string
	FirstCorrect bool
	LastCorrect  bool
	Tries        int
	Rated        bool
	// PlayerBefore and PlayerAfter are the account's puzzle rating before
	// and after its first attempt (Rated only).
	PlayerBefore, PlayerAfter float64
	First, Last               time.Time
}

// The puzzles' methods of Store.
type PuzzleStore interface {
	// AddPuzzle stores a puzzle unless one with its id is stored; it
	// reports whether it stored it.
	AddPuzzle(ctx context.Context, p Puzzle) (bool, error)
	// Puzzle returns a puzzle; ErrNotFound when there is none.
	Puzzle(ctx context.Context, id string) (Puzzle, error)
	// Puzzles returns puzzles of q's pool and theme, those whose rating is
	// nearest q.Rating first, at most q.Limit.
	Puzzles(ctx context.Context, q PuzzleQuery) ([]Puzzle, error)
	// CountPuzzles counts the puzzles of a pool (a preset's name or a
	// rules' text; "" for every preset's).
	CountPuzzles(ctx context.Context, pool string) (int, error)
	// AddPersonalPuzzle marks a stored puzzle as the account's own mistake
	// (nothing when it is already).
	AddPersonalPuzzle(ctx context.Context, p PersonalPuzzle) error
	// PersonalPuzzles lists an account's personal puzzles, of one game when
	// gameID is not "", the latest games first, at most limit (capped at
	// 200), each with the account's attempts.
	PersonalPuzzles(ctx context.Context, account int64, gameID string, limit int) ([]PersonalPuzzle, error)
	// RecordAttempt records an ended attempt. The account's first attempt
	// at the puzzle counts once: with a.Rated, it moves the account's
	// puzzle rating and the puzzle's (Glicko-2, each the other's opponent,
	// the account's deviation grown by its idle periods), in one
	// transaction with the row that marks the puzzle tried, so that two
	// first attempts at once move the ratings once. Later attempts are
	// counted only. ErrNotFound when the puzzle is not stored.
	RecordAttempt(ctx context.Context, a PuzzleAttempt) (PuzzleResult, error)
	// PuzzleRating returns the account's puzzle rating (NewRating's when
	// it has made no rated attempt; Games counts the rated attempts).
	PuzzleRating(ctx context.Context, account int64) (Rating, error)
	// PuzzleTries lists the account's attempts, the latest first, at most
	// limit (capped at 200); onlyMissed keeps the puzzles whose last
	// attempt missed.
	PuzzleTries(ctx context.Context, account int64, onlyMissed bool, limit int) ([]PuzzleTry, error)
}

// PuzzlePool is the pool name of the puzzle ratings (Rating.Pool).
const PuzzlePool = "puzzles"
