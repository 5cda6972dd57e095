package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"alak/rules"
	"alak/server/store"
	"alak/solve"
	"alak/wire"
)

// notForPlayers are the words an error a player reads must not hold: API
// paths and methods, the docs' file names, the solver's internals. The
// machine-readable code and docs/api.md are where API clients read those.
var notForPlayers = []string{"/api/", "GET ", "POST ", "PUT ", "docs/", "computer:", "solver", "dense", "table", "more than 64", "fetch"}

// TestPlayerMessages: every refusal the page can meet (the forms of the
// home page, the game page's buttons and clicks, an expired sign-in) says
// what to do in a player's words, with no API path, no HTTP method and no
// solver word, and keeps its machine-readable code.
func TestPlayerMessages(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	ada, bo, anon := h.client().signUp("ada"), h.client().signUp("bo"), h.client()
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	if code, _, e := ada.move(g.ID, "4", 0); code != http.StatusOK {
		t.Fatalf("the first move: %d %+v", code, e)
	}
	cg := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "computer:level:1"})
	lg := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "link"})
	cases := []struct {
		name         string
		c            *client
		method, path string
		body         any
		code         string
	}{
		{"an unknown preset", ada, "POST", "/api/games", map[string]string{"rules": "nosuch", "opponent": "link"}, "bad_rules"},
		{"a board too large", ada, "POST", "/api/games", map[string]string{"rules": "alak size=100", "opponent": "link"}, "bad_rules"},
		{"a size that is not one", ada, "POST", "/api/games", map[string]string{"rules": "alterigo size=9y9", "opponent": "link"}, "bad_rules"},
		{"an option value not accepted", ada, "POST", "/api/games", map[string]string{"rules": "alak edge=maybe", "opponent": "link"}, "bad_rules"},
		{"a challenge to a bad name", ada, "POST", "/api/games", map[string]string{"rules": "alak", "opponent": "a b"}, "bad_opponent"},
		{"a challenge to nobody", ada, "POST", "/api/games", map[string]string{"rules": "alak", "opponent": "nobody"}, "no_player"},
		{"an occupied point", bo, "POST", "/api/games/" + g.ID + "/moves", map[string]any{"move": "4", "ply": 1}, "illegal_move"},
		{"a move on an old board", bo, "POST", "/api/games/" + g.ID + "/moves", map[string]any{"move": "2", "ply": 0}, "stale_ply"},
		{"a move out of turn", ada, "POST", "/api/games/" + g.ID + "/moves", map[string]any{"move": "2", "ply": 1}, "not_your_turn"},
		{"a resignation on an old board", ada, "POST", "/api/games/" + g.ID + "/resign", map[string]any{"ply": 0}, "stale_ply"},
		{"a draw offered to the computer", ada, "POST", "/api/games/" + cg.ID + "/draw", map[string]any{}, "draw_declined"},
		{"a draw accepted that nobody offered", bo, "POST", "/api/games/" + g.ID + "/draw", map[string]any{"accept": true}, "not_now"},
		{"a takeback answered that nobody asked", bo, "POST", "/api/games/" + g.ID + "/takeback", map[string]any{"accept": true}, "not_now"},
		{"a move while signed out", anon, "POST", "/api/games/" + g.ID + "/moves", map[string]any{"move": "2", "ply": 1}, "not_signed_in"},
		{"joining one's own challenge", ada, "POST", "/api/games/" + lg.ID + "/join", map[string]any{}, "own_game"},
		{"joining by a bad invitation", bo, "POST", "/api/games/" + lg.ID + "/join", map[string]any{"invite": "nope"}, "bad_invite"},
		{"the analysis during the game", ada, "GET", "/api/games/" + g.ID + "/analysis", nil, "not_finished"},
		{"no such game", ada, "GET", "/api/games/nosuchgame", nil, "not_found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e errBody
			status := c.c.do(c.method, c.path, c.body, &e)
			if status < 400 || e.Code != c.code || e.Error == "" {
				t.Fatalf("%d %+v, want an error with code %s", status, e, c.code)
			}
			for _, w := range notForPlayers {
				if strings.Contains(e.Error, w) {
					t.Errorf("the message %q holds %q: a player is told what to do, not how the API or the solver works", e.Error, w)
				}
			}
		})
	}
}

// TestRefusedMoveSaysWhy: a move the rules refuse is answered with the
// move and the kernel's reason (rules.ErrOccupied, rules.ErrForbidden),
// the same words the page shows.
func TestRefusedMoveSaysWhy(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	ada, bo := h.client().signUp("ada"), h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	// Seed 002's opening 1 4 5 6: White's 6 takes Black's 5 (x--o/O).
	for i, m := range seedAlak6[:4] {
		if code, _, e := []*client{ada, bo}[i%2].move(g.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %s: %d %+v", m, code, e)
		}
	}
	for _, c := range []struct{ move, want string }{
		{"4", "illegal move 4: " + rules.ErrOccupied.Error()},
		{"5", "illegal move 5: " + rules.ErrForbidden.Error()},
	} {
		code, _, e := ada.move(g.ID, c.move, 4)
		if code != http.StatusUnprocessableEntity || e.Code != "illegal_move" || e.Error != c.want {
			t.Errorf("Black on %s: %d %+v, want 422 illegal_move %q", c.move, code, e, c.want)
		}
	}
}

// drawnAndNot finds, by the table of r (an exact solve with no budget),
// two positions reachable from the start of r with Black to move and the
// game going on: one drawn under perfect play and one not. Their diagrams
// (Black to move) start the games of the tests.
func drawnAndNot(t *testing.T, r rules.Rules, start rules.Position, tab *solve.Table) (drawn, won string) {
	t.Helper()
	frontier := []rules.Position{start}
	for depth := 0; depth < 8 && (drawn == "" || won == ""); depth++ {
		var next []rules.Position
		for _, pos := range frontier {
			g := rules.NewGameFrom(pos)
			if g.Outcome().Over() {
				continue
			}
			if depth >= 2 && pos.ToMove() == rules.Black {
				res, err := solve.Solve(context.Background(), g, solve.Options{Table: tab})
				if err != nil {
					t.Fatal(err)
				}
				if res.Value == 0 && drawn == "" {
					drawn = pos.String()
				}
				if res.Value != 0 && won == "" {
					won = pos.String()
				}
			}
			for _, m := range g.LegalMoves(nil) {
				c, err := pos.Play(m)
				if err != nil {
					t.Fatal(err)
				}
				next = append(next, c)
			}
		}
		frontier = next
	}
	if drawn == "" || won == "" {
		t.Fatalf("%s: no drawn position (%q) or none won (%q) within 8 moves of the start", r, drawn, won)
	}
	return drawn, won
}

// TestComputerAnswersDraw: a draw offered to the computer is answered at
// once. With the table of alak on 8 points in Config.TableDir, the
// computer accepts in a position the table shows drawn (the game ends by
// agreement) and declines in one it does not (409 draw_declined, the game
// goes on, no offer waits); without a table it declines even the drawn
// one, so the table is what answered.
func TestComputerAnswersDraw(t *testing.T) {
	t.Parallel()
	r, g0, dir := denseDir(t, "alak size=8")
	tab, err := solve.LoadTable(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	drawn, won := drawnAndNot(t, r, g0.Start(), tab)
	offer := func(cfg Config, diagram string) (int, errBody, wire.Game) {
		h := newHarness(t, cfg)
		ada := h.client().signUp("ada")
		g := ada.create(map[string]string{"rules": "alak size=8", "position": diagram, "to_move": "x", "color": "x", "clock": "none", "opponent": "computer:level:1"})
		var raw json.RawMessage
		code := ada.do("POST", "/api/games/"+g.ID+"/draw", map[string]any{}, &raw)
		var e errBody
		json.Unmarshal(raw, &e)
		return code, e, ada.game(g.ID)
	}
	if code, e, v := offer(Config{TableDir: dir}, drawn); code != http.StatusOK || v.State != store.StateFinished || v.Reason == nil || *v.Reason != "agreement" || v.Winner == nil || *v.Winner != "draw" {
		t.Errorf("drawn position %s, with the table: %d %+v, game %s reason %v winner %v; want 200 and a draw by agreement", drawn, code, e, v.State, v.Reason, v.Winner)
	}
	for _, c := range []struct {
		name    string
		cfg     Config
		diagram string
	}{
		{"a position not drawn, with the table", Config{TableDir: dir}, won},
		{"a drawn position, without a table", Config{}, drawn},
	} {
		code, e, v := offer(c.cfg, c.diagram)
		if code != http.StatusConflict || e.Code != "draw_declined" || e.Error != "the computer declines the draw: play on" {
			t.Errorf("%s (%s): %d %+v, want 409 draw_declined", c.name, c.diagram, code, e)
		}
		if v.State != store.StateActive || v.DrawOffer != nil {
			t.Errorf("%s: after the decline the game is %s with the offer %v; want active, no offer", c.name, v.State, v.DrawOffer)
		}
	}
}

// TestAnalysisTooLargeSaysSo: the analysis of a game on a 9x9 grid (81
// points: the solver takes at most 64) says so in a player's words, with
// the code too_large.
func TestAnalysisTooLargeSaysSo(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	ada, bo := h.client().signUp("ada"), h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alterigo size=9x9", "color": "x", "clock": "none", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	if code, _, e := ada.move(g.ID, "E5", 0); code != http.StatusOK {
		t.Fatalf("E5: %d %+v", code, e)
	}
	if code := bo.do("POST", "/api/games/"+g.ID+"/resign", map[string]any{"ply": 1}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	deadline := time.Now().Add(time.Minute)
	var a wire.Analysis
	for {
		resp, raw := ada.send("GET", "/api/games/"+g.ID+"/analysis", "", nil)
		if resp.status == http.StatusOK {
			if err := json.Unmarshal(raw, &a); err != nil {
				t.Fatal(err)
			}
			break
		}
		if resp.status != http.StatusAccepted || time.Now().After(deadline) {
			t.Fatalf("analysis: %v %s", resp, raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if a.Code != "too_large" || !strings.Contains(a.Error, "at most 64 points") {
		t.Errorf("analysis of a 9x9 game: code %q, error %q; want too_large and the largest board analysed", a.Code, a.Error)
	}
	for _, w := range notForPlayers {
		if strings.Contains(a.Error, w) {
			t.Errorf("the analysis says %q, which holds %q", a.Error, w)
		}
	}
}
