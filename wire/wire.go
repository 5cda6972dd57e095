package wire

import (
	"encoding/json"
	"time"

	"alak/rules"
	"alak/session"
	"alak/solve"
	"alak/tournament"
)

// Every body the API reads or writes, as JSON, in the order of
// docs/api.md: accounts, lists, games, play, notifications, ratings,
// around a game, conditional moves and vacation, tournaments, the
// analysis board and the rule lab. The error answer is Error (errors.go).
// A game's state embeds session.Snapshot and an analysis is made of
// session.PlyView, the shapes the command line prints too; a tournament's
// standings are tournament.Standing's lines as they are.
//
// A type whose answer the server once wrote as a JSON object built on the
// spot (MyGames, Games, Player, Token, ...) keeps that object's field
// order, which is alphabetical: the bytes of the answers do not change.

// Accounts: sign-up, sign-in, tokens, /api/me.

// LoginRequest is POST /api/login.
type LoginRequest struct {
	Credentials
	ClaimGuestGames bool `json:"claim_guest_games"`
}

// UpdateMeRequest is PUT /api/me: the fields given are changed.
type UpdateMeRequest struct {
	Email        *string `json:"email"`
	ConfirmMoves *bool   `json:"confirm_moves"`
	Password     *string `json:"password"`
	// CurrentPassword must come with Password: whoever holds a stolen
	// cookie or token does not know it.
	CurrentPassword string `json:"current_password"`
	Vacation        *bool  `json:"vacation"` // start or end a vacation
}

// Credentials is POST /api/accounts, and the name and password of POST
// /api/login.
type Credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	Email    string `json:"email,omitempty"`
	Bot      bool   `json:"bot,omitempty"` // POST /api/accounts: a bot account
}

// Account is what signing up and signing in answer: the account, and
// the guest's games it took over, if any.
type Account struct {
	Me
	Claimed *Claim `json:"claimed,omitempty"`
}

// Me is the signed-in account as /api/me sends it.
type Me struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	Guest        bool   `json:"guest"`
	Email        string `json:"email,omitempty"`
	ConfirmMoves bool   `json:"confirm_moves"`
	Bot          bool   `json:"bot,omitempty"` // a bot account
}

// Claim says which of a guest's games an account took over when it
// signed up or signed in from the guest's session (POST /api/accounts,
// POST /api/login with "claim_guest_games"): the games moved to it, and
// those kept by the guest because the account already sat in them (one
// account cannot hold both seats of a game).
type Claim struct {
	From  string   `json:"from"` // the guest's name, guest-N
	Moved []string `json:"moved"`
	Kept  []string `json:"kept"`
}

// Lists: the lobby, my games, all games.

// Summary is a game in a list.
type Summary struct {
	ID       string          `json:"id"`
	Rules    string          `json:"rules"`
	Preset   string          `json:"preset"`
	Size     string          `json:"size"`
	State    string          `json:"state"`
	Kind     string          `json:"kind"`
	Invitee  string          `json:"invitee,omitempty"` // a named challenge's opponent
	Clock    string          `json:"clock"`
	Players  map[string]Seat `json:"players"`
	Ply      int             `json:"ply"`
	ToMove   string          `json:"to_move,omitempty"` // in an active game
	MyTurn   bool            `json:"my_turn,omitempty"`
	Deadline *time.Time      `json:"deadline,omitempty"`
	Result   string          `json:"result,omitempty"` // SGF RE form
	Reason   string          `json:"reason,omitempty"`
	Winner   string          `json:"winner,omitempty"`
	Updated  time.Time       `json:"updated"`
	Expires  *time.Time      `json:"expires,omitempty"`
	GameRatings
	AllowBots  bool           `json:"allow_bots,omitempty"` // an open challenge bots may take
	Tournament *TournamentRef `json:"tournament,omitempty"` // a tournament's game
}

// Games: the rules, a new game, joining, a game's state, its positions
// and its analysis.

// DeclineRequest is POST /api/games/{id}/decline: why, optionally (a
// bot says which rules it plays).
type DeclineRequest struct {
	Reason string `json:"reason"`
}

// JoinRequest is POST /api/games/{id}/join.
type JoinRequest struct {
	Invite string `json:"invite,omitempty"` // a link challenge's secret
}

// RulesInfo describes the presets and options for the create form.
type RulesInfo struct {
	Presets []Preset       `json:"presets"`
	Options []rules.Option `json:"options"`
	Levels  []string       `json:"levels"`
	Days    []int          `json:"days"`
}

// Preset is one preset with its defaults and the options it uses.
type Preset struct {
	Name     string            `json:"name"`
	Size     string            `json:"size"`
	Grid     bool              `json:"grid"`
	Sliding  bool              `json:"sliding"`
	Values   map[string]string `json:"values"`
	Applies  []string          `json:"applies"`
	Describe string            `json:"describe"`
}

// CreateRequest is POST /api/games.
type CreateRequest struct {
	Rules    string `json:"rules"`              // "alak size=11 edge=off"
	Position string `json:"position,omitempty"` // an optional start: a diagram, as --position
	ToMove   string `json:"to_move,omitempty"`  // with position
	Color    string `json:"color"`              // x, o, random
	Clock    string `json:"clock"`              // none, live:5m+3s, days:3
	Opponent string `json:"opponent"`           // NAME, open, link, computer:SPEC
	Rated    *bool  `json:"rated,omitempty"`    // default: rated between two accounts
	// AllowBots lets bot accounts take an open challenge.
	AllowBots bool `json:"allow_bots,omitempty"`
}

// Created is what POST /api/games answers.
type Created struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Invite string `json:"invite,omitempty"` // the invitation link (opponent "link")
}

// Game is a game as the API and the event stream send it: the
// session's snapshot (the fields of alak replay --json, and the rest of
// session.Snapshot) with the game's id, rules, players, moves, clocks and
// state. Its "rules" is the whole rules string ("alak size=11"), as
// POST /api/games takes it; the preset alone is in "preset".
type Game struct {
	session.Snapshot
	Around
	ID        string          `json:"id"`
	Rules     string          `json:"rules"`
	Preset    string          `json:"preset"`
	State     string          `json:"state"` // waiting, active, finished, aborted, expired
	Kind      string          `json:"kind"`  // named, open, link, computer
	Invitee   string          `json:"invitee,omitempty"`
	Players   map[string]Seat `json:"players"`
	Moves     []string        `json:"moves"` // every move on the board, in the one move form
	Notation  []string        `json:"notation"`
	Clock     Clock           `json:"clock"`
	Version   int             `json:"version"`
	EventID   string          `json:"event_id"` // the id of this state's event: PLY.VERSION
	SGFResult string          `json:"sgf_result,omitempty"`
	Created   time.Time       `json:"created"`
	Updated   time.Time       `json:"updated"`
	Expires   *time.Time      `json:"expires,omitempty"`
	RulesText string          `json:"rules_text"`
	GameRatings
	AllowBots  bool           `json:"allow_bots,omitempty"` // an open challenge bots may take
	Tournament *TournamentRef `json:"tournament,omitempty"` // a tournament's game
}

// GameHead is the head of a Game, for a client that follows many games
// and reads little of each state (the load tool): the state, the ply, the
// player to move, whether the game is over, and the legal moves, left
// undecoded until the player to move needs them. Each field is Game's of
// the same JSON name (TestGameHead checks it).
type GameHead struct {
	State  string          `json:"state"`
	Ply    int             `json:"ply"`
	ToMove string          `json:"to_move"`
	Over   bool            `json:"over"`
	Legal  json.RawMessage `json:"legal"`
}

// Seat is one seat of a game: who sits in it.
type Seat struct {
	Name     string `json:"name,omitempty"` // "" while the seat is empty
	Computer bool   `json:"computer,omitempty"`
	Guest    bool   `json:"guest,omitempty"`
	Bot      bool   `json:"bot,omitempty"` // a bot account
}

// Clock is the time control and where each clock stands.
type Clock struct {
	Spec      string `json:"spec"`  // "none", "live:5m+3s", "days:3"
	Words     string `json:"words"` // "5m + 3s", "3 days a move"
	XMillis   int64  `json:"x_ms"`  // live: each player's time left at the start of the current turn
	OMillis   int64  `json:"o_ms"`
	Running   string `json:"running,omitempty"`    // whose clock runs: "x", "o", or "" when none does
	TurnStart int64  `json:"turn_start,omitempty"` // when the running clock started, ms since 1970
	Deadline  int64  `json:"deadline,omitempty"`   // when the player to move loses on time, ms since 1970
	// FirstMoveDeadline: in a live game whose player to move has yet to
	// make their first move, when the game is aborted unless they move, ms
	// since 1970. No clock runs then (running, turn_start and deadline
	// are absent).
	FirstMoveDeadline int64 `json:"first_move_deadline,omitempty"`
	// Paused: a correspondence game stopped by a player's vacation (no
	// deadline; x_ms or o_ms keep the time the player to move has left),
	// and the seats on vacation with when their vacation ends at the latest.
	Paused   bool      `json:"paused,omitempty"`
	Vacation SeatTimes `json:"vacation,omitzero"`
}

// Positions is GET /api/games/{id}/positions: the diagram of every
// position of the game from its start, for the replay (index i is the
// position after i moves), with each side's stones.
type Positions struct {
	Positions []string         `json:"positions"`
	Stones    []map[string]int `json:"stones"`
}

// Analysis is the exact value of every move of a finished game, as
// alak analyze prints it.
type Analysis struct {
	Game  string            `json:"game"`
	Moves []session.PlyView `json:"moves"`
	Error string            `json:"error,omitempty"` // why there is no analysis (or only part of it), in a player's words
	Code  string            `json:"code,omitempty"`  // the same as a name: too_large, unsupported, budget, failed
	At    time.Time         `json:"at"`
}

// Play: moves and the other actions of a player.

// ActionRequest is the body of a player's action other than a move
// (resign, abort, draw, takeback): the answer to an offer, and the ply the
// client saw.
type ActionRequest struct {
	Accept *bool `json:"accept"`
	Ply    *int  `json:"ply"`
}

// MoveRequest is POST /api/games/{id}/moves.
type MoveRequest struct {
	Move string `json:"move"` // in any notation alak reads: 3, c, C1, 1-4, pass, resign
	Ply  *int   `json:"ply"`  // the moves already played, as the snapshot the client saw says
}

// Notifications: the header's badge.

// Turns is GET /api/me/turns: the games where it is my move (their
// ids, the soonest deadline first) and the challenges addressed to me.
type Turns struct {
	Turns      int      `json:"turns"`
	Challenges int      `json:"challenges"`
	Games      []string `json:"games"`
}

// Ratings: a game's ratedness and seats' ratings, a player's
// ratings and their history, the leaderboard.

// GameRatings is a game's part of the ratings, in Game and
// Summary.
type GameRatings struct {
	Rated bool `json:"rated"`
	// Ratings: each seat's rating when the seat was taken ("x", "o"; a
	// computer or a guest has none), with the game's change once a rated
	// game is over.
	Ratings map[string]SeatRating `json:"ratings,omitempty"`
}

// SeatRating is a seat's rating in the game's pool.
type SeatRating struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Provisional bool    `json:"provisional"`
	Shown       string  `json:"shown"` // "1662" or, provisional, "1662?"
	// RatingChange and RatingAfter: what the game did to the rating
	// (after a rated game with a result).
	RatingChange *float64 `json:"rating_change,omitempty"`
	RatingAfter  *float64 `json:"rating_after,omitempty"`
}

// PoolRating is a player's rating in one pool (GET /api/players/{name}).
type PoolRating struct {
	Pool        string  `json:"pool"`
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Volatility  float64 `json:"volatility"`
	Games       int     `json:"games"`
	Provisional bool    `json:"provisional"`
	Shown       string  `json:"shown"`
}

// Leaderboard is GET /api/leaderboard.
type Leaderboard struct {
	Pool    string            `json:"pool"`
	Players []LeaderboardLine `json:"players"`
}

// LeaderboardLine is one player of a leaderboard. Rank is the place in
// the list from 1, the settled ratings first: a provisional rating has a
// rank too, after every settled one (the page writes it "3?").
type LeaderboardLine struct {
	Rank        int     `json:"rank"`
	Name        string  `json:"name"`
	Bot         bool    `json:"bot,omitempty"` // a bot account
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Games       int     `json:"games"`
	Provisional bool    `json:"provisional"`
	Shown       string  `json:"shown"`
}

// RatingHistory is GET /api/players/{name}/ratings: the rating after
// each rated game of a pool, oldest first.
type RatingHistory struct {
	Name    string              `json:"name"`
	Pool    string              `json:"pool"`
	History []RatingHistoryLine `json:"history"`
}

// RatingHistoryLine is one rated game's update.
type RatingHistoryLine struct {
	Game   string    `json:"game"`
	At     time.Time `json:"at"`
	Rating float64   `json:"rating"` // after the game
	RD     float64   `json:"rd"`
	Change float64   `json:"change"`
}

// Around a game: rematches, messages between the players, games
// to watch.

// RematchRequest is POST /api/games/{id}/rematch: an offer (or the
// acceptance of the opponent's), or with decline the refusal of the
// opponent's offer.
type RematchRequest struct {
	Decline bool `json:"decline"`
}

// Rematch is what POST /api/games/{id}/rematch answers: the new game.
type Rematch struct {
	ID    string `json:"id"`
	By    string `json:"by,omitempty"`    // who offered it, by their seat in this game: x or o
	State string `json:"state,omitempty"` // the new game's: waiting (offered), active, finished, aborted, expired (declined or not taken)
}

// MessageRequest is POST /api/games/{id}/messages.
type MessageRequest struct {
	Text string `json:"text"`
}

// Message is one message between the players.
type Message struct {
	From  string    `json:"from"`  // the writer's name
	Color string    `json:"color"` // the writer's seat: x or o
	Text  string    `json:"text"`
	At    time.Time `json:"at"`
}

// MuteRequest is POST /api/games/{id}/mute.
type MuteRequest struct {
	Muted *bool `json:"muted"`
}

// WatchGame is a game in progress on the watch list: its summary and the
// streams watching it that are not its players'.
type WatchGame struct {
	Summary
	Spectators int `json:"spectators"`
}

// Around is what Game shows around the game: the rematch of a game
// that is over, and (GET only) the spectators' streams.
type Around struct {
	Rematch    *Rematch `json:"rematch,omitempty"`
	Spectators *int     `json:"spectators,omitempty"`
}

// Conditional moves and vacation.

// CondNode is one answer of a tree of conditional moves: the reply to
// play to the opponent's move that keys it, and the answers after it.
type CondNode struct {
	Move string               `json:"move"`
	Then map[string]*CondNode `json:"then,omitempty"`
}

// ConditionalRequest is PUT /api/games/{id}/conditional: the tree, keyed
// by the opponent's possible moves, left at the game's ply.
type ConditionalRequest struct {
	Ply  *int                 `json:"ply"`
	Tree map[string]*CondNode `json:"tree"`
}

// Conditional is a player's conditional moves as their owner sees
// them: the tree while it holds ({} when none), at the game's ply, and a
// note about the last tree (an illegal reply cancelled it).
type Conditional struct {
	Ply  int                  `json:"ply"`
	Tree map[string]*CondNode `json:"tree"`
	Note string               `json:"note,omitempty"`
	// Line and Position: GET ?line=4,6 (the editor) gives the position
	// after the game's moves and the line's, for the next move to choose.
	Line     []string          `json:"line,omitempty"`
	Position *session.Snapshot `json:"position,omitempty"`
}

// VacationStatus is the account's vacation in /api/me: whether it is on
// vacation, until when at the latest, the days it has left (tenths), and
// when the next month's days are credited.
type VacationStatus struct {
	Vacation bool       `json:"vacation"`
	DaysLeft float64    `json:"vacation_days_left"`
	Until    *time.Time `json:"vacation_until,omitempty"`
	Next     *time.Time `json:"vacation_next_credit,omitempty"`
}

// SeatTimes is a time for each seat that has one.
type SeatTimes struct {
	X *time.Time `json:"x,omitempty"`
	O *time.Time `json:"o,omitempty"`
}

// MeVacation is GET and PUT /api/me's answer.
type MeVacation struct {
	Me
	VacationStatus
}

// Tournaments.

// TournamentRequest is POST /api/tournaments.
type TournamentRequest struct {
	Name       string `json:"name"`
	Rules      string `json:"rules"`  // a preset and its options, as a game's
	Clock      string `json:"clock"`  // live:5m+3s or days:3
	Format     string `json:"format"` // round-robin, double-round-robin, swiss, knockout
	Rounds     int    `json:"rounds"` // Swiss only; 0: ceil(log2 players)
	Rated      *bool  `json:"rated"`  // default: rated when the rules are a preset's own
	MaxPlayers int    `json:"max_players"`
	Starts     string `json:"starts"` // RFC 3339; "": when the organiser says
	Play       bool   `json:"play"`   // the organiser joins it at once
}

// Tournament is a tournament as GET /api/tournaments/{id} and its
// event stream send it.
type Tournament struct {
	ID         string                `json:"id"`
	URL        string                `json:"url"`
	Name       string                `json:"name"`
	Organiser  string                `json:"organiser"`
	Format     string                `json:"format"`
	Rules      string                `json:"rules"`
	Clock      string                `json:"clock"`
	Rated      bool                  `json:"rated"`
	Rounds     int                   `json:"rounds,omitempty"`
	MaxPlayers int                   `json:"max_players,omitempty"`
	Starts     *time.Time            `json:"starts,omitempty"`
	State      string                `json:"state"` // open, running, finished
	Round      int                   `json:"round"`
	Version    int                   `json:"version"`
	Players    []TournamentPlayer    `json:"players"`
	Games      []TournamentGame      `json:"games"`
	Standings  []tournament.Standing `json:"standings"`
	Crosstable *Crosstable           `json:"crosstable,omitempty"` // round robins
	Bracket    []BracketRound        `json:"bracket,omitempty"`    // knockouts
	Winner     string                `json:"winner,omitempty"`
}

// TournamentPlayer is a player of a tournament.
type TournamentPlayer struct {
	Name      string  `json:"name"`
	Rating    float64 `json:"rating"`
	Withdrawn bool    `json:"withdrawn,omitempty"`
}

// TournamentGame is one slot of a round: its game, or a bye, or a
// forfeit without a game.
type TournamentGame struct {
	ID      string `json:"id,omitempty"` // the game ("" for a bye or a forfeit without a game)
	Round   int    `json:"round"`
	Slot    int    `json:"slot"`
	X       string `json:"x"`
	O       string `json:"o,omitempty"` // "" for a bye
	State   string `json:"state"`       // the game's state; "bye" or "forfeit" without a game
	Result  string `json:"result"`      // pending, x, o, draw, both-lose
	Forfeit bool   `json:"forfeit,omitempty"`
}

// Crosstable is a round robin's crosstable: names in standings order
// and cells[i][j] the results of names[i] against names[j] ("1", "½",
// "0", "+" and "-" for forfeits, "*" in progress, space separated).
type Crosstable struct {
	Names  []string   `json:"names"`
	Scores []float64  `json:"scores"`
	Cells  [][]string `json:"cells"`
}

// BracketRound is one round of a knockout's bracket.
type BracketRound struct {
	Round   int     `json:"round"`
	Matches []Match `json:"matches"`
}

// Match is one match of the bracket.
type Match struct {
	Players      [2]string  `json:"players"` // "" until known
	Seeds        [2]int     `json:"seeds"`
	Points       [2]float64 `json:"points"`
	Winner       string     `json:"winner,omitempty"`
	Bye          bool       `json:"bye,omitempty"`
	ByHigherSeed bool       `json:"by_higher_seed,omitempty"`
}

// TournamentSummary is a tournament in GET /api/tournaments.
type TournamentSummary struct {
	ID      string `json:"id"`
	URL     string `json:"url"`
	Name    string `json:"name"`
	Format  string `json:"format"`
	Rules   string `json:"rules"`
	Clock   string `json:"clock"`
	State   string `json:"state"`
	Round   int    `json:"round"`
	Players int    `json:"players"`
	Winner  string `json:"winner,omitempty"`
}

// TournamentRef names the tournament and round of a tournament's game, in
// Game and Summary.
type TournamentRef struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Round int    `json:"round"`
}

// The analysis board.

// Board is GET /api/board's answer: the rules as rules.Parse reads
// them, the board's shape and size, the line played (MoveText) and the
// position it reaches, as a game's snapshot writes it.
type Board struct {
	Rules    string           `json:"rules"`
	Shape    string           `json:"shape"` // line, grid, slide
	Width    int              `json:"width"`
	Height   int              `json:"height"`
	Moves    []string         `json:"moves"`
	Position session.Snapshot `json:"position"`
}

// BoardTree is a game tree of the board: its rules, its start (a
// diagram and the player to move when set up), the comment before the
// first move, and the moves from the start with their variations.
type BoardTree struct {
	Rules    string      `json:"rules"`
	Position string      `json:"position,omitempty"`
	ToMove   string      `json:"to_move,omitempty"`
	Comment  string      `json:"comment,omitempty"`
	Tree     []BoardNode `json:"tree"`
}

// BoardNode is a move of a BoardTree, its comment and the moves after it,
// the first the main line.
type BoardNode struct {
	Move     string      `json:"move"`
	Comment  string      `json:"comment,omitempty"`
	Children []BoardNode `json:"children,omitempty"`
}

// The rule lab: GET /api/rulelab.

// RuleLab is GET /api/rulelab: the rule lab's table as `alak solve
// --table --variants --json` prints it (solve.LabTable: a column for the
// alak preset and one a variant, a row a size, each cell the empty line's
// value and best openings), the command that made it, and for each column
// what its rules change and where the rules page explains them.
type RuleLab struct {
	Command string          `json:"command"`
	Columns []RuleLabColumn `json:"columns"`
	Rows    []solve.LabRow  `json:"rows"`
}

// RuleLabColumn is a column of RuleLab: solve.LabColumn's fields, a
// sentence saying what the variant changes, and the rules page's section
// for its option.
type RuleLabColumn struct {
	solve.LabColumn
	Says string `json:"says"`
	Link string `json:"link"`
}

// MyGames is GET /api/me/games: the account's games under way or waiting
// (its turn first, then the soonest deadline), the challenges addressed to
// it, and its last 20 games over. No list is null.
type MyGames struct {
	Challenges []Summary `json:"challenges"`
	Finished   []Summary `json:"finished"`
	Games      []Summary `json:"games"`
}

// Games is a list of games: GET /api/games and GET /api/lobby.
type Games struct {
	Games []Summary `json:"games"`
}

// Player is GET /api/players/{name}: the player's record over all their
// finished games, and their rating in each pool they played rated games
// in.
type Player struct {
	Bot      bool         `json:"bot"`
	Draws    int          `json:"draws"`
	Finished int          `json:"finished"`
	Losses   int          `json:"losses"`
	Name     string       `json:"name"`
	Ratings  []PoolRating `json:"ratings"`
	Since    time.Time    `json:"since"`
	Wins     int          `json:"wins"`
}

// Token is POST /api/tokens's answer: a bearer token, shown once, and when
// it expires.
type Token struct {
	Expires time.Time `json:"expires"`
	Token   string    `json:"token"`
}

// Status is the answer of a call that has nothing else to say: "signed
// out", "revoked"; or, answered 202 with a message, "queued": the work is
// under way, ask again.
type Status struct {
	Message string `json:"message,omitempty"`
	Status  string `json:"status"`
}

// Muted is POST /api/games/{id}/mute's answer: whether the opponent's
// messages are now hidden.
type Muted struct {
	Muted bool `json:"muted"`
}

// AccountEvent is one event of GET /api/me/events: its type, the game as
// the lists show it (rules, clock, players, ratedness; result once over;
// a tournament's game, its tournament and round), the account's colour
// in it ("x", "o", or for a challenge whose creator asked for a random
// colour, "random"), and a game from a set-up position's start (the
// position's text, "" for the rules' own start; GET /api/games/{id} shows
// its board).
type AccountEvent struct {
	Type string `json:"type"`
	Summary
	Color    string `json:"color"`
	Position string `json:"position,omitempty"`
}

// WatchList is GET /api/watch: the games in progress to watch.
type WatchList struct {
	Games []WatchGame `json:"games"`
}

// Tournaments is GET /api/tournaments.
type Tournaments struct {
	Tournaments []TournamentSummary `json:"tournaments"`
}

// Explorer is the answer of GET /api/explorer: the moves the finished
// games of the archive played from a position reached from the rules' own
// start, the most played first.
type Explorer struct {
	Rules string         `json:"rules"`
	Moves []ExplorerMove `json:"moves"`
}

// ExplorerMove is one move of Explorer: the games that played it and
// their results (x_wins + draws + o_wins may be less than games: a game
// can end without a winner).
type ExplorerMove struct {
	Move  string `json:"move"`
	Games int64  `json:"games"`
	XWins int64  `json:"x_wins"`
	Draws int64  `json:"draws"`
	OWins int64  `json:"o_wins"`
}

// PositionAnalysis is the answer of GET /api/analysis: the exact value of
// a position and of each of its legal moves (Black's margin under perfect
// play), as `alak solve --json` gives them, with the depths to the end.
type PositionAnalysis struct {
	Rules    string `json:"rules"`
	Position string `json:"position"`
	ToMove   string `json:"to_move"`
	// Value, Outcome, Best and PV are set only when Complete.
	Value   *float64 `json:"value"`
	Outcome string   `json:"outcome,omitempty"`
	// Depth is the number of plies to the end under perfect play (the
	// winner's quickest, the loser's longest); null for a draw, a value
	// not complete, or rules or a size whose depths were not computed.
	Depth *int     `json:"depth"`
	Best  []string `json:"best"`
	PV    []string `json:"pv"`
	// Moves are the legal moves in board order; when not Complete, only
	// those whose value was proved.
	Moves    []MoveAnalysis `json:"moves"`
	Source   string         `json:"source"` // "table" or "search"
	Complete bool           `json:"complete"`
	Nodes    int64          `json:"nodes"`
	// Bound, when not Complete, is what the moves proved say of the value
	// (nil when none was proved); Message says why it is not complete,
	// Budget the positions the search was allowed.
	Bound   *ValueBound `json:"bound,omitempty"`
	Budget  int64       `json:"budget,omitempty"`
	Message string      `json:"message,omitempty"`
}

// MoveAnalysis is one legal move's exact value and depth to the end after
// it (null as in PositionAnalysis.Depth).
type MoveAnalysis struct {
	Move  string  `json:"move"`
	Value float64 `json:"value"`
	Depth *int    `json:"depth"`
}

// ValueBound bounds Black's margin: at least AtLeast (Black to move, who
// has a move worth that) or at most AtMost (White to move).
type ValueBound struct {
	AtLeast *float64 `json:"at_least,omitempty"`
	AtMost  *float64 `json:"at_most,omitempty"`
}
