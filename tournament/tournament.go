package tournament

import (
	"errors"
	"fmt"
	"sort"
)

// Format is a tournament's pairing system, by its stable name.
type Format string

// The formats.
const (
	FormatRoundRobin       Format = "round-robin"
	FormatDoubleRoundRobin Format = "double-round-robin"
	FormatSwiss            Format = "swiss"
	FormatKnockout         Format = "knockout"
)

// Formats lists every format, in the order the docs give them.
var Formats = []Format{FormatRoundRobin, FormatDoubleRoundRobin, FormatSwiss, FormatKnockout}

// ParseFormat returns the format named s, or an error naming the accepted ones.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w: format %q: want round-robin, double-round-robin, swiss or knockout", ErrInvalid, s)
}

// Limits on a state, so that a pairing's work is bounded.
const (
	MinPlayers = 2
	MaxPlayers = 512
	// MaxSwissRounds bounds State.Rounds for a Swiss tournament.
	MaxSwissRounds = 64
)

// ErrInvalid is wrapped by every error about a state that cannot be paired
// (unknown format, too few players, a game naming an unknown player ...).
var ErrInvalid = errors.New("invalid tournament state")

// Player is an entrant. Names are unique within a tournament; Rating seeds
// and breaks ties (higher first, then name). A withdrawn player is paired no
// more and forfeits every unplayed game (see Step.Forfeits).
type Player struct {
	Name      string  `json:"name"`
	Rating    float64 `json:"rating"`
	Withdrawn bool    `json:"withdrawn,omitempty"`
}

// Outcome is a game's result.
type Outcome int

// The outcomes. A forfeit is XWins or OWins with Game.Forfeit set;
// BothLose is a double forfeit (both players withdrawn, or a deadline
// passed before either moved): 0 points to each.
const (
	Pending Outcome = iota
	XWins
	OWins
	Draw
	BothLose
)

var outcomeNames = [...]string{"pending", "x", "o", "draw", "both-lose"}

// String is the outcome's stable name: pending, x, o, draw, both-lose.
func (o Outcome) String() string {
	if o < 0 || int(o) >= len(outcomeNames) {
		return fmt.Sprintf("Outcome(%d)", int(o))
	}
	return outcomeNames[o]
}

// MarshalText writes the outcome's name, so that JSON shows "x", "draw" ...
func (o Outcome) MarshalText() ([]byte, error) {
	if o < 0 || int(o) >= len(outcomeNames) {
		return nil, fmt.Errorf("%w: outcome %d", ErrInvalid, int(o))
	}
	return []byte(o.String()), nil
}

// UnmarshalText reads a name written by MarshalText.
func (o *Outcome) UnmarshalText(b []byte) error {
	v, err := ParseOutcome(string(b))
	if err != nil {
		return err
	}
	*o = v
	return nil
}

// ParseOutcome reads a name written by Outcome.String.
func ParseOutcome(s string) (Outcome, error) {
	for i, n := range outcomeNames {
		if n == s {
			return Outcome(i), nil
		}
	}
	return 0, fmt.Errorf("%w: outcome %q: want pending, x, o, draw or both-lose", ErrInvalid, s)
}

// Game is one game of a tournament. Round counts from 1; Slot is the game's
// place in its round (from 0), unique with Round, so (Round, Slot) keys a
// game for its whole life (an aborted game is replayed under the same key).
// X moves first. O == "" is a bye: X is paired with nobody and its Outcome
// is XWins (a Swiss bye scores 1 point; a knockout bye only advances).
//
// Next may return games that are already decided: byes, and the games of a
// withdrawn player (Forfeit set). They are recorded as they are, with no
// board game to play.
type Game struct {
	Round   int     `json:"round"`
	Slot    int     `json:"slot"`
	X       string  `json:"x"`
	O       string  `json:"o"`
	Outcome Outcome `json:"outcome"`
	Forfeit bool    `json:"forfeit,omitempty"`
}

// Bye reports whether g is a bye.
func (g Game) Bye() bool { return g.O == "" }

// Finished reports whether g has a result.
func (g Game) Finished() bool { return g.Outcome != Pending }

// points returns what X and O score in g.
func (g Game) points() (x, o float64) {
	switch g.Outcome {
	case XWins:
		return 1, 0
	case OWins:
		return 0, 1
	case Draw:
		return 0.5, 0.5
	}
	return 0, 0
}

// State is everything the pairing reads: the tournament's id (it seeds the
// knockout deciders' lot), its format, the number of rounds (Swiss only; 0
// takes SwissRounds of the player count), whether every game of a round
// robin is created at once (correspondence) or round by round (live; a
// knockout match's two games at once, or one after the other), the players
// and every game created so far with its result.
type State struct {
	ID        string
	Format    Format
	Rounds    int
	AllAtOnce bool
	Players   []Player
	Games     []Game
}

// Step is what Next decides: the pending games to record as forfeits now
// (a withdrawn player's; the opponent wins, or BothLose), the games to
// create now, the round in progress after them, and whether the tournament
// is over and who won it. Forfeits and Games are to be recorded even when
// Finished is set: the step that ends a tournament can carry decided games
// (a withdrawn finalist's forfeit), never games to play.
type Step struct {
	Forfeits []Game
	Games    []Game
	Round    int
	Finished bool
	Winner   string
}

// Standing is one line of the standings. Ranks run 1, 2, 3 ... with no
// ties: equal scores and tie-breaks fall back to the higher rating, then
// the name. Tiebreaks are, in order: Sonneborn-Berger (round robins);
// Buchholz then Sonneborn-Berger (Swiss); the bracket round reached
// (knockout). Played counts finished games against an opponent
// (forfeits included, byes not).
type Standing struct {
	Rank      int       `json:"rank"`
	Name      string    `json:"name"`
	Score     float64   `json:"score"`
	Tiebreaks []float64 `json:"tiebreaks"`
	Played    int       `json:"played"`
}

// Next returns what to do now in a tournament: the games to create (none
// while games of the current round are pending), the forfeits to record, or
// the end with its winner. It is deterministic: the same state gives the
// same step, so a restart re-creates nothing and loses nothing.
func Next(s State) (Step, error) {
	if err := s.validate(); err != nil {
		return Step{}, err
	}
	fs := forfeits(s)
	s = s.withGames(fs)
	// Games created already decided (byes, a withdrawn player's) can
	// decide a match or end a round by themselves: go on while a step
	// creates a decided game.
	var created []Game
	for {
		st, err := next(s)
		if err != nil {
			return Step{}, err
		}
		created = append(created, st.Games...)
		s.Games = append(s.Games, st.Games...)
		if !anyFinished(st.Games) {
			st.Forfeits, st.Games = fs, created
			return st, nil
		}
	}
}

func next(s State) (Step, error) {
	switch s.Format {
	case FormatRoundRobin, FormatDoubleRoundRobin:
		return nextRoundRobin(s)
	case FormatSwiss:
		return nextSwiss(s)
	}
	return nextKnockout(s)
}

// SwissRounds is the default number of Swiss rounds for n players: enough
// for one winner to stand out, ceil(log2 n), at least 1, at most n-1 (n
// when n is odd: every player can then sit out once).
func SwissRounds(n int) int {
	r := 0
	for 1<<r < n {
		r++
	}
	return max(1, min(r, maxSwissRounds(n)))
}

func maxSwissRounds(n int) int {
	if n%2 == 1 {
		return n
	}
	return max(1, n-1)
}

// rounds is the number of rounds the state's format plays.
func (s State) rounds() int {
	n := len(s.Players)
	switch s.Format {
	case FormatRoundRobin:
		return n + n%2 - 1
	case FormatDoubleRoundRobin:
		return 2 * (n + n%2 - 1)
	case FormatSwiss:
		if s.Rounds == 0 {
			return SwissRounds(n)
		}
		return s.Rounds
	case FormatKnockout:
		r := 0
		for 1<<r < n {
			r++
		}
		return r
	}
	return 0
}

func (s State) validate() error {
	if _, err := ParseFormat(string(s.Format)); err != nil {
		return err
	}
	n := len(s.Players)
	if n < MinPlayers || n > MaxPlayers {
		return fmt.Errorf("%w: %d players: want %d to %d", ErrInvalid, n, MinPlayers, MaxPlayers)
	}
	names := make(map[string]bool, n)
	for _, p := range s.Players {
		if p.Name == "" {
			return fmt.Errorf("%w: a player has an empty name", ErrInvalid)
		}
		if names[p.Name] {
			return fmt.Errorf("%w: player %q is entered twice", ErrInvalid, p.Name)
		}
		names[p.Name] = true
	}
	if s.Format == FormatSwiss && (s.Rounds < 0 || s.Rounds > MaxSwissRounds) {
		return fmt.Errorf("%w: %d Swiss rounds: want 1 to %d, or 0 for the default", ErrInvalid, s.Rounds, MaxSwissRounds)
	}
	type key struct{ r, s int }
	seen := make(map[key]bool, len(s.Games))
	for _, g := range s.Games {
		where := fmt.Sprintf("game (round %d, slot %d)", g.Round, g.Slot)
		if g.Round < 1 || g.Slot < 0 {
			return fmt.Errorf("%w: %s: rounds count from 1 and slots from 0", ErrInvalid, where)
		}
		if seen[key{g.Round, g.Slot}] {
			return fmt.Errorf("%w: %s appears twice", ErrInvalid, where)
		}
		seen[key{g.Round, g.Slot}] = true
		if !names[g.X] || (g.O != "" && !names[g.O]) {
			return fmt.Errorf("%w: %s names a player who is not entered (%q, %q)", ErrInvalid, where, g.X, g.O)
		}
		if g.X == g.O {
			return fmt.Errorf("%w: %s pairs %q with themself", ErrInvalid, where, g.X)
		}
		if g.Outcome < Pending || g.Outcome > BothLose {
			return fmt.Errorf("%w: %s has outcome %d: want %d to %d", ErrInvalid, where, int(g.Outcome), Pending, BothLose)
		}
		if g.Bye() && g.Outcome != XWins {
			return fmt.Errorf("%w: %s is a bye with outcome %s: a bye is x", ErrInvalid, where, g.Outcome)
		}
	}
	return nil
}

// withGames returns s with each game of gs replacing the game of the same
// (Round, Slot); the games slice is copied.
func (s State) withGames(gs []Game) State {
	if len(gs) == 0 {
		return s
	}
	out := append([]Game(nil), s.Games...)
	for _, g := range gs {
		for i := range out {
			if out[i].Round == g.Round && out[i].Slot == g.Slot {
				out[i] = g
			}
		}
	}
	s.Games = out
	return s
}

// forfeits returns s's pending games that a withdrawal decides: the
// withdrawn player loses; both withdrawn lose both.
func forfeits(s State) []Game {
	gone := s.withdrawn()
	var out []Game
	for _, g := range sortedGames(s.Games) {
		if g.Finished() {
			continue
		}
		if f, ok := forfeited(g, gone); ok {
			out = append(out, f)
		}
	}
	return out
}

// forfeited returns g decided by withdrawal, if one of its players is gone.
func forfeited(g Game, gone map[string]bool) (Game, bool) {
	if g.Bye() {
		return g, false
	}
	switch {
	case gone[g.X] && gone[g.O]:
		g.Outcome = BothLose
	case gone[g.X]:
		g.Outcome = OWins
	case gone[g.O]:
		g.Outcome = XWins
	default:
		return g, false
	}
	g.Forfeit = true
	return g, true
}

func (s State) withdrawn() map[string]bool {
	m := make(map[string]bool)
	for _, p := range s.Players {
		if p.Withdrawn {
			m[p.Name] = true
		}
	}
	return m
}

// seeded returns the players ordered by rating (higher first), then name.
func (s State) seeded() []Player {
	ps := append([]Player(nil), s.Players...)
	sort.SliceStable(ps, func(i, j int) bool { return better(ps[i], ps[j]) })
	return ps
}

// better is the order of seeds: higher rating, then name.
func better(a, b Player) bool {
	if a.Rating != b.Rating {
		return a.Rating > b.Rating
	}
	return a.Name < b.Name
}

// byRound returns the games grouped by round; maxRound is the highest.
func (s State) byRound() (map[int][]Game, int) {
	m := make(map[int][]Game)
	top := 0
	for _, g := range s.Games {
		m[g.Round] = append(m[g.Round], g)
		top = max(top, g.Round)
	}
	return m, top
}

func anyFinished(gs []Game) bool {
	for _, g := range gs {
		if g.Finished() {
			return true
		}
	}
	return false
}

func allFinished(gs []Game) bool {
	for _, g := range gs {
		if !g.Finished() {
			return false
		}
	}
	return true
}
