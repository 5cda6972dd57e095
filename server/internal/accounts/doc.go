// Package accounts is the play server's accounts: who a request is, and
// what an account does for itself.
//
//   - accounts.go: Accounts, built by New from what it needs of the server
//     (the store's account, limit and game roles, the game core, the
//     clock) and functions for what other concerns give it (the API's
//     error answer, the unavailable page, the house bots' names, the
//     vacation, the computer's schedule, a game's summary and tournament).
//   - auth.go: password hashes (argon2id, a bounded number at once),
//     secrets and their hashes, names, the sign-in limits kept in the
//     store (no lockout of an owner by a guesser), sessions and tokens,
//     and WithAccount, the middleware that puts the request's account in
//     its context (httpx.Account), where every other concern reads it.
//   - cache.go: a token's account kept for TokenTTL.
//   - api.go: the API's accounts, sign-in and sign-out, tokens, GET and
//     PUT /api/me; Accounts' handlers, registered by the server's routes.
//   - claim.go: a guest's games taken over by the account it signs up or
//     in as.
//   - events.go: the account streams, GET /api/me/events, woken by the
//     game hooks (GameChanged, Wake, WakeAll).
//
// It may touch the game core, httpx, wire and the store; no other feature
// of the server, and never package server.
package accounts
