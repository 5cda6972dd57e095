package server

import "alak/server/store"

// houseBots is filled in by the house bots' change (housebots.go).
type houseBots struct{}

func (h *houseBots) challenged(g store.Game) {}
