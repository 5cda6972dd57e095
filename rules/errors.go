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
