package ratings

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"alak/internal/clip"
	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/internal/ratings/update"
	"alak/wire"
)

// pool reads the query's pool: a preset's name, alak when none is given.
func pool(r *http.Request) (string, error) {
	p := r.URL.Query().Get("pool")
	if p == "" {
		return "alak", nil
	}
	if !slices.Contains(rules.Presets(), p) {
		return "", httpx.Errf(wire.BadRequest, "bad_pool", "%q is not a rating pool: the pools are the presets, %s", clip.Text(p), strings.Join(rules.Presets(), ", "))
	}
	return p, nil
}

// limitParam reads the query's limit: def when none is given, else 1 to most.
func limitParam(r *http.Request, def, most int) (int, error) {
	l := r.URL.Query().Get("limit")
	if l == "" {
		return def, nil
	}
	n, err := strconv.Atoi(l)
	if err != nil || n < 1 || n > most {
		return 0, httpx.Errf(wire.BadRequest, "bad_limit", "limit is 1 to %d", most)
	}
	return n, nil
}

// query reads the query's pool and limit (def when none is given, else
// 1 to most), in that order.
func query(r *http.Request, def, most int) (string, int, error) {
	p, err := pool(r)
	if err != nil {
		return "", 0, err
	}
	n, err := limitParam(r, def, most)
	return p, n, err
}

// answer writes out as JSON, or err when there is one.
func (s *Service) answer(w http.ResponseWriter, r *http.Request, out any, err error) {
	if err != nil {
		httpx.WriteError(s.c.Log, w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// ServeLeaderboard is GET /api/leaderboard?pool=P&limit=N: the pool's
// settled ratings (RD at most 110) best first, then the provisional ones.
func (s *Service) ServeLeaderboard(w http.ResponseWriter, r *http.Request) {
	out, err := s.leaderboard(r)
	s.answer(w, r, out, err)
}

func (s *Service) leaderboard(r *http.Request) (wire.Leaderboard, error) {
	p, limit, err := query(r, 50, 200)
	if err != nil {
		return wire.Leaderboard{}, err
	}
	rs, err := s.c.Store.Leaderboard(r.Context(), p, limit)
	if err != nil {
		return wire.Leaderboard{}, err
	}
	out := wire.Leaderboard{Pool: p, Players: []wire.LeaderboardLine{}}
	for _, sr := range rs {
		g := update.At(sr, s.c.Now())
		// A bot's line is marked; an account that cannot be read is shown
		// unmarked (a name without its mark is the lesser harm).
		pv, err := s.c.Player(r.Context(), sr.AccountID)
		out.Players = append(out.Players, wire.LeaderboardLine{Name: sr.Name, Rating: Round1(g.Rating), RD: Round1(g.RD), Games: sr.Games,
			Provisional: g.Provisional(), Shown: shown(g), Bot: err == nil && pv.Bot})
	}
	// The store sorts by the deviation the last game left; idle weeks
	// since may have made a rating provisional again.
	slices.SortStableFunc(out.Players, func(a, b wire.LeaderboardLine) int {
		if a.Provisional != b.Provisional {
			if a.Provisional {
				return 1
			}
			return -1
		}
		return 0
	})
	for i := range out.Players {
		out.Players[i].Rank = i + 1
	}
	return out, nil
}

// ServeHistory is GET /api/players/{name}/ratings?pool=P&limit=N: the
// player's rating after each rated game of the pool, oldest first (the
// last N, 200 unless asked, at most 500).
func (s *Service) ServeHistory(w http.ResponseWriter, r *http.Request) {
	out, err := s.history(r)
	s.answer(w, r, out, err)
}

func (s *Service) history(r *http.Request) (wire.RatingHistory, error) {
	a, err := s.c.Account(r.Context(), r.PathValue("name"))
	if err != nil {
		return wire.RatingHistory{}, err
	}
	p, limit, err := query(r, 200, 500)
	if err != nil {
		return wire.RatingHistory{}, err
	}
	hist, err := s.c.Store.RatingHistory(r.Context(), a.ID, p, limit)
	if err != nil {
		return wire.RatingHistory{}, err
	}
	out := wire.RatingHistory{Name: a.Name, Pool: p, History: []wire.RatingHistoryLine{}}
	for _, h := range hist {
		out.History = append(out.History, wire.RatingHistoryLine{Game: h.GameID, At: h.At, Rating: Round1(h.After.Rating), RD: Round1(h.After.RD), Change: Round1(h.Change())})
	}
	return out, nil
}
