package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"alak/server/store/sqlitestore"
)

// sameMove sends the same move with the same ply from n clients at once
// (each its own connection, released together), to the servers at urls in
// turn, as the account of token; it returns how many answers had each
// status and code.
func sameMove(t *testing.T, urls []string, token, id, move string, ply, n int) map[string]int {
	t.Helper()
	body := fmt.Sprintf(`{"move": %q, "ply": %d}`, move, ply)
	start := make(chan struct{})
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := &http.Client{Transport: &http.Transport{}}
			defer hc.CloseIdleConnections()
			req, _ := http.NewRequest("POST", urls[i%len(urls)]+"/api/games/"+id+"/moves", strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+token)
			<-start
			resp, err := hc.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			var e errBody
			json.Unmarshal(raw, &e)
			mu.Lock()
			got[fmt.Sprintf("%d %s", resp.StatusCode, e.Code)]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return got
}

// bearer gives the client's account a bearer token.
func (c *client) bearer(name string) string {
	c.h.t.Helper()
	var tok struct{ Token string }
	if code := c.do("POST", "/api/tokens", map[string]string{"name": name, "password": "correct horse"}, &tok); code != http.StatusCreated {
		c.h.t.Fatalf("token: %d", code)
	}
	return tok.Token
}

// TestSameMoveFiftyClients: 50 clients send the same next move with the
// same ply at once: exactly one is applied (200), the other 49 are told
// the ply is stale (409), and the log holds the move once. Six rounds, the
// two players in turn.
func TestSameMoveFiftyClients(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	tokens := map[string]string{"x": ada.bearer("ada"), "o": bo.bearer("bo")}
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "live:10m+5s", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	for ply, m := range []string{"2", "8", "4", "6", "5", "1"} {
		got := sameMove(t, []string{h.http.URL}, tokens[[]string{"x", "o"}[ply%2]], g.ID, m, ply, 50)
		if got["200 "] != 1 || got["409 stale_ply"] != 49 {
			t.Errorf("ply %d, 50 times %s: %v, want one 200 and 49 409 stale_ply", ply, m, got)
		}
	}
	_, log, err := h.st.Game(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, e := range log {
		moves = append(moves, e.Move)
	}
	if strings.Join(moves, " ") != "2 8 4 6 5 1" {
		t.Errorf("the log holds %v", moves)
	}
	checkStored(t, h, g.ID, 6)
}

// TestSameMoveTwoServers: the same, with the clients split between two
// servers on the one SQLite file (two processes behind a balancer): the
// servers' locks are their own, and the store's version check lets one
// move through; the others are refused with 409 (stale_ply, or conflict
// when they read the game before the winner wrote it).
func TestSameMoveTwoServers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	st2, err := sqlitestore.Open(context.Background(), h.path)
	if err != nil {
		t.Fatal(err)
	}
	srv2, err := New(h.cfg, st2)
	if err != nil {
		t.Fatal(err)
	}
	http2 := serveHTTP(srv2)
	t.Cleanup(func() {
		srv2.Close()
		http2.Close()
		st2.Close()
	})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	tokens := map[string]string{"x": ada.bearer("ada"), "o": bo.bearer("bo")}
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "none", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	for ply, m := range []string{"2", "8", "4", "6", "5", "1"} {
		got := sameMove(t, []string{h.http.URL, http2.URL}, tokens[[]string{"x", "o"}[ply%2]], g.ID, m, ply, 50)
		if got["200 "] != 1 || got["409 stale_ply"]+got["409 conflict"] != 49 {
			t.Errorf("ply %d, 50 times %s over two servers: %v, want one 200 and 49 409", ply, m, got)
		}
		t.Logf("ply %d: %v", ply, got)
	}
	checkStored(t, h, g.ID, 6)
}
