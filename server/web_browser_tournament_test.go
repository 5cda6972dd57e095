package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"alak/server/store"
	"alak/wire"

	"github.com/chromedp/chromedp"
)

// TestBrowserTournament: a tournament played by its pages. p1 organises
// a round robin of three by correspondence with the tournaments page's
// form and joins it on its page; p2 joins on its page, p3 through the API,
// and p1's page shows the three players without a reload (the
// tournament's event stream). p1 starts it; each player's games appear
// under My games with the tournament and round, and each game's page
// names them; the losers resign the three games on the game pages, and
// p1's tournament page shows the standings, the crosstable and the
// winner: p3 beat both (2 points), p1 beat p2 (1), p2 0. The checks of
// TestBrowserPageChecks pass on both pages, for a player and a visitor.
func TestBrowserTournament(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100, Now: time.Now})
	b := newBrowser(t, h)
	ps := tourneyPlayers(h, 3)
	t1, t2 := b.user("p1"), b.user("p2")
	t1.signInAs(ps["p1"])
	t2.signInAs(ps["p2"])

	t1.open("/tournaments")
	t1.wait("the lists", `document.querySelector('#list-open').textContent.includes('No open tournament')`)
	pageChecked(t1)
	// The form takes the rules and the clock with the game form's
	// controls (a preset, a size; correspondence, 3 days a move, by
	// default), and the organiser plays unless the box is unticked.
	if got := t1.eval(`[...document.querySelectorAll('#tournament-form input[name=clock]:checked, #tournament-form select[name=days], #tournament-form select[name=preset], #tournament-form input[name=play]:checked')].map((e) => e.value).join(' ')`); got != "alak days 3 on" {
		t.Errorf("the form's rules, clock and play box start as %q, want alak, days, 3 and ticked", got)
	}
	t1.do("filling in the form",
		chromedp.SendKeys(chromedp.CSS(`#tournament-form input[name=name]`), "Browser cup"),
		chromedp.SendKeys(chromedp.CSS(`#tournament-form input[name=size]`), "9"))
	t1.choose(`#tournament-form select[name=format]`, "round-robin")
	t1.clickTo(`#tournament-form button[type=submit]`, "/t/")
	id := strings.TrimPrefix(t1.eval(`location.pathname`), "/t/")
	t1.wait("the tournament, its organiser in", `document.querySelector('#t-name').textContent === 'Browser cup' && document.querySelector('[data-player=p1]') !== null && document.querySelector('button[data-action=start]') !== null`)
	if v := ps["p1"].tournament(id); v.Rules != "alak size=9" || v.Clock != "days:3" {
		t.Errorf("the tournament made by the form: rules %q, clock %q; want alak size=9, days:3", v.Rules, v.Clock)
	}
	pageChecked(t1)

	t2.open("/t/" + id)
	t2.wait("the join button", `document.querySelector('button[data-action=join]') !== null`)
	t2.click(`button[data-action=join]`)
	if code := ps["p3"].do("POST", "/api/tournaments/"+id+"/join", nil, nil); code != 200 {
		t.Fatalf("p3 joins: %d", code)
	}
	t1.wait("three players, by the stream", `document.querySelectorAll('#t-players [data-player]').length === 3`)
	if t2.count(`button[data-action=start]`) != 0 {
		t.Error("p2, not the organiser, is offered the start")
	}
	t1.click(`button[data-action=start]`)
	t1.wait("the games", `document.querySelectorAll('#t-games tr.live').length === 3`)
	t2.wait("running, by the stream", `document.querySelector('#t-state').textContent.startsWith('Running')`)

	// My games names the tournament and the round.
	t2.open("/")
	t2.wait("My games", `[...document.querySelectorAll('#my-list .tourney a')].filter((a) => a.textContent.startsWith('Browser cup, round ')).length === 2`)

	v := ps["p1"].tournament(id)
	game := func(a, b string) wire.TournamentGame {
		for _, g := range v.Games {
			if (g.X == a && g.O == b) || (g.X == b && g.O == a) {
				return g
			}
		}
		t.Fatalf("no game %s-%s in %+v", a, b, v.Games)
		return wire.TournamentGame{}
	}
	resign := func(tb *tab, g wire.TournamentGame) {
		tb.open("/g/" + g.ID)
		if got, want := tb.eval(`document.querySelector('.tourney').textContent`), fmt.Sprintf("Browser cup, round %d", g.Round); got != want {
			t.Errorf("game %s's page names %q, want %q", g.ID, got, want)
		}
		tb.click(`#resign`)
		tb.wait("the confirmation", `!document.querySelector('#resign-confirm').hidden`)
		tb.click(`#resign-yes`)
		tb.waitStatus("resigned")
	}
	resign(t2, game("p1", "p2")) // p1 beats p2
	resign(t1, game("p1", "p3")) // p3 beats p1
	resign(t2, game("p2", "p3")) // p3 beats p2

	t1.open("/t/" + id)
	t1.wait("the end", `document.querySelector('#t-state').textContent === 'Finished. Winner: p3.'`)
	got := t1.eval(`[...document.querySelectorAll('#t-standings [data-standing]')].map((r) => r.children[1].textContent + ' ' + r.children[2].textContent).join(', ')`)
	if want := "p3 2, p1 1, p2 0"; got != want {
		t.Errorf("standings on the page: %q, want %q", got, want)
	}
	pageChecked(t1)
	visitor := b.user("a visitor")
	for _, path := range []string{"/tournaments", "/t/" + id} {
		visitor.open(path)
		visitor.wait("the page drawn", `(document.querySelector('#list-finished') || document.querySelector('#t-games')).textContent !== ''`)
		pageChecked(visitor)
	}
	if n := t1.count(`#t-table table tbody tr`); n != 3 {
		t.Errorf("crosstable rows: %d, want 3", n)
	}
	row := t1.eval(`[...document.querySelectorAll('#t-table tbody tr')[0].children].map((c) => c.textContent).join('|')`)
	if want := "1 p3|×|1|1|2"; row != want {
		t.Errorf("the crosstable's first row: %q, want %q", row, want)
	}
}

// pageChecked runs the checks of TestBrowserPageChecks (pageChecks: one
// h1, labels, names of buttons and links ...) on the tab's page.
func pageChecked(tb *tab) {
	tb.t.Helper()
	if bad := tb.eval(pageChecks); bad != "" {
		tb.t.Errorf("%s, %s: %s", tb.who, tb.eval(`location.pathname`), bad)
	}
}

// TestBrowserLiveTournamentFollows: four players wait on the page of a
// live Swiss; when it starts, each page goes to its player's game, where
// the first move's countdown runs, and Black makes the first move there.
// Back on the tournament page, a player sees their own game as "play"
// and the other as "watch". When round 1 is over, every page goes to its
// player's round 2 game from wherever it is: the tournament page, the
// round 1 game's page, the home page, a profile; and a page opened
// before the first moves takes its player back to the game. No game is
// aborted (the first move's time running out) or forfeited.
func TestBrowserLiveTournamentFollows(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100, Now: time.Now})
	b := newBrowser(t, h)
	ps := tourneyPlayers(h, 4)
	names := []string{"p1", "p2", "p3", "p4"}
	var out wire.Created
	if code := ps["p1"].do("POST", "/api/tournaments", map[string]any{"name": "Live Swiss", "rules": "alak size=7", "clock": "live:5m+3s", "format": "swiss", "rounds": 2}, &out); code != http.StatusCreated {
		t.Fatalf("creating the tournament: %d", code)
	}
	id := out.ID
	tabs := map[string]*tab{}
	for _, n := range names {
		if code := ps[n].do("POST", "/api/tournaments/"+id+"/join", nil, nil); code != http.StatusOK {
			t.Fatalf("%s joins: %d", n, code)
		}
	}
	for _, n := range names {
		tabs[n] = b.user(n)
		tabs[n].signInAs(ps[n])
		tabs[n].open("/t/" + id)
		tabs[n].wait("the players", `document.querySelectorAll('#t-players [data-player]').length === 4`)
	}
	if code := ps["p1"].do("POST", "/api/tournaments/"+id+"/start", nil, nil); code != http.StatusOK {
		t.Fatalf("start: %d", code)
	}
	// games returns each player's game of the round and its colour.
	games := func(round int) (map[string]wire.TournamentGame, map[string]string) {
		v := waitTournament(t, ps["p1"], id, fmt.Sprintf("round %d", round), func(v wire.Tournament) bool { return v.Round == round && len(v.Games) == 2*round })
		mine, color := map[string]wire.TournamentGame{}, map[string]string{}
		for _, g := range v.Games {
			if g.Round == round {
				mine[g.X], mine[g.O] = g, g
				color[g.X], color[g.O] = "x", "o"
			}
		}
		return mine, color
	}
	reached := func(round int, mine map[string]wire.TournamentGame, color map[string]string) {
		for _, n := range names {
			tb := tabs[n]
			tb.waitPath("/g/" + mine[n].ID)
			tb.wait("the first move's countdown", `document.querySelector('.player[data-color="x"] .clock').textContent.includes('first move')`)
			if want := fmt.Sprintf("Live Swiss, round %d", round); tb.eval(`document.querySelector('.tourney').textContent`) != want {
				t.Errorf("round %d: %s's game page does not name %q%s", round, n, want, tb.state())
			}
			if s := tb.eval(`statusText()`); color[n] == "x" && !strings.Contains(s, "Your move") {
				t.Errorf("round %d: %s, Black, is told %q", round, n, s)
			}
		}
	}

	// firstMoves makes both first moves of each game of a round, Black's
	// on its page.
	firstMoves := func(mine map[string]wire.TournamentGame, color map[string]string) {
		for _, n := range names {
			if color[n] != "x" {
				continue
			}
			g := mine[n]
			tabs[n].play("4")
			tabs[n].waitMoves("4")
			if code, _, e := ps[g.O].move(g.ID, "2", 1); code != http.StatusOK {
				t.Fatalf("%s's first move: %d %+v", g.O, code, e)
			}
			tabs[g.O].waitMoves("4", "2")
		}
	}
	one, color := games(1)
	reached(1, one, color)
	firstMoves(one, color)

	// p1 goes back to the tournament page, p3 home, p4 to a profile; p2
	// stays on its game's page.
	tabs["p1"].open("/t/" + id)
	tabs["p1"].wait("the games", `document.querySelectorAll('#t-games tr[data-game] a').length === 2`)
	for _, n := range names {
		want := "watch"
		if one[n].ID == one["p1"].ID {
			want = "play"
		}
		if got := tabs["p1"].eval(fmt.Sprintf(`document.querySelector('#t-games tr[data-game=%q] a').textContent`, one[n].ID)); got != want {
			t.Errorf("p1's tournament page shows %s's game as %q, want %q", n, got, want)
		}
	}
	tabs["p3"].open("/")
	tabs["p4"].open("/p/p4")
	for _, n := range names {
		if color[n] == "o" {
			if code := ps[n].do("POST", "/api/games/"+one[n].ID+"/resign", map[string]any{"ply": 2}, nil); code != http.StatusOK {
				t.Fatalf("%s resigns round 1: %d", n, code)
			}
		}
	}

	two, color := games(2)
	reached(2, two, color)
	// A page opened before the first moves (here the home page) takes its
	// player back to the game.
	tabs["p3"].do("opening the home page", chromedp.Navigate(h.http.URL+"/"))
	tabs["p3"].waitPath("/g/" + two["p3"].ID)
	firstMoves(two, color)
	for _, n := range names {
		if color[n] == "o" {
			if code := ps[n].do("POST", "/api/games/"+two[n].ID+"/resign", map[string]any{"ply": 2}, nil); code != http.StatusOK {
				t.Fatalf("%s resigns round 2: %d", n, code)
			}
		}
	}
	v := waitTournament(t, ps["p1"], id, "the end", func(v wire.Tournament) bool { return v.State == store.TournamentFinished })
	for _, g := range v.Games {
		want := map[int]map[string]wire.TournamentGame{1: one, 2: two}[g.Round][g.X].ID
		if g.Forfeit || g.State != store.StateFinished || g.ID != want {
			t.Errorf("round %d, %s-%s: game %s %s (forfeit %v), want the game the pages went to, %s, finished", g.Round, g.X, g.O, g.ID, g.State, g.Forfeit, want)
		}
	}
}
