package gtp

import (
	"errors"
	"fmt"
	"strings"

	"alak/internal/clip"
	"alak/internal/version"
	"alak/notation"
	"alak/rules"
	"alak/session"
)

// Engine is a GTP version 2 engine for alak's rules: it plays the moves it
// is told and generates moves with its computer players, driving its game
// through a session.Session. See docs/gtp.md for the commands. An Engine is
// not safe for concurrent use.
//
// GTP lets a controller play two moves of one colour in a row (GoGui sets up
// positions that way), while alak's rules alternate. The engine therefore
// keeps the start of the game and every (colour, move) it was told since
// clear_board: a move of the colour that is not to move is a set-up step,
// which restarts the game from the same stones with that colour to move
// (package rules' ParseDiagram), then plays the move there. undo replays
// the list without its last step.
type Engine struct {
	Name    string // answered to name; "alak" by default
	Version string // answered to version; the build's version by default

	s     *session.Session // the game now: from the start, or from the last set-up step
	seats [2]session.Seat  // the seats of every session the engine starts
	opt   session.Options  // the budgets of every session the engine starts
	base  rules.Position   // where the steps start: the rules' own start unless the first session had another
	steps []step           // every move told since clear_board, in order
}

// step is one move the engine was told (play) or chose (genmove).
type step struct {
	c rules.Color
	m rules.Move
}

// NewEngine returns an engine playing r from its start position, generating
// moves for both colours with p (nil: genmove fails) within the session's
// default budgets.
func NewEngine(r rules.Rules, p session.Player) (*Engine, error) {
	g, err := session.Setup{Rules: r}.Game()
	if err != nil {
		return nil, err
	}
	seat := session.Seat{Player: p}
	return NewSessionEngine(session.New(g, seat, seat, session.Options{}), session.Options{}), nil
}

// NewSessionEngine returns an engine that goes on with the game of s,
// which it owns from now on: its start position, its moves and its seats
// (genmove asks the seat of the colour it is given; a human seat cannot
// generate moves). The sessions the engine starts later (clear_board, new
// rules, a set-up step) have the same seats and the budgets opt, which
// should be those s was made with.
func NewSessionEngine(s *session.Session, opt session.Options) *Engine {
	g := s.Game()
	e := &Engine{Name: "alak", Version: version.String(), s: s, opt: opt,
		seats: [2]session.Seat{s.Seat(rules.Black), s.Seat(rules.White)}, base: g.Start()}
	for i, m := range g.Moves() {
		e.steps = append(e.steps, step{g.PositionAt(i).ToMove(), m})
	}
	if o := s.Outcome(); o.Reason == rules.Resigned && !g.Over() {
		e.steps = append(e.steps, step{o.Winner.Opp(), rules.Resign})
	}
	return e
}

// Close closes the engine's session: its computer players stop (an
// external engine's process too). The engine must not be used afterwards.
func (e *Engine) Close() error { return e.s.Close() }

// Rules returns the rules the engine plays.
func (e *Engine) Rules() rules.Rules { return e.s.Rules() }

// Game returns a copy of the engine's game: from the start, or from the
// last set-up step (a move of the colour that was not to move).
func (e *Engine) Game() *rules.Game { return e.s.Game() }

// Snapshot returns the state of the game, as session.Session.Snapshot.
func (e *Engine) Snapshot() session.Snapshot { return e.s.Snapshot() }

// Ply returns the number of moves the engine was told or chose since
// clear_board (set-up steps included).
func (e *Engine) Ply() int { return len(e.steps) }

// CommandError is a command's failure: Message is the failure response
// (the text after "?"), and Err, when not nil, the error of the library
// behind it (a *rules.MoveError, a session or notation error), so that
// errors.Is(err, rules.ErrOccupied) holds for an illegal play.
type CommandError struct {
	Message string
	Err     error
}

func (e *CommandError) Error() string { return e.Message }

// Unwrap returns the library's error.
func (e *CommandError) Unwrap() error { return e.Err }

// failf returns a *CommandError whose message is format's, wrapping err.
func failf(err error, format string, a ...any) error {
	return &CommandError{Message: fmt.Sprintf(format, a...), Err: err}
}

// newSession starts a session from pos with the engine's seats and budgets.
func (e *Engine) newSession(pos rules.Position) *session.Session {
	return session.New(rules.NewGameFrom(pos), e.seats[rules.Black], e.seats[rules.White], e.opt)
}

// turnTo returns a session in which c is to move: s itself, or a new
// session from the set-up of s's position with c to move (s is left as it
// is).
func (e *Engine) turnTo(s *session.Session, c rules.Color) (*session.Session, error) {
	if s.ToMove() == c {
		return s, nil
	}
	pos, err := setUp(s.Position(), c)
	if err != nil {
		return nil, err
	}
	return e.newSession(pos), nil
}

// setUp returns pos as a set-up position with c to move: the same stones
// and prisoners, no last move, no forbidden point, no passes.
func setUp(pos rules.Position, c rules.Color) (rules.Position, error) {
	r := pos.Rules()
	var b strings.Builder
	for p := range pos.Points() {
		if p > 0 && p%r.Width == 0 {
			b.WriteByte('|')
		}
		b.WriteByte(pos.At(p).Symbol())
	}
	next, err := rules.ParseDiagram(r, b.String(), c)
	if err != nil {
		return next, err
	}
	return next.WithPrisoners(pos.Prisoners(rules.Black), pos.Prisoners(rules.White))
}

// play plays m for c on s, a set-up step first when c is not to move, and
// returns the session it was played in. s is unchanged on error.
func (e *Engine) play(s *session.Session, c rules.Color, m rules.Move) (*session.Session, error) {
	if m != rules.Resign && !s.Over() { // resigning needs no turn; a finished game refuses
		var err error
		if s, err = e.turnTo(s, c); err != nil {
			return nil, err
		}
	}
	if err := s.Play(c, m); err != nil {
		return nil, err
	}
	return s, nil
}

// replay builds the session of the steps played from base under r.
func (e *Engine) replay(r rules.Rules, base rules.Position, steps []step) (*session.Session, rules.Position, error) {
	if base.Rules() != r {
		text, err := base.MarshalText()
		if err == nil {
			base, err = rules.ParsePosition(r, string(text))
		}
		if err != nil {
			return nil, base, err
		}
	}
	s := e.newSession(base)
	for i, st := range steps {
		var err error
		if s, err = e.play(s, st.c, st.m); err != nil {
			return nil, base, fmt.Errorf("move %d (%s %s): %w", i+1, st.c, notation.GTP.Encode(r, st.m), err)
		}
	}
	return s, base, nil
}

// reset starts a new game under r from its start position.
func (e *Engine) reset(r rules.Rules) error {
	g, err := session.Setup{Rules: r}.Game()
	if err != nil {
		return err
	}
	e.base, e.steps = g.Start(), nil
	e.s = session.New(g, e.seats[rules.Black], e.seats[rules.White], e.opt)
	return nil
}

// illegal returns the failure of move m (as the controller wrote it, text)
// for the error err of the session: a refused move is written with its
// vertex and the rules' reason.
func illegal(r rules.Rules, text string, err error) error {
	var me *rules.MoveError
	if !errors.As(err, &me) {
		return failf(err, "illegal move %s: %v", clip.Text(text), err)
	}
	msg := fmt.Sprintf("illegal move %s: %s", notation.GTP.Encode(r, me.Move), me.Why())
	if errors.Is(err, rules.ErrGameOver) {
		msg += "; clear_board starts a new game"
	}
	return failf(err, "%s", msg)
}
