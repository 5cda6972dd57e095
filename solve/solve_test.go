package solve

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"alak/rules"
)

// TestTraditionalAgainstHistorySearch compares the path-marked search used
// for traditional (method 2 in docs/solver.md, not proved) with the search
// keyed by the whole history (method 3, exact by definition) on the sizes
// the latter reaches.
func TestTraditionalAgainstHistorySearch(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, 4} {
		agreesWithHistorySearch(t, fmt.Sprintf("traditional %d", n), newGame(t, "traditional", n), Solve)
	}
}

// agreesWithHistorySearch checks that solver finds the value and move
// values of g that the history-keyed search (method 3) finds.
func agreesWithHistorySearch(t *testing.T, label string, g *rules.Game, solver func(context.Context, *rules.Game, Options) (Result, error)) {
	t.Helper()
	fast, err := solver(context.Background(), g, Options{MemoryMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := Solve(context.Background(), g, Options{MemoryMB: 64, exactHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	if fast.Value != exact.Value || !maps.Equal(fast.Moves, exact.Moves) {
		t.Errorf("%s: %v %v, history-keyed search %v %v", label, fast.Value, fast.Moves, exact.Value, exact.Moves)
	}
}

// TestMidGameRepetition solves positions reached through repetitions, whose
// history has used up keys (one more occurrence draws), against the brute
// force, which replays the real history with Game. The lines are chosen by a
// fixed rule (the k-th legal move) on alak with ko=none on 4 points, where
// positions repeat.
func TestMidGameRepetition(t *testing.T) {
	t.Parallel()
	repeated := 0
	for seed := range 6 {
		g := newGame(t, "alak", 4, "ko", "none")
		for step := 0; !g.Over() && step < 12; step++ {
			moves := g.LegalMoves(nil)
			if err := g.Play(moves[(step*7+seed)%len(moves)]); err != nil {
				t.Fatal(err)
			}
			if g.Occurrences() > 1 {
				repeated++
			}
			res, err := Solve(context.Background(), g, Options{MemoryMB: 16})
			if err != nil {
				t.Fatal(err)
			}
			nodes := 0
			if want := brute(g.Clone(), &nodes, 1e7, map[string]float64{}); res.Value != want {
				t.Errorf("after %v: value %v, brute force %v", g.Moves(), res.Value, want)
			}
		}
	}
	if repeated == 0 {
		t.Error("no line repeated a position: the test checks nothing history-dependent")
	}
}

func TestCancelAndLimit(t *testing.T) {
	t.Parallel()
	g := newGame(t, "traditional", 5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Solve(ctx, g, Options{MemoryMB: 16})
	if !errors.Is(err, context.Canceled) || res.Complete {
		t.Errorf("cancelled: err %v complete %v", err, res.Complete)
	}
	res, err = Solve(context.Background(), g, Options{MemoryMB: 16, MaxNodes: 5000})
	if !errors.Is(err, ErrNodeLimit) || res.Complete || res.Nodes < 5000 {
		t.Errorf("node limit: err %v complete %v nodes %d", err, res.Complete, res.Nodes)
	}
	grid := rules.MustPreset("alterigo")
	gg, err := rules.NewGame(grid)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Solve(context.Background(), gg, Options{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("grid: %v", err)
	}
}

// TestTableRoundTrip solves alak-7 into a table, saves it, loads it again
// and answers the same query from it without searching.
func TestTableRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := newGame(t, "alak", 7)
	tab, err := LoadTable(dir, g.Rules())
	if err != nil {
		t.Fatal(err)
	}
	first, err := Solve(context.Background(), g, Options{MemoryMB: 16, Table: tab})
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Save(); err != nil {
		t.Fatal(err)
	}
	again, err := LoadTable(dir, g.Rules())
	if err != nil {
		t.Fatal(err)
	}
	if again.Len() == 0 || again.Len() != tab.Len() {
		t.Fatalf("reloaded %d entries, saved %d", again.Len(), tab.Len())
	}
	second, err := Solve(context.Background(), g, Options{MemoryMB: 16, Table: again})
	if err != nil {
		t.Fatal(err)
	}
	if second.Nodes != 0 || second.Value != first.Value || !maps.Equal(second.Moves, first.Moves) {
		t.Errorf("from the table: %+v; first solve %+v", second, first)
	}
	// A table of other rules is refused.
	r := g.Rules()
	r.SetSize(8, 1)
	other, err := LoadTable(dir, r)
	if err != nil || other.Len() != 0 {
		t.Errorf("other rules: %v, %d entries", err, other.Len())
	}
}

// TestTableFrozen: a frozen table answers as before but takes nothing
// from a solve, and Save then writes no file; the same solve with the
// table not frozen adds entries (so the check can fail).
func TestTableFrozen(t *testing.T) {
	t.Parallel()
	g := newGame(t, "alak", 7)
	solveInto := func(freeze bool) (*Table, string) {
		dir := t.TempDir()
		tab, err := LoadTable(dir, g.Rules())
		if err != nil {
			t.Fatal(err)
		}
		if freeze {
			tab.Freeze()
		}
		if _, err := Solve(context.Background(), g, Options{MemoryMB: 16, Table: tab}); err != nil {
			t.Fatal(err)
		}
		if err := tab.Save(); err != nil {
			t.Fatal(err)
		}
		return tab, dir
	}
	open, _ := solveInto(false)
	if open.Len() == 0 {
		t.Fatal("an open table took no entries from a complete solve")
	}
	frozen, dir := solveInto(true)
	if !frozen.Frozen() || frozen.Len() != 0 {
		t.Errorf("frozen table: Frozen %v, %d entries after a solve; want true, 0", frozen.Frozen(), frozen.Len())
	}
	if _, err := os.Stat(filepath.Join(dir, FileName(g.Rules()))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Save of a frozen table wrote a file: %v", err)
	}
	// A frozen table of earlier results still answers without a search.
	open.Freeze()
	again, err := Solve(context.Background(), g, Options{MemoryMB: 16, Table: open})
	if err != nil || again.Nodes != 0 || !again.Complete {
		t.Errorf("from a frozen table: %+v, %v; want no search", again, err)
	}
}

// TestMemoryLimit: a state graph larger than the budget is refused with
// ErrMemory rather than searched without end.
func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	g := newGame(t, "alak", 12)
	_, err := Solve(context.Background(), g, Options{MemoryMB: 1})
	if !errors.Is(err, ErrMemory) {
		t.Errorf("alak-12 in 1 MB: %v, want ErrMemory", err)
	}
}

// TestSearchDepthBound: a search that would follow one line past its bound
// of plies stops with ErrTooDeep (an error, where a line of 610,000 plies
// overflowed the goroutine's stack), and the same solve within the bound
// completes. Traditional Alak on 4 points, searched with the history
// (history mode), needs lines of more than 2 plies.
func TestSearchDepthBound(t *testing.T) {
	t.Parallel()
	g := newGame(t, "traditional", 4)
	res, err := Solve(context.Background(), g, Options{MemoryMB: 16, exactHistory: true, maxDepth: 2})
	if !errors.Is(err, ErrTooDeep) {
		t.Fatalf("with a bound of 2 plies: err %v, want ErrTooDeep", err)
	}
	if res.Complete {
		t.Errorf("with a bound of 2 plies: the result says it is complete")
	}
	full, err := Solve(context.Background(), g, Options{MemoryMB: 16, exactHistory: true})
	if err != nil || !full.Complete {
		t.Fatalf("within the default bound: %v, complete %v", err, full.Complete)
	}
}
