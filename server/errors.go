package server

import (
	"net/http"

	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/wire"
)

var (
	errNotFound = game.ErrNotFound
	// The computer answers a draw offer at once; declined, nothing changes.
	errDrawDeclined = httpx.Errf(wire.Conflict, "draw_declined", "the computer declines the draw: play on")
)

// writeError answers err as JSON (wire.Error) with its kind's status
// (httpx.WriteError), logged with the server's logger.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(s.log, w, r, err)
}
