// Package vacation is the play server's vacations. A correspondence
// player starts with 7 days of vacation, so that a week away is possible
// from the first day (as on the correspondence servers players come
// from), and earns 30 days a year on top, 2.5 days at the end of each
// month since the account was made (at most 60 days banked). While on
// vacation every correspondence game the player sits in is paused: no
// deadline runs (clock.paused in the view), the time the player to move
// had left is kept in their clock's x_ms or o_ms, and a move made
// meanwhile leaves the game paused with the next player's whole time
// kept. The vacation ends when the player says so (PUT /api/me
// {"vacation": false}) or when the days banked are used up (the sweep);
// each game then resumes with the time it had left, unless the other
// player is on vacation too. Live games are never paused.
//
// The arithmetic of the days banked (accrue, vacationLeft, endVacation)
// is pure. Service, built by New over the store's roles it reads and the
// game core, which pauses and resumes the games, answers the server:
// /api/me's vacation (View, Set), a new game's pause (PauseIfAway), the
// view's part (Until, the core's ViewParts.Vacation) and the sweep
// (Sweep). It has no API call of its own: PUT /api/me is the accounts'.
//
//	vs := vacation.New(vacation.Config{Store: st, Core: core, YourTurn: mailYourTurn, Log: log, Now: time.Now})
//	err := vs.Set(ctx, account, true) // pauses the account's correspondence games
package vacation
