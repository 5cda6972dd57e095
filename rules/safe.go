package rules

import (
	"fmt"
	"math/bits"
)

// SafeEye is the rule of Sebastian's safe eye (seed 000, 2003-09-20):
// instead of a normal move a player may declare a point safe, and nobody
// can place a stone on a safe point after. docs/rules.md cites the passage
// and the choices its words leave open.
type SafeEye uint8

// Safe-eye rules.
const (
	SafeOff     SafeEye = iota // no declarations (every preset)
	SafeEyeOnly                // only an eye may be declared: an empty point whose every neighbour is a stone of the declarer
	SafeField                  // any empty point may be declared ("or maybe one field")
)

var safeNames = []string{"off", "eye", "field"}

// declareBase is the code of the declaration of point 0; the declaration
// of point p is declareBase-p, below the special moves, so that IsPlace and
// IsSlide stay false for it.
const declareBase = -(1 << 20)

// Declare returns the declaration of point p (0-based) as safe.
func Declare(p int) Move { return Move(declareBase - p) }

// IsDeclare reports whether m declares a point safe.
func (m Move) IsDeclare() bool { return m <= declareBase && m > declareBase-(1<<16) }

// Safe reports whether point p has been declared safe: it stays empty for
// the rest of the game and is a liberty of the chains beside it.
func (pos Position) Safe(p int) bool {
	if p < 0 || p >= pos.Points() || pos.g != nil {
		return false
	}
	return pos.safe>>p&1 != 0
}

// SafeSet returns the safe points of a line as a bitboard (bit i = point i).
func (pos Position) SafeSet() uint64 { return pos.safe }

// WithSafe returns the position with the points of set declared safe, for
// set-up positions. The rules must allow declarations, the points must be
// on the line and empty.
func (pos Position) WithSafe(set uint64) (Position, error) {
	if pos.e == nil || pos.e.r.Safe == SafeOff {
		return pos, fmt.Errorf("%w: safe points need the rule safe=eye or safe=field", ErrSetup)
	}
	if set&^pos.e.mask != 0 || set&(pos.st[Black]|pos.st[White]) != 0 {
		return pos, fmt.Errorf("%w: a safe point must be an empty point of the line", ErrSetup)
	}
	pos.hash ^= safeKey(pos.safe) ^ safeKey(set)
	pos.safe = set
	pos.forbid &^= set
	pos.end = pos.endState()
	return pos, nil
}

// safeKey mixes a set of safe points into a key of the incremental hash.
func safeKey(set uint64) uint64 {
	var k uint64
	for ; set != 0; set &= set - 1 {
		k ^= zobrist.safe[bits.TrailingZeros64(set)]
	}
	return k
}

// declarable returns the points the player to move may declare safe: the
// empty points that are neither safe nor forbidden, and under safe=eye only
// those whose every neighbour on the line is a stone of the player (an end
// point has one neighbour).
func (pos *Position) declarable() uint64 {
	e := pos.e
	if e == nil || e.r.Safe == SafeOff || pos.g != nil || pos.end != NotOver {
		return 0
	}
	me := pos.st[pos.toMove]
	cand := e.mask &^ (pos.st[Black] | pos.st[White] | pos.safe | pos.forbid)
	if e.r.Safe == SafeField {
		return cand
	}
	// An eye: the left neighbour is off the line or mine, and so is the
	// right one; at least one exists on a line of two points or more.
	left := me<<1 | 1                    // bit p: point p-1 is mine, or p is the first point
	right := me>>1 | e.mask&^(e.mask>>1) // bit p: point p+1 is mine, or p is the last point
	eyes := cand & left & right
	if e.n == 1 {
		eyes = 0 // a lone point has no neighbour: nothing to make an eye of
	}
	return eyes
}

// declare plays the declaration of point p as safe.
func (pos Position) declare(m Move) (Position, error) {
	e := pos.e
	if e.r.Safe == SafeOff {
		return pos, moveErrDetail(m, ErrWrongKind, "these rules have no safe points (the rule safe=eye or safe=field adds them)")
	}
	p := declareBase - int(m)
	if p >= e.n {
		return pos, moveErrDetail(m, ErrOffBoard, fmt.Sprintf("the board has %d points", e.n))
	}
	bit := uint64(1) << p
	switch {
	case (pos.st[Black]|pos.st[White])&bit != 0:
		return pos, moveErr(m, ErrOccupied)
	case pos.safe&bit != 0:
		return pos, moveErr(m, ErrSafe)
	case pos.forbid&bit != 0:
		return pos, moveErr(m, ErrForbidden)
	case pos.declarable()&bit == 0:
		return pos, moveErr(m, ErrNotEye)
	}
	next := pos.advance(m)
	next.safe |= bit
	next.hash ^= zobrist.safe[p]
	next.forbid, next.removed = 0, 0
	next.end = next.endState()
	return next, nil
}

// Errors of the safe-eye rule; each wraps ErrIllegal.
var (
	ErrSafe   = wrap("the point is safe: nobody can place a stone there")
	ErrNotEye = wrap("only an eye can be declared safe: an empty point whose neighbours are all your stones")
)
