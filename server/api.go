package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"alak/internal/clip"
	"alak/wire"
)

// maxBody bounds every request body.
const maxBody = 16 << 10

// routes serves the API. The handlers are by resource: accounts
// (api_accounts.go), lists of games (api_lists.go), games (api_games.go)
// and play (api_play.go); the bodies they read and write are package wire's
// types, and a player's move text is read by command.go.
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("GET /readyz", s.handleReady)
	if !s.cfg.MetricsElsewhere {
		mux.Handle("GET /metrics", s.MetricsHandler())
	}
	mux.HandleFunc("POST /api/accounts", s.handleCreateAccount)
	mux.HandleFunc("POST /api/login", s.handleLogin)
	mux.HandleFunc("POST /api/logout", s.handleLogout)
	mux.HandleFunc("POST /api/tokens", s.handleToken)
	mux.HandleFunc("DELETE /api/tokens/current", s.handleRevokeToken)
	mux.HandleFunc("GET /api/me", s.handleMe)
	mux.HandleFunc("PUT /api/me", s.handleUpdateMe)
	mux.HandleFunc("GET /api/me/games", s.handleMyGames)
	mux.HandleFunc("GET /api/me/turns", s.handleTurns)
	mux.HandleFunc("GET /api/me/events", s.handleAccountEvents)
	mux.HandleFunc("GET /api/rules", s.handleRules)
	mux.HandleFunc("GET /api/lobby", s.handleLobby)
	mux.HandleFunc("GET /api/players/{name}", s.handlePlayer)
	mux.HandleFunc("POST /api/games", s.handleCreateGame)
	mux.HandleFunc("GET /api/games", s.handleListGames)
	mux.HandleFunc("GET /api/games/{id}", s.handleGame)
	mux.HandleFunc("GET /api/games/{id}/events", s.handleEvents)
	mux.HandleFunc("GET /api/games/{id}/sgf", s.handleSGF)
	mux.HandleFunc("GET /api/games/{id}/analysis", s.handleAnalysis)
	mux.HandleFunc("POST /api/games/{id}/join", s.handleJoin)
	mux.HandleFunc("POST /api/games/{id}/decline", s.handleDecline)
	mux.HandleFunc("POST /api/games/{id}/moves", s.handleMove)
	mux.HandleFunc("POST /api/games/{id}/resign", s.handleResign)
	mux.HandleFunc("POST /api/games/{id}/draw", s.handleDraw)
	mux.HandleFunc("POST /api/games/{id}/takeback", s.handleTakeback)
	mux.HandleFunc("POST /api/games/{id}/abort", s.handleAbort)
	mux.HandleFunc("GET /api/games/{id}/conditional", s.handleGetConditional)
	mux.HandleFunc("PUT /api/games/{id}/conditional", s.handlePutConditional)
	mux.HandleFunc("DELETE /api/games/{id}/conditional", s.handleDeleteConditional)
	mux.HandleFunc("GET /api/leaderboard", s.handleLeaderboard)
	mux.HandleFunc("GET /api/players/{name}/ratings", s.handleRatingHistory)
	// The analysis board's calls.
	mux.HandleFunc("GET /api/analysis", s.handlePositionAnalysis)
	mux.HandleFunc("GET /api/explorer", s.handleExplorer)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, apiErr(wire.NotFound, "no_route", "no such API call: docs/api.md lists them"))
	})
	s.aroundRoutes(mux)
	s.tournamentRoutes(mux)
	s.analysisBoardRoutes(mux)
	s.ruleLabRoutes(mux)
	s.puzzleRoutes(mux)
	s.pageRoutes(mux)
}

// decode reads a JSON body of at most maxBody bytes into v, refusing
// unknown fields and trailing data. An empty body is an empty object.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return apiErr(wire.TooLarge, "too_large", "the body is larger than %d bytes", maxBody)
		}
		return apiErr(wire.BadRequest, "bad_body", "the body could not be read")
	}
	return decodeBytes(body, v)
}

// decodeBytes is decode's parsing, on its own for the fuzz test.
func decodeBytes(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return apiErr(wire.BadRequest, "bad_json", "the body is not the JSON object this call takes (%s): docs/api.md describes it", clip.Text(err.Error()))
	}
	// Only JSON's white space may follow the value (dec.More misses a
	// stray ] or }).
	if rest := bytes.Trim(body[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return apiErr(wire.BadRequest, "bad_json", "the body holds more than one JSON value")
	}
	return nil
}
