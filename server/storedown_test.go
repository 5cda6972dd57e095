package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"alak/server/internal/accounts"
)

// TestStoreDownIsNoAnswer: while the store cannot answer, no request is
// told that what it asked about is absent. A session cookie or a bearer
// token that cannot be checked is 503 with Retry-After (not 401: a player
// told they are not signed in is signed out by their page), and a route
// that makes guests makes none in its place (its cookie would replace
// the player's session); a game, a player, a tournament read by a page or
// the API is not "not found"; the static files and the liveness check do
// not need the store and still answer. Once the store is back, the
// player's own cookie signs them in and their move is played.
//
// The store really fails: on SQLite it is closed under the server (every
// call then fails); on PostgreSQL the cluster is stopped the hard way
// (pg_ctl stop -m immediate) and started again.
func TestStoreDownIsNoAnswer(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, Config{})
		storeDown(t, h, func() {
			if err := h.st.Close(); err != nil {
				t.Fatal(err)
			}
		}, nil)
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		c := startCluster(t)
		h := pgServersOn(t, c.url(), 1, &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)})[0]
		storeDown(t, h, func() { c.run("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop") }, func() { c.pgctl("start") })
	})
}

// storeDown plays TestStoreDownIsNoAnswer on h: down makes the store
// fail, up (nil: none) brings it back.
func storeDown(t *testing.T, h *harness, down, up func()) {
	ada := h.client().signUp("ada") // a browser: her session cookie
	bo := h.client().signUp("bo")
	cy := h.client().signUp("cy").newToken("cy", "correct horse") // a script: a bearer token
	boTok := bo.newToken("bo", "correct horse")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	tourney := struct{ ID string }{}
	if code := ada.do("POST", "/api/tournaments", map[string]string{"name": "cup", "clock": "days:1", "format": "round-robin"}, &tourney); code != http.StatusCreated {
		t.Fatalf("tournament: %d", code)
	}
	sessionOf := func(c *client) string {
		for _, ck := range c.c.Jar.Cookies(mustURL(t, h.http.URL)) {
			if ck.Name == accounts.SessionCookie {
				return ck.Value
			}
		}
		return ""
	}
	adaSession := sessionOf(ada)
	// Past the token cache's life, every credential is read from the
	// store again; bo's token is then read once more (cached: the
	// requests below that carry it reach their handlers).
	h.clock.Add(accounts.TokenTTL + time.Second)
	if !boTok.signedIn() {
		t.Fatal("bo's token does not sign in")
	}

	down()

	// send is one request as c, its body JSON (or none); it returns the
	// answer's status, code and headers.
	send := func(c *client, method, path string, body any) (int, string, http.Header) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = strings.NewReader(string(b))
		}
		resp, data := c.roundTrip(method, path, rd, jsonHeader)
		var e errBody
		json.Unmarshal(data, &e)
		return resp.StatusCode, e.Code, resp.Header
	}
	anon := h.client()
	for _, tc := range []struct {
		what         string
		c            *client
		method, path string
		body         any
		want         int // the status wanted; 0: any 5xx
	}{
		{"a move with a session cookie", ada, "POST", "/api/games/" + g.ID + "/moves", map[string]any{"move": "1", "ply": 0}, http.StatusServiceUnavailable},
		{"a move with a bearer token", cy, "POST", "/api/games/" + g.ID + "/moves", map[string]any{"move": "1", "ply": 0}, http.StatusServiceUnavailable},
		{"a game against the computer with a session cookie (a route that makes guests)", ada, "POST", "/api/games",
			map[string]string{"opponent": "computer:level:1"}, http.StatusServiceUnavailable},
		{"a game by link without a session (it would make a guest)", anon, "POST", "/api/games", map[string]string{"opponent": "link"}, 0},
		{"the game's page with a session cookie", ada, "GET", "/g/" + g.ID, nil, http.StatusServiceUnavailable},
		{"the game's page", anon, "GET", "/g/" + g.ID, nil, http.StatusServiceUnavailable},
		{"a player's page", anon, "GET", "/p/ada", nil, http.StatusServiceUnavailable},
		{"a tournament's page", anon, "GET", "/t/" + tourney.ID, nil, http.StatusServiceUnavailable},
		{"the game", anon, "GET", "/api/games/" + g.ID, nil, 0},
		{"a player's record", anon, "GET", "/api/players/ada", nil, 0},
		{"a player's rating history", anon, "GET", "/api/players/ada/ratings", nil, 0},
		{"a player's archive", anon, "GET", "/api/games?player=ada", nil, 0},
		{"a tournament", anon, "GET", "/api/tournaments/" + tourney.ID, nil, 0},
		{"a challenge to a player by name (a token the process had read)", boTok, "POST", "/api/games",
			map[string]string{"opponent": "ada", "clock": "days:1"}, 0},
		{"my games (a token the process had read)", boTok, "GET", "/api/me/games", nil, 0},
	} {
		status, code, header := send(tc.c, tc.method, tc.path, tc.body)
		switch {
		case tc.want != 0 && status != tc.want, tc.want == 0 && status < 500:
			t.Errorf("%s (%s %s) with the store down: %d %s; want %d", tc.what, tc.method, tc.path, status, code, tc.want)
		case status == http.StatusServiceUnavailable && header.Get("Retry-After") == "":
			t.Errorf("%s: 503 without Retry-After", tc.what)
		}
		if strings.HasPrefix(tc.path, "/api/") && status == http.StatusServiceUnavailable && code != "unavailable" {
			t.Errorf("%s: 503 %q; want the code unavailable", tc.what, code)
		}
		if sc := header.Values("Set-Cookie"); len(sc) > 0 {
			t.Errorf("%s set a cookie with the store down: %v", tc.what, sc)
		}
	}
	if got := sessionOf(ada); got != adaSession {
		t.Errorf("ada's session cookie was replaced while the store was down")
	}
	// What needs no store still answers, cookie or not.
	for _, path := range []string{"/healthz", "/static/alak.css"} {
		if status, _, _ := send(ada, "GET", path, nil); status != http.StatusOK {
			t.Errorf("GET %s with a session cookie, the store down: %d", path, status)
		}
	}

	if up == nil {
		return
	}
	up()
	// The store is back: ada's own session signs her in, and her move,
	// refused while it was down, is played (the pool reconnects; a few
	// tries while the first connections are found broken).
	var status int
	for try := 0; try < 50; try++ {
		if status, _, _ = ada.move(g.ID, "1", 0); status == http.StatusOK {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if status != http.StatusOK {
		t.Fatalf("ada's move after the store came back: %d", status)
	}
	var me struct{ Name string }
	if code := ada.do("GET", "/api/me", nil, &me); code != http.StatusOK || me.Name != "ada" {
		t.Errorf("ada's cookie after the store came back: %d %q", code, me.Name)
	}
}
