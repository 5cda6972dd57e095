package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"alak/notation"
	"alak/rules"
	"alak/server/internal/analysis"
	"alak/wire"
)

// GET /api/board plays a line with the kernel from the rules' start or a
// set-up one: the position and the legal moves it answers are the
// kernel's, and a bad move or bad rules are refused with a sentence.
func TestBoardPosition(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	c := h.client()
	var v wire.Board
	// alak size=7: x 2, o 3, x 4 takes the o on 3, closed in by 2 and 4.
	if code := c.do("GET", "/api/board?"+url.Values{"rules": {"alak size=7"}, "moves": {"2,3,4"}}.Encode(), nil, &v); code != http.StatusOK {
		t.Fatalf("GET /api/board: %d", code)
	}
	if v.Rules != "alak size=7" || v.Shape != "line" || v.Width != 7 || strings.Join(v.Moves, ",") != "2,3,4" {
		t.Errorf("answer %+v", v)
	}
	if v.Position.Board != "-x-x---" || v.Position.ToMove != "o" || v.Position.Diagram != "-x/X---" {
		t.Errorf("position %q %q %q, want -x-x--- (the o on 3 taken), o to move, -x/X---", v.Position.Board, v.Position.ToMove, v.Position.Diagram)
	}
	// The legal moves are the kernel's for the same line; Baljeu's rule
	// keeps o off 3, just emptied.
	g, _ := rules.NewGame(rules.MustPreset("alak"))
	r := g.Rules()
	r.SetSize(7, 1)
	g, _ = rules.NewGame(r)
	for _, p := range []int{1, 2, 3} {
		if err := g.Play(rules.Place(p)); err != nil {
			t.Fatal(err)
		}
	}
	var legal, want []string
	for _, m := range v.Position.Legal {
		legal = append(legal, strings.Trim(jsonText(m), `"`))
	}
	for _, m := range g.LegalMoves(nil) {
		want = append(want, r.MoveText(m))
	}
	if strings.Join(legal, ",") != strings.Join(want, ",") || strings.Contains(","+strings.Join(legal, ",")+",", ",3,") {
		t.Errorf("legal %v, want the kernel's %v (without 3)", legal, want)
	}
	// A set-up start: a diagram and the player to move.
	q := url.Values{"rules": {"traditional size=5"}, "position": {"-ox--"}, "to_move": {"x"}, "moves": {"1"}}
	if code := c.do("GET", "/api/board?"+q.Encode(), nil, &v); code != http.StatusOK || v.Position.Board != "x-x--" {
		t.Errorf("set up -ox-- then x 1: %d %q, want x-x-- (the o taken)", code, v.Position.Board)
	}
	for _, bad := range []url.Values{
		{"rules": {"alak size=7"}, "moves": {"1,1"}},
		{"rules": {"nosuch"}},
		{"rules": {"alak size=7"}, "position": {"-ox"}, "to_move": {"x"}},
		{"rules": {"alak size=7"}, "position": {"-------"}, "to_move": {"z"}},
		{"rules": {"alak size=7"}, "moves": {strings.Repeat("pass,", analysis.MaxBoardMoves+1)}},
	} {
		var e errBody
		if code := c.do("GET", "/api/board?"+bad.Encode(), nil, &e); code != http.StatusUnprocessableEntity || e.Error == "" {
			t.Errorf("%v: %d %+v, want 422 with a sentence", bad, code, e)
		}
	}
}

// The board's SGF calls: a tree with a variation is written as SGF with
// its comments, and read back as the same tree; an illegal move in a
// variation is refused.
func TestBoardSGF(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	c := h.client()
	tree := wire.BoardTree{Rules: "alak size=7", Tree: []wire.BoardNode{{Move: "2", Comment: "Black wins by 1", Children: []wire.BoardNode{{Move: "4"}, {Move: "6", Children: []wire.BoardNode{{Move: "3"}}}}}}}
	resp, sgf := c.roundTrip("POST", "/api/board/sgf/export", strings.NewReader(jsonText(tree)), jsonHeader)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/x-go-sgf; charset=utf-8" {
		t.Fatalf("export: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), sgf)
	}
	// The form of SGF FF[4]'s variations: each answer in parentheses.
	if !strings.Contains(string(sgf), ";B[ba]C[Black wins by 1]\n(;W[da])\n(;W[fa];B[ca]))") {
		t.Errorf("the SGF written:\n%s", sgf)
	}
	resp, data := c.roundTrip("POST", "/api/board/sgf", strings.NewReader(string(sgf)), nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("import: %d %s", resp.StatusCode, data)
	}
	if got, want := string(data), jsonText(tree); strings.TrimSpace(got) != want {
		t.Errorf("read back as %s, want %s", got, want)
	}
	resp, data = c.roundTrip("POST", "/api/board/sgf", strings.NewReader("(;SZ[7:1];B[aa](;W[ba])(;W[aa]))"), nil)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(data), "bad_sgf") {
		t.Errorf("an occupied point in a variation: %d %s, want 422 bad_sgf", resp.StatusCode, data)
	}
	// The bounds: a body over 1 MiB, a tree of more than 20000 moves.
	if resp, _ := c.roundTrip("POST", "/api/board/sgf", strings.NewReader("(;C["+strings.Repeat("a", analysis.MaxBoardBody)+"])"), nil); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("an SGF over 1 MiB: %d, want 413", resp.StatusCode)
	}
	wide := wire.BoardTree{Rules: "alak size=7"}
	for range notation.MaxTreeMoves + 1 {
		wide.Tree = append(wide.Tree, wire.BoardNode{Move: "1"})
	}
	if resp, data := c.roundTrip("POST", "/api/board/sgf/export", strings.NewReader(jsonText(wide)), jsonHeader); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(data), "at most 20000 moves") {
		t.Errorf("a tree of 20001 moves: %d %.200s, want 422 saying at most 20000", resp.StatusCode, data)
	}
	bad := wire.BoardTree{Rules: "alak size=7", Tree: []wire.BoardNode{{Move: "2", Children: []wire.BoardNode{{Move: "2"}}}}}
	if resp, data := c.roundTrip("POST", "/api/board/sgf/export", strings.NewReader(jsonText(bad)), jsonHeader); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("exporting 2 then 2: %d %s, want 422", resp.StatusCode, data)
	}
}

// Fair play: /analysis?game=ID opens a finished game, and
// refuses a game in progress, whose moves it does not put in the page.
func TestAnalysisPageOpensFinishedGamesOnly(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada, bo := h.client().signUp("ada"), h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("bo joins: %d", code)
	}
	if code, _, e := ada.move(g.ID, "2", 0); code != http.StatusOK {
		t.Fatalf("ada plays 2: %d %+v", code, e)
	}
	for _, who := range []*client{ada, bo, h.client()} {
		code, _, body := who.get("/analysis?game="+g.ID, nil)
		if code != http.StatusOK || !strings.Contains(body, "is not over") || strings.Contains(body, `data-moves=`) {
			t.Errorf("a game in progress on the analysis board: %d, refused %v, moves given %v", code, strings.Contains(body, "is not over"), strings.Contains(body, "data-moves="))
		}
	}
	if code, _, _ := ada.call("POST", "/api/games/"+g.ID+"/resign", ""); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	code, _, body := bo.get("/analysis?game="+g.ID, nil)
	if code != http.StatusOK || strings.Contains(body, "is not over") || !strings.Contains(body, `data-moves="2"`) || !strings.Contains(body, `data-rules="alak size=7"`) {
		t.Errorf("a finished game: %d\n%s", code, body)
	}
}

// jsonText writes v as JSON, for a request body or a comparison.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
