package server

import (
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"alak/wire"
)

// inviteSecret is the secret of an invitation link.
func inviteSecret(link string) string {
	return link[strings.Index(link, "invite=")+len("invite="):]
}

// glickoOneGame is Glicko-2 for one game (one rating period with one
// result), written out again here from Glickman's "Example of the Glicko-2
// system" (2012), steps 2 to 8, apart from the server's glicko2 package:
// the new volatility is found by bisection rather than by the paper's
// Illinois iteration (the same root of the same f, by another method).
func glickoOneGame(r, rd, vol, oppR, oppRD, score float64) (float64, float64, float64) {
	const q, tau = 173.7178, 0.5
	mu, phi := (r-1500)/q, rd/q
	muj, phij := (oppR-1500)/q, oppRD/q
	g := 1 / math.Sqrt(1+3*phij*phij/(math.Pi*math.Pi))
	e := 1 / (1 + math.Exp(-g*(mu-muj)))
	v := 1 / (g * g * e * (1 - e))
	delta := v * g * (score - e)
	a := math.Log(vol * vol)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		return ex*(delta*delta-phi*phi-v-ex)/(2*(phi*phi+v+ex)*(phi*phi+v+ex)) - (x-a)/(tau*tau)
	}
	// f falls from positive to negative across its root: bracket and halve.
	lo, hi := a-20, a+20
	for range 200 {
		mid := (lo + hi) / 2
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	vol2 := math.Exp(lo / 2)
	phiStar := math.Sqrt(phi*phi + vol2*vol2)
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*g*(score-e)
	return q*mu2 + 1500, q * phi2, vol2
}

type playerAnswer struct {
	Name    string            `json:"name"`
	Ratings []wire.PoolRating `json:"ratings"`
}

// TestRatedGameThroughTheAPI plays a rated game to its end between two
// accounts, over HTTP on a real SQLite file and a real PostgreSQL, and
// checks both new ratings against the paper's formulas (glickoOneGame);
// games against the computer, with a guest, or asked unrated are not
// rated, and a rated game a guest would play is refused.
func TestRatedGameThroughTheAPI(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(t *testing.T, h *harness) {
		ada := h.client().signUp("ada")
		bo := h.client().signUp("bo")
		g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "days:3", "opponent": "bo"})
		if code := bo.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
		v := ada.game(g.ID)
		if !v.Rated || v.Ratings["x"].Shown != "1500?" || v.Ratings["o"].RD != 350 {
			t.Fatalf("a game between two accounts: rated %v, ratings %+v", v.Rated, v.Ratings)
		}
		players := []*client{ada, bo}
		for i, m := range seedAlak6 {
			if code, _, e := players[i%2].move(g.ID, m, i); code != http.StatusOK {
				t.Fatalf("move %d %s: %d %+v", i+1, m, code, e)
			}
		}
		v = ada.game(g.ID)
		// Seed 002's game is Black's (ada's) win: both players were new.
		winR, winRD, winVol := glickoOneGame(1500, 350, 0.06, 1500, 350, 1)
		lossR, lossRD, _ := glickoOneGame(1500, 350, 0.06, 1500, 350, 0)
		x, o := v.Ratings["x"], v.Ratings["o"]
		if v.State != "finished" || x.RatingChange == nil || o.RatingChange == nil ||
			math.Abs(*x.RatingChange-(winR-1500)) > 0.051 || math.Abs(*o.RatingChange-(lossR-1500)) > 0.051 ||
			math.Abs(*x.RatingAfter-winR) > 0.051 {
			t.Fatalf("after the game: %s, ratings %+v %+v; the paper's formulas give %.2f and %.2f", v.State, x, o, winR, lossR)
		}
		var pa playerAnswer
		if code := bo.do("GET", "/api/players/ada", nil, &pa); code != http.StatusOK || len(pa.Ratings) != 1 {
			t.Fatalf("ada's ratings: %d %+v", code, pa)
		}
		r := pa.Ratings[0]
		if r.Pool != "alak" || math.Abs(r.Rating-winR) > 0.051 || math.Abs(r.RD-winRD) > 0.051 || r.Games != 1 || !r.Provisional ||
			r.Shown != "1662?" {
			t.Errorf("ada's rating %+v, want %.1f RD %.1f, provisional", r, winR, winRD)
		}
		if bo.do("GET", "/api/players/bo", nil, &pa); len(pa.Ratings) != 1 || math.Abs(pa.Ratings[0].Rating-lossR) > 0.051 || math.Abs(pa.Ratings[0].RD-lossRD) > 0.051 {
			t.Errorf("bo's ratings %+v, want %.1f RD %.1f", pa.Ratings, lossR, lossRD)
		}
		var board wire.Leaderboard
		if code := bo.do("GET", "/api/leaderboard?pool=alak", nil, &board); code != http.StatusOK || len(board.Players) != 2 ||
			board.Players[0].Name != "ada" || board.Players[1].Name != "bo" || board.Players[0].Games != 1 ||
			board.Players[0].Rank != 1 || board.Players[1].Rank != 2 {
			t.Errorf("leaderboard: %d %+v", code, board)
		}
		var e errBody
		if code := bo.do("GET", "/api/leaderboard?pool=chess", nil, &e); code != http.StatusBadRequest || e.Code != "bad_pool" {
			t.Errorf("an unknown pool: %d %+v", code, e)
		}
		var hist wire.RatingHistory
		if code := bo.do("GET", "/api/players/ada/ratings?pool=alak", nil, &hist); code != http.StatusOK || len(hist.History) != 1 ||
			hist.History[0].Game != g.ID || math.Abs(hist.History[0].Change-(winR-1500)) > 0.051 {
			t.Errorf("ada's history: %d %+v", code, hist)
		}
		// Three weeks without a rated game: three empty rating periods,
		// each RD to sqrt(φ² + σ²) on the Glicko-2 scale (the paper's step
		// 6 for a player who does not compete).
		h.clock.Add(3*7*24*time.Hour + time.Hour)
		idleRD := winRD
		for range 3 {
			phi := idleRD / 173.7178
			idleRD = 173.7178 * math.Sqrt(phi*phi+winVol*winVol)
		}
		if bo.do("GET", "/api/players/ada", nil, &pa); math.Abs(pa.Ratings[0].RD-idleRD) > 0.051 || math.Abs(pa.Ratings[0].Rating-winR) > 0.051 {
			t.Errorf("ada after three idle weeks: %+v, want RD %.2f and the rating unchanged", pa.Ratings[0], idleRD)
		}

		// Against the computer: never rated; asking for it is refused.
		c := ada.create(map[string]string{"rules": "alak size=6", "opponent": "computer:level:1"})
		if v := ada.game(c.ID); v.Rated {
			t.Errorf("a game against the computer is rated")
		}
		if code := ada.do("POST", "/api/games", map[string]any{"opponent": "computer:level:1", "rated": true}, &e); code != http.StatusBadRequest || e.Code != "not_rated" {
			t.Errorf("rated against the computer: %d %+v", code, e)
		}
		// A guest's game cannot be rated.
		guest := h.client()
		if code := guest.do("POST", "/api/games", map[string]any{"opponent": "link", "rated": true}, &e); code != http.StatusBadRequest || e.Code != "not_rated" {
			t.Errorf("rated by a guest: %d %+v", code, e)
		}
		// A set-up position or changed rules are not rated either.
		if code := ada.do("POST", "/api/games", map[string]any{"opponent": "bo", "rules": "alak edge=off", "rated": true}, &e); code != http.StatusBadRequest {
			t.Errorf("rated under changed rules: %d %+v", code, e)
		}
		// An invitation taken by a guest makes the game unrated.
		l := ada.create(map[string]string{"rules": "alak size=6", "opponent": "link", "clock": "live:5m"})
		if !ada.game(l.ID).Rated {
			t.Errorf("an account's link game is not rated while it waits")
		}
		if code := guest.do("POST", "/api/games/"+l.ID+"/join", map[string]string{"invite": inviteSecret(l.Invite)}, nil); code != http.StatusOK {
			t.Fatalf("a guest joins: %d", code)
		}
		gs := "x" // the guest's seat: the colour was drawn at random
		if v := ada.game(l.ID); !v.Players["x"].Guest {
			gs = "o"
		}
		if v := ada.game(l.ID); v.Rated || !v.Players[gs].Guest || v.Ratings[gs].RD != 0 {
			t.Errorf("a guest's game: rated %v, players %+v, ratings %+v", v.Rated, v.Players, v.Ratings)
		}
		// Asked unrated between two accounts: the end changes nothing.
		var u wire.Created
		if code := ada.do("POST", "/api/games", map[string]any{"rules": "alak size=6", "opponent": "bo", "rated": false}, &u); code != http.StatusCreated {
			t.Fatalf("an unrated challenge: %d", code)
		}
		bo.do("POST", "/api/games/"+u.ID+"/join", map[string]string{}, nil)
		if code := bo.do("POST", "/api/games/"+u.ID+"/resign", map[string]string{}, nil); code != http.StatusOK {
			t.Fatalf("resign: %d", code)
		}
		if v := ada.game(u.ID); v.Rated || v.State != "finished" || v.Ratings["x"].RatingChange != nil {
			t.Errorf("an unrated game: %+v", v.GameRatings)
		}
		if bo.do("GET", "/api/players/ada", nil, &pa); pa.Ratings[0].Games != 1 {
			t.Errorf("an unrated game counted: %+v", pa.Ratings)
		}
	})
}
