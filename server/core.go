package server

import (
	"context"
	"net"

	"alak/server/internal/game"
)

// Notifier carries "game G is now at version V" between the server
// processes that share one database (PostgreSQL's LISTEN/NOTIFY, package
// pgstore); the game core follows it (game.Notifier says more).
type Notifier = game.Notifier

// ConnContext is the http.Server's ConnContext that the server's handler
// wants: it keeps each request's connection in its context, so that an
// event stream can bound its connection's send buffer, and a move's
// request see whether the opponent's stream can take the move's event at
// once (game.ConnContext says more).
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	return game.ConnContext(ctx, c)
}
