package rules

import "errors"

// ErrIllegal is wrapped by every error that rejects a move, so callers can
// test errors.Is(err, ErrIllegal) and still read the precise reason.
var ErrIllegal = errors.New("illegal move")

// Reasons a move is rejected; each wraps ErrIllegal.
var (
	ErrGameOver    = wrap("the game is over")
	ErrOffBoard    = wrap("the point is off the board")
	ErrOccupied    = wrap("the point is occupied")
	ErrForbidden   = wrap("the point is forbidden: your stones were just captured there")
	ErrKo          = wrap("ko: the move would recreate the position before the opponent's last move")
	ErrSuperko     = wrap("superko: the move would recreate an earlier position")
	ErrSuicide     = wrap("suicide: the move would leave your own chain without liberties")
	ErrNoPass      = wrap("passing is not allowed under these rules")
	ErrWrongKind   = wrap("wrong kind of move for these rules")
	ErrNotYours    = wrap("there is no piece of yours on that slot")
	ErrUnreachable = wrap("the piece cannot reach that slot: it moves to the nearest empty slot on its left or right")
)

// MoveError is the error of a move the rules refuse: it carries the move
// and the reason, so that each front end can write the point in its own
// notation (a number, the mail server's letter, a GTP vertex) and the reason
// in words, without editing error text. errors.Is(err, ErrOccupied) and
// errors.Is(err, ErrIllegal) hold for a *MoveError through any wrapping.
type MoveError struct {
	Move   Move
	Reason error  // one of the Err... values above, each wrapping ErrIllegal
	Detail string // more words on the reason, such as "the board has 11 points"; may be ""
}

// Error writes the move in the kernel's rules-free form and the reason:
// "point 3: the point is occupied", "move 1-4: the piece cannot reach...".
func (e *MoveError) Error() string {
	what := "move " + e.Move.String()
	if e.Move.IsPlace() {
		what = "point " + e.Move.String()
	}
	if e.Move.IsDeclare() {
		what = "declaration " + e.Move.String()
	}
	return what + ": " + e.Why()
}

// Why writes the reason without the move: "the point is occupied".
func (e *MoveError) Why() string {
	if e.Detail == "" {
		return e.Reason.Error()
	}
	return e.Reason.Error() + " (" + e.Detail + ")"
}

// Unwrap returns the reason.
func (e *MoveError) Unwrap() error { return e.Reason }

func moveErr(m Move, reason error) error { return &MoveError{Move: m, Reason: reason} }

func moveErrDetail(m Move, reason error, detail string) error {
	return &MoveError{Move: m, Reason: reason, Detail: detail}
}

// ErrRules is wrapped by errors about an invalid rule set or option.
var ErrRules = errors.New("invalid rules")

// ErrSyntax is wrapped by errors about text that cannot be parsed.
var ErrSyntax = errors.New("syntax error")

// ErrSetup is wrapped by errors about a position that cannot be set up.
var ErrSetup = errors.New("invalid position")

type wrapped struct{ msg string }

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return ErrIllegal }

func wrap(msg string) error { return &wrapped{msg} }
