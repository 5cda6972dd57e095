package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

// TestExplorerCountsFinishedGames: a game in progress is not in the
// explorer; once it ends (here o resigns after x 3, o 2, x 4) each of its
// moves is counted under the moves before it, with the result, and the
// answer follows the store's counts (storetest's Explorer checks them on
// both databases).
func TestExplorerCountsFinishedGames(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	gv := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "bo", "clock": "none"})
	bo.do("POST", "/api/games/"+gv.ID+"/join", nil, nil)
	moves := []string{"3", "2", "4"}
	for i, m := range moves {
		if code, _, e := []*client{ada, bo}[i%2].move(gv.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %s: %d %+v", m, code, e)
		}
	}
	explore := func(line string) []ExplorerMoveView {
		t.Helper()
		resp, body := ada.roundTrip("GET", "/api/explorer?"+url.Values{"rules": {"alak size=7"}, "moves": {line}}.Encode(), nil, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("explorer %q: %d %s", line, resp.StatusCode, body)
		}
		var v ExplorerView
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		return v.Moves
	}
	if got := explore(""); len(got) != 0 {
		t.Fatalf("a game in progress counted: %+v", got)
	}
	if code := bo.do("POST", "/api/games/"+gv.ID+"/resign", map[string]any{"ply": len(moves)}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	for line, want := range map[string][]ExplorerMoveView{
		"":      {{Move: "3", Games: 1, XWins: 1}},
		"3":     {{Move: "2", Games: 1, XWins: 1}},
		"3,2":   {{Move: "4", Games: 1, XWins: 1}},
		"3,2,4": {},
		"4":     {},
	} {
		if got := explore(line); !reflect.DeepEqual(got, want) {
			t.Errorf("after %q: %+v, want %+v", line, got, want)
		}
	}
	resp, body := ada.roundTrip("GET", "/api/explorer?rules=alak+size%3D7&position=x-o----&to_move=x", nil, nil)
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a set-up position: %d %s, want 422", resp.StatusCode, body)
	}
}
