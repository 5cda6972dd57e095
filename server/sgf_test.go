package server

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/wire"
)

// getSGF fetches GET /api/games/{id}/sgf as c and reads it back.
func getSGF(t *testing.T, c *client, id string) (string, notation.Record) {
	t.Helper()
	resp, data := c.roundTrip("GET", "/api/games/"+id+"/sgf", nil, nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/x-go-sgf") {
		t.Fatalf("sgf: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), data)
	}
	rec, err := notation.ReadSGF(data)
	if err != nil {
		t.Fatalf("the server's SGF does not read back: %v\n%s", err, data)
	}
	return string(data), rec
}

// TestSGFLiveClock: a live game's SGF, over HTTP on SQLite, carries its
// time control (TM, OT) and the mover's time left after each move (BL,
// WL), the clock each move's log entry holds, a move taken back left out.
// Expected times follow the Fischer clock of docs/api.md: 300 s each, 3 s
// added after each move, the first move of each player not timed.
func TestSGFLiveClock(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "live:5m+3s", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	play := func(c *client, move string, ply int) wire.Game {
		t.Helper()
		code, v, e := c.move(g.ID, move, ply)
		if code != http.StatusOK {
			t.Fatalf("move %s: %d %+v", move, code, e)
		}
		return v
	}
	play(ada, "5", 0)
	play(bo, "4", 1)
	h.clock.Add(10 * time.Second)
	play(ada, "7", 2) // 300 - 10 + 3 = 293
	h.clock.Add(20 * time.Second)
	play(bo, "3", 3) // 300 - 20 + 3 = 283
	h.clock.Add(5 * time.Second)
	play(ada, "1", 4) // 293 - 5 + 3 = 291, then taken back
	var v wire.Game
	ada.do("POST", "/api/games/"+g.ID+"/takeback", nil, nil)
	bo.do("POST", "/api/games/"+g.ID+"/takeback", map[string]bool{"accept": true}, &v)
	if v.Ply != 4 {
		t.Fatalf("after the takeback, ply %d, want 4", v.Ply)
	}
	h.clock.Add(7 * time.Second)
	v = play(ada, "2", 4) // 291 - 7 + 3 = 287
	if v.Clock.XMillis != 287000 {
		t.Fatalf("Black's clock %d ms, want 287000", v.Clock.XMillis)
	}

	text, rec := getSGF(t, bo, g.ID)
	for _, w := range []string{"TM[300]OT[3 fischer]", ";B[ea]BL[300];W[da]WL[300];B[ga]BL[293];W[ca]WL[283];B[ba]BL[287]"} {
		if !strings.Contains(text, w) {
			t.Errorf("SGF\n%s\nwant %s in it", text, w)
		}
	}
	if want := (notation.TimeControl{Main: 5 * time.Minute, Overtime: "3 fischer"}); rec.Time != want {
		t.Errorf("time control %+v, want %+v", rec.Time, want)
	}
	want := map[int]time.Duration{1: 300 * time.Second, 2: 300 * time.Second, 3: 293 * time.Second, 4: 283 * time.Second, 5: 287 * time.Second}
	if !reflect.DeepEqual(rec.TimeLeft, want) {
		t.Errorf("time left %v, want %v", rec.TimeLeft, want)
	}
	if rec.Comments[0] != "alak game "+g.ID+", alak size=9, 5m + 3s" {
		t.Errorf("opening comment %q", rec.Comments[0])
	}

	// A live clock without increment has no overtime: TM alone.
	g2 := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "live:2m", "opponent": "bo"})
	text, rec = getSGF(t, ada, g2.ID)
	if !strings.Contains(text, "TM[120]") || strings.Contains(text, "OT[") || rec.Time != (notation.TimeControl{Main: 2 * time.Minute}) {
		t.Errorf("live:2m as\n%s", text)
	}
}

// TestSGFCorrespondenceAndSlides: a correspondence game carries no TM, OT,
// BL or WL (its days a move are in the opening comment), and a golf game's
// slides are B/W from-to point pairs over HTTP (SEEDS.md's golf start
// xxxx___oooo: 4-5 is slot 4, da, to slot 5, ea).
func TestSGFCorrespondenceAndSlides(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "golf", "color": "x", "clock": "days:3", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	for i, m := range []string{"4-5", "8-7"} {
		if code, _, e := []*client{ada, bo}[i].move(g.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %s: %d %+v", m, code, e)
		}
	}
	text, rec := getSGF(t, ada, g.ID)
	if !strings.Contains(text, ";B[daea];W[hag") || strings.Contains(text, "XB[") {
		t.Errorf("golf SGF\n%s\nwant the slides in B/W", text)
	}
	for _, id := range []string{"TM[", "OT[", "BL[", "WL["} {
		if strings.Contains(text, id) {
			t.Errorf("correspondence SGF has %s:\n%s", id, text)
		}
	}
	if len(rec.Moves) != 2 || rec.Moves[0] != rules.Slide(3, 4) || !strings.HasSuffix(rec.Comments[0], "3 days a move") {
		t.Errorf("read back: moves %v, comments %v", rec.Moves, rec.Comments)
	}
}

// TestSGFMessages: the players' messages are C comments in a player's SGF
// (after the move on the board when each was sent; docs/notation.md), and
// in no one else's; a player who muted the opponent gets only their own.
func TestSGFMessages(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	carl := h.client().signUp("carl")
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "days:3", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	say := func(c *client, text string) {
		t.Helper()
		if code := c.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": text}, nil); code != http.StatusCreated {
			t.Fatalf("message %q: %d", text, code)
		}
	}
	if code, _, e := ada.move(g.ID, "5", 0); code != http.StatusOK {
		t.Fatalf("move: %d %+v", code, e)
	}
	say(ada, "good luck")
	say(bo, "thanks [and] you")
	text, rec := getSGF(t, ada, g.ID)
	if !strings.Contains(text, "ada: good luck") || !strings.Contains(text, `bo: thanks [and\] you`) {
		t.Errorf("a player's SGF lacks the messages:\n%s", text)
	}
	if !strings.Contains(rec.Comments[1], "ada: good luck") {
		t.Errorf("the messages are not on the node after the first move: %v", rec.Comments)
	}
	for _, c := range []*client{carl, h.client()} {
		if text, _ := getSGF(t, c, g.ID); strings.Contains(text, "good luck") || strings.Contains(text, "thanks") {
			t.Errorf("a spectator's SGF carries the players' messages:\n%s", text)
		}
	}
	if code := bo.do("POST", "/api/games/"+g.ID+"/mute", map[string]bool{"muted": true}, nil); code != http.StatusOK {
		t.Fatalf("mute: %d", code)
	}
	if text, _ := getSGF(t, bo, g.ID); strings.Contains(text, "good luck") || !strings.Contains(text, "bo: thanks") {
		t.Errorf("a muting player's SGF:\n%s", text)
	}
	resp, _ := ada.roundTrip("GET", "/api/games/"+g.ID+"/sgf", nil, nil)
	if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "private") {
		t.Errorf("Cache-Control %q, want private (a player's copy carries messages)", cc)
	}
}
