package server

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"alak/player"
	"alak/wire"
)

// waitGame polls game id until ok holds of its view, failing after 20 s.
func (c *client) waitGame(id string, what string, ok func(wire.Game) bool) wire.Game {
	c.h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		v := c.game(id)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			c.h.t.Fatalf("game %s: %s did not come within 20 s (state %s, ply %d, to move %s)", id, what, v.State, v.Ply, v.ToMove)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// playOut plays a's side of game id against a computer seat until the
// game is over: the first legal move the game's view lists each turn.
func (c *client) playOut(id, color string) wire.Game {
	c.h.t.Helper()
	for range 200 {
		v := c.waitGame(id, "my turn or the end", func(v wire.Game) bool { return v.State != "active" || v.ToMove == color })
		if v.State != "active" {
			return v
		}
		if len(v.Legal) == 0 {
			c.h.t.Fatalf("game %s: my turn without legal moves: %+v", id, v.Snapshot)
		}
		if code, _, e := c.move(id, fmt.Sprint(v.Legal[0]), v.Ply); code != http.StatusOK {
			c.h.t.Fatalf("game %s: move %v at ply %d: %d %+v", id, v.Legal[0], v.Ply, code, e)
		}
	}
	c.h.t.Fatalf("game %s: not over after 200 of my moves", id)
	return wire.Game{}
}

// TestHouseBots: with Config.HouseBots (alak serve
// --house-bots) the server keeps a bot account for each level, named
// alak-beginner ... alak-perfect, which nobody may sign up as; a challenge
// addressed to one is taken at once, its moves are the computer's, the
// game is rated and the bot is shown by its account as a bot; its rating
// moves after the game, and a rematch is taken too. A challenge made
// while no process kept the house bots is taken when one starts.
func TestHouseBots(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{HouseBots: true})
	want := []string{"alak-beginner", "alak-novice", "alak-casual", "alak-intermediate", "alak-club", "alak-advanced", "alak-strong", "alak-expert", "alak-perfect"}
	if player.Levels() != len(want) {
		t.Fatalf("%d levels; this test names %d", player.Levels(), len(want))
	}
	for _, name := range want {
		var p struct {
			Name string `json:"name"`
			Bot  bool   `json:"bot"`
		}
		if code := h.client().do("GET", "/api/players/"+name, nil, &p); code != http.StatusOK || !p.Bot {
			t.Errorf("house bot %s: %d %+v", name, code, p)
		}
	}
	if code, e, _ := h.client().call("POST", "/api/accounts", `{"name":"Alak-Novice","password":"correct horse"}`); code != http.StatusUnprocessableEntity || e != "bad_name" {
		t.Errorf("signing up as a house bot: %d %s, want 422 bad_name", code, e)
	}
	if code, e, _ := h.client().call("POST", "/api/tokens", `{"name":"alak-novice","password":""}`); code != http.StatusUnauthorized {
		t.Errorf("a token for a house bot without a password: %d %s, want 401", code, e)
	}

	ada := h.client().signUp("ada")
	// Ada plays White: the bot (random, level 1) moves first.
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "o", "opponent": "alak-beginner", "clock": "live:5m"})
	v := ada.game(g.ID)
	if v.State != "active" || !v.Rated || v.Players["x"].Name != "alak-beginner" || !v.Players["x"].Bot || v.Players["x"].Computer {
		t.Fatalf("the challenge to a house bot at once: %s, rated %v, players %+v; want active, rated, x the bot alak-beginner", v.State, v.Rated, v.Players)
	}
	end := ada.playOut(g.ID, "o")
	if end.State != "finished" {
		t.Fatalf("the game ended %s (%v)", end.State, end.Reason)
	}
	var hist wire.RatingHistory
	if code := h.client().do("GET", "/api/players/alak-beginner/ratings?pool=alak", nil, &hist); code != http.StatusOK || len(hist.History) != 1 || hist.History[0].Game != g.ID {
		t.Errorf("the house bot's rating history: %d %+v; want the one game", code, hist)
	}

	// A rematch: offered by ada, taken by the bot at once, rated.
	var re struct{ ID string }
	if code := ada.do("POST", "/api/games/"+g.ID+"/rematch", map[string]any{}, &re); code != http.StatusCreated {
		t.Fatalf("rematch: %d", code)
	}
	if rv := ada.game(re.ID); rv.State != "active" || !rv.Rated || rv.Players["o"].Name != "alak-beginner" || rv.Kind != "named" {
		t.Errorf("the rematch: %s %s, rated %v, players %+v; want an active rated game, the bot o", rv.State, rv.Kind, rv.Rated, rv.Players)
	}

	// Without house bots, a challenge to one waits; a server with them
	// takes it when it starts.
	h.cfg.HouseBots = false
	h.restart()
	w := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "alak-perfect", "clock": "none"})
	if v := ada.game(w.ID); v.State != "waiting" {
		t.Fatalf("a challenge to a house bot on a server without them: %s", v.State)
	}
	h.cfg.HouseBots = true
	h.restart()
	ada.waitGame(w.ID, "the house bot taking the challenge", func(v wire.Game) bool { return v.State == "active" && v.Players["o"].Name == "alak-perfect" })
	if code, _, e := ada.move(w.ID, "1", 0); code != http.StatusOK {
		t.Fatalf("a move against alak-perfect: %d %+v", code, e)
	}
	ada.waitGame(w.ID, "alak-perfect's reply", func(v wire.Game) bool { return v.Ply == 2 })
}
