// Package wire is the JSON of the play server's API (docs/api.md): every
// body a call reads or writes, declared once, and the kinds of the errors
// with the HTTP status each is answered with.
//
// The server (alak/server) writes these types and reads the requests; its
// clients, the bot bridge (alak/bot) and the load tool (alak/loadtest),
// read the answers into the same types, so a field renamed or added is
// renamed or added for all of them at once. The package holds no logic
// beyond Kind's mapping: the kernel (alak/rules) never learns about JSON,
// and a game's position is session.Snapshot, the shape `alak replay
// --json` prints.
//
//	var g wire.Game
//	err := json.Unmarshal(body, &g) // GET /api/games/{id}, or an event's data
//	if g.State == "active" && g.ToMove == "x" { ... }
//
// Files: wire.go holds the requests and answers, errors.go the error
// answer and the kinds.
package wire
