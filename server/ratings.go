package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"alak/glicko2"
	"alak/internal/clip"
	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// Ratings: which games are rated, each seat's rating, and the
// API's ratings, history and leaderboard. The update itself is the
// store's, in the transaction that finishes a rated game (store.Update).
//
// A game is rated when both seats are accounts (no guest, no computer),
// it is played from the start position under a preset's own rules (any
// size), and its creator did not ask for "rated": false. Its pool is its
// preset. An aborted game, or one without a result ("Void"), changes no
// rating.

// round1 rounds a rating or a deviation to a tenth, as the API shows it.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// shown is a rating as a player reads it: "1662", or "1662?" while
// provisional.
func shown(r glicko2.Rating) string {
	s := strconv.Itoa(int(math.Round(r.Rating)))
	if r.Provisional() {
		s += "?"
	}
	return s
}

// presetRules reports whether the rules are a preset's own but for the
// board's size: the rules a rating pool (the preset) is about.
func presetRules(text string) bool {
	f := strings.Fields(text)
	for _, opt := range f[min(1, len(f)):] {
		if !strings.HasPrefix(opt, "size=") {
			return false
		}
	}
	return len(f) > 0
}

// notRatable says why a new game cannot be rated ("" when it can), before
// its seats are taken.
func notRatable(g store.Game, guest bool) string {
	switch {
	case g.Kind == store.KindComputer:
		return "games against the computer are not rated"
	case guest:
		return "a guest's games are not rated: sign in or create an account to play rated games"
	case g.Start != "":
		return "a game from a set-up position is not rated"
	case !presetRules(g.Rules):
		return fmt.Sprintf("only a preset's own rules are rated (at any size): %q changes other options", g.Rules)
	}
	return ""
}

// checkRated refuses a request for a rated game that cannot be: against
// the computer, by a guest (or someone not signed in: the game would be a
// guest's), from a set-up position, or under changed rules. It runs
// before a guest is made.
func checkRated(r *http.Request, g store.Game, req wire.CreateRequest) error {
	if req.Rated == nil || !*req.Rated {
		return nil
	}
	a := httpx.Account(r)
	if why := notRatable(g, a == nil || a.Guest()); why != "" {
		return httpx.Errf(wire.BadRequest, "not_rated", "this game cannot be rated: %s (send \"rated\": false or leave it out)", why)
	}
	return nil
}

// rateNewGame decides whether a new game is rated (as asked, rated by
// default when it can be) and records its creator's rating.
func (s *Server) rateNewGame(ctx context.Context, g *store.Game, a *store.Account, req wire.CreateRequest) error {
	g.Rated = notRatable(*g, a.Guest()) == "" && (req.Rated == nil || *req.Rated)
	if g.Kind == store.KindComputer || a.Guest() {
		return nil
	}
	return s.takeSeatRatings(ctx, g)
}

// rateJoin is the join's part: a game is rated only if both seats are
// accounts (a guest taking an invitation makes it unrated), and each seat's
// rating is recorded as the game begins.
func (s *Server) rateJoin(ctx context.Context, g *store.Game, joiner *store.Account) error {
	if joiner.Guest() {
		g.Rated = false
	}
	return s.takeSeatRatings(ctx, g)
}

// takeSeatRatings records the current rating in the game's pool of each
// seat held by an account that is not a guest.
func (s *Server) takeSeatRatings(ctx context.Context, g *store.Game) error {
	for _, seat := range []struct {
		s  store.Seat
		to *store.SeatRating
	}{{g.Black, &g.BlackRating}, {g.White, &g.WhiteRating}} {
		if seat.s.AccountID == 0 {
			continue
		}
		pv, err := s.core.PlayerView(ctx, seat.s.AccountID)
		if err != nil {
			return err
		}
		if pv.Guest {
			continue
		}
		r, err := s.poolRating(ctx, seat.s.AccountID, g.Preset)
		if err != nil {
			return err
		}
		*seat.to = store.SeatRating{Rating: r.Rating, RD: r.RD}
	}
	return nil
}

// poolRating is an account's rating in a pool now: a new player's when it
// has none, the deviation grown by the idle weeks.
func (s *Server) poolRating(ctx context.Context, account int64, pool string) (glicko2.Rating, error) {
	rs, err := s.store.Ratings(ctx, account)
	if err != nil {
		return glicko2.Rating{}, err
	}
	for _, r := range rs {
		if r.Pool == pool {
			return r.At(s.now()), nil
		}
	}
	return glicko2.Default(), nil
}

func seatRatingView(sr store.SeatRating) wire.SeatRating {
	r := glicko2.Rating{Rating: sr.Rating, RD: sr.RD}
	return wire.SeatRating{Rating: round1(sr.Rating), RD: round1(sr.RD), Provisional: r.Provisional(), Shown: shown(r)}
}

// summaryRatings is a game's ratings as a list shows them: the seats'
// ratings as stored (no query).
func summaryRatings(g store.Game) wire.GameRatings {
	out := wire.GameRatings{Rated: g.Rated}
	for i, sr := range []store.SeatRating{g.BlackRating, g.WhiteRating} {
		if sr.RD == 0 {
			continue
		}
		if out.Ratings == nil {
			out.Ratings = map[string]wire.SeatRating{}
		}
		out.Ratings[[]string{"x", "o"}[i]] = seatRatingView(sr)
	}
	return out
}

// gameRatings is a game's ratings for its view: the seats' ratings and,
// once a rated game is over, each player's change.
func (s *Server) gameRatings(ctx context.Context, g store.Game) wire.GameRatings {
	out := summaryRatings(g)
	if !g.Rated || g.State != store.StateFinished || out.Ratings == nil {
		return out
	}
	changes, err := s.store.GameRatings(ctx, g.ID)
	if err != nil {
		s.log.ErrorContext(ctx, "reading a game's rating changes", "game", g.ID, "err", err)
		return out
	}
	for _, c := range changes {
		key := "x"
		if c.AccountID == g.White.AccountID {
			key = "o"
		}
		v, ok := out.Ratings[key]
		if !ok {
			continue
		}
		change, after := round1(c.Change()), round1(c.After.Rating)
		v.RatingChange, v.RatingAfter = &change, &after
		out.Ratings[key] = v
	}
	return out
}

// playerRatings is a player's ratings now, one per pool played.
func (s *Server) playerRatings(ctx context.Context, account int64) ([]wire.PoolRating, error) {
	rs, err := s.store.Ratings(ctx, account)
	if err != nil {
		return nil, err
	}
	out := []wire.PoolRating{}
	for _, r := range rs {
		g := r.At(s.now())
		out = append(out, wire.PoolRating{Pool: r.Pool, Rating: round1(g.Rating), RD: round1(g.RD), Volatility: math.Round(g.Volatility*1e6) / 1e6,
			Games: r.Games, Provisional: g.Provisional(), Shown: shown(g)})
	}
	return out, nil
}

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

// limitParam reads the query's limit: def when none is given, else 1 to max.
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

// handleLeaderboard is GET /api/leaderboard?pool=P&limit=N: the pool's
// settled ratings (RD at most 110) best first, then the provisional ones.
func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	p, err := pool(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	limit, err := limitParam(r, 50, 200)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rs, err := s.store.Leaderboard(r.Context(), p, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := wire.Leaderboard{Pool: p, Players: []wire.LeaderboardLine{}}
	for _, sr := range rs {
		g := sr.At(s.now())
		out.Players = append(out.Players, wire.LeaderboardLine{Name: sr.Name, Rating: round1(g.Rating), RD: round1(g.RD), Games: sr.Games,
			Provisional: g.Provisional(), Shown: shown(g), Bot: s.isBot(r.Context(), sr.AccountID)})
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
	httpx.WriteJSON(w, http.StatusOK, out)
}

// handleRatingHistory is GET /api/players/{name}/ratings?pool=P&limit=N:
// the player's rating after each rated game of the pool, oldest first
// (the last N, 200 unless asked, at most 500).
func (s *Server) handleRatingHistory(w http.ResponseWriter, r *http.Request) {
	a, err := s.store.AccountByName(r.Context(), r.PathValue("name"))
	if err != nil {
		s.writeError(w, r, noPlayer(err, r.PathValue("name")))
		return
	}
	p, err := pool(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	limit, err := limitParam(r, 200, 500)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	hist, err := s.store.RatingHistory(r.Context(), a.ID, p, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := wire.RatingHistory{Name: a.Name, Pool: p, History: []wire.RatingHistoryLine{}}
	for _, h := range hist {
		out.History = append(out.History, wire.RatingHistoryLine{Game: h.GameID, At: h.At, Rating: round1(h.After.Rating), RD: round1(h.After.RD), Change: round1(h.Change())})
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}
