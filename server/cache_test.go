package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"alak/server/internal/accounts"
	"alak/wire"
)

// twin starts a second server on h's store, as a second process on the
// same database would run, with caches of its own and no notifier (so
// nothing tells either process of the other's changes: only the store's
// version check does).
func twin(t *testing.T, h *harness) *harness {
	t.Helper()
	srv, err := New(h.cfg, h.st)
	if err != nil {
		t.Fatal(err)
	}
	b := &harness{t: t, path: h.path, clock: h.clock, cfg: h.cfg, st: h.st, srv: srv, http: httptest.NewServer(srv.Handler())}
	srv.cfg.BaseURL = b.http.URL
	t.Cleanup(func() {
		srv.Close()
		b.http.Close()
	})
	return b
}

// TestStaleCachedState: a process whose cached state of a game is stale
// (the other process moved since) still plays a legitimate move: the
// commit's version check fails, and the move is made again on the game
// read from the store. A move that is not legitimate on the stored game is
// still refused.
func TestStaleCachedState(t *testing.T) {
	t.Parallel()
	a := newHarness(t, Config{})
	b := twin(t, a)
	ada := a.client().signUp("ada")
	bo := a.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=11", "color": "x", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	adaB, boB := ada.on(b), bo.on(b)

	ply := 0
	for i, m := range []string{"1", "11", "3", "9", "5", "7"} {
		// Each side plays through its own process: each process's cached
		// state is one move behind when its player moves again.
		c := []*client{ada, boB}[i%2]
		code, v, e := c.move(g.ID, m, ply)
		if code != http.StatusOK || v.Ply != ply+1 {
			t.Fatalf("move %d (%s) through %s: %d %+v", i+1, m, []string{"a", "b"}[i%2], code, e)
		}
		ply++
	}
	if n := a.srv.core.Reruns.Load() + b.srv.core.Reruns.Load(); n < 4 {
		t.Errorf("no stale state met: the test does not test what it says")
	}
	// A's cached state is stale again (b moved last); a move on an old
	// ply, or out of turn, is refused as it would be on the stored game.
	if code, _, e := ada.move(g.ID, "2", ply-1); code != http.StatusConflict || e.Code != "stale_ply" {
		t.Errorf("an old ply through the stale process: %d %+v", code, e)
	}
	if code, _, e := bo.move(g.ID, "2", ply); code != http.StatusForbidden || e.Code != "not_your_turn" {
		t.Errorf("out of turn through the stale process: %d %+v", code, e)
	}
	if code, _, e := adaB.move(g.ID, "2", ply); code != http.StatusOK {
		t.Errorf("the right move: %d %+v", code, e)
	}
	_, log, err := a.st.Game(context.Background(), g.ID)
	if err != nil || len(log) != ply+1 {
		t.Errorf("stored: %d entries, %v; want %d", len(log), err, ply+1)
	}
}

// TestTokenCache: signing out ends the session at once in the process
// that signs out, though the token's account is cached; an account's
// settings changed in one process are not undone by a change made through
// another process that holds a cached copy of the account.
func TestTokenCache(t *testing.T) {
	t.Parallel()
	a := newHarness(t, Config{})
	b := twin(t, a)
	ada := a.client().signUp("ada")
	var me wire.Me
	if code := ada.do("GET", "/api/me", nil, &me); code != http.StatusOK || me.Name != "ada" {
		t.Fatalf("me: %d %+v", code, me)
	}
	adaB := ada.on(b)
	adaB.do("GET", "/api/me", nil, &me) // b caches the account as it is now
	if code := ada.do("PUT", "/api/me", map[string]any{"email": "ada@example.org"}, &me); code != http.StatusOK {
		t.Fatalf("email: %d", code)
	}
	var after wire.Me // a new value: "email" is left out when empty
	if code := adaB.do("PUT", "/api/me", map[string]any{"confirm_moves": true}, &after); code != http.StatusOK {
		t.Fatalf("confirm moves: %d", code)
	}
	if after.Email != "ada@example.org" || !after.ConfirmMoves {
		t.Errorf("after a change in each process: %+v; the email set through a is lost", after)
	}
	// Signing out: the client's jar drops the cookie, so the old one is
	// sent by hand, as a copy of it would be.
	me2, _ := http.NewRequest("GET", a.http.URL+"/api/me", nil)
	cookies := ada.c.Jar.Cookies(me2.URL)
	if len(cookies) != 1 {
		t.Fatalf("cookies: %v", cookies)
	}
	me2.AddCookie(cookies[0])
	if code := status(t, me2); code != http.StatusOK {
		t.Fatalf("me with the cookie: %d", code)
	}
	onB, _ := http.NewRequest("GET", b.http.URL+"/api/me", nil)
	onB.AddCookie(cookies[0])
	if code := status(t, onB); code != http.StatusOK { // b caches the token now
		t.Fatalf("me with the cookie on b: %d", code)
	}
	if code := ada.do("POST", "/api/logout", nil, nil); code != http.StatusOK {
		t.Fatalf("logout: %d", code)
	}
	if code := status(t, me2); code != http.StatusUnauthorized {
		t.Errorf("the cookie after signing out: %d, want 401", code)
	}
	// The other process honours it until its cache entry is accounts.TokenTTL old
	// (docs/security.md says so), and not a moment longer.
	if code := status(t, onB); code != http.StatusOK {
		t.Errorf("the cookie on the other process at once after signing out: %d; docs/security.md says 200 for up to %v", code, accounts.TokenTTL)
	}
	a.clock.Add(accounts.TokenTTL)
	if code := status(t, onB); code != http.StatusUnauthorized {
		t.Errorf("the cookie on the other process %v after signing out: %d, want 401", accounts.TokenTTL, code)
	}
}

// status sends a request and returns the answer's status.
func status(t *testing.T, req *http.Request) int {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestOneViewPerChange: the answer to a move and the event the streams
// get for it are the same bytes.
func TestOneViewPerChange(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	resp, _ := openEvents(t, h, g.ID)
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				lines <- data
			}
		}
	}()
	<-lines // the current state
	post, _ := http.NewRequest("POST", h.http.URL+"/api/games/"+g.ID+"/moves", strings.NewReader(`{"move":"4","ply":0}`))
	for _, c := range ada.c.Jar.Cookies(post.URL) {
		post.AddCookie(c)
	}
	answer, err := http.DefaultClient.Do(post)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(answer.Body)
	answer.Body.Close()
	if answer.StatusCode != http.StatusOK || answer.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("move: %d %s %s", answer.StatusCode, answer.Header.Get("Content-Type"), body)
	}
	select {
	case ev := <-lines:
		if !bytes.Equal(bytes.TrimSuffix(body, []byte("\n")), []byte(ev)) {
			t.Errorf("the answer:\n%s\nthe event:\n%s", body, ev)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no event for the move")
	}
}

// TestStreamAfterAnotherProcessMoved: a stream opened on a process whose
// cached state of the game is older than a move made through the other
// process (on PostgreSQL, with notifications) shows that move, at once or
// as soon as the notification comes.
func TestStreamAfterAnotherProcessMoved(t *testing.T) {
	t.Parallel()
	clock := &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	ps := pgProcesses(t, 2, clock)
	a, b := ps[0], ps[1]
	ada := a.client().signUp("ada")
	bo := a.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "opponent": "bo"})
	bo.on(b).do("POST", "/api/games/"+g.ID+"/join", nil, nil) // b caches the game
	for i, m := range []string{"1", "9", "3", "7"} {
		c := []*client{ada, bo}[i%2] // both through a: b's cached state falls behind
		if code, _, e := c.move(g.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %d: %d %+v", i+1, code, e)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		events := stream(t, ctx, b.http.URL+"/api/games/"+g.ID+"/events", "")
	wait:
		for {
			select {
			case ev := <-events:
				if ev.view.Ply == i+1 {
					break wait
				}
				if ev.view.Ply > i+1 {
					t.Fatalf("move %d: a stream on b at ply %d", i+1, ev.view.Ply)
				}
			case <-ctx.Done():
				t.Fatalf("move %d: a stream opened on b never showed it", i+1)
			}
		}
		cancel()
	}
}
