package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"alak/server/internal/accounts"
	"alak/server/store"
	"alak/wire"
)

// onBothStores runs test on a server over a real SQLite file and on one
// over PostgreSQL (where ALAK_TEST_POSTGRES names a server; else that half
// skips).
func onBothStores(t *testing.T, test func(t *testing.T, h *harness)) {
	t.Run("sqlite", func(t *testing.T) { test(t, newHarness(t, Config{})) })
	t.Run("postgres", func(t *testing.T) {
		test(t, pgProcesses(t, 1, &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)})[0])
	})
}

// waitingLinks stores n waiting link games of account creator straight in
// the store, each newer than everything before (the cheap, honest way to
// have more waiting games than a list's window: through the API they
// would cost n requests).
func waitingLinks(t *testing.T, h *harness, creator int64, n int) {
	t.Helper()
	now := h.clock.Now()
	for i := range n {
		at := now.Add(time.Duration(i+1) * time.Second)
		g := store.Game{ID: fmt.Sprintf("spam%04d", i), Rules: "alak size=6", Preset: "alak", Size: "6",
			Black: store.Seat{AccountID: creator}, Creator: creator, Color: "x", Kind: store.KindLink, InviteHash: "h",
			Clock: "none", State: store.StateWaiting, Version: 1, WarnedEntry: -1, Created: at, Updated: at, Expires: at.Add(time.Hour)}
		if err := h.st.CreateGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
}

func accountID(t *testing.T, c *client) int64 {
	t.Helper()
	var me wire.Me
	if code := c.do("GET", "/api/me", nil, &me); code != http.StatusOK {
		t.Fatalf("/api/me: %d", code)
	}
	return me.ID
}

func summaryIDs(gs []wire.Summary) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

// TestListsPastAWindow: a challenge to ada and an open challenge still show
// when 201 newer waiting link games, by someone else, fill more than the
// 200 games a list reads.
func TestListsPastAWindow(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(t *testing.T, h *harness) {
		ada := h.client().signUp("ada")
		bo := h.client().signUp("bo")
		spammer := h.client().signUp("spammer")
		named := bo.create(map[string]string{"opponent": "ada"})
		open := bo.create(map[string]string{"opponent": "open"})
		waitingLinks(t, h, accountID(t, spammer), window)

		var mine struct{ Challenges []wire.Summary }
		if code := ada.do("GET", "/api/me/games", nil, &mine); code != http.StatusOK || !slices.Equal(summaryIDs(mine.Challenges), []string{named.ID}) {
			t.Errorf("ada's challenges past 201 link games: %d %v, want [%s]", code, summaryIDs(mine.Challenges), named.ID)
		}
		var lobby struct{ Games []wire.Summary }
		if code := ada.do("GET", "/api/lobby", nil, &lobby); code != http.StatusOK || !slices.Equal(summaryIDs(lobby.Games), []string{open.ID}) {
			t.Errorf("the lobby past 201 link games: %d %v, want [%s]", code, summaryIDs(lobby.Games), open.ID)
		}
		// An open challenge that has expired (the sweep not yet run) is not offered.
		h.clock.Add(2 * time.Hour)
		if code := ada.do("GET", "/api/lobby", nil, &lobby); code != http.StatusOK || len(lobby.Games) != 0 {
			t.Errorf("the lobby two hours on (ChallengeLife 1h): %d %v, want none", code, summaryIDs(lobby.Games))
		}
	})
}

// window is one more game than a list reads (Filter.Limit's cap).
const window = 201

// TestPlayerRecordPastAWindow: the record counts all of ada's 250 finished
// games, however many a list reads. Game i has ada as Black when i is even, and
// the winners cycle x, o, draw; the expected counts are tallied from the
// same fixture as it is made.
func TestPlayerRecordPastAWindow(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(t *testing.T, h *harness) {
		ada := h.client().signUp("ada")
		bo := h.client().signUp("bo")
		aid, bid := accountID(t, ada), accountID(t, bo)
		const n = 250
		winners := []string{"x", "o", "draw"}
		var wins, losses, draws int
		for i := range n {
			black, white, mine := aid, bid, "x"
			if i%2 == 1 {
				black, white, mine = bid, aid, "o"
			}
			at := h.clock.Now().Add(time.Duration(i) * time.Second)
			g := store.Game{ID: fmt.Sprintf("done%04d", i), Rules: "alak size=6", Preset: "alak", Size: "6",
				Black: store.Seat{AccountID: black}, White: store.Seat{AccountID: white}, Creator: black, Color: "x",
				Kind: store.KindNamed, Opponent: white, Clock: "none", State: store.StateFinished, Winner: winners[i%3],
				Result: "0", Version: 2, WarnedEntry: -1, Created: at, Updated: at, Ended: at}
			if err := h.st.CreateGame(context.Background(), g); err != nil {
				t.Fatal(err)
			}
			switch winners[i%3] {
			case "draw":
				draws++
			case mine:
				wins++
			default:
				losses++
			}
		}
		var rec struct{ Finished, Wins, Losses, Draws int }
		if code := bo.do("GET", "/api/players/ada", nil, &rec); code != http.StatusOK ||
			rec.Finished != n || rec.Wins != wins || rec.Losses != losses || rec.Draws != draws {
			t.Errorf("ada's record: %d %+v, want %d finished, %d won, %d lost, %d drawn", code, rec, n, wins, losses, draws)
		}
	})
}

// TestGuestTakesItsGamesOver: a guest who signs up keeps its games (they
// move to the new account: its finished games in "My games" and the
// profile, a live game still played and streamed under the new name); a
// guest who signs in with claim_guest_games takes its games over except
// the one against that account (both seats would be one account), which
// stays the guest's; without the flag nothing moves; no other guest's game
// moves.
func TestGuestTakesItsGamesOver(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(t *testing.T, h *harness) {
		bo := h.client().signUp("bo")
		ada := h.client().signUp("ada")
		guest := h.client()
		var lost []string
		for range 3 {
			g := guest.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "computer:random"})
			if code := guest.do("POST", "/api/games/"+g.ID+"/resign", nil, nil); code != http.StatusOK {
				t.Fatalf("resigning: %d", code)
			}
			lost = append(lost, g.ID)
		}
		live := guest.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "live:5m+3s", "opponent": "link"})
		if code := bo.do("POST", "/api/games/"+live.ID+"/join", map[string]string{"invite": live.Invite[strings.Index(live.Invite, "=")+1:]}, nil); code != http.StatusOK {
			t.Fatalf("bo joins: %d", code)
		}
		if code, _, e := guest.move(live.ID, "1", 0); code != http.StatusOK {
			t.Fatalf("the guest's first move: %d %+v", code, e)
		}
		// Someone else's guest game, which must not move.
		bystander := h.client()
		other := bystander.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "computer:random"})
		otherName := bystander.game(other.ID).Players["x"].Name
		guestName := guest.game(live.ID).Players["x"].Name

		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		events := stream(t, ctx, h.http.URL+"/api/games/"+live.ID+"/events", "")
		<-events // the state now

		u := mustURL(t, h.http.URL)
		oldCookie := guest.c.Jar.Cookies(u)[0].Value
		var acct wire.Account
		if code := guest.do("POST", "/api/accounts", map[string]string{"name": "newbie", "password": "correct horse"}, &acct); code != http.StatusCreated {
			t.Fatalf("sign-up from the guest's session: %d", code)
		}
		if acct.Claimed == nil || acct.Claimed.From != guestName || len(acct.Claimed.Moved) != 4 || len(acct.Claimed.Kept) != 0 {
			t.Errorf("the sign-up's claim: %+v, want the guest's 4 games moved", acct.Claimed)
		}
		var mine struct{ Games, Finished []wire.Summary }
		guest.do("GET", "/api/me/games", nil, &mine)
		if got := summaryIDs(mine.Finished); len(got) != 3 || !containsAll(got, lost) {
			t.Errorf("newbie's finished games: %v, want %v", got, lost)
		}
		if got := summaryIDs(mine.Games); !slices.Equal(got, []string{live.ID}) || mine.Games[0].Players["x"].Name != "newbie" {
			t.Errorf("newbie's games: %v %+v, want [%s] with newbie as x", got, mine.Games, live.ID)
		}
		var rec struct{ Finished, Wins, Losses, Draws int }
		if code := bo.do("GET", "/api/players/newbie", nil, &rec); code != http.StatusOK || rec.Finished != 3 || rec.Losses != 3 {
			t.Errorf("newbie's record: %d %+v, want the guest's 3 resigned games, lost", code, rec)
		}
		// The stream tells the watchers the new name.
		select {
		case ev := <-events:
			if ev.view.Players["x"].Name != "newbie" || ev.view.Players["x"].Guest {
				t.Errorf("the stream after the claim: x is %+v", ev.view.Players["x"])
			}
		case <-time.After(10 * time.Second):
			t.Error("the stream said nothing of the claim")
		}
		// The game goes on: bo moves, newbie answers in the guest's seat,
		// the live clock runs as before.
		if code, _, e := bo.move(live.ID, "6", 1); code != http.StatusOK {
			t.Fatalf("bo's move after the claim: %d %+v", code, e)
		}
		if code, v, e := guest.move(live.ID, "2", 2); code != http.StatusOK || v.Clock.Running != "o" {
			t.Fatalf("newbie's move in the guest's seat: %d %+v %+v", code, e, v.Clock)
		}
		// The guest's session is over: its old cookie signs nobody in.
		req, _ := http.NewRequest("GET", h.http.URL+"/api/me", nil)
		req.AddCookie(&http.Cookie{Name: accounts.SessionCookie, Value: oldCookie})
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("the claimed guest's cookie: %v %v, want 401", resp, err)
		} else {
			resp.Body.Close()
		}
		if v := bystander.game(other.ID); v.Players["x"].Name != otherName {
			t.Errorf("another guest's game after the claim: x is %+v, want %s", v.Players["x"], otherName)
		}

		// A guest who plays ada, then signs in as ada and claims.
		g2 := h.client()
		versus := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "link"})
		if code := g2.do("POST", "/api/games/"+versus.ID+"/join", map[string]string{"invite": versus.Invite[strings.Index(versus.Invite, "=")+1:]}, nil); code != http.StatusOK {
			t.Fatalf("the guest joins ada's game: %d", code)
		}
		solo := g2.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "computer:random"})
		g2Name := g2.game(solo.ID).Players["x"].Name
		if code := ada.do("POST", "/api/login", map[string]any{"name": "ada", "password": "correct horse", "claim_guest_games": true}, nil); code != http.StatusUnprocessableEntity {
			t.Errorf("claim_guest_games from a session that is no guest: %d, want 422", code)
		}
		if code := g2.do("POST", "/api/login", map[string]any{"name": "ada", "password": "correct horse", "claim_guest_games": true}, &acct); code != http.StatusOK {
			t.Fatalf("sign-in with the claim: %d", code)
		}
		if acct.Claimed == nil || !slices.Equal(acct.Claimed.Moved, []string{solo.ID}) || !slices.Equal(acct.Claimed.Kept, []string{versus.ID}) {
			t.Errorf("the sign-in's claim: %+v, want %s moved and %s kept", acct.Claimed, solo.ID, versus.ID)
		}
		if v := g2.game(versus.ID); v.Players["x"].Name != "ada" || v.Players["o"].Name != g2Name {
			t.Errorf("the game against ada: %+v, want ada against %s still", v.Players, g2Name)
		}
		if v := g2.game(solo.ID); v.Players["x"].Name != "ada" {
			t.Errorf("the guest's game against the computer: x is %+v, want ada", v.Players["x"])
		}

		// Without the flag nothing moves.
		g3 := h.client()
		kept := g3.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "computer:random"})
		g3Name := g3.game(kept.ID).Players["x"].Name
		acct = wire.Account{}
		if code := g3.do("POST", "/api/login", map[string]any{"name": "bo", "password": "correct horse"}, &acct); code != http.StatusOK || acct.Claimed != nil {
			t.Errorf("a sign-in without the claim: %d %+v", code, acct.Claimed)
		}
		if v := g3.game(kept.ID); v.Players["x"].Name != g3Name {
			t.Errorf("a guest's game after a sign-in without the claim: x is %+v, want %s", v.Players["x"], g3Name)
		}
	})
}

func containsAll(got, want []string) bool {
	for _, w := range want {
		if !slices.Contains(got, w) {
			return false
		}
	}
	return true
}

// TestComputerSpecCanonical: the computer's spec is stored as the player
// package builds it, not as typed, and shown by its
// level's name when it is a level's spec, as the create form names the
// levels; another spec is shown by its words.
func TestComputerSpecCanonical(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	c := h.client().signUp("ada")
	// level:8 is mcts:time=1s (player/level.go), named Expert
	// (player.LevelName); NewUntrusted adds the playout bound, 300000
	// (player.UntrustedMaxPlayouts).
	for _, c0 := range []struct{ typed, stored, shown string }{
		{"computer: MCTS : time=1s", "mcts:time=1s,playouts=300000", "computer (Expert)"},
		{"computer:mcts:time=1000ms", "mcts:time=1s,playouts=300000", "computer (Expert)"},
		{"computer:level:8", "mcts:time=1s,playouts=300000", "computer (Expert)"},
		{"computer:level:3", "", "computer (Casual)"},
		{"computer:mcts:time=500ms", "mcts:time=500ms,playouts=300000", "computer (mcts time=500ms playouts=300000)"},
	} {
		g := c.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": c0.typed})
		if got := c.game(g.ID).Players["o"].Name; got != c0.shown {
			t.Errorf("%q is shown as %q, want %q", c0.typed, got, c0.shown)
		}
		row, _, err := h.st.Game(context.Background(), g.ID)
		if err != nil || c0.stored != "" && row.White.Bot != c0.stored {
			t.Errorf("%q is stored as %q (%v), want %q", c0.typed, row.White.Bot, err, c0.stored)
		}
		var list struct{ Games []wire.Summary }
		code := c.do("GET", "/api/me/games", nil, &list)
		i := slices.IndexFunc(list.Games, func(s wire.Summary) bool { return s.ID == g.ID })
		if code != http.StatusOK || i < 0 {
			t.Errorf("%q: my games answer %d without the game", c0.typed, code)
		} else if got := list.Games[i].Players["o"].Name; got != c0.shown {
			t.Errorf("%q is shown in my games as %q, want %q", c0.typed, got, c0.shown)
		}
	}
}

// TestGameIDsUniform: the letters of game ids are drawn uniformly from the
// 31 of the alphabet (a byte modulo 31 would make the first 8 letters 9/8
// as likely as the others). Pearson's χ² over 1,000,000
// letters with 30 degrees of freedom has mean 30 and standard deviation
// 7.7; it passes 100 with probability about 1e-9 for a uniform draw, while
// the biased one gives about 2,000.
func TestGameIDsUniform(t *testing.T) {
	t.Parallel()
	counts := map[rune]int{}
	const ids = 100_000
	for range ids {
		id := newID()
		if len(id) != idLength {
			t.Fatalf("id %q: %d letters, want %d", id, len(id), idLength)
		}
		for _, r := range id {
			counts[r]++
		}
	}
	if len(counts) != len(idAlphabet) {
		t.Fatalf("%d letters seen, want %d", len(counts), len(idAlphabet))
	}
	expect := float64(ids*idLength) / float64(len(idAlphabet))
	chi2 := 0.0
	for _, r := range idAlphabet {
		d := float64(counts[r]) - expect
		chi2 += d * d / expect
	}
	if chi2 > 100 || math.IsNaN(chi2) {
		t.Errorf("χ² of the letters = %.0f, above 100: not a uniform draw; counts %v", chi2, counts)
	}
}

// TestStaticFilesAndNosniff: /static/ lists no folder, and every answer
// that serves content says X-Content-Type-Options: nosniff.
func TestStaticFilesAndNosniff(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	c := h.client().signUp("ada")
	g := c.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "computer:random"})
	c.do("POST", "/api/games/"+g.ID+"/resign", nil, nil)
	get := func(path string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", h.http.URL+path, nil)
		resp, err := c.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for _, path := range []string{"/static/", "/static/nothing/", "/static/nothing"} {
		if resp := get(path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404 (no listing)", path, resp.StatusCode)
		}
	}
	for _, path := range []string{"/static/alak.css", "/static/api.js", "/static/icon.svg", "/api/games/" + g.ID + "/sgf",
		"/api/games/" + g.ID, "/api/games/" + g.ID + "/positions", "/api/me/games", "/api/lobby", "/api/rules",
		"/", "/g/" + g.ID, "/healthz", "/readyz", "/metrics", "/static/", "/api/nothing"} {
		resp := get(path)
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s (%d, %s): no X-Content-Type-Options: nosniff", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	resp, _ := openEvents(t, h, g.ID)
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("the event stream: no X-Content-Type-Options: nosniff")
	}
}
