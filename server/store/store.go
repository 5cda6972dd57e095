// Package store is the play server's storage: accounts, their tokens,
// games and the append-only log of their moves. Store is the one interface
// the server uses; package sqlstore implements it over database/sql, opened
// by package sqlitestore on an embedded SQLite file and by package pgstore
// on PostgreSQL (the schemas in package migrations), and package storetest
// is the conformance suite both pass.
//
// A game changes only through Store.Update, which applies a change when the
// game's version is still the one the caller read (optimistic concurrency:
// no lock is held between requests) and appends the log entries of the
// change in the same transaction. A move is acknowledged only after Update
// returns nil, so an acknowledged move is never lost, and the log's key
// (game, entry) makes a second write of the same entry fail, so no move is
// applied twice.
package store

import (
	"context"
	"errors"
	"time"
)

// Errors of a Store.
var (
	ErrNotFound  = errors.New("not found")
	ErrDuplicate = errors.New("already exists")
	// ErrConflict: the game changed since the caller read it (another move,
	// another process); read it again.
	ErrConflict = errors.New("the game changed meanwhile")
)

// idleKey marks a context whose writes may wait (Idle).
type idleKey struct{}

// Idle marks ctx's writes as ones that may wait for the others: a store
// with a single writer (SQLite's group commit) makes them when no other
// write is waiting, so that work nobody waits on (the opening explorer's
// counts of a finished game) never delays a move. Other stores ignore it.
func Idle(ctx context.Context) context.Context { return context.WithValue(ctx, idleKey{}, true) }

// IsIdle reports whether ctx's writes may wait (Idle).
func IsIdle(ctx context.Context) bool { v, _ := ctx.Value(idleKey{}).(bool); return v }

// Account is a player: a named account with a password, or a guest (no
// name), who plays live games by link or against the computer.
type Account struct {
	ID       int64
	Name     string // "" for a guest; unique without regard to case
	PassHash string // argon2id, in the PHC string form; "" for a guest
	Email    string // where your-turn mail goes; "" for none
	// ConfirmMoves asks for a second click before a correspondence move.
	ConfirmMoves bool
	Created      time.Time
	// Bot: the account is a program's. It signs in by token
	// only, is shown as a bot, and joins the open challenges only of
	// those who allow bots (Game.AllowBots). Set when the account is
	// made, never changed.
	Bot bool
}

// Guest reports whether the account has no name.
func (a Account) Guest() bool { return a.Name == "" }

// Token kinds.
const (
	TokenSession = "session" // a browser's cookie
	TokenAPI     = "api"     // a bearer token for scripts and bots
)

// Token is a credential. Only its hash is stored: a copy of the database
// does not let anyone sign in.
type Token struct {
	Hash      string // hex SHA-256 of the secret
	AccountID int64
	Kind      string
	Created   time.Time
	Expires   time.Time
}

// Game states.
const (
	StateWaiting  = "waiting"  // waiting for an opponent to join (open challenge, named challenge, link)
	StateActive   = "active"   // being played
	StateFinished = "finished" // over, with a result
	StateAborted  = "aborted"  // called off before the second move
	StateExpired  = "expired"  // nobody joined in time, or the challenge was declined
)

// Kinds of opponent a game is created for.
const (
	KindNamed    = "named"    // a named player
	KindOpen     = "open"     // an open challenge in the lobby
	KindLink     = "link"     // whoever has the invitation link
	KindComputer = "computer" // a computer player
)

// Seat is one side of a game: an account, a computer player, or nobody yet.
type Seat struct {
	AccountID int64  // 0: none
	Bot       string // a computer player's spec; "" for a person
}

// Empty reports whether nobody sits there yet.
func (s Seat) Empty() bool { return s.AccountID == 0 && s.Bot == "" }

// Game is a game's row: what it is and where it stands. The moves are in
// the log (Entry).
type Game struct {
	ID      string
	Rules   string // rules.Rules.String()
	Start   string // the start position's text (rules.Position.MarshalText); "" for the rules' own
	Preset  string // for filtering the archive
	Size    string // rules.Rules.SizeString()
	Black   Seat
	White   Seat
	Creator int64  // the account that created it
	Color   string // the colour the creator asked for: x, o or random
	Kind    string // KindNamed, KindOpen, KindLink, KindComputer
	// Opponent is the named opponent's account (KindNamed).
	Opponent   int64
	InviteHash string // hex SHA-256 of the invitation secret (KindLink)
	Clock      string // "none", "live:5m+3s", "days:3"
	State      string
	// Version counts every change (moves, takebacks, offers, the end): the
	// optimistic lock of Update and the events' ids.
	Version int
	Ply     int // moves on the board
	Entries int // entries in the log (moves and takebacks)
	// BlackLeft and WhiteLeft are each player's time left when the current
	// turn began (live clocks).
	BlackLeft, WhiteLeft time.Duration
	TurnStart            time.Time // when the player to move began to think
	Deadline             time.Time // the player to move loses on time at it; zero: no clock
	WarnedEntry          int       // the log entry whose running-out warning was mailed (-1: none)
	DrawOffer            string    // "x", "o" or ""
	Takeback             string    // "x", "o" or ""
	Result               string    // SGF RE form once over ("B+3", "W+R", "0", "Void")
	Reason               string    // why it ended, in words
	Winner               string    // "x", "o", "draw", "none"
	Expires              time.Time // a waiting game expires then
	Created, Updated     time.Time
	Ended                time.Time
	// Rated: the game counts for its players' ratings in the pool of its
	// preset. BlackRating and WhiteRating are each seat's
	// rating when the seat was taken (zero: none recorded).
	Rated                    bool
	BlackRating, WhiteRating SeatRating
	// AllowBots: a bot account may take this open challenge.
	AllowBots bool
}

// Entry is one entry of a game's log: a move, or a takeback of moves.
type Entry struct {
	GameID string
	N      int    // 0 for the first entry; the key with GameID
	Move   string // rules.Rules.MoveText; "" for a takeback
	Undo   int    // moves taken back (a takeback entry)
	By     int64  // the account that moved or asked (0: the computer)
	At     time.Time
	// BlackLeft and WhiteLeft are the clocks after the entry.
	BlackLeft, WhiteLeft time.Duration
}

// Filter selects games for lists.
type Filter struct {
	Player int64    // games where this account sits (0: everyone's)
	States []string // any of these states (none: all)
	Preset string   // "" for every preset
	Size   string   // "" for every size
	Before time.Time
	Kind   string // "" for every kind; else KindNamed, KindOpen, KindLink or KindComputer
	// Opponent selects the challenges addressed to this account (the
	// named opponent of a KindNamed game; 0: any).
	Opponent int64
	// Live, when set, leaves out the games whose Expires has come by then
	// (a waiting game the sweep has not yet expired).
	Live  time.Time
	Limit int // at most this many (the store caps it at 200)
}

// Stats is a player's record: the finished games where the account sits,
// counted by the database over all of them.
type Stats struct {
	Finished, Wins, Losses, Draws int
}

// Claim is what ClaimGames did: the games moved to the new account, and
// those kept by the guest because the new account already sits in them
// (moving them would seat one account on both sides).
type Claim struct {
	Moved []string
	Kept  []string
}

// Store keeps the server's data: every role's methods on one database.
// Every method is safe for concurrent use. Each part of the server takes
// only the roles it uses (AccountStore, GameStore, ...), so that what it
// may touch is said by its type.
type Store interface {
	AccountStore
	GameStore
	AnalysisStore
	RatingStore
	AroundStore
	ConditionalStore
	TournamentStore
	MailStore
	ExplorerStore
	LimitStore
	PuzzleStore

	Ping(ctx context.Context) error
	Close() error
}

// AccountStore keeps the accounts and their tokens (sessions and bearer
// tokens).
type AccountStore interface {
	CreateAccount(ctx context.Context, a Account) (Account, error) // ErrDuplicate when the name is taken
	AccountByID(ctx context.Context, id int64) (Account, error)
	AccountByName(ctx context.Context, name string) (Account, error) // without regard to case
	UpdateAccount(ctx context.Context, a Account) error              // email, confirm moves, password
	// ChangePassword sets the account's password hash and deletes every
	// token of the account but the one whose hash is keep ("": none) in
	// one transaction: every other session and bearer token ends with the
	// old password. ErrNotFound when there is no such account.
	ChangePassword(ctx context.Context, id int64, passHash, keep string) error

	CreateToken(ctx context.Context, t Token) error
	// TokenAccount returns the account of an unexpired token.
	TokenAccount(ctx context.Context, hash string, now time.Time) (Account, Token, error)
	DeleteToken(ctx context.Context, hash string) error // signing out, revoking a token; no error when there is none
}

// GameStore keeps the games, the append-only log of their moves, and
// the processes that serve them (their heartbeats, for the clocks).
type GameStore interface {
	CreateGame(ctx context.Context, g Game) error
	// Game returns a game and its whole log.
	Game(ctx context.Context, id string) (Game, []Entry, error)
	// Update writes g over prev, the game as stored at prev.Version (as
	// read, or as the last Update wrote it), and appends the entries
	// (numbered from prev's Entries), when the stored game is still at
	// prev.Version; otherwise it changes nothing and returns ErrConflict.
	// g.Version must be one more than prev's. Only the columns in which g
	// differs from prev are written, so that a move does not rewrite the
	// indexes of columns it leaves alone.
	Update(ctx context.Context, g Game, prev Game, entries []Entry) error
	// Games lists games by the filter, the most recently updated first.
	Games(ctx context.Context, f Filter) ([]Game, error)
	// PlayerStats counts the account's finished games, won, lost and drawn.
	PlayerStats(ctx context.Context, account int64) (Stats, error)
	// ClaimGames moves the games of account from (a guest's) to account to,
	// in one transaction: every seat, creator and named opponent that is
	// from becomes to, and each game moved gets one more Version (so a
	// cached copy of it fails its next Update with ErrConflict). A game in
	// which to already has a part is kept by from, unchanged. The log's
	// entries keep the account that made them.
	ClaimGames(ctx context.Context, from, to int64) (Claim, error)
	// Due lists the active games whose deadline is at or before t, and the
	// waiting games that expire by then.
	Due(ctx context.Context, t time.Time) ([]Game, error)
	// Warnable lists active correspondence games whose deadline falls
	// before t and whose current entry has not been warned about.
	Warnable(ctx context.Context, t time.Time) ([]Game, error)

	// Beat records that server process proc is alive at now, or, stopped,
	// that it stopped cleanly at now.
	Beat(ctx context.Context, proc string, now time.Time, stopped bool) error
	// Resume registers a process starting (its first beat) and, when no
	// other process is alive (r.Stale), gives the running clocks back the
	// time nobody served them: from the last beat of any process to r.Now.
	// It returns that time (0 when another process is alive). The check
	// and the shift are one transaction, so of several processes starting
	// at once one shifts the clocks and the others see it alive.
	Resume(ctx context.Context, r Resume) (time.Duration, error)
}

// AnalysisStore keeps the finished games' analyses, as the server wrote
// them (JSON).
type AnalysisStore interface {
	SaveAnalysis(ctx context.Context, gameID string, body []byte) error
	Analysis(ctx context.Context, gameID string) ([]byte, error) // ErrNotFound
}

// RatingStore reads the ratings. The update of a rated game, computed by
// package ratings (server/internal/ratings, pure), is applied once by
// GameStore.Update, in the transaction that finishes the game
// (sqlstore/ratings.go).
type RatingStore interface {
	// Ratings returns the account's ratings, one per pool it played a
	// rated game in, by pool.
	Ratings(ctx context.Context, account int64) ([]Rating, error)
	// Leaderboard returns a pool's ratings with their names: the ratings
	// whose deviation is at most ProvisionalRD first, then the others,
	// each part best first; at most limit (capped at 200).
	Leaderboard(ctx context.Context, pool string, limit int) ([]Rating, error)
	// RatingHistory returns the account's last limit (capped at 500)
	// rating updates in the pool, oldest first, in the order they were
	// applied: each one's Before is the rating the one before left.
	RatingHistory(ctx context.Context, account int64, pool string, limit int) ([]RatingChange, error)
	// GameRatings returns the rating updates a game made (none, or one a
	// player).
	GameRatings(ctx context.Context, gameID string) ([]RatingChange, error)
}

// AroundStore keeps what is around a game: the players' messages and
// the rematches.
type AroundStore interface {
	// AddMessage stores a message and returns it with its id.
	AddMessage(ctx context.Context, m Message) (Message, error)
	// Chat returns a game's messages, oldest first, and its mutes.
	Chat(ctx context.Context, gameID string) (Chat, error)
	// SetMute records whether the player of seat color ("x" or "o") mutes
	// the other's messages in the game.
	SetMute(ctx context.Context, gameID, color string, muted bool) error
	// LinkRematch stores the new game g as the rematch of game of, in one
	// transaction, when of's rematch is still prev ("": none); otherwise it
	// stores nothing and returns ErrConflict.
	LinkRematch(ctx context.Context, of string, g Game, prev string) error
	// Rematch returns the id of the rematch of game of; ErrNotFound when
	// there is none.
	Rematch(ctx context.Context, of string) (string, error)
	// RematchOf returns the game whose rematch is id; ErrNotFound when id
	// is no rematch.
	RematchOf(ctx context.Context, id string) (string, error)
}

// MailStore keeps the secrets of the reply addresses mailed to players
// (moves by email).
type MailStore interface {
	// AddMailSecret stores a reply address's secret (its hash).
	AddMailSecret(ctx context.Context, m MailSecret) error
	// MailSecret returns the secret whose hash is hash; ErrNotFound when
	// there is none.
	MailSecret(ctx context.Context, hash string) (MailSecret, error)
	// DeleteMailSecrets deletes every secret of a game (it has ended).
	DeleteMailSecrets(ctx context.Context, gameID string) error
}

// Resume is a process's start, for Store.Resume.
type Resume struct {
	Process string    // the process's id
	Now     time.Time // its start
	// Stale: a process whose last beat is older than this (and not a clean
	// stop) is taken as gone.
	Stale time.Duration
	// DaysAfter: the deadlines of correspondence games move only after a
	// downtime longer than this; live clocks move after any.
	DaysAfter time.Duration
}

// Message is a line a player of a game wrote to the other.
type Message struct {
	ID     int64
	GameID string
	Color  string // the writer's seat: "x" or "o"
	By     int64  // the writer's account
	Text   string
	At     time.Time
}

// Chat is a game's messages, oldest first, and the seats whose player
// muted the other's messages.
type Chat struct {
	Messages []Message
	Muted    []string // "x", "o"
}

// Conditional moves and vacation.

// Conditional is a player's tree of conditional moves in a game: answers
// to the opponent's possible moves, left while it is the opponent's move
// and played by the server when the opponent's move matches. The tree
// holds only while the game's log is as long as Entry: any other change
// (a move it did not name, a takeback, the end) leaves it stale.
type Conditional struct {
	GameID  string
	Color   string // the owner's seat: "x" or "o"
	Account int64  // the owner's account
	Entry   int    // the game's log length the tree was left at
	Ply     int    // the game's ply then
	Tree    string // the tree in JSON; "" for none
	// Played is the log entry of the last reply played from a tree of
	// this seat (-1: none), for the opponent's mail.
	Played int
	// Note is what the owner is told about their last tree (an illegal
	// reply cancelled it), about the log entry NoteEntry (-1: none).
	Note      string
	NoteEntry int
	Updated   time.Time
}

// Vacation is an account's vacation: the time banked as of Accrued, and
// since when it is on vacation (zero: it is not).
type Vacation struct {
	Account int64
	Since   time.Time
	Bank    time.Duration
	Accrued time.Time
}

// ConditionalStore keeps the conditional moves and the vacations.
type ConditionalStore interface {
	// SetConditional stores a seat's conditional moves, replacing what
	// the seat had in the game.
	SetConditional(ctx context.Context, c Conditional) error
	// Conditional returns a seat's conditional moves; ErrNotFound when the
	// seat never left any.
	Conditional(ctx context.Context, gameID, color string) (Conditional, error)
	// Vacation returns an account's vacation; ErrNotFound when none was
	// ever stored.
	Vacation(ctx context.Context, account int64) (Vacation, error)
	// SetVacation stores v when the account's stored Since is still prev
	// (zero also when nothing is stored); otherwise it changes nothing and
	// returns ErrConflict.
	SetVacation(ctx context.Context, v Vacation, prev time.Time) error
	// OnVacation lists the vacations under way.
	OnVacation(ctx context.Context) ([]Vacation, error)
}

// TournamentStore keeps the tournaments, their players and their
// games' slots.
type TournamentStore interface {
	// CreateTournament stores a new tournament (ErrDuplicate when its id
	// is taken).
	CreateTournament(ctx context.Context, t Tournament) error
	// Tournament returns a tournament, its players (by join time) and its
	// slots (by round and slot), each slot with its game's state.
	Tournament(ctx context.Context, id string) (Tournament, []TournamentPlayer, []TournamentGame, error)
	// Tournaments lists the tournaments in a state ("" for all), the most
	// recently created first, at most limit (capped at 200), each with its
	// count of players.
	Tournaments(ctx context.Context, state string, limit int) ([]Tournament, error)
	// UpdateTournament applies a change in one transaction, when the
	// tournament is still at version ch.Expect; otherwise it changes
	// nothing and returns ErrConflict.
	UpdateTournament(ctx context.Context, ch TournamentChange) error
	// TournamentGames returns the slots whose game is one of ids (at most
	// one a game).
	TournamentGames(ctx context.Context, ids []string) ([]TournamentGame, error)
}

// MailSecret is the secret of a reply address mailed to a player (moves by
// email): the address plays for one seat of one game, at the ply
// of the board its mail showed.
type MailSecret struct {
	Hash    string // hex SHA-256 of the secret
	GameID  string
	Color   string // "x" or "o"
	Ply     int
	Created time.Time
}
