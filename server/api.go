package server

import (
	"net/http"

	"alak/server/internal/httpx"
	"alak/wire"
)

// routes serves the API. The handlers are by resource: accounts
// (server/internal/accounts), lists of games (api_lists.go), games (api_games.go)
// and play (api_play.go); the bodies they read and write are package wire's
// types, and a player's move text is read by package command.
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("GET /readyz", s.handleReady)
	if !s.cfg.MetricsElsewhere {
		mux.Handle("GET /metrics", s.MetricsHandler())
	}
	mux.HandleFunc("POST /api/accounts", s.accounts.HandleCreateAccount)
	mux.HandleFunc("POST /api/login", s.accounts.HandleLogin)
	mux.HandleFunc("POST /api/logout", s.accounts.HandleLogout)
	mux.HandleFunc("POST /api/tokens", s.accounts.HandleToken)
	mux.HandleFunc("DELETE /api/tokens/current", s.accounts.HandleRevokeToken)
	mux.HandleFunc("GET /api/me", s.accounts.HandleMe)
	mux.HandleFunc("PUT /api/me", s.accounts.HandleUpdateMe)
	mux.HandleFunc("GET /api/me/games", s.handleMyGames)
	mux.HandleFunc("GET /api/me/turns", s.handleTurns)
	mux.HandleFunc("GET /api/me/events", s.accounts.HandleAccountEvents)
	mux.HandleFunc("GET /api/rules", s.handleRules)
	mux.HandleFunc("GET /api/lobby", s.handleLobby)
	mux.HandleFunc("GET /api/players/{name}", s.handlePlayer)
	mux.HandleFunc("POST /api/games", s.handleCreateGame)
	mux.HandleFunc("GET /api/games", s.handleListGames)
	mux.HandleFunc("GET /api/games/{id}", s.handleGame)
	mux.HandleFunc("GET /api/games/{id}/events", s.core.HandleEvents)
	mux.HandleFunc("GET /api/games/{id}/sgf", s.handleSGF)
	mux.HandleFunc("POST /api/games/{id}/join", s.handleJoin)
	mux.HandleFunc("POST /api/games/{id}/decline", s.handleDecline)
	mux.HandleFunc("POST /api/games/{id}/moves", s.handleMove)
	mux.HandleFunc("POST /api/games/{id}/resign", s.handleResign)
	mux.HandleFunc("POST /api/games/{id}/draw", s.handleDraw)
	mux.HandleFunc("POST /api/games/{id}/takeback", s.handleTakeback)
	mux.HandleFunc("POST /api/games/{id}/abort", s.handleAbort)
	mux.HandleFunc("GET /api/games/{id}/conditional", s.conditional.ServeGet)
	mux.HandleFunc("PUT /api/games/{id}/conditional", s.conditional.ServePut)
	mux.HandleFunc("DELETE /api/games/{id}/conditional", s.conditional.ServeDelete)
	mux.HandleFunc("GET /api/leaderboard", s.ratings.ServeLeaderboard)
	mux.HandleFunc("GET /api/players/{name}/ratings", s.ratings.ServeHistory)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, httpx.Errf(wire.NotFound, "no_route", "no such API call: docs/api.md lists them"))
	})
	s.around.Routes(mux)
	s.tourneys.Routes(mux)
	s.analysis.Routes(mux)
	s.puzzles.Routes(mux)
	s.pageRoutes(mux)
}
