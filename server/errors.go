package server

import (
	"net/http"

	"alak/server/internal/httpx"
	"alak/wire"
)

var (
	errNotFound = httpx.Errf(wire.NotFound, "not_found", "no such game")
	// The computer answers a draw offer at once; declined, nothing changes.
	errDrawDeclined = httpx.Errf(wire.Conflict, "draw_declined", "the computer declines the draw: play on")
)

// writeError answers err as JSON (wire.Error) with its kind's status
// (httpx.WriteError), logged with the server's logger.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(s.log, w, r, err)
}
