// Package httpx is the plumbing every part of the play server answers
// HTTP with: the refusals and failures as the server states them (Error,
// with its wire.Kind, turned into a status in one place by WriteError), the
// JSON bodies read and written, the rate limits, the client's address, and
// what a request carries in its context (its account and credential, its
// id for the log). It knows no game, no account's rules and no route.
package httpx
