// Package ratings is the play server's ratings in one place: which games
// are rated, how a rating ages while its player is idle, what a rated game
// does to its players' ratings, and the API that shows them.
//
// A game is rated when both seats are accounts (no guest, no computer),
// it is played from the start position under a preset's own rules (any
// size), and its creator did not ask for "rated": false. Its pool is its
// preset. An aborted game, or one without a result ("Void"), changes no
// rating.
//
//   - rated.go: who is rated. NotRatable (a new game, before its seats are
//     taken), CheckRated (a request that asks for a rated game that cannot
//     be).
//   - update/: the arithmetic, pure, in a package of its own that the
//     store imports: Rates (whether writing a game's end changes
//     ratings), At (a rating grown by one empty rating period a week,
//     IdlePeriod) and Game (a finished game, one rating period of one
//     result for each player, by package glicko2).
//   - service.go: Service, built by New from what it needs of the server
//     (the store's Ratings role, a player's view, the clock): the seats'
//     ratings as a game begins, a game's ratings for its view, a player's
//     ratings.
//   - api.go: the API's GET /api/leaderboard and GET
//     /api/players/{name}/ratings, Service's handlers.
//
// The store applies an update once, in the transaction of the Update that
// finishes the game: package sqlstore reads both players' rows, calls
// update.Game, and writes what it returns.
package ratings
