// Package bot keeps an engine playing on an alak play server: the bridge
// behind `alak bot` (docs/bots.md).
//
// A Bridge signs in with a bot account's bearer token, follows the
// account's event stream (GET /api/me/events: challenge, game_start,
// game_end), accepts the challenges its engine can play and declines the
// others with a reason, and plays each game from the game's own event
// stream with POST /api/games/{id}/moves, several games at once. A lost
// connection or a server restart is met by reconnecting and resuming every
// game; when its context ends (SIGTERM) it stops accepting and leaves its
// games to their clocks.
//
//	eng, err := bot.NewEngine(ctx, "gtp:gnugo --mode gtp") // or "mcts", "perfect", "level:5"
//	b, err := bot.New(bot.Config{URL: "http://localhost:8080", Token: token, Engine: eng})
//	err = b.Run(ctx) // until ctx ends
//
// Files: api.go is the API's client (Client; the JSON it sends and reads
// is alak/wire's), sse.go reads Server-Sent Events, engine.go the engines
// (built-in players, or an external one over GTP through player.GTP: one
// process per game, its time limits and its process group killed when it
// hangs), bridge.go the account's stream and the challenges, game.go one
// game.
package bot
