package main

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"alak/wire"
)

// TestServeHouseBots: alak serve --house-bots keeps the house
// bots: a challenge to alak-novice is taken at once, and the bot, Black,
// makes the first move; without the flag the same challenge waits.
func TestServeHouseBots(t *testing.T) {
	t.Parallel() // alak serve processes of its own: their waits overlap the other tests
	bin := buildServe(t)
	dir := t.TempDir()
	hc := &http.Client{Timeout: 30 * time.Second}

	plain := startServe(t, bin, filepath.Join(dir, "plain.db"))
	ada := serveAccount(t, plain.url, "ada", hc)
	var g wire.Created
	if code, err := ada.call("POST", "/api/games", map[string]string{"rules": "alak size=6", "color": "o", "clock": "none", "opponent": "alak-novice"}, &g); code != http.StatusNotFound {
		t.Errorf("a challenge to alak-novice without --house-bots: %d %v, want 404 no_player", code, err)
	}

	p := startServe(t, bin, filepath.Join(dir, "alak.db"), "--house-bots")
	ada = serveAccount(t, p.url, "ada", hc)
	if _, err := ada.call("POST", "/api/games", map[string]string{"rules": "alak size=6", "color": "o", "clock": "none", "opponent": "alak-novice"}, &g); err != nil {
		t.Fatalf("a challenge to alak-novice: %v", err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		var v wire.Game
		if _, err := ada.call("GET", "/api/games/"+g.ID, nil, &v); err != nil {
			t.Fatal(err)
		}
		if v.State == "active" && v.Ply == 1 && v.Players["x"].Name == "alak-novice" && v.Players["x"].Bot && v.Rated {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the house bot's game after 20 s: %s, ply %d, players %+v, rated %v", v.State, v.Ply, v.Players, v.Rated)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
