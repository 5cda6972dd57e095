package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// TestExplorerCountsFinishedGames: a game in progress is not in the
// explorer; once it ends (here o resigns after x 3, o 2, x 4) each of its
// moves is counted under the moves before it, with the result (in the
// background, moments after the end), and the answer follows the store's
// counts (storetest's Explorer checks them on both databases).
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
	explore := func(line string) []wire.ExplorerMove {
		t.Helper()
		resp, body := ada.roundTrip("GET", "/api/explorer?"+url.Values{"rules": {"alak size=7"}, "moves": {line}}.Encode(), nil, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("explorer %q: %d %s", line, resp.StatusCode, body)
		}
		var v wire.Explorer
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
	// Counted in the background, once the game's end is answered: wait
	// for the first line's count.
	for i := 0; len(explore("")) == 0; i++ {
		if i == 1500 {
			t.Fatal("the finished game is not counted after 1,500 looks")
		}
		time.Sleep(20 * time.Millisecond)
	}
	for line, want := range map[string][]wire.ExplorerMove{
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

// TestExplorerBackfillAtStart: a finished game the explorer did not count
// (stored before it existed, here written straight into the store) is
// counted when the server starts, in the background.
func TestExplorerBackfillAtStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ctx := context.Background()
	now := h.clock.Now()
	g := store.Game{ID: "old1", Rules: "alak size=7", Preset: "alak", Size: "7", Color: "x", Kind: store.KindNamed, Clock: "none",
		State: store.StateActive, Version: 1, WarnedEntry: -1, Created: now, Updated: now}
	if err := h.st.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	end := g
	end.Version, end.Entries, end.Ply = 2, 2, 2
	end.State, end.Winner, end.Reason, end.Ended = store.StateFinished, "o", "resignation", now
	entries := []store.Entry{{Move: "4", At: now}, {Move: "5", At: now}}
	if err := h.st.Update(ctx, end, g, entries); err != nil {
		t.Fatal(err)
	}
	h.restart()
	waitExplored(t, h, "moves=4", []wire.ExplorerMove{{Move: "5", Games: 1, OWins: 1}}, "not counted after a restart")
}

// waitExplored polls the explorer of alak size=7 after the line query
// (moves=..., or "" for the start) until it answers want, for at most 30 s;
// then fails with what, the answer and its status.
func waitExplored(t *testing.T, h *harness, query string, want []wire.ExplorerMove, what string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, body := h.client().roundTrip("GET", "/api/explorer?rules=alak+size%3D7&"+query, nil, nil)
		var v wire.Explorer
		json.Unmarshal(body, &v)
		if resp.StatusCode == http.StatusOK && reflect.DeepEqual(v.Moves, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d %s", what, resp.StatusCode, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// heldExplorer is a store whose explorer counts wait until released.
type heldExplorer struct {
	store.Store
	started chan struct{} // told when a count has begun
	release chan struct{}
}

func (s *heldExplorer) AddExplorerGame(ctx context.Context, gameID, rules string, moves []string, winner string) (bool, error) {
	s.started <- struct{}{}
	<-s.release
	return s.Store.AddExplorerGame(ctx, gameID, rules, moves, winner)
}

// TestExplorerCountAfterAnswer: the request that ends a game is answered
// without waiting for the game's count in the explorer (dozens of rows,
// written at the store's idle priority); the count follows. Here the
// count is held until the answer is in: counted by the request, as it
// was, the game's end would wait for it (and fail on the client's 30 s
// timeout).
func TestExplorerCountAfterAnswer(t *testing.T) {
	t.Parallel()
	held := &heldExplorer{started: make(chan struct{}, 1), release: make(chan struct{})}
	h := sharedHarnessOn(t, Config{}, func(st store.Store) store.Store { held.Store = st; return held }).with(t)
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	gv := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "bo", "clock": "none"})
	bo.do("POST", "/api/games/"+gv.ID+"/join", nil, nil)
	if code, _, e := ada.move(gv.ID, "3", 0); code != http.StatusOK {
		t.Fatalf("move: %d %+v", code, e)
	}
	if code := bo.do("POST", "/api/games/"+gv.ID+"/resign", map[string]any{"ply": 1}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	<-held.started // the count began, after the answer
	close(held.release)
}

// TestExplorerQueueFullLeftToBackfill: when the finished games waiting to
// be counted fill the explorer's queue (here a queue of one, with the first
// count held), a game that ends then is not counted by its request, which
// answers at once (counted by the request, its end would wait for the held
// count and fail on the client's 30 s timeout); once the queue has emptied,
// the backfill counts it.
func TestExplorerQueueFullLeftToBackfill(t *testing.T) {
	t.Parallel()
	held := &heldExplorer{started: make(chan struct{}, 8), release: make(chan struct{})}
	h := sharedHarnessOn(t, Config{explorerWaiting: 1}, func(st store.Store) store.Store { held.Store = st; return held }).with(t)
	release := sync.OnceFunc(func() { close(held.release) })
	t.Cleanup(release) // before the server stops: it waits for its requests
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	for i := range 3 {
		gv := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "bo", "clock": "none"})
		bo.do("POST", "/api/games/"+gv.ID+"/join", nil, nil)
		if code, _, e := ada.move(gv.ID, "3", 0); code != http.StatusOK {
			t.Fatalf("game %d, move: %d %+v", i, code, e)
		}
		if code := bo.do("POST", "/api/games/"+gv.ID+"/resign", map[string]any{"ply": 1}, nil); code != http.StatusOK {
			t.Fatalf("game %d, resign: %d", i, code)
		}
		if i == 0 {
			<-held.started // the worker holds the first game's count
		}
	}
	release()
	h.srv.analysis.Limits = httpx.NewLimiters(rate.Inf, 1) // polled below
	waitExplored(t, h, "", []wire.ExplorerMove{{Move: "3", Games: 3, XWins: 3}}, "three games ended, the explorer has")
}
