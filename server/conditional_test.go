package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"alak/wire"
)

// cond is a tree written as the API takes it.
type cond = map[string]*wire.CondNode

// conditional GETs (PUT, DELETE with body) c's conditional moves in a
// game; id may end in a query (?line=...).
func (c *client) conditional(method, id string, body any) (int, wire.Conditional, errBody) {
	c.h.t.Helper()
	var raw json.RawMessage
	path, query, _ := strings.Cut(id, "?")
	if query != "" {
		query = "?" + query
	}
	code := c.do(method, "/api/games/"+path+"/conditional"+query, body, &raw)
	var v wire.Conditional
	var e errBody
	if code == http.StatusOK {
		if err := json.Unmarshal(raw, &v); err != nil {
			c.h.t.Fatalf("%s conditional: %s: %v", method, raw, err)
		}
	} else {
		json.Unmarshal(raw, &e)
	}
	return code, v, e
}

// correspondence starts a game of ada (x) against bo by correspondence.
func correspondence(t *testing.T, h *harness, clock string) (ada, bo *client, id string) {
	t.Helper()
	ada = h.client().signUp("ada")
	bo = h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": clock, "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("bo joins: %d", code)
	}
	return ada, bo, g.ID
}

// TestConditionalMovesThroughTheAPI: a tree left by Black while White is
// to move is played as far as White's moves follow it, kept from White
// and spectators, and cleared by a move it does not name.
func TestConditionalMovesThroughTheAPI(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada, bo, id := correspondence(t, h, "days:3")
	if code, _, e := ada.move(id, "2", 0); code != http.StatusOK {
		t.Fatalf("ada's first move: %d %+v", code, e)
	}
	// Written in letters and numbers alike: stored in the one move form.
	tree := cond{"d": {Move: "6", Then: cond{"1": {Move: "g"}}}, "5": {Move: "1"}}
	code, v, e := ada.conditional("PUT", id, map[string]any{"ply": 1, "tree": tree})
	want := cond{"4": {Move: "6", Then: cond{"1": {Move: "7"}}}, "5": {Move: "1"}}
	if code != http.StatusOK || v.Ply != 1 || !reflect.DeepEqual(v.Tree, want) {
		t.Fatalf("ada leaves a tree: %d %+v %+v; want the tree %v", code, v, e, want)
	}
	if code, v, _ := ada.conditional("GET", id, nil); code != http.StatusOK || !reflect.DeepEqual(v.Tree, want) {
		t.Errorf("ada reads it back: %d %+v", code, v)
	}
	// The opponent sees only their own (none); a spectator nothing.
	if code, v, _ := bo.conditional("GET", id, nil); code != http.StatusOK || len(v.Tree) != 0 {
		t.Errorf("bo reads his own: %d %+v, want an empty tree", code, v)
	}
	if code, _, e := h.client().conditional("GET", id, nil); code != http.StatusUnauthorized || e.Code != "not_signed_in" {
		t.Errorf("no cookie: %d %+v, want 401 not_signed_in", code, e)
	}
	cy := h.client().signUp("cy")
	if code, _, e := cy.conditional("GET", id, nil); code != http.StatusForbidden || e.Code != "not_your_game" {
		t.Errorf("a spectator reads: %d %+v, want 403 not_your_game", code, e)
	}
	if code, _, e := bo.conditional("PUT", id, map[string]any{"ply": 1, "tree": cond{"3": {Move: "5"}}}); code != http.StatusConflict || e.Code != "your_turn" {
		t.Errorf("bo, to move, leaves a tree: %d %+v, want 409 your_turn", code, e)
	}
	// bo plays 4: ada's 6 is played at once, in the answer to bo's move.
	code, g, e := bo.move(id, "4", 1)
	if code != http.StatusOK || strings.Join(g.Moves, " ") != "2 4 6" {
		t.Fatalf("bo plays 4: %d %+v, moves %v; want 2 4 6", code, e, g.Moves)
	}
	if code, v, _ := ada.conditional("GET", id, nil); code != http.StatusOK || v.Ply != 3 || !reflect.DeepEqual(v.Tree, cond{"1": {Move: "7"}}) {
		t.Errorf("what is left of ada's tree: %d %+v", code, v)
	}
	// bo plays 3, which the tree does not name: it is cleared, ada to move.
	code, g, e = bo.move(id, "3", 3)
	if code != http.StatusOK || strings.Join(g.Moves, " ") != "2 4 6 3" || g.ToMove != "x" {
		t.Fatalf("bo plays 3: %d %+v, moves %v to move %s", code, e, g.Moves, g.ToMove)
	}
	if code, v, _ := ada.conditional("GET", id, nil); code != http.StatusOK || len(v.Tree) != 0 || v.Note != "" {
		t.Errorf("ada's tree after a move it did not name: %d %+v, want none", code, v)
	}
	if a := ada.game(id); len(a.Moves) != 4 {
		t.Errorf("the game as stored: %v", a.Moves)
	}
}

// TestConditionalIllegalReply: a reply the kernel refuses when its time
// comes is not played; the tree is cancelled and its owner told, on GET
// and in the your-move mail. A played reply is named in the opponent's.
func TestConditionalIllegalReply(t *testing.T) {
	t.Parallel()
	sink := newSMTPSink(t)
	h := newHarness(t, Config{SMTP: sink.url()})
	ada, bo, id := correspondence(t, h, "days:3")
	ada.setEmail("ada@example.org")
	bo.setEmail("bo@example.org")
	ada.move(id, "2", 0)
	checkMail(t, sink.next(t), "bo@example.org", "alak: your move in game "+id, "Your opponent played 2.")
	// 2 is ada's own stone: the answer to 5 cannot be played there; the
	// answer to 6 would be legal but is cancelled with the rest.
	if code, _, e := ada.conditional("PUT", id, map[string]any{"ply": 1, "tree": cond{"5": {Move: "2"}, "6": {Move: "3"}}}); code != http.StatusOK {
		t.Fatalf("ada leaves a tree: %d %+v", code, e)
	}
	code, g, e := bo.move(id, "5", 1)
	if code != http.StatusOK || strings.Join(g.Moves, " ") != "2 5" || g.ToMove != "x" {
		t.Fatalf("bo plays 5: %d %+v, moves %v; want 2 5, ada to move", code, e, g.Moves)
	}
	_, v, _ := ada.conditional("GET", id, nil)
	if len(v.Tree) != 0 || !strings.Contains(v.Note, "Your conditional answer 2 to 5 was not played") || !strings.Contains(v.Note, "cancelled") {
		t.Errorf("ada's conditional moves after the illegal answer: %+v", v)
	}
	checkMail(t, sink.next(t), "ada@example.org", "alak: your move in game "+id, "Your opponent played 5. Your conditional answer 2 to 5 was not played")
	// A played answer is named in the mail to the other player.
	ada.move(id, "7", 2)
	sink.next(t)
	if code, _, e := ada.conditional("PUT", id, map[string]any{"ply": 3, "tree": cond{"1": {Move: "3"}}}); code != http.StatusOK {
		t.Fatalf("ada leaves a tree: %d %+v", code, e)
	}
	if code, g, e := bo.move(id, "1", 3); code != http.StatusOK || strings.Join(g.Moves, " ") != "2 5 7 1 3" {
		t.Fatalf("bo plays 1: %d %+v %v", code, e, g.Moves)
	}
	checkMail(t, sink.next(t), "bo@example.org", "alak: your move in game "+id, "Your opponent played 3. Your opponent's 3 was one of their conditional moves, played at once in answer to yours.")
}

// TestConditionalRefusals: what PUT refuses, each with its code; DELETE
// clears.
func TestConditionalRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada, bo, id := correspondence(t, h, "days:3")
	ada.move(id, "2", 0)
	deep := cond{}
	for i, n := 0, deep; i < 31; i++ {
		next := cond{}
		n["1"] = &wire.CondNode{Move: "3", Then: next}
		n = next
	}
	// 5 + 25 + 125 + 625 answers: more than the 500 a tree may hold.
	var full func(depth int) cond
	full = func(depth int) cond {
		if depth == 0 {
			return nil
		}
		t := cond{}
		for _, k := range []string{"1", "3", "4", "5", "6"} {
			t[k] = &wire.CondNode{Move: "7", Then: full(depth - 1)}
		}
		return t
	}
	wide := full(4)
	for _, tc := range []struct {
		name string
		body any
		code int
		err  string
	}{
		{"no ply", map[string]any{"tree": cond{"3": {Move: "4"}}}, http.StatusBadRequest, "no_ply"},
		{"old ply", map[string]any{"ply": 0, "tree": cond{"3": {Move: "4"}}}, http.StatusConflict, "stale_ply"},
		{"unreadable key", map[string]any{"ply": 1, "tree": cond{"zz": {Move: "4"}}}, http.StatusUnprocessableEntity, "bad_conditional"},
		{"off the board", map[string]any{"ply": 1, "tree": cond{"3": {Move: "9"}}}, http.StatusUnprocessableEntity, "bad_conditional"},
		{"resign", map[string]any{"ply": 1, "tree": cond{"3": {Move: "resign"}}}, http.StatusUnprocessableEntity, "bad_conditional"},
		{"no answer", map[string]any{"ply": 1, "tree": cond{"3": {}}}, http.StatusUnprocessableEntity, "bad_conditional"},
		{"one move twice", map[string]any{"ply": 1, "tree": cond{"3": {Move: "4"}, "c": {Move: "5"}}}, http.StatusUnprocessableEntity, "bad_conditional"},
		{"too deep", map[string]any{"ply": 1, "tree": deep}, http.StatusUnprocessableEntity, "bad_conditional"},
		{"too wide", map[string]any{"ply": 1, "tree": wide}, http.StatusUnprocessableEntity, "bad_conditional"},
	} {
		if code, _, e := ada.conditional("PUT", id, tc.body); code != tc.code || e.Code != tc.err {
			t.Errorf("%s: %d %+v, want %d %s", tc.name, code, e, tc.code, tc.err)
		}
	}
	// The editor's line: played by the kernel after the game's moves.
	if code, v, e := ada.conditional("GET", id+"?line=d,6", nil); code != http.StatusOK || strings.Join(v.Line, " ") != "4 6" ||
		v.Position == nil || v.Position.Board != "-x-o-x-" || v.Position.ToMove != "o" {
		t.Errorf("the line d,6: %d %+v %+v", code, v, e)
	}
	for _, line := range []string{"4,2", "zz", "4,resign", strings.Repeat("1,", 61) + "1"} {
		if code, _, e := ada.conditional("GET", id+"?line="+line, nil); code != http.StatusUnprocessableEntity || e.Code != "bad_line" {
			t.Errorf("the line %s: %d %+v, want 422 bad_line", line, code, e)
		}
	}
	if code, _, _ := ada.conditional("PUT", id, map[string]any{"ply": 1, "tree": cond{"3": {Move: "4"}}}); code != http.StatusOK {
		t.Fatalf("a good tree: %d", code)
	}
	if code, v, _ := ada.conditional("DELETE", id, nil); code != http.StatusOK || len(v.Tree) != 0 {
		t.Errorf("DELETE: %d %+v", code, v)
	}
	if code, g, _ := bo.move(id, "3", 1); code != http.StatusOK || len(g.Moves) != 2 {
		t.Errorf("after DELETE bo's 3 is answered: %d %v", code, g.Moves)
	}
	// A live game takes none.
	h2 := newHarness(t, Config{})
	ada2, _, live := correspondence(t, h2, "live:5m")
	ada2.move(live, "2", 0)
	if code, _, e := ada2.conditional("PUT", live, map[string]any{"ply": 1, "tree": cond{"3": {Move: "4"}}}); code != http.StatusConflict || e.Code != "no_conditional" {
		t.Errorf("a live game: %d %+v, want 409 no_conditional", code, e)
	}
}

// TestConditionalAcrossProcesses: a tree left through one process is
// played when the opponent moves through another (PostgreSQL).
func TestConditionalAcrossProcesses(t *testing.T) {
	t.Parallel()
	ps := pgProcesses(t, 2, &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)})
	a, b := ps[0], ps[1]
	ada := a.client().signUp("ada")
	bo := a.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "bo"})
	if code := bo.on(b).do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("bo joins: %d", code)
	}
	// Both processes hold the game in their caches before the tree is left.
	if code, _, e := bo.on(b).move(g.ID, "", 0); code == http.StatusOK {
		t.Fatalf("an empty move: %d %+v", code, e)
	}
	if code, _, e := ada.move(g.ID, "2", 0); code != http.StatusOK {
		t.Fatalf("ada plays: %d %+v", code, e)
	}
	if code, _, e := ada.conditional("PUT", g.ID, map[string]any{"ply": 1, "tree": cond{"4": {Move: "6"}}}); code != http.StatusOK {
		t.Fatalf("ada leaves a tree on a: %d %+v", code, e)
	}
	if code, v, e := bo.on(b).move(g.ID, "4", 1); code != http.StatusOK || strings.Join(v.Moves, " ") != "2 4 6" {
		t.Fatalf("bo plays 4 on b: %d %+v %v; want 2 4 6", code, e, v.Moves)
	}
	if v := ada.game(g.ID); strings.Join(v.Moves, " ") != "2 4 6" || v.Ply != 3 {
		t.Errorf("the game on a: %v", v.Moves)
	}
}

// TestConditionalRowsKept: a player's conditional moves are read from the
// store once by the process that is its database's only one, then kept
// with the game's state; a tree left meanwhile is played all the same
// (leaving it drops the state kept). Before, every move of a game without
// a clock or by correspondence read the opponent's row: here six move
// requests (seven moves, one of them the tree's answer), six reads, where
// three are needed.
func TestConditionalRowsKept(t *testing.T) {
	t.Parallel()
	h, fs := faultHarness(t, Config{})
	ada, bo, id := correspondence(t, h, "days:3")
	reads := fs.conditionals.Load()
	if code, _, e := ada.move(id, "2", 0); code != http.StatusOK {
		t.Fatalf("ada's first move: %d %+v", code, e)
	}
	if code, _, e := ada.conditional("PUT", id, map[string]any{"ply": 1, "tree": cond{"4": {Move: "6"}}}); code != http.StatusOK {
		t.Fatalf("ada leaves a tree: %d %+v", code, e)
	}
	putReads := fs.conditionals.Load()
	code, g, e := bo.move(id, "4", 1)
	if code != http.StatusOK || strings.Join(g.Moves, " ") != "2 4 6" {
		t.Fatalf("bo plays 4: %d %+v, moves %v; want 2 4 6, ada's answer played", code, e, g.Moves)
	}
	if code, g, e = bo.move(id, "3", 3); code != http.StatusOK {
		t.Fatalf("bo plays 3: %d %+v", code, e)
	}
	for ply := 4; ply < 7; ply++ {
		if len(g.Legal) == 0 {
			t.Fatalf("no legal move at ply %d: %v", ply, g.Moves)
		}
		m := fmt.Sprint(g.Legal[0])
		if code, g, e = []*client{ada, bo}[ply%2].move(id, m, ply); code != http.StatusOK {
			t.Fatalf("move %s at ply %d: %d %+v", m, ply, code, e)
		}
	}
	// The moves' reads: bo's row at ada's first move; ada's, read again
	// after her tree dropped the state, at bo's 4; bo's, in that state,
	// at ada's move at ply 4. The PUT's own read of ada's row is the
	// request's, not a move's.
	moveReads := fs.conditionals.Load() - putReads + (putReads - reads - 1)
	if moveReads != 3 {
		t.Errorf("six move requests read the conditional moves %d times, want 3", moveReads)
	}
}
