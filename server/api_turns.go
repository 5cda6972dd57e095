package server

import (
	"context"
	"net/http"
	"sort"

	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// The header's badge (notifications): how many games wait for
// me, asked for every minute or so by every open page, so it reads two
// indexed lists and no player's name.

// invitee names the player a named challenge was made to ("waiting for
// bob"); "" for other kinds of game.
func (s *Server) invitee(ctx context.Context, g store.Game) string {
	if g.Kind != store.KindNamed || g.Opponent == 0 {
		return ""
	}
	pv, err := s.core.PlayerView(ctx, g.Opponent)
	if err != nil {
		return ""
	}
	return pv.Name
}

// handleTurns is GET /api/me/turns.
func (s *Server) handleTurns(w http.ResponseWriter, r *http.Request) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	games, err := s.store.Games(r.Context(), store.Filter{Player: a.ID, States: []string{store.StateActive}})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	invites, err := s.store.Games(r.Context(), store.Filter{States: []string{store.StateWaiting}, Kind: store.KindNamed,
		Opponent: a.ID, Live: s.now(), Limit: 200})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var mine []store.Game
	for _, g := range games {
		if game.MyTurn(g, a.ID) {
			mine = append(mine, g)
		}
	}
	// The soonest deadline first, then games without a clock, the last
	// changed first: the order of GET /api/me/games.
	sort.SliceStable(mine, func(i, j int) bool {
		di, dj := mine[i].Deadline, mine[j].Deadline
		switch {
		case di.IsZero() && dj.IsZero():
			return mine[i].Updated.After(mine[j].Updated)
		case di.IsZero():
			return false
		case dj.IsZero():
			return true
		}
		return di.Before(dj)
	})
	out := wire.Turns{Turns: len(mine), Challenges: len(invites), Games: []string{}}
	for _, g := range mine {
		out.Games = append(out.Games, g.ID)
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}
