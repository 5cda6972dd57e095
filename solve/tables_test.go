package solve

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"alak/rules"
)

// TestTablesMethod: the method Tables picks by itself for each preset and
// class of board (the policy of docs/solver.md, "Which method answers"):
// the dense solver wherever DenseApplies takes the rules, the search
// elsewhere; the dense table once a solve made it; and Plan says so
// before each solve.
func TestTablesMethod(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		g      *rules.Game
		method Method
	}{
		{"alak line", newGame(t, "alak", 8), MethodDense},
		{"alak edge=off", newGame(t, "alak", 8, "edge", "off"), MethodDense},
		{"alak own=together ko=simple (not dense)", newGame(t, "alak", 6, "own", "together", "ko", "simple"), MethodSearch},
		{"alterigo line", newGame(t, "alterigo", 7), MethodDense},
		{"alterigo grid", gridGame(t, "alterigo", 2, 2), MethodSearch},
		{"dewdney", newGame(t, "dewdney", 8), MethodDense},
		{"golf", newGame(t, "golf", 8), MethodDense},
		{"traditional (passes, prisoners)", newGame(t, "traditional", 5), MethodSearch},
		{"tromp-taylor (superko)", newGame(t, "tromp-taylor", 5), MethodSearch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := &Tables{}
			plan, err := ts.Plan(c.g, Options{})
			if err != nil || plan != c.method {
				t.Errorf("plan %q (%v), want %q", plan, err, c.method)
			}
			res, err := ts.Solve(context.Background(), c.g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Method != c.method {
				t.Errorf("method %q, want %q", res.Method, c.method)
			}
			// A dense solve of a small line kept the table: the next
			// solve of the rules answers from it, as planned.
			want := c.method
			if want == MethodDense {
				want = MethodTable
			}
			plan, _ = ts.Plan(c.g, Options{})
			if res, _ := ts.Solve(context.Background(), c.g, Options{}); res.Method != want || plan != want {
				t.Errorf("again: method %q, plan %q, want %q", res.Method, plan, want)
			}
		})
	}
	// The plan of a line past the memory: the error Solve fails with.
	big := &Tables{MemoryMB: 16}
	_, perr := big.Plan(newGame(t, "alak", 20), Options{})
	_, serr := big.Solve(context.Background(), newGame(t, "alak", 20), Options{})
	if !errors.Is(perr, ErrMemory) || !errors.Is(serr, ErrMemory) {
		t.Errorf("alak on 20 points in 16 MB: plan %v, solve %v", perr, serr)
	}
	if m, err := (&Tables{DenseMemoryMB: 8000}).Plan(newGame(t, "alak", 21), Options{}); m != MethodDense || err != nil {
		t.Errorf("alak on 21 points within 8000 MB: %q %v, want the dense solver (7,996 MB)", m, err)
	}
}

// TestTablesBuild: with Build covering the line, the first solve is the
// dense solver's, which keeps the dense table (saved in Dir); the next
// solve of the rules, and an analysis, answer from it; without Dir the
// table is kept in memory. Frozen and ReadOnly make none.
func TestTablesBuild(t *testing.T) {
	t.Parallel()
	g := newGame(t, "alak", 9)
	for _, dir := range []string{t.TempDir(), ""} {
		ts := &Tables{Dir: dir, Build: DefaultBuild}
		first, err := ts.Solve(context.Background(), g, Options{})
		if err != nil || first.Method != MethodDense {
			t.Fatalf("dir %q: first solve %v by %q", dir, err, first.Method)
		}
		if dir != "" {
			if _, err := os.Stat(filepath.Join(dir, DenseFileName(g.Rules()))); err != nil {
				t.Errorf("no dense file: %v", err)
			}
		}
		h := g.Clone()
		h.Play(rules.Place(4))
		second, err := ts.Solve(context.Background(), h, Options{})
		if err != nil || second.Method != MethodTable || second.Nodes > int64(len(second.Moves)) {
			t.Errorf("dir %q: second solve %v by %q, %d positions searched", dir, err, second.Method, second.Nodes)
		}
		if second.Value != first.Moves[rules.Place(4)] {
			t.Errorf("dir %q: after 5 the value is %v, the first solve said %v", dir, second.Value, first.Moves[rules.Place(4)])
		}
	}
	// Frozen and read-only: a small line's table is made all the same,
	// kept in memory, never written.
	for _, ts := range []*Tables{{Dir: t.TempDir(), Build: DefaultBuild, Frozen: true}, {Dir: t.TempDir(), Build: DefaultBuild, ReadOnly: true}} {
		for i, want := range []Method{MethodDense, MethodTable} {
			res, err := ts.Solve(context.Background(), g, Options{})
			if err != nil || res.Method != want {
				t.Errorf("frozen %v, solve %d: %v by %q, want %q", ts.Frozen, i+1, err, res.Method, want)
			}
		}
		if files, _ := os.ReadDir(ts.Dir); len(files) != 0 {
			t.Errorf("frozen %v: wrote %v", ts.Frozen, files)
		}
		if st := ts.Stats(); st.Made != 1 || st.Kept != 1 || st.FromTable != 1 {
			t.Errorf("frozen %v: %+v, want one table made and kept, one answer from it", ts.Frozen, st)
		}
	}
	// Past the small lines, frozen and read-only make none.
	for _, ts := range []*Tables{{Dir: t.TempDir(), Build: DefaultBuild, Frozen: true, SmallStates: 1000}, {Dir: t.TempDir(), Build: DefaultBuild, ReadOnly: true, SmallStates: 1000}} {
		for range 2 {
			res, err := ts.Solve(context.Background(), g, Options{})
			if err != nil || res.Method != MethodDense {
				t.Errorf("frozen %v, not small: %v by %q", ts.Frozen, err, res.Method)
			}
		}
		if files, _ := os.ReadDir(ts.Dir); len(files) != 0 || ts.Stats().Made != 0 {
			t.Errorf("frozen %v, not small: wrote %v, %+v", ts.Frozen, files, ts.Stats())
		}
	}
}

// TestTablesForce: --method dense and search answer what auto answers,
// search without the dense table's help; dense refuses rules it does not
// take; an unknown method is refused.
func TestTablesForce(t *testing.T) {
	t.Parallel()
	ts := &Tables{Dir: t.TempDir(), Build: DefaultBuild}
	g := newGame(t, "alak", 8)
	auto, err := ts.Solve(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Method{MethodDense, MethodSearch} {
		res, err := ts.Solve(context.Background(), g, Options{Method: m})
		if err != nil || res.Method != m {
			t.Fatalf("%s: %v by %q", m, err, res.Method)
		}
		if !sameAnswer(auto, res) {
			t.Errorf("%s: %v %v %v; auto %v %v %v", m, res.Value, res.Best, res.Moves, auto.Value, auto.Best, auto.Moves)
		}
		if m == MethodSearch && res.Nodes < 1000 {
			t.Errorf("search searched %d positions: it answered from the dense table", res.Nodes)
		}
	}
	_, err = ts.Solve(context.Background(), newGame(t, "tromp-taylor", 4), Options{Method: MethodDense})
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("dense on tromp-taylor: %v", err)
	}
	if _, err := ts.Solve(context.Background(), g, Options{Method: "graph"}); err == nil {
		t.Error("method graph accepted")
	}
	if _, err := ParseMethod("fast"); err == nil {
		t.Error("ParseMethod(fast) accepted")
	}
}

// sameAnswer reports whether two results give the same value, best moves
// and value of every move.
func sameAnswer(a, b Result) bool {
	return a.Value == b.Value && slices.Equal(a.Best, b.Best) && fmt.Sprint(a.Moves) == fmt.Sprint(b.Moves)
}

// TestTablesAgreeEveryPreset: on every preset where the dense solver
// applies, and for the variants it takes, the default method's answer is
// the search's (value, best moves, every move's value), from the start
// and after two moves, on the cheap sizes; its principal variation is a
// line of the value (checkPV, the search).
func TestTablesAgreeEveryPreset(t *testing.T) {
	t.Parallel()
	type rs struct {
		preset string
		opts   []string
	}
	sets := []rs{{"alak", nil}, {"alak", []string{"edge", "off"}}, {"alak", []string{"ko", "none"}}, {"alak", []string{"own", "illegal"}},
		{"alak", []string{"own", "removed"}}, {"alak", []string{"own", "together"}}, {"alak", []string{"ko", "simple"}},
		{"alak", []string{"score", "area"}}, {"alak", []string{"komi", "0.5"}}, {"alterigo", nil}, {"dewdney", nil}, {"golf", nil}}
	// To 8 points with ALAK_LONG=1 (6 under the race detector), to 4 without.
	maxN := sweep(t, 4, 6, 8)
	for _, s := range sets {
		for n := 1; n <= maxN; n++ {
			g := newGame(t, s.preset, n, s.opts...)
			if !DenseApplies(g.Rules()) {
				continue // dewdney and golf take no line this short
			}
			for _, plies := range []int{0, 2} {
				h := g.Clone()
				if !playSome(h, plies) {
					continue
				}
				name := fmt.Sprintf("%s after %v", h.Rules().String(), h.Moves())
				want, err := Solve(context.Background(), h, Options{MemoryMB: 64})
				if err != nil {
					t.Fatal(err)
				}
				got, err := (&Tables{}).Solve(context.Background(), h, Options{})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got.Method != MethodDense && !h.Over() {
					t.Errorf("%s: method %q", name, got.Method)
				}
				if !sameAnswer(got, want) {
					t.Errorf("%s: auto %v %v %v; search %v %v %v", name, got.Value, got.Best, got.Moves, want.Value, want.Best, want.Moves)
				}
				if n <= 6 {
					checkPV(t, name, h, got.PV, got.Value)
				}
			}
		}
	}
}

// playSome plays the first legal move k times; false when the game ends.
func playSome(g *rules.Game, k int) bool {
	for range k {
		ms := g.LegalMoves(nil)
		if len(ms) == 0 || g.Over() {
			return false
		}
		if err := g.Play(ms[0]); err != nil || g.Over() {
			return false
		}
	}
	return true
}

// TestTablesFallBack: where the dense solver takes the rules but not the
// question, the default method is the search, which answers: a history
// that used up a position, a node limit below the index's states. A dense
// solve that needs more than the memory fails at once, saying so.
func TestTablesFallBack(t *testing.T) {
	t.Parallel()
	g := usedUpHistory(t)
	want, err := Solve(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A small line's table made at first use answers the history too
	// (the search with the table: docs/solver.md, Claim 3); without it,
	// the search alone.
	for _, c := range []struct {
		small  int64
		method Method
	}{{0, MethodTable}, {-1, MethodSearch}} {
		res, err := (&Tables{SmallStates: c.small}).Solve(context.Background(), g, Options{})
		if err != nil || res.Method != c.method {
			t.Errorf("used-up history, small states %d: %v by %q, want %q", c.small, err, res.Method, c.method)
		}
		if !sameAnswer(res, want) {
			t.Errorf("used-up history, small states %d: %v %v, Solve %v %v", c.small, res.Value, res.Moves, want.Value, want.Moves)
		}
	}
	_, err = (&Tables{}).Solve(context.Background(), newGame(t, "alak", 9), Options{MaxNodes: 1000})
	if !errors.Is(err, ErrNodeLimit) {
		t.Errorf("node limit 1000: %v, want the search's ErrNodeLimit", err)
	}
	_, err = (&Tables{MemoryMB: 16}).Solve(context.Background(), newGame(t, "alak", 20), Options{})
	if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "dense solver") || !strings.Contains(err.Error(), " MB") {
		t.Errorf("alak 20 in 16 MB: %v", err)
	}
}

// usedUpHistory returns a game of dewdney on 8 slots (random moves, a
// fixed seed) whose history has used up a position, not over.
func usedUpHistory(t *testing.T) *rules.Game {
	t.Helper()
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 1))
		g := newGame(t, "dewdney", 8)
		for range 60 {
			ms := g.LegalMoves(nil)
			if g.Over() || len(ms) == 0 {
				break
			}
			if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
			if !g.Over() && errors.Is(denseFreshHistory(g), ErrDenseHistory) {
				return g
			}
		}
	}
	t.Fatal("no game of 200 used up a position")
	return nil
}

// TestTablesShared: one frozen Tables shared by goroutines (as the play
// server shares its own): every solve answers from the one table read,
// the same for all, and adds nothing to it. Run with -race.
func TestTablesShared(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := newGame(t, "alak", 9)
	if _, err := (&Tables{Dir: dir, Build: DefaultBuild}).Solve(context.Background(), g, Options{}); err != nil {
		t.Fatal(err)
	}
	ts := &Tables{Dir: dir, Frozen: true}
	want, err := Solve(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	tabs := make([]*Table, 8)
	for i := range tabs {
		wg.Go(func() {
			res, err := ts.Solve(context.Background(), g.Clone(), Options{})
			if err != nil || res.Method != MethodTable || !sameAnswer(res, want) {
				t.Errorf("goroutine %d: %v by %q: %v", i, err, res.Method, res.Value)
			}
			tabs[i], _ = ts.For(g.Rules())
		})
	}
	wg.Wait()
	for i, tab := range tabs {
		if tab == nil || tab != tabs[0] || !tab.Frozen() || tab.Len() != 0 {
			t.Errorf("goroutine %d: table %p (first %p)", i, tab, tabs[0])
		}
	}
}

// TestTablesAnalyze: an analysis through Tables gives the plies of
// Analyze with the search, the dense table made first on a line Build
// covers or a small line (which then answers every ply: MethodTable),
// else the dense solver (MethodDense).
func TestTablesAnalyze(t *testing.T) {
	t.Parallel()
	g := newGame(t, "alak", 8)
	for _, p := range []int{3, 4, 2, 5, 1} {
		if err := g.Play(rules.Place(p)); err != nil {
			t.Fatal(err)
		}
	}
	want, err := Analyze(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range []*Tables{{Build: DefaultBuild, SmallStates: -1}, {}, {SmallStates: -1}} {
		got, err := ts.Analyze(context.Background(), g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		method := MethodDense
		if ts.Build > 0 || ts.SmallStates == 0 {
			method = MethodTable // made first, by Build or as a small line
		}
		for i := range got {
			if got[i].Method != method {
				t.Errorf("build %d, ply %d: answered by %q, want %q", ts.Build, got[i].Ply, got[i].Method, method)
			}
			got[i].Method = "" // Analyze's plies say no method
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("build %d: %v, want %v", ts.Build, got, want)
		}
	}
}

// TestTablesSmall: the small lines are those the policy names (alak up to
// 13 points, alterigo, dewdney and golf up to 13; DefaultSmall); the dense
// table of one is made once however many solves ask at once, goes on being
// made when the caller that started it gives up, and is kept in memory
// within KeepMB, the least recently used dropped first and made again when
// asked for.
func TestTablesSmall(t *testing.T) {
	t.Parallel()
	ts := &Tables{}
	for _, c := range []struct {
		rules string
		size  int
		small bool
	}{
		{"alak", 13, true}, {"alak", 14, false}, {"alterigo", 13, true}, {"alterigo", 14, false},
		{"dewdney", 13, true}, {"dewdney", 14, false}, {"golf", 13, true}, {"golf", 14, false},
		{"traditional", 5, false}, {"tromp-taylor", 5, false},
	} {
		if got := ts.Small(newGame(t, c.rules, c.size).Rules()); got != c.small {
			t.Errorf("%s on %d points: small %v, want %v", c.rules, c.size, got, c.small)
		}
	}
	if (&Tables{SmallStates: -1}).Small(newGame(t, "alak", 5).Rules()) {
		t.Error("SmallStates -1: alak on 5 points is small")
	}

	// Four solves at once of positions of one line: one table.
	frozen := &Tables{Frozen: true}
	g := newGame(t, "alak", 9)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			h := g.Clone()
			for _, p := range []int{i, (i + 4) % 9} {
				if h.Legal(rules.Place(p)) == nil {
					h.Play(rules.Place(p))
				}
			}
			want, err := Solve(context.Background(), h, Options{})
			if err != nil {
				t.Error(err)
				return
			}
			got, err := frozen.Solve(context.Background(), h, Options{})
			if err != nil || !sameAnswer(got, want) {
				t.Errorf("solve %d: %v %v, the search %v", i, err, got.Value, want.Value)
			}
		})
	}
	wg.Wait()
	if st := frozen.Stats(); st.Made != 1 || st.Kept != 1 {
		t.Errorf("four solves at once: %+v, want one table made", st)
	}

	// A caller that gives up at once: the build goes on, and the next
	// caller gets its table.
	bg := &Tables{}
	r := newGame(t, "alak", 10).Rules()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if tab, err := bg.Make(done, r, Options{}); tab != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v %v", tab, err)
	}
	if tab, err := bg.Make(context.Background(), r, Options{}); err != nil || tab == nil || tab.Dense() == nil {
		t.Fatalf("after: %v %v", tab, err)
	}
	if st := bg.Stats(); st.Made != 1 {
		t.Errorf("%+v: want the one build", st)
	}
	if tab, err := bg.Make(context.Background(), newGame(t, "alak", 14).Rules(), Options{}); tab != nil || err != nil {
		t.Errorf("alak on 14 points made at first use: %v %v", tab, err)
	}

	// Within a bound that holds the tables of alak on 7 and 8 points
	// (measured first) but not those of 6, 7 and 8: the least recently
	// used goes; 10 points, over it alone, is kept alone; a dropped table
	// asked for again is made again.
	lines := []int{6, 7, 8, 10}
	sizes := map[int]int64{}
	all := &Tables{}
	for _, n := range lines {
		before := all.Stats().KeptBytes
		if _, err := all.Make(context.Background(), newGame(t, "alak", n).Rules(), Options{}); err != nil {
			t.Fatal(err)
		}
		sizes[n] = all.Stats().KeptBytes - before
	}
	limit := sizes[7] + sizes[8]
	if sizes[10] <= limit {
		t.Fatalf("table sizes %v: want 10 points' over 7's and 8's together", sizes)
	}
	small := &Tables{}
	small.mem.limit = limit
	for _, n := range lines {
		if tab, err := small.Make(context.Background(), newGame(t, "alak", n).Rules(), Options{}); err != nil || tab == nil {
			t.Fatalf("alak on %d points: %v %v", n, tab, err)
		}
		st := small.Stats()
		if st.KeptBytes > limit && st.Kept > 1 {
			t.Errorf("alak on %d points: %+v: over %d bytes with more than the last table", n, st, limit)
		}
		if n == 8 && (st.Kept != 2 || st.Dropped != 1) {
			t.Errorf("after 8 points: %+v, want 7 and 8 kept, 6 dropped", st)
		}
	}
	if st := small.Stats(); st.Kept != 1 || st.Dropped != 3 || st.Made != 4 {
		t.Errorf("%+v: want 10 points' table alone kept, three dropped", st)
	}
	if _, err := small.Make(context.Background(), newGame(t, "alak", 6).Rules(), Options{}); err != nil || small.Stats().Made != 5 {
		t.Errorf("a dropped table asked again: %v, %+v", err, small.Stats())
	}
}
