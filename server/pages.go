package server

import (
	"errors"
	"net/http"

	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/internal/pages"
	"alak/server/store"
	"alak/wire"
)

// pageRoutes serves the pages that need a game, an account or the
// house bots (the frame of every page, the static files and the pages
// that are a frame only are package pages'), and the replay's positions.
func (s *Server) pageRoutes(mux *http.ServeMux) {
	s.pages.Routes(mux)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		// An account's home page holds its settings and its email address.
		a := httpx.Account(r)
		private := a != nil && !a.Guest()
		s.pages.Render(w, r, "home", pages.Page{Title: "play", Page: "home", Forms: s.pages.Forms, HouseBots: s.bots.HouseBotNames(), HouseBotTop: s.bots.HouseBotTop(), Private: private})
	})
	mux.HandleFunc("GET /g/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		st, err := s.core.Load(r.Context(), id)
		if errors.Is(err, errNotFound) {
			s.pages.NotFound(w, r, "There is no game "+id+".")
			return
		}
		if err != nil {
			s.pages.Unavailable(w, r, err)
			return
		}
		rs := st.Rules
		b := &pages.GameBoard{ID: id, Shape: pages.Shape(rs), W: rs.Width, H: rs.Height, Pass: rs.Pass}
		b.Ko, _ = rs.Get("ko")
		b.Score, _ = rs.Get("score")
		b.Over = st.Row.State == store.StateFinished
		b.Box, b.Width = pages.BoardBox(b.Shape, b.W, b.H)
		b.Rows = max(1, (st.Sess.Game().Len()+1)/2)
		b.Tournament = st.Tournament
		v := s.core.View(r.Context(), st)
		var end string
		b.Cards, end = pages.Cards(v)
		if sn := st.Sess.Snapshot(); b.Over && sn.ResultWords != nil {
			b.Result = *sn.ResultWords + "." + end
		}
		s.pages.Render(w, r, "game", pages.Page{Title: "game " + id, Page: "game", Game: b})
	})
	mux.HandleFunc("GET /p/{name}", func(w http.ResponseWriter, r *http.Request) {
		a, err := s.store.AccountByName(r.Context(), r.PathValue("name"))
		if errors.Is(err, store.ErrNotFound) || err == nil && a.Name == "" {
			s.pages.NotFound(w, r, "No player is called "+r.PathValue("name")+".")
			return
		}
		var ratings []wire.PoolRating
		if err == nil {
			ratings, err = s.ratings.Player(r.Context(), a.ID)
		}
		if err != nil {
			s.pages.Unavailable(w, r, err)
			return
		}
		s.pages.Render(w, r, "archive", pages.Page{Title: a.Name, Page: "archive", Name: a.Name, Forms: s.pages.Forms, Ratings: ratings})
	})
	mux.HandleFunc("GET /api/games/{id}/positions", s.handlePositions)
}

func (s *Server) handlePositions(w http.ResponseWriter, r *http.Request) {
	st, err := s.core.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	g := st.Sess.Game()
	out := wire.Positions{}
	for i := 0; i <= g.Len(); i++ {
		pos := g.PositionAt(i)
		out.Positions = append(out.Positions, pos.String())
		out.Stones = append(out.Stones, map[string]int{"x": pos.Count(rules.Black), "o": pos.Count(rules.White)})
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}
