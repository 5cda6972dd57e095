package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/solve"
)

// Player chooses a move for the side to move: a computer seat. It is the
// method set of player.Player, declared here so that the packages a player
// uses (gtp for external engines) can use sessions too.
type Player interface {
	Name() string
	Move(ctx context.Context, g *rules.Game) (rules.Move, error)
	Close() error
}

// Seat is one side of a game: a human, who moves through Play, or a
// computer player, whose moves Reply asks for.
type Seat struct {
	Name   string // written in the record and shown; "" is the player's name, or "human"
	Player Player // nil: a human
}

// Human reports whether the seat is played by a person.
func (s Seat) Human() bool { return s.Player == nil }

// DisplayName returns Name, or the computer player's name, or "human".
func (s Seat) DisplayName() string {
	switch {
	case s.Name != "":
		return s.Name
	case s.Player != nil:
		return s.Player.Name()
	}
	return "human"
}

// Defaults of Options.
const (
	DefaultMoveTime = time.Minute
	DefaultHintTime = 2 * time.Second
)

// Options are a session's budgets. The zero value takes the defaults.
type Options struct {
	// MoveTime is the most a computer seat may think about one reply; a
	// player still thinking then is stopped and Reply fails. 0: DefaultMoveTime.
	MoveTime time.Duration
	// HintTime bounds the solver's search for a hint; 0: DefaultHintTime.
	HintTime time.Duration
	// HintNodes, when not 0, bounds the positions a hint may search (a
	// budget that does not depend on the machine's speed).
	HintNodes int64
	// HintMemoryMB is the solver's table memory for a hint; 0: its default.
	HintMemoryMB int
	// HintTables is the solver a hint asks (solve.Tables: the method,
	// the tables it reads); nil: a solve.Tables without a directory (the
	// fastest method that answers, no table).
	HintTables *solve.Tables
}

// Errors of a session. Moves the rules refuse are *rules.MoveError values
// (errors.Is(err, rules.ErrIllegal) holds for them).
var (
	ErrNotYourTurn   = errors.New("it is not your turn")
	ErrNotComputer   = errors.New("the player to move is not a computer")
	ErrNoOffer       = errors.New("there is no offer to answer")
	ErrOfferPending  = errors.New("an offer is already waiting for an answer")
	ErrTooLate       = errors.New("too late: a game can only be aborted before its second move")
	ErrNothingToUndo = rules.ErrNothingToUndo
	ErrMoveTime      = errors.New("the computer did not move within its time")
	ErrNoSeat        = errors.New("a seat is x or o")
)

// Session is one game with its seats: the rules, the moves, the two
// players, the offers waiting for an answer and the end when the players
// ended it (resignation, agreement, time, abort). Every front end (alak
// play, alak gtp, the arena, the server) drives its games through one.
//
// A Session is not safe for concurrent use: it has one owner at a time.
// The terminal game and the arena use theirs from one goroutine; the server
// keeps each live game's Session behind that game's lock, so that a move,
// a resignation and a clock's flag are applied one after the other.
type Session struct {
	game  *rules.Game
	seats [2]Seat
	opt   Options

	end   rules.Outcome // set by Resign, AgreeDraw, Timeout, Abort; Reason NotOver until then
	draw  rules.Color   // the player whose draw offer waits, or rules.None
	taken rules.Color   // the player whose takeback request waits, or rules.None

	ctx    context.Context // cancelled by Close: a computer's thinking stops
	cancel context.CancelFunc
}

// New returns a session over the game g (which it owns from now on: the
// caller keeps no other reference to it) with the seats of Black and White.
func New(g *rules.Game, black, white Seat, opt Options) *Session {
	ctx, cancel := context.WithCancel(context.Background())
	if opt.MoveTime <= 0 {
		opt.MoveTime = DefaultMoveTime
	}
	if opt.HintTime <= 0 {
		opt.HintTime = DefaultHintTime
	}
	return &Session{game: g, seats: [2]Seat{black, white}, opt: opt,
		end: rules.Outcome{Winner: rules.None}, draw: rules.None, taken: rules.None,
		ctx: ctx, cancel: cancel}
}

// Close stops a computer's thinking and closes the computer players (an
// external engine's process is stopped). The session must not be used
// afterwards.
func (s *Session) Close() error {
	s.cancel()
	var errs []error
	for i, seat := range s.seats {
		if seat.Player == nil {
			continue
		}
		if i == 1 && s.seats[0].Player == seat.Player {
			continue // one player on both seats is closed once
		}
		if err := seat.Player.Close(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", seat.DisplayName(), err))
		}
	}
	return errors.Join(errs...)
}

// SetHintTables gives Hint the solver to ask (nil: none with a
// directory), such as one made at the first hint.
func (s *Session) SetHintTables(ts *solve.Tables) { s.opt.HintTables = ts }

// Rules returns the game's rules.
func (s *Session) Rules() rules.Rules { return s.game.Rules() }

// Game returns a copy of the game: its history, for display and analysis.
func (s *Session) Game() *rules.Game { return s.game.Clone() }

// Position returns the current position.
func (s *Session) Position() rules.Position { return s.game.Position() }

// Ply returns the number of moves played.
func (s *Session) Ply() int { return s.game.Len() }

// Moves returns the moves played.
func (s *Session) Moves() []rules.Move { return s.game.Moves() }

// ToMove returns the player to move.
func (s *Session) ToMove() rules.Color { return s.game.Position().ToMove() }

// Seat returns the seat of player c (rules.Black or rules.White).
func (s *Session) Seat(c rules.Color) Seat { return s.seats[c&1] }

// Outcome returns how the game ended, or an Outcome with Reason NotOver.
func (s *Session) Outcome() rules.Outcome {
	if s.end.Over() {
		return s.end
	}
	return s.game.Outcome()
}

// Over reports whether the game has ended.
func (s *Session) Over() bool { return s.Outcome().Over() }

// DrawOffer returns the player whose draw offer waits for an answer, or
// rules.None.
func (s *Session) DrawOffer() rules.Color { return s.draw }

// TakebackRequest returns the player whose takeback request waits for an
// answer, or rules.None.
func (s *Session) TakebackRequest() rules.Color { return s.taken }

func seatOK(c rules.Color) error {
	if c != rules.Black && c != rules.White {
		return ErrNoSeat
	}
	return nil
}

// over returns the error for an action on a finished game.
func (s *Session) over(m rules.Move) error {
	return &rules.MoveError{Move: m, Reason: rules.ErrGameOver, Detail: s.Outcome().String()}
}

// Play plays move m for player c. It refuses a move when the game is over
// or when c is not to move (ErrNotYourTurn), and returns the rules' reason
// (a *rules.MoveError) for an illegal move; the game is then unchanged.
// rules.Resign resigns for c, whose turn it need not be. A move answers the
// opponent's draw offer (declined) and ends any takeback request.
func (s *Session) Play(c rules.Color, m rules.Move) error {
	if err := seatOK(c); err != nil {
		return err
	}
	if m == rules.Resign {
		return s.Resign(c)
	}
	if s.Over() {
		return s.over(m)
	}
	if tm := s.ToMove(); c != tm {
		return fmt.Errorf("%w: %s is to move", ErrNotYourTurn, tm.Letter())
	}
	if err := s.game.Play(m); err != nil {
		return err
	}
	if s.draw == c.Opp() {
		s.draw = rules.None
	}
	s.taken = rules.None
	return nil
}

// Legal reports nil when m would be a legal move for the player to move,
// or why it would not.
func (s *Session) Legal(m rules.Move) error {
	if s.Over() {
		return s.over(m)
	}
	return s.game.Legal(m)
}

// LegalMoves returns the legal moves of the player to move (none once the
// game is over).
func (s *Session) LegalMoves() []rules.Move {
	if s.Over() {
		return nil
	}
	return s.game.LegalMoves(nil)
}

// Reply asks the computer seat to move for its move and plays it, within
// ctx and the session's MoveTime; Close stops it too. A computer that
// resigns resigns the game. The game is unchanged on any error.
func (s *Session) Reply(ctx context.Context) (rules.Move, error) {
	if s.Over() {
		return rules.NoMove, s.over(rules.NoMove)
	}
	c := s.ToMove()
	seat := s.seats[c]
	if seat.Human() {
		return rules.NoMove, fmt.Errorf("%w: %s is played by %s", ErrNotComputer, c.Letter(), seat.DisplayName())
	}
	ctx, cancel := context.WithTimeout(ctx, s.opt.MoveTime)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	m, err := seat.Player.Move(ctx, s.game.Clone())
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && s.ctx.Err() == nil {
			return rules.NoMove, fmt.Errorf("%s (%s): %w (%v): %v", c.Letter(), seat.DisplayName(), ErrMoveTime, s.opt.MoveTime, err)
		}
		return rules.NoMove, fmt.Errorf("%s (%s) could not move: %w", c.Letter(), seat.DisplayName(), err)
	}
	if err := s.Play(c, m); err != nil {
		return rules.NoMove, fmt.Errorf("%s (%s) chose %s: %w", c.Letter(), seat.DisplayName(), s.Rules().MoveText(m), err)
	}
	return m, nil
}

// Undo takes back moves until player c is to move again, at least one
// move of c's included (c's last move and every reply after it), and
// returns how many moves it took back. Pending offers are withdrawn.
func (s *Session) Undo(c rules.Color) (int, error) {
	if err := seatOK(c); err != nil {
		return 0, err
	}
	if s.end.Over() {
		return 0, s.over(rules.NoMove)
	}
	n := s.game.Len()
	k := 0 // moves after c's last move
	for k < n && s.game.PositionAt(n-1-k).ToMove() != c {
		k++
	}
	if k == n {
		if n == 0 {
			return 0, ErrNothingToUndo
		}
		return 0, fmt.Errorf("%w: %s has not moved yet", ErrNothingToUndo, c.Letter())
	}
	for range k + 1 {
		if err := s.game.Undo(); err != nil {
			return 0, err
		}
	}
	s.draw, s.taken = rules.None, rules.None
	return k + 1, nil
}

// LastHumanMover returns the human player who moved last: the one an undo
// at the terminal gives the move back to. ok is false when no human has
// moved.
func (s *Session) LastHumanMover() (c rules.Color, ok bool) {
	for i := s.game.Len() - 1; i >= 0; i-- {
		if c := s.game.PositionAt(i).ToMove(); s.seats[c].Human() {
			return c, true
		}
	}
	return rules.None, false
}

// finish ends the game by what the players did, with the count of the
// board as it stands.
func (s *Session) finish(reason rules.Reason, winner rules.Color) {
	o := s.game.Outcome()
	o.Reason, o.Winner, o.Margin = reason, winner, 0
	switch winner {
	case rules.Black:
		o.Margin = 1
	case rules.White:
		o.Margin = -1
	}
	s.end = o
	s.draw, s.taken = rules.None, rules.None
}

// Resign ends the game as a loss for c, whose turn it need not be.
func (s *Session) Resign(c rules.Color) error {
	if err := seatOK(c); err != nil {
		return err
	}
	if s.Over() {
		return s.over(rules.Resign)
	}
	s.finish(rules.Resigned, c.Opp())
	return nil
}

// Timeout ends the game as a loss for c, whose time ran out.
func (s *Session) Timeout(c rules.Color) error {
	if err := seatOK(c); err != nil {
		return err
	}
	if s.Over() {
		return s.over(rules.NoMove)
	}
	s.finish(rules.Timeout, c.Opp())
	return nil
}

// Abort calls the game off for player c before the second move: it ends
// with no result.
func (s *Session) Abort(c rules.Color) error {
	if err := seatOK(c); err != nil {
		return err
	}
	if s.Over() {
		return s.over(rules.NoMove)
	}
	if s.game.Len() >= 2 {
		return ErrTooLate
	}
	s.finish(rules.Aborted, rules.None)
	return nil
}

// OfferDraw offers a draw for c. When the opponent's offer already waits,
// the players agree and the game is drawn (accepted is true). A computer
// opponent answers at once: it accepts when the table of the session's
// solver (see SetHintTables) shows the position drawn under perfect play
// within a small budget, and declines otherwise (accepted false, no offer waiting). The
// offer to a person stands until the opponent answers or moves.
func (s *Session) OfferDraw(c rules.Color) (accepted bool, err error) {
	if err := seatOK(c); err != nil {
		return false, err
	}
	if s.Over() {
		return false, s.over(rules.NoMove)
	}
	switch s.draw {
	case c.Opp():
		s.finish(rules.Agreement, rules.None)
		return true, nil
	case c:
		return false, ErrOfferPending
	}
	if !s.seats[c.Opp()].Human() {
		if s.drawn() {
			s.finish(rules.Agreement, rules.None)
			return true, nil
		}
		return false, nil // the computer plays on
	}
	s.draw = c
	return false, nil
}

// AgreeDraw ends the game drawn by agreement, whoever sits in the seats:
// for a game rebuilt from its moves whose players had agreed (a computer
// that accepted an offer, or two people).
func (s *Session) AgreeDraw() error {
	if s.Over() {
		return s.over(rules.NoMove)
	}
	s.finish(rules.Agreement, rules.None)
	return nil
}

// AnswerDraw accepts (the game is drawn by agreement) or declines the
// opponent's draw offer, for c.
func (s *Session) AnswerDraw(c rules.Color, accept bool) error {
	if err := seatOK(c); err != nil {
		return err
	}
	if s.Over() {
		return s.over(rules.NoMove)
	}
	if s.draw != c.Opp() {
		return fmt.Errorf("%w: %s has not offered a draw", ErrNoOffer, c.Opp().Letter())
	}
	if accept {
		s.finish(rules.Agreement, rules.None)
		return nil
	}
	s.draw = rules.None
	return nil
}

// RequestTakeback asks for c's last move (and any reply after it) to be
// taken back. A computer opponent agrees at once: the moves are taken back
// and done is true. Otherwise the request waits for the opponent's answer.
func (s *Session) RequestTakeback(c rules.Color) (done bool, err error) {
	if err := seatOK(c); err != nil {
		return false, err
	}
	if s.Over() {
		return false, s.over(rules.NoMove)
	}
	if _, ok := s.lastMoveOf(c); !ok {
		return false, fmt.Errorf("%w: %s has not moved yet", ErrNothingToUndo, c.Letter())
	}
	if s.taken != rules.None {
		return false, ErrOfferPending
	}
	if !s.seats[c.Opp()].Human() {
		_, err := s.Undo(c)
		return err == nil, err
	}
	s.taken = c
	return false, nil
}

// AnswerTakeback accepts (the moves are taken back) or declines the
// opponent's takeback request, for c.
func (s *Session) AnswerTakeback(c rules.Color, accept bool) error {
	if err := seatOK(c); err != nil {
		return err
	}
	if s.taken != c.Opp() {
		return fmt.Errorf("%w: %s has not asked for a takeback", ErrNoOffer, c.Opp().Letter())
	}
	s.taken = rules.None
	if !accept {
		return nil
	}
	_, err := s.Undo(c.Opp())
	return err
}

// lastMoveOf returns the ply index of c's last move.
func (s *Session) lastMoveOf(c rules.Color) (int, bool) {
	for i := s.game.Len() - 1; i >= 0; i-- {
		if s.game.PositionAt(i).ToMove() == c {
			return i, true
		}
	}
	return 0, false
}

// Record returns the game as a record: rules, start, moves, the seats'
// names and the result (a resignation, a loss on time, a draw by
// agreement included).
func (s *Session) Record() notation.Record {
	rec := notation.NewRecord(s.game)
	rec.Black, rec.White = s.seats[rules.Black].DisplayName(), s.seats[rules.White].DisplayName()
	rec.Result = notation.ResultString(s.Outcome())
	return rec
}

// FromRecord starts a session from a record: its moves are replayed, and a
// result that the moves do not reach (a resignation, a loss on time, a draw
// whose reason the record does not give, an aborted game) ends the game as
// the record says.
func FromRecord(rec notation.Record, black, white Seat, opt Options) (*Session, error) {
	plain := rec
	plain.Result = ""
	g, err := plain.Game()
	if err != nil {
		return nil, err
	}
	s := New(g, black, white, opt)
	if g.Over() || rec.Result == "" {
		return s, nil
	}
	reason, winner, ok := notation.ParseResult(rec.Result)
	switch {
	case !ok:
		// A counted result the moves do not reach: the record's claim,
		// which replay reports; the game goes on from its last move.
	case reason == rules.Resigned:
		err = s.Resign(winner.Opp())
	case reason == rules.Timeout:
		err = s.Timeout(winner.Opp())
	case reason == rules.Recorded:
		s.finish(rules.Recorded, rules.None)
	case reason == rules.Aborted:
		s.finish(rules.Aborted, rules.None)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}
