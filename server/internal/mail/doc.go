// Package mail is the play server's mail: the mails it sends about a
// correspondence game (your move, time running out) through one SMTP
// server from a bounded queue, and moves by email, an SMTP server that
// takes the replies to those mails and plays their first line.
//
//   - mail.go: Mail, built by New from what it needs of the server (the
//     store's account, game and mail roles, the game core, the clock, the
//     game page's address, the conditional moves' note and the last
//     message's quote, which other concerns give as functions).
//   - out.go: the outgoing queue and the mails about a game (YourTurn,
//     TimeRunningOut).
//   - body.go: the board as a mail shows it.
//   - in.go: the SMTP server of moves by email: the reply addresses
//     (game-ID-SECRET@DOMAIN, each secret stored hashed), the limits of
//     its connections (Bounds), and a reply played through the game core.
//   - read.go: reading a mailed reply's line, pure.
//
// A mailed line is read by the one parser of players' commands
// (command.Mail), and its refusals are judged by their domain kind
// (httpx.Error's wire.Kind), never by an HTTP status. It may touch the
// game core, httpx's errors and limiters, wire and the store; no other
// feature of the server.
package mail
