package server

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"alak/wire"
)

// ratedGame plays a rated game of alak between two accounts through the
// API, a day after the last: the loser resigns at once (a resignation is
// a result like any other). It returns the game's id.
func ratedGame(t *testing.T, h *harness, black, white *client, whiteName string, blackWins bool) string {
	t.Helper()
	h.clock.Add(24 * time.Hour)
	g := black.create(map[string]string{"rules": "alak", "color": "x", "clock": "days:3", "opponent": whiteName})
	if code := white.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	loser := black
	if blackWins {
		loser = white
	}
	if code := loser.do("POST", "/api/games/"+g.ID+"/resign", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	return g.ID
}

// shot writes the page's screenshot to docs/img/name with
// -update-screenshots.
func (tb *tab) shot(name string) {
	tb.t.Helper()
	if !*updateScreenshots {
		return
	}
	tb.do("moving the pointer away", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1))
	ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	cancel()
	if err != nil {
		tb.t.Fatal(err)
	}
	path := filepath.Join("..", "docs", "img", name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
	tb.t.Logf("wrote %s", path)
}

// TestBrowserRatings: after rated games played through the API, the
// game page shows each player's rating and its change, the profile lists
// the ratings and draws the history chart (one dot a game), the
// leaderboard lists the players as the API orders them, and the lobby
// shows a challenger's rating and filters by a rating range.
//
//	go test ./server -run BrowserRatings -update-screenshots   # docs/img/profile.png, leaderboard.png
func TestBrowserRatings(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	b := newBrowser(t, h)
	names := []string{"ada", "bo", "cy", "di"}
	cs := map[string]*client{}
	for _, n := range names {
		cs[n] = h.client().signUp(n)
	}
	// The first game is watched by bo's page as it ends: the event
	// stream brings the ratings after it to the cards, with the change,
	// and the status says the change.
	tb := b.user("bo")
	tb.signInAs(cs["bo"])
	h.clock.Add(24 * time.Hour)
	fg := cs["ada"].create(map[string]string{"rules": "alak", "color": "x", "clock": "days:3", "opponent": "bo"})
	first := fg.ID
	if code := cs["bo"].do("POST", "/api/games/"+first+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	tb.open("/g/" + first)
	tb.wait("the cards' ratings before the game", `document.querySelector('.player[data-color=x] .rating').textContent === '1500?'`)
	if code := cs["bo"].do("POST", "/api/games/"+first+"/resign", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	v := cs["bo"].game(first)
	x, o := v.Ratings["x"], v.Ratings["o"]
	wantX := fmt.Sprintf("%.0f? (+%.0f)", *x.RatingAfter, *x.RatingChange)
	wantO := fmt.Sprintf("%.0f? (−%.0f)", *o.RatingAfter, -*o.RatingChange)
	tb.wait("the cards' ratings", fmt.Sprintf(`document.querySelector('.player[data-color=x] .rating').textContent === %q && document.querySelector('.player[data-color=o] .rating').textContent === %q`, wantX, wantO))
	tb.waitStatus(fmt.Sprintf("Ratings: ada +%.0f, bo −%.0f.", *x.RatingChange, -*o.RatingChange))

	// ada wins four more and loses one; the others win and lose among
	// themselves.
	for _, p := range []struct {
		x, o  string
		xWins bool
	}{{"ada", "cy", true}, {"di", "ada", false}, {"ada", "bo", false}, {"cy", "bo", true}, {"ada", "di", true}, {"bo", "ada", false}, {"di", "cy", true}} {
		ratedGame(t, h, cs[p.x], cs[p.o], p.o, p.xWins)
	}
	// cy and di then play each other, winning in turn, until both
	// ratings are settled (RD at most 110): the leaderboard ranks them.
	for i := 0; ; i++ {
		var cy, di playerAnswer
		cs["bo"].do("GET", "/api/players/cy", nil, &cy)
		cs["bo"].do("GET", "/api/players/di", nil, &di)
		if !cy.Ratings[0].Provisional && !di.Ratings[0].Provisional {
			break
		}
		if i == 40 {
			t.Fatalf("cy and di still provisional after 40 more games: %+v %+v", cy.Ratings, di.Ratings)
		}
		ratedGame(t, h, cs["cy"], cs["di"], "di", i%2 == 0)
	}
	var pa playerAnswer
	cs["bo"].do("GET", "/api/players/ada", nil, &pa)
	var hist wire.RatingHistory
	cs["bo"].do("GET", "/api/players/ada/ratings?pool=alak", nil, &hist)
	if len(pa.Ratings) != 1 || len(hist.History) != 6 {
		t.Fatalf("ada's ratings %+v, history of %d games, want one pool and 6 games", pa.Ratings, len(hist.History))
	}

	// Reloaded, the finished game's page says the same.
	tb.open("/g/" + first)
	tb.wait("the cards' ratings after a reload", fmt.Sprintf(`document.querySelector('.player[data-color=x] .rating').textContent === %q`, wantX))

	// The profile: the pool's rating as the API shows it, and the chart
	// with a dot for each of the six games.
	tb.do("sizing the window", chromedp.EmulateViewport(1000, 900))
	tb.open("/p/ada")
	tb.wait("the chart", `document.querySelectorAll('#rating-chart circle').length === 6`)
	if got := tb.eval(`document.querySelector('#ratings-rows tr').textContent`); !strings.HasPrefix(got, "alak"+pa.Ratings[0].Shown) {
		t.Errorf("the profile's ratings row %q, want alak and %s", got, pa.Ratings[0].Shown)
	}
	last := hist.History[len(hist.History)-1]
	if got := tb.eval(`document.querySelector('#rating-summary').textContent`); !strings.Contains(got, fmt.Sprintf("now %.0f", last.Rating)) {
		t.Errorf("the chart's summary %q, want the last rating %.0f", got, last.Rating)
	}
	// The last dot is the highest or lowest where the history says so:
	// the chart's y grows downwards.
	ys := tb.eval(`[...document.querySelectorAll('#rating-chart circle')].map((c) => c.getAttribute('cy')).join(' ')`)
	if f := strings.Fields(ys); len(f) != 6 {
		t.Errorf("the dots' heights: %q", ys)
	} else if (hist.History[1].Rating > hist.History[0].Rating) != (parse(f[1]) < parse(f[0])) {
		t.Errorf("the chart's second dot %s is not placed against the first %s as ratings %.1f and %.1f", f[1], f[0], hist.History[1].Rating, hist.History[0].Rating)
	}
	if n := tb.count(`#archive-rows tr`); n != 6 {
		t.Errorf("the profile lists %d last games, want ada's 6", n)
	}
	// The dots are seen (not hidden by another rule of the style sheet).
	if op := tb.eval(`getComputedStyle(document.querySelector('#rating-chart circle')).opacity`); op != "1" {
		t.Errorf("the chart's dots have opacity %s", op)
	}
	tb.shot("profile.png")

	// The leaderboard: the API's order, a rank for every player, marked
	// provisional ("3?") after the settled ratings.
	var board wire.Leaderboard
	cs["bo"].do("GET", "/api/leaderboard?pool=alak", nil, &board)
	var want []string
	for _, p := range board.Players {
		want = append(want, p.Name+" "+p.Shown)
	}
	tb.do("sizing the window", chromedp.EmulateViewport(1000, 560))
	tb.open("/leaderboard?pool=alak")
	tb.wait("the leaderboard", `document.querySelectorAll('#board-rows tr').length === 4`)
	got := tb.eval(`[...document.querySelectorAll('#board-rows tr')].map((r) => r.children[1].textContent + ' ' + r.children[2].textContent).join(',')`)
	if got != strings.Join(want, ",") || board.Players[0].Provisional || !board.Players[3].Provisional {
		t.Errorf("the leaderboard shows %s, the API %s (settled first)", got, strings.Join(want, ","))
	}
	if ranks := tb.eval(`[...document.querySelectorAll('#board-rows tr')].map((r) => r.children[0].textContent).join(',')`); ranks != "1,2,3?,4?" {
		t.Errorf("the leaderboard's ranks %q, want 1 and 2 for the settled cy and di, 3? and 4? for the provisional", ranks)
	}
	tb.shot("leaderboard.png")
	tb.choose(`#board-filter select[name=pool]`, "golf")
	tb.wait("golf's empty leaderboard", `document.querySelector('#board-rows').textContent.includes('No rated game in golf')`)

	// The lobby: ada's open challenge shows her rating; a range above it
	// hides the challenge.
	h.clock.Add(time.Hour)
	cs["ada"].create(map[string]string{"rules": "alak", "color": "x", "opponent": "open", "clock": "days:3"})
	tb.open("/")
	shown := pa.Ratings[0].Shown
	tb.wait("the lobby", fmt.Sprintf(`document.querySelector('#lobby').textContent.includes('ada plays Black · %s, rated')`, shown))
	above := fmt.Sprintf("%.0f", pa.Ratings[0].Rating+100)
	tb.eval(fmt.Sprintf(`(() => { const e = document.querySelector('#lobby-filter input[name=min]'); e.value = %q; e.dispatchEvent(new Event('input', {bubbles: true})); })()`, above))
	tb.wait("the filtered lobby", `document.querySelector('#lobby').textContent.includes('No open challenge in this rating range')`)
	tb.eval(`(() => { const e = document.querySelector('#lobby-filter input[name=min]'); e.value = ''; e.dispatchEvent(new Event('input', {bubbles: true})); })()`)
	tb.wait("the lobby again", `document.querySelector('#lobby').textContent.includes('ada plays')`)
}

func parse(s string) float64 {
	var f float64
	fmt.Sscan(s, &f)
	return f
}
