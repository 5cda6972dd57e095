package wire

import "net/http"

// Error is every error answer of the API, whatever its status: a sentence
// saying what was wrong and what is accepted, and a short name a program
// can test ("stale_ply", "illegal_move", ...). The fields are in the order
// the server has always written them.
type Error struct {
	Code  string `json:"code"`
	Error string `json:"error"`
}

// Kind is what kind of refusal or failure an error is. The server's code
// says which kind an error is, never which HTTP status answers it: the HTTP
// edge asks Status, and the mail path asks Refusal. Several kinds share a
// status (Forbidden and NotYourTurn are 403); a client tells them apart by
// the error's code.
type Kind uint8

// The kinds of errors.
const (
	// Internal: the server failed (a bug, a failure it did not expect);
	// the request may be retried.
	Internal Kind = iota
	// BadRequest: the request is not what the call takes (a body that is
	// not its JSON, a missing field, a query parameter out of range).
	BadRequest
	// Unauthenticated: no account signed in, or wrong credentials.
	Unauthenticated
	// Forbidden: the account may not do this (not a player of the game,
	// not the organiser).
	Forbidden
	// NotYourTurn: a move or an action by the player not to move.
	NotYourTurn
	// NotFound: no such game, player, tournament or call.
	NotFound
	// Conflict: not now: the game or the tournament is not in a state
	// that allows it (over, not started, moved on since the request's
	// ply, an offer pending).
	Conflict
	// TooLarge: a body over the call's bound.
	TooLarge
	// BadInput: a value the call cannot take (a move it cannot read,
	// rules it does not know, a name too long).
	BadInput
	// IllegalMove: a move the rules refuse.
	IllegalMove
	// RateLimited: too many requests; the answer says when to try again.
	RateLimited
	// Cancelled: the client went away before the answer.
	Cancelled
	// Unavailable: the server cannot serve it just now (its database is
	// out of reach, a queue is full); the answer says when to try again.
	Unavailable
)

// statuses is each kind's HTTP status: the one place where a kind becomes
// a status. 499 is nginx's "client closed request": nobody reads it, but
// the log and the metrics do.
var statuses = [...]int{
	Internal:        http.StatusInternalServerError,
	BadRequest:      http.StatusBadRequest,
	Unauthenticated: http.StatusUnauthorized,
	Forbidden:       http.StatusForbidden,
	NotYourTurn:     http.StatusForbidden,
	NotFound:        http.StatusNotFound,
	Conflict:        http.StatusConflict,
	TooLarge:        http.StatusRequestEntityTooLarge,
	BadInput:        http.StatusUnprocessableEntity,
	IllegalMove:     http.StatusUnprocessableEntity,
	RateLimited:     http.StatusTooManyRequests,
	Cancelled:       499,
	Unavailable:     http.StatusServiceUnavailable,
}

// Status is the HTTP status that answers an error of kind k.
func (k Kind) Status() int {
	if int(k) < len(statuses) {
		return statuses[k]
	}
	return http.StatusInternalServerError
}

// Refusal reports whether an error of kind k is the server refusing the
// request (the player is told why, and asking again the same way gets the
// same answer until something changes), rather than failing to serve it
// (Internal, Unavailable) or losing its client (Cancelled).
func (k Kind) Refusal() bool {
	return k != Internal && k != Unavailable && k != Cancelled && int(k) < len(statuses)
}

// KindOf is the kind a client reads from an answer's status: the first
// kind of that status (403 is Forbidden, 422 BadInput); for a status no
// kind has, BadRequest below 500 and Internal from 500.
func KindOf(status int) Kind {
	for k, s := range statuses {
		if s == status {
			return Kind(k)
		}
	}
	if status < 500 {
		return BadRequest
	}
	return Internal
}
