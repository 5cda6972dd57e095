package server

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"time"

	"alak/internal/clip"
	"alak/server/internal/computer"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/internal/ratings"
	"alak/server/store"
	"alak/wire"
)

// seatNames reads into names the players of the games' seats, for
// summary: a name the store cannot read fails the request, rather than
// showing the seat empty.
func (s *Server) seatNames(ctx context.Context, names map[int64]wire.Seat, games ...[]store.Game) error {
	for _, list := range games {
		for _, g := range list {
			for _, id := range []int64{g.Black.AccountID, g.White.AccountID} {
				if _, ok := names[id]; ok || id == 0 {
					continue
				}
				pv, err := s.core.PlayerView(ctx, id)
				if err != nil {
					return err
				}
				names[id] = pv
			}
		}
	}
	return nil
}

// noPlayer is the answer to a look-up of a player by name that failed:
// 404 no_player when there is no such name, else the store's error.
func noPlayer(err error, name string) error {
	if errors.Is(err, store.ErrNotFound) {
		return httpx.Errf(wire.NotFound, "no_player", "no player is called %s", clip.Text(name))
	}
	return err
}

func (s *Server) summary(ctx context.Context, g store.Game, me int64, names map[int64]wire.Seat) wire.Summary {
	out := wire.Summary{ID: g.ID, Rules: g.Rules, Preset: g.Preset, Size: g.Size, State: g.State, Kind: g.Kind, Clock: g.Clock,
		Players: map[string]wire.Seat{}, Ply: g.Ply, Result: g.Result, Reason: g.Reason, Winner: g.Winner, Updated: g.Updated,
		GameRatings: ratings.Summary(g), AllowBots: g.AllowBots}
	for i, seat := range []store.Seat{g.Black, g.White} {
		key := []string{"x", "o"}[i]
		switch {
		case seat.AccountID != 0: // a house bot's seat has a spec too, and is shown by its account
			pv, ok := names[seat.AccountID]
			if !ok {
				pv, _ = s.core.PlayerView(ctx, seat.AccountID) // the lists' handlers read the names first (seatNames)
				names[seat.AccountID] = pv
			}
			out.Players[key] = pv
		case seat.Bot != "":
			out.Players[key] = wire.Seat{Name: computer.Name(seat.Bot), Computer: true}
		}
	}
	if g.State == store.StateActive {
		out.ToMove = game.ToMoveOf(g).Letter()
		out.MyTurn = game.MyTurn(g, me)
		if !g.Deadline.IsZero() {
			d := g.Deadline
			out.Deadline = &d
		}
	}
	out.Invitee = s.invitee(ctx, g)
	if g.State == store.StateWaiting && !g.Expires.IsZero() {
		e := g.Expires
		out.Expires = &e
	}
	return out
}

// handleMyGames is GET /api/me/games: my active and waiting games, those
// where it is my turn first (the soonest deadline first), then the others,
// then my last finished games.
func (s *Server) handleMyGames(w http.ResponseWriter, r *http.Request) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	games, err := s.store.Games(r.Context(), store.Filter{Player: a.ID, States: []string{store.StateActive, store.StateWaiting}})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// Challenges addressed to me by name: the creator sits, I do not yet;
	// the query selects them by their named opponent.
	invites, err := s.store.Games(r.Context(), store.Filter{States: []string{store.StateWaiting}, Kind: store.KindNamed,
		Opponent: a.ID, Live: s.now(), Limit: 200})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	names := map[int64]wire.Seat{}
	if err := s.seatNames(r.Context(), names, games, invites); err != nil {
		s.writeError(w, r, err)
		return
	}
	var mine []wire.Summary
	for _, g := range games {
		mine = append(mine, s.summary(r.Context(), g, a.ID, names))
	}
	var challenges []wire.Summary
	for _, g := range invites {
		challenges = append(challenges, s.summary(r.Context(), g, a.ID, names))
	}
	sort.SliceStable(mine, func(i, j int) bool {
		if mine[i].MyTurn != mine[j].MyTurn {
			return mine[i].MyTurn
		}
		di, dj := mine[i].Deadline, mine[j].Deadline
		switch {
		case di == nil && dj == nil:
			return mine[i].Updated.After(mine[j].Updated)
		case di == nil:
			return false
		case dj == nil:
			return true
		}
		return di.Before(*dj)
	})
	finished, err := s.store.Games(r.Context(), store.Filter{Player: a.ID, States: []string{store.StateFinished, store.StateAborted}, Limit: 20})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.seatNames(r.Context(), names, finished); err != nil {
		s.writeError(w, r, err)
		return
	}
	var done []wire.Summary
	for _, g := range finished {
		done = append(done, s.summary(r.Context(), g, a.ID, names))
	}
	s.tourneys.Tag(r.Context(), mine)
	s.tourneys.Tag(r.Context(), done)
	httpx.WriteJSON(w, http.StatusOK, wire.MyGames{Games: nonNil(mine), Challenges: nonNil(challenges), Finished: nonNil(done)})
}

func nonNil(gs []wire.Summary) []wire.Summary {
	if gs == nil {
		return []wire.Summary{}
	}
	return gs
}

// handleListGames is GET /api/games?player=NAME&state=active|finished|waiting&preset=P&size=N&before=RFC3339&limit=N.
func (s *Server) handleListGames(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := store.Filter{Preset: q.Get("preset"), Size: q.Get("size")}
	if len(f.Preset) > 40 || len(f.Size) > 10 {
		s.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_filter", "preset and size are short words such as alak and 11"))
		return
	}
	if name := q.Get("player"); name != "" {
		a, err := s.store.AccountByName(r.Context(), name)
		if err != nil {
			s.writeError(w, r, noPlayer(err, name))
			return
		}
		f.Player = a.ID
	}
	switch st := q.Get("state"); st {
	case "", "finished":
		f.States = []string{store.StateFinished}
	case "active":
		f.States = []string{store.StateActive}
	case "waiting":
		f.States = []string{store.StateWaiting}
	case "all":
	default:
		s.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_filter", "state is active, finished, waiting or all"))
		return
	}
	if b := q.Get("before"); b != "" {
		t, err := time.Parse(time.RFC3339Nano, b)
		if err != nil {
			s.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_filter", "before is a time such as 2026-11-24T12:00:00Z"))
			return
		}
		f.Before = t
	}
	f.Limit = 50
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 200 {
			s.writeError(w, r, httpx.Errf(wire.BadRequest, "bad_filter", "limit is 1 to 200"))
			return
		}
		f.Limit = n
	}
	s.writeGames(w, r, f)
}

// writeGames answers {"games": [...]}: the summaries of the games f
// selects, as the request's account sees them.
func (s *Server) writeGames(w http.ResponseWriter, r *http.Request, f store.Filter) {
	games, err := s.store.Games(r.Context(), f)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var me int64
	if a := httpx.Account(r); a != nil {
		me = a.ID
	}
	names := map[int64]wire.Seat{}
	if err := s.seatNames(r.Context(), names, games); err != nil {
		s.writeError(w, r, err)
		return
	}
	out := []wire.Summary{}
	for _, g := range games {
		out = append(out, s.summary(r.Context(), g, me, names))
	}
	httpx.WriteJSON(w, http.StatusOK, wire.Games{Games: out})
}

// handleLobby is GET /api/lobby: the open challenges anyone may take, the
// 200 most recently made that have not expired (selected by the query,
// whatever other games wait).
func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	s.writeGames(w, r, store.Filter{States: []string{store.StateWaiting}, Kind: store.KindOpen, Live: s.now(), Limit: 200})
}

// handlePlayer is GET /api/players/{name}: the player's record, counted by
// the database over all their finished games.
func (s *Server) handlePlayer(w http.ResponseWriter, r *http.Request) {
	a, err := s.store.AccountByName(r.Context(), r.PathValue("name"))
	if err != nil {
		s.writeError(w, r, noPlayer(err, r.PathValue("name")))
		return
	}
	st, err := s.store.PlayerStats(r.Context(), a.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ratings, err := s.ratings.Player(r.Context(), a.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, wire.Player{Name: a.Name, Bot: a.Bot, Since: a.Created, Finished: st.Finished, Wins: st.Wins, Losses: st.Losses, Draws: st.Draws,
		Ratings: ratings})
}
