package game

import (
	"alak/server/internal/httpx"
	"alak/wire"
)

// ErrNotFound answers a request for a game that does not exist.
var ErrNotFound = httpx.Errf(wire.NotFound, "not_found", "no such game")
