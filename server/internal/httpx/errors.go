package httpx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"alak/rules"
	"alak/server/store"
	"alak/session"
	"alak/wire"
)

// Error is a refusal or a failure as the server's code states it: its
// kind (wire.Kind: not found, not your turn, an illegal move, ...), a short
// machine-readable name and a sentence saying what was wrong and what is
// accepted. Only WriteError turns the kind into an HTTP status; the mail
// path reads the kind.
type Error struct {
	Kind wire.Kind
	Code string // a short machine-readable name: "stale_ply", "illegal_move", ...
	Msg  string
	// RetryAfter is how long a client refused for its rate (or served
	// nothing for now) must wait before it may try again (the Retry-After
	// header, rounded up to seconds).
	RetryAfter time.Duration
	Err        error // the cause, for errors.Is and the log
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// Errf is an Error of kind with its code and sentence.
func Errf(kind wire.Kind, code, format string, a ...any) *Error {
	return &Error{Kind: kind, Code: code, Msg: fmt.Sprintf(format, a...)}
}

// RetryUnavailable is the Retry-After of a 503 unavailable: long enough
// for a database restart, short enough that a player's move waits little.
const RetryUnavailable = 2 * time.Second

// Unavailable is the answer to a request the store could not serve (the
// database is restarting, or out of reach): 503 with Retry-After, which
// says "try again", never an answer that reads the failure as an absence
// (not signed in, no such game, no such player). A request whose client
// went away meanwhile keeps its own answer (499).
func Unavailable(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return &Error{Kind: wire.Unavailable, Code: "unavailable",
		Msg: "the server cannot reach its database just now: try again in a few seconds", RetryAfter: RetryUnavailable, Err: err}
}

// ErrNotSignedIn refuses a call that needs an account.
var ErrNotSignedIn = Errf(wire.Unauthenticated, "not_signed_in", "you are not signed in: sign in, or start a game as a guest, and try again")

// AsError turns any error into the answer the API gives: errors of the
// session and the store keep their meaning (an illegal move, a stale
// version), anything else is Internal, whose details go to the log only.
func AsError(err error) *Error {
	var ae *Error
	if errors.As(err, &ae) {
		return ae
	}
	var me *rules.MoveError
	switch {
	case errors.Is(err, context.Canceled):
		return &Error{Kind: wire.Cancelled, Code: "client_closed", Msg: "the request was cancelled", Err: err}
	case errors.As(err, &me) && errors.Is(err, rules.ErrGameOver):
		return &Error{Kind: wire.Conflict, Code: "game_over", Msg: "the game is over: " + me.Detail, Err: err}
	case errors.As(err, &me):
		return &Error{Kind: wire.IllegalMove, Code: "illegal_move", Msg: "illegal move: " + me.Why(), Err: err}
	case errors.Is(err, session.ErrNotYourTurn):
		return &Error{Kind: wire.NotYourTurn, Code: "not_your_turn", Msg: err.Error(), Err: err}
	case errors.Is(err, store.ErrConflict):
		return &Error{Kind: wire.Conflict, Code: "conflict", Msg: "the game changed meanwhile: look at the board again and retry", Err: err}
	case errors.Is(err, store.ErrNotFound):
		return &Error{Kind: wire.NotFound, Code: "not_found", Msg: "not found", Err: err}
	case errors.Is(err, session.ErrNoOffer), errors.Is(err, session.ErrOfferPending), errors.Is(err, session.ErrTooLate),
		errors.Is(err, session.ErrNothingToUndo):
		return &Error{Kind: wire.Conflict, Code: "not_now", Msg: err.Error(), Err: err}
	}
	return &Error{Kind: wire.Internal, Code: "internal", Msg: "the server failed; the request may be retried", Err: err}
}

// MoveRefused words a move the rules refuse, for the API and the page:
// the move in the game's notation and the kernel's reason, "illegal move
// 4: the point is occupied". Other errors are returned as they are.
func MoveRefused(r rules.Rules, err error) error {
	var me *rules.MoveError
	if !errors.As(err, &me) || errors.Is(err, rules.ErrGameOver) {
		return err
	}
	return &Error{Kind: wire.IllegalMove, Code: "illegal_move", Msg: "illegal move " + r.MoveText(me.Move) + ": " + me.Why(), Err: err}
}

// WriteError answers err as JSON (wire.Error) with its kind's status; a
// failure (Internal, Unavailable) is logged with its cause.
func WriteError(log *slog.Logger, w http.ResponseWriter, r *http.Request, err error) {
	ae := AsError(err)
	status := ae.Kind.Status()
	if ae.Kind == wire.Internal || ae.Kind == wire.Unavailable {
		log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	} else {
		log.DebugContext(r.Context(), "request refused", "status", status, "code", ae.Code)
	}
	if ae.Kind == wire.RateLimited || ae.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(RetrySeconds(ae.RetryAfter)))
	}
	WriteJSON(w, status, wire.Error{Code: ae.Code, Error: ae.Msg})
}

// RetrySeconds is a wait in whole seconds, rounded up, at least 1.
func RetrySeconds(wait time.Duration) int {
	return max(1, int((wait+time.Second-1)/time.Second))
}

// WaitWords says a wait for an error's sentence: "6 s", "2 min 30 s".
func WaitWords(wait time.Duration) string {
	n := RetrySeconds(wait)
	if n < 60 {
		return fmt.Sprintf("%d s", n)
	}
	if n%60 == 0 {
		return fmt.Sprintf("%d min", n/60)
	}
	return fmt.Sprintf("%d min %d s", n/60, n%60)
}

// WriteJSON writes v with the status. A value that does not encode is a
// bug: it is answered 500 and logged with the request's id.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		if sw, ok := w.(*StatusWriter); ok {
			sw.Log.ErrorContext(sw.Ctx, "encoding an answer", "err", err)
		}
		status, body = http.StatusInternalServerError, []byte(`{"error":"the server failed; the request may be retried","code":"internal"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(body, '\n')) // an error here is the client gone: nothing to do
}
