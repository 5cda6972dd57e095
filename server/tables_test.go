package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"alak/rules"
	"alak/solve"
	"alak/wire"
)

// denseDir makes the dense table of the rules spec (every position's
// value, as alak solve --dense makes it) in a directory and returns the
// rules, a game at their start and the directory; the tests asking for
// the same rules share the directory, which they only read.
func denseDir(t *testing.T, spec string) (rules.Rules, *rules.Game, string) {
	t.Helper()
	r, err := rules.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	denseDirs.Lock()
	defer denseDirs.Unlock()
	if dir, ok := denseDirs.m[spec]; ok {
		return r, g, dir
	}
	dir, err := os.MkdirTemp("", "alak-dense-")
	if err != nil {
		t.Fatal(err)
	}
	afterTests(func() { os.RemoveAll(dir) })
	_, tab, err := solve.DenseSolve(context.Background(), g, solve.DenseOptions{Margins: true, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tab.Save(dir); err != nil {
		t.Fatal(err)
	}
	if denseDirs.m == nil {
		denseDirs.m = map[string]string{}
	}
	denseDirs.m[spec] = dir
	return r, g, dir
}

// denseDirs are denseDir's directories by rules, made once for the test
// process (the server only reads them) and removed after the tests.
var denseDirs struct {
	sync.Mutex
	m map[string]string
}

// TestAnalysisReadsTables: with Config.TableDir holding the dense table of
// alak on 9 points (alak solve --dense writes the same file), the
// post-game analysis answers from it: with a budget of one position a
// solve, it still judges every move, and its values are solve.Analyze's
// with no budget. Without the directory the same budget fails, so the
// table is what answered.
func TestAnalysisReadsTables(t *testing.T) {
	t.Parallel()
	r, g, dir := denseDir(t, "alak size=9")
	moves := []string{"5", "4", "6", "3", "7"}
	analyse := func(cfg Config) wire.Analysis {
		h := newHarness(t, cfg)
		h.srv.analysis.Games.Nodes = 1
		ada := h.client().signUp("ada")
		bo := h.client().signUp("bo")
		gv := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "opponent": "bo", "clock": "none"})
		bo.do("POST", "/api/games/"+gv.ID+"/join", nil, nil)
		for i, m := range moves {
			if code, _, e := []*client{ada, bo}[i%2].move(gv.ID, m, i); code != http.StatusOK {
				t.Fatalf("move %s: %d %+v", m, code, e)
			}
		}
		if code := bo.do("POST", "/api/games/"+gv.ID+"/resign", map[string]any{"ply": len(moves)}, nil); code != http.StatusOK {
			t.Fatalf("resign: %d", code)
		}
		deadline := time.Now().Add(time.Minute)
		for {
			a, raw := ada.send("GET", "/api/games/"+gv.ID+"/analysis", "", nil)
			if a.status == http.StatusOK {
				var v wire.Analysis
				if err := json.Unmarshal(raw, &v); err != nil {
					t.Fatal(err)
				}
				return v
			}
			if a.status != http.StatusAccepted || time.Now().After(deadline) {
				t.Fatalf("analysis: %v %s", a, raw)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	played := rules.NewGameFrom(g.Start())
	for _, m := range moves {
		mv, err := r.ParseMoveText(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := played.Play(mv); err != nil {
			t.Fatal(err)
		}
	}
	want, err := solve.Analyze(context.Background(), played, solve.Options{MemoryMB: 64})
	if err != nil {
		t.Fatal(err)
	}

	got := analyse(Config{TableDir: dir})
	if got.Error != "" || len(got.Moves) != len(moves) {
		t.Fatalf("with the table: %d moves judged, error %q; want %d, none", len(got.Moves), got.Error, len(moves))
	}
	for i, p := range got.Moves {
		if p.ValueBefore != want[i].Before || p.ValueAfter != want[i].After {
			t.Errorf("ply %d: %v -> %v from the table; solve.Analyze %v -> %v", i+1, p.ValueBefore, p.ValueAfter, want[i].Before, want[i].After)
		}
	}
	if none := analyse(Config{}); none.Error == "" {
		t.Errorf("without the table a budget of one position judged %d moves with no error: the test does not show the table answering", len(none.Moves))
	}
}

// TestComputerReadsTables: with Config.TableDir holding the dense table of
// alak on 10 points, a computer seat "perfect" whose budget is one position
// a solve answers every move from the table (alak_perfect_moves_total
// counts them exact, none a fallback) and never gives up the value the
// table gives; without the directory the same seat falls back to
// alpha-beta on every move, so the table is what answered.
func TestComputerReadsTables(t *testing.T) {
	t.Parallel()
	r, g, dir := denseDir(t, "alak size=10")
	tab, err := solve.LoadTable(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	value := func(moves []string) float64 {
		h := rules.NewGameFrom(g.Start())
		for _, m := range moves {
			mv, err := r.ParseMoveText(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Play(mv); err != nil {
				t.Fatal(err)
			}
		}
		res, err := solve.Solve(context.Background(), h, solve.Options{Table: tab})
		if err != nil {
			t.Fatal(err)
		}
		return res.Value
	}
	const replies = 3
	play := func(cfg Config) (exact, fallback float64) {
		h := newHarness(t, cfg)
		c := h.client().signUp("ada")
		gv := c.create(map[string]string{"rules": "alak size=10", "color": "x", "clock": "none", "opponent": "computer:perfect:time=200ms,nodes=1"})
		var moves []string
		for i := range replies {
			v := c.game(gv.ID)
			m := fmt.Sprint(v.Legal[len(v.Legal)/2])
			if code, _, e := c.move(gv.ID, m, 2*i); code != http.StatusOK {
				t.Fatalf("move %s: %d %+v", m, code, e)
			}
			deadline := time.Now().Add(20 * time.Second)
			for c.game(gv.ID).Ply < 2*i+2 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			v = c.game(gv.ID)
			if v.Ply != 2*i+2 {
				t.Fatalf("the computer did not answer move %d: ply %d", i+1, v.Ply)
			}
			moves = append(moves, m)
			before := value(moves)
			moves = append(moves, v.Moves[len(v.Moves)-1])
			if cfg.TableDir != "" && value(moves) != before {
				t.Errorf("the computer's reply %s to %v changed the value from %v to %v", moves[len(moves)-1], moves[:len(moves)-1], before, value(moves))
			}
		}
		m := scrape(t, h.http.URL)
		return m[`alak_perfect_moves_total{how="exact"}`], m[`alak_perfect_moves_total{how="fallback"}`]
	}
	if exact, fallback := play(Config{TableDir: dir}); exact != replies || fallback != 0 {
		t.Errorf("with the table: %v exact, %v fallbacks; want %d, 0", exact, fallback, replies)
	}
	if exact, fallback := play(Config{}); fallback != replies {
		t.Errorf("without the table: %v exact, %v fallbacks; want %d fallbacks (the budget is one position): the test does not show the table answering", exact, fallback, replies)
	}
}
