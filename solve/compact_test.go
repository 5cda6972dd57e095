package solve

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"alak/internal/testlong"
	"alak/rules"
)

// The compact solver (compact.go) is checked against the kernel (its own
// placement code), against itself (predecessors against successors), and
// against retro.go (values): the expected values of these tests all come
// from the kernel (rules.Position.LegalMoves/Play) and from the Position-based
// retrograde solver of retro.go, which is checked against the brute force in
// brute_test.go.

// compactVariants are the rule sets the compact solver handles, beyond the
// preset: edge capture off, no ko rule, a komi, repetition on the second
// occurrence.
var compactVariants = [][]string{
	nil,
	{"edge", "off"},
	{"ko", "none"},
	{"komi", "0.5"},
	{"repetition", "2"},
	{"ko", "none", "edge", "off"},
}

// checkStep compares the compact placement code with the kernel in pos: the
// legal points, and for each of them the stones, forbidden points and end
// of the game after it.
func checkStep(t *testing.T, geo *cgeo, pos rules.Position) bool {
	t.Helper()
	b, w, f, _ := pos.Line()
	white := pos.ToMove() == rules.White
	var want uint64
	for _, m := range pos.LegalMoves(nil) {
		want |= 1 << m.Point()
	}
	if got := geo.legal(b, w, f); got != want || (got == 0) != pos.Over() {
		t.Errorf("%v: legal %b, kernel %b (over %v)", pos, got, want, pos.Over())
		return false
	}
	for pts := want; pts != 0; pts &= pts - 1 {
		p := bits.TrailingZeros64(pts)
		c, err := pos.Play(rules.Place(p))
		if err != nil {
			t.Fatal(err)
		}
		nb, nw, nf := geo.play(b, w, white, p)
		cb, cw, cf, _ := c.Line()
		if nb != cb || nw != cw || nf != cf || (geo.legal(nb, nw, nf) == 0) != c.Over() {
			t.Errorf("%v then %d: compact %b %b %b, kernel %v", pos, p+1, nb, nw, nf, c)
			return false
		}
		if c.Over() && half(c.Outcome().Margin) != geo.margin2(nb, nw) {
			t.Errorf("%v: margin %d half points, kernel %v", c, geo.margin2(nb, nw), c.Outcome().Margin)
		}
		k := word(nb, nw, nf, !white)
		if xb, xw, xf, xwhite := geo.unword(k); xb != nb || xw != nw || xf != nf || xwhite == white {
			t.Errorf("state word %x decodes to %b %b %b %v", k, xb, xw, xf, xwhite)
		}
		if c := geo.child(word(b, w, f, white), b, w, white, p); c != k {
			t.Errorf("child word %x, want %x", c, k)
		}
		if m, r := geo.mirror(k), word(geo.rev(nb), geo.rev(nw), geo.rev(nf), !white); m != r {
			t.Errorf("mirror of %x: %x, want %x", k, m, r)
		}
	}
	return true
}

// TestCompactMovesExhaustive compares the placement code with the kernel on
// every position of up to 7 points (6 without ALAK_LONG=1) that the kernel
// can set up: every board, either player to move, and as forbidden points
// none or any one run of empty points (ParseDiagram's '/').
func TestCompactMovesExhaustive(t *testing.T) {
	t.Parallel()
	for _, opts := range compactVariants {
		for n := 1; n <= testlong.Size(t, 6, 7); n++ {
			r := newGame(t, "alak", n, opts...).Rules()
			geo := newGeo(r)
			cells := make([]byte, n)
			total := 1
			for range n {
				total *= 3
			}
			for code := range total {
				x := code
				for i := range cells {
					cells[i] = "-xo"[x%3]
					x /= 3
				}
				diagrams := []string{string(cells)}
				for a := 0; a < n; a++ {
					for z := a; z < n && cells[z] == '-'; z++ {
						d := []byte(string(cells))
						for i := a; i <= z; i++ {
							d[i] = '/'
						}
						diagrams = append(diagrams, string(d))
					}
				}
				for _, d := range diagrams {
					for _, side := range []rules.Color{rules.Black, rules.White} {
						pos, err := rules.ParseDiagram(r, d, side)
						if err != nil {
							t.Fatal(err)
						}
						if !checkStep(t, &geo, pos) {
							t.Fatalf("rules %v", r)
						}
					}
				}
			}
		}
	}
}

// TestCompactMovesRandom compares the placement code with the kernel along
// random games on lines of 8 to 31 points: 20 games a line with
// ALAK_LONG=1, 10 without.
func TestCompactMovesRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, opts := range compactVariants {
		for n := 8; n <= 31; n++ {
			r := newGame(t, "alak", n, opts...).Rules()
			geo := newGeo(r)
			for range testlong.Size(t, 10, 20) {
				pos, err := rules.NewPosition(r)
				if err != nil {
					t.Fatal(err)
				}
				for ply := 0; ply < 6*n && !pos.Over(); ply++ {
					if !checkStep(t, &geo, pos) {
						t.Fatalf("rules %v", r)
					}
					moves := pos.LegalMoves(nil)
					pos, _ = pos.Play(moves[rng.IntN(len(moves))])
				}
			}
		}
	}
}

// TestCompactPredecessors checks the undone placements against the graph's
// edges: for every state of the graph, the multiset of its predecessors
// equals the multiset of states with an edge to it (one per legal move),
// on up to 9 points (8 without ALAK_LONG=1).
func TestCompactPredecessors(t *testing.T) {
	t.Parallel()
	for _, opts := range compactVariants {
		for n := 1; n <= sweep(t, 8, 9, 9); n++ {
			g := newGame(t, "alak", n, opts...)
			checkPreds(t, g.Position())
		}
	}
	// Set-up roots, whose forbidden points are not captures.
	r := rules.MustPreset("alak")
	for _, d := range []string{"x/-o-/", "/-----", "-/x-o/-", "xo/-/ox"} {
		pos, err := rules.ParseDiagram(r, d, rules.Black)
		if err != nil {
			t.Fatal(err)
		}
		checkPreds(t, pos)
	}
}

func checkPreds(t *testing.T, root rules.Position) {
	t.Helper()
	s := newSearcher(context.Background(), root.Rules(), Options{MemoryMB: 64})
	cg, err := s.solveCompact(root)
	if err != nil {
		t.Fatal(err)
	}
	tab, geo := cg.t, &cg.g
	want := map[uint32][]uint32{}
	for i := range uint64(tab.size()) {
		k := tab.key(i)
		if k == 0 {
			continue
		}
		b, w, f, white := geo.unword(k)
		for pts := geo.legal(b, w, f); pts != 0; pts &= pts - 1 {
			nb, nw, nf := geo.play(b, w, white, bits.TrailingZeros64(pts))
			c, _ := geo.canon(nb, nw, nf, !white)
			j, ok := tab.find(c)
			if !ok {
				t.Fatalf("%v: a successor is missing from the table", root)
			}
			want[j] = append(want[j], uint32(i))
		}
	}
	for i := range uint64(tab.size()) {
		k := tab.key(i)
		if k == 0 {
			continue
		}
		var got []uint32
		for _, q := range cg.preds(k, nil) {
			if j, ok := tab.find(q); ok {
				got = append(got, j)
			}
		}
		slices.Sort(got)
		w := want[uint32(i)]
		slices.Sort(w)
		if !slices.Equal(got, w) {
			b, wh, f, white := geo.unword(k)
			t.Fatalf("root %v, state %b %b %b white %v: predecessors %v, edges from %v", root, b, wh, f, white, got, w)
		}
	}
}

// solveRetro solves g with retro.go instead of the compact solver.
func solveRetro(g *rules.Game, opt Options) (Result, error) {
	opt.noCompact = true
	return Solve(context.Background(), g, opt)
}

// solveBoth solves g with the compact solver and with retro.go and reports
// any difference in value, best moves, move values and positions.
func solveBoth(t *testing.T, g *rules.Game, name string) Result {
	t.Helper()
	fast, err := Solve(context.Background(), g, Options{MemoryMB: 512})
	if err != nil {
		t.Fatal(err)
	}
	old, err := solveRetro(g, Options{MemoryMB: 2048})
	if err != nil {
		t.Fatal(err)
	}
	if fast.Value != old.Value || !slices.Equal(fast.Best, old.Best) || !maps.Equal(fast.Moves, old.Moves) {
		t.Errorf("%s: compact %v best %v moves %v; retro.go %v best %v moves %v",
			name, fast.Value, fast.Best, fast.Moves, old.Value, old.Best, old.Moves)
	}
	if fast.Nodes != old.Nodes {
		t.Errorf("%s: compact enumerated %d positions, retro.go %d", name, fast.Nodes, old.Nodes)
	}
	return fast
}

// TestCompactAgainstRetro compares the root values, best moves, values of
// every root move and position counts of the two graph solvers on the alak
// preset from 1 to 9 points (11 with ALAK_LONG=1) and on the variants up
// to 8. The values agree with the alak table of docs/results.md (made with
// retro.go).
func TestCompactAgainstRetro(t *testing.T) {
	t.Parallel()
	maxN := sweep(t, 9, 11, 11)
	if testing.Short() {
		maxN = 9
	}
	want := map[int]float64{1: 1, 2: -1, 3: 1, 4: -2, 5: 1, 6: 0, 7: 1, 8: 0, 9: 0, 10: 0, 11: 0} // docs/results.md
	for n := 1; n <= maxN; n++ {
		res := solveBoth(t, newGame(t, "alak", n), fmt.Sprintf("alak %d", n))
		if res.Value != want[n] {
			t.Errorf("alak %d: value %v, results.md %v", n, res.Value, want[n])
		}
	}
	for _, opts := range compactVariants[1:] {
		maxN := 8
		if slices.Contains(opts, "repetition") {
			// Every earlier position is used up at once: Solve searches
			// (solve.go, queryGraph) and only the graph's own values
			// (TestCompactEveryValue) test the compact solver there.
			maxN = 4
		}
		for n := 1; n <= maxN; n++ {
			solveBoth(t, newGame(t, "alak", n, opts...), fmt.Sprintf("alak %d %v", n, opts))
		}
	}
}

// TestCompactEveryValue compares the value of every position of the graph
// with retro.go's, on up to 9 points (8 without ALAK_LONG=1).
func TestCompactEveryValue(t *testing.T) {
	t.Parallel()
	for _, opts := range compactVariants {
		for n := 1; n <= sweep(t, 8, 9, 9); n++ {
			g := newGame(t, "alak", n, opts...)
			old := newSearcher(context.Background(), g.Rules(), Options{MemoryMB: 256, noCompact: true})
			rg, err := old.solveGraph(g.Position())
			if err != nil {
				t.Fatal(err)
			}
			fast := newSearcher(context.Background(), g.Rules(), Options{MemoryMB: 256})
			cg, err := fast.solveCompact(g.Position())
			if err != nil {
				t.Fatal(err)
			}
			if cg.t.n != len(rg.pos) {
				t.Errorf("%d %v: %d states, retro.go %d", n, opts, cg.t.n, len(rg.pos))
			}
			for i, p := range rg.pos {
				v, ok := cg.valueOf(p)
				w := int32(rg.value[i])
				if rg.term[i] != noTerm {
					w = int32(rg.term[i])
				}
				if p.ToMove() == rules.White {
					w = -w
				}
				if !ok || v != w {
					t.Fatalf("%d %v: %v: compact %d (found %v), retro.go %d", n, opts, p, v, ok, w)
				}
			}
		}
	}
}

// TestCompactWithHistory compares the two solvers on positions reached by
// random games (two a size, four with ALAK_LONG=1; with repetitions where
// ko=none allows them) and on set-up
// positions with forbidden points that no capture made.
func TestCompactWithHistory(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, opts := range [][]string{nil, {"ko", "none"}} {
		sizes := []int{4, 7, 9}[:sweep(t, 2, 3, 3)] // 9 points with ALAK_LONG=1
		if opts != nil {
			sizes = sizes[:1] // repetitions come soon, and searches after them are slow
		}
		for _, n := range sizes {
			for game := range testlong.Size(t, 2, 4) {
				g := newGame(t, "alak", n, opts...)
				for ply := 0; ply < 3*n && !g.Over(); ply++ {
					moves := g.LegalMoves(nil)
					if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
						t.Fatal(err)
					}
					if ply%3 == game%3 && !g.Over() {
						t.Logf("alak %d %v after %v", n, opts, g.Moves())
						solveBoth(t, g, fmt.Sprintf("alak %d %v after %v", n, opts, g.Moves()))
					}
				}
			}
		}
	}
	r := rules.MustPreset("alak")
	for _, d := range []string{"x/-o-/--", "/-------", "-/x-o/--", "xo/-/ox-", "--/x//o-"} {
		for _, side := range []rules.Color{rules.Black, rules.White} {
			pos, err := rules.ParseDiagram(r, d, side)
			if err != nil {
				t.Fatal(err)
			}
			solveBoth(t, rules.NewGameFrom(pos), fmt.Sprintf("%s %v", d, side))
		}
	}
}

// TestCompactTable: a table filled by the compact solver answers the same.
func TestCompactTable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := newGame(t, "alak", 9)
	tab, err := LoadTable(dir, g.Rules())
	if err != nil {
		t.Fatal(err)
	}
	first, err := Solve(context.Background(), g, Options{MemoryMB: 64, Table: tab})
	if err != nil {
		t.Fatal(err)
	}
	// Every live position of the graph is in the table (24,326 in all).
	if tab.Len() < 20000 {
		t.Errorf("table holds %d entries", tab.Len())
	}
	second, err := Solve(context.Background(), g, Options{MemoryMB: 64, Table: tab})
	if err != nil {
		t.Fatal(err)
	}
	if second.Nodes != 0 || second.Value != first.Value || !maps.Equal(second.Moves, first.Moves) {
		t.Errorf("from the table: %+v; first %+v", second, first)
	}
	// And mid-game positions answered from the table agree with retro.go.
	for _, moves := range []string{"5 4 6", "1 2 3 9 8", "3 7 5 6"} {
		h := newGame(t, "alak", 9)
		for _, f := range strings.Fields(moves) {
			var p int
			fmt.Sscan(f, &p)
			if err := h.Play(rules.Place(p - 1)); err != nil {
				t.Fatal(err)
			}
		}
		a, err := Solve(context.Background(), h, Options{MemoryMB: 64, Table: tab})
		if err != nil {
			t.Fatal(err)
		}
		b, err := solveRetro(h, Options{MemoryMB: 64})
		if err != nil {
			t.Fatal(err)
		}
		if a.Value != b.Value || !maps.Equal(a.Moves, b.Moves) {
			t.Errorf("after %s: table %v %v, retro.go %v %v", moves, a.Value, a.Moves, b.Value, b.Moves)
		}
	}
}

// The compact solver's benchmarks: the start position of alak on 14 to 18
// points, from scratch (no results table); the memory limit is the
// solver's --memory in MB.
func BenchmarkSolveAlak14(b *testing.B) { benchSolve(b, "alak", 14, 4000) }
func BenchmarkSolveAlak15(b *testing.B) { benchSolve(b, "alak", 15, 4000) }
func BenchmarkSolveAlak16(b *testing.B) { benchSolve(b, "alak", 16, 8000) }
func BenchmarkSolveAlak17(b *testing.B) { benchSolve(b, "alak", 17, 14000) }
func BenchmarkSolveAlak18(b *testing.B) { benchSolve(b, "alak", 18, 16000) }

// TestCompactCancelAndLimits: the compact solver stops on a cancelled
// context, at the node limit (positions enumerated) and at the memory
// limit; with ALAK_LONG=1, from a mid-game root too, solved.
func TestCompactCancelAndLimits(t *testing.T) {
	t.Parallel()
	g := newGame(t, "alak", 13)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := Solve(ctx, g, Options{MemoryMB: 256}); !errors.Is(err, context.Canceled) || res.Complete {
		t.Errorf("cancelled: err %v complete %v", err, res.Complete)
	}
	// The node limit: 100,000 positions with ALAK_LONG=1, 20,000 without.
	limit := int64(testlong.Size(t, 20000, 100000))
	res, err := Solve(context.Background(), g, Options{MemoryMB: 256, MaxNodes: limit})
	if !errors.Is(err, ErrNodeLimit) || res.Complete || res.Nodes < limit || res.Nodes > 2*limit {
		t.Errorf("node limit %d: err %v complete %v nodes %d", limit, err, res.Complete, res.Nodes)
	}
	// alak-13 has 2,227,435 positions: 16 MB holds fewer. The search
	// fills the bound before it gives up, so the bounds are 2 MB and 1 MB
	// by default, 16 MB and 8 MB with ALAK_LONG=1.
	big, small := testlong.Size(t, 2, 16), testlong.Size(t, 1, 8)
	if _, err := Solve(context.Background(), g, Options{MemoryMB: big}); !errors.Is(err, ErrMemory) {
		t.Errorf("alak-13 in %d MB: %v, want ErrMemory", big, err)
	}
	// A mid-game root starts with a small table that grows.
	h := newGame(t, "alak", 13)
	for _, p := range []int{6, 7, 5} {
		if err := h.Play(rules.Place(p)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Solve(context.Background(), h, Options{MemoryMB: small}); !errors.Is(err, ErrMemory) {
		t.Errorf("alak-13 after 3 moves in %d MB: %v, want ErrMemory", small, err)
	}
	if !testing.Short() && testlong.Enabled(t) {
		solveBoth(t, h, "alak-13 after 7 8 6") // with a table grown from 4096 slots
	}
}

// TestCompactTablePacking: the table stores state words packed in 2n+2
// bits rounded up to bytes, plus two bytes a slot (7 on 19 points); every
// word put in comes back out, found by its own value and not by another's.
func TestCompactTablePacking(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(19, 20))
	for _, n := range []int{1, 2, 18, 19, 20, 31} {
		// The packed word's bytes (2n+2 bits), a counter and a value.
		wantBytes := map[int]int{1: 3, 2: 3, 18: 7, 19: 7, 20: 8, 31: 10}[n]
		if got := slotBytes(n); got != wantBytes {
			t.Errorf("%d points: %d bytes a slot, want %d", n, got, wantBytes)
		}
		geo := cgeo{n: n, mask: 1<<n - 1}
		tab := newCtable(4096, n)
		in := map[uint64]uint32{}
		for len(in) < 1000 && len(in) < 1<<n {
			// A random board with some forbidden points, either side to move.
			b := rng.Uint64() & geo.mask
			w := rng.Uint64() & geo.mask &^ b
			f := rng.Uint64() & rng.Uint64() & geo.mask &^ (b | w)
			k := word(b, w, f, rng.IntN(2) == 1)
			j, isNew := tab.insert(k)
			if old, seen := in[k]; seen {
				if isNew || old != j {
					t.Fatalf("%d points: %x inserted again as new (%v) or moved (%d, %d)", n, k, isNew, old, j)
				}
				continue
			}
			if !isNew {
				t.Fatalf("%d points: %x not new on first insertion", n, k)
			}
			in[k] = j
		}
		if tab.n != len(in) {
			t.Errorf("%d points: %d states counted, %d put in", n, tab.n, len(in))
		}
		for k, j := range in {
			if got := tab.key(uint64(j)); got != k {
				t.Fatalf("%d points: slot %d holds %x, want %x", n, j, got, k)
			}
			if got, ok := tab.find(k); !ok || got != j {
				t.Fatalf("%d points: find %x = %d, %v; want %d", n, k, got, ok, j)
			}
			if tab.white(uint64(j)) != (k&cWhite != 0) {
				t.Fatalf("%d points: slot %d: wrong player to move", n, j)
			}
			_, there := in[k^cWhite]
			if _, ok := tab.find(k ^ cWhite); ok != there {
				t.Fatalf("%d points: %x found %v, put in %v", n, k^cWhite, ok, there)
			}
		}
	}
}

// TestCompactWideSlots runs the 10-byte slots of boards beyond 19 points on
// the alak graphs of 1 to 8 points (9 with ALAK_LONG=1; those of more
// points are too big to solve in a test): the same value for every position as the 7-byte ones,
// which TestCompactEveryValue checks against retro.go.
func TestCompactWideSlots(t *testing.T) {
	// Not in parallel: it switches the package's wideSlots, which every
	// compact solve reads (the serial tests run before the parallel ones).
	for n := 1; n <= sweep(t, 8, 9, 9); n++ {
		g := newGame(t, "alak", n)
		narrow, err := newSearcher(context.Background(), g.Rules(), Options{MemoryMB: 64}).solveCompact(g.Position())
		if err != nil {
			t.Fatal(err)
		}
		wideSlots = true
		wide, err := newSearcher(context.Background(), g.Rules(), Options{MemoryMB: 64}).solveCompact(g.Position())
		wideSlots = false
		if err != nil {
			t.Fatal(err)
		}
		if wide.t.stride != 10 || narrow.t.stride != uint64(slotBytes(n)) || narrow.t.stride >= 10 {
			t.Fatalf("%d points: the layouts were not the ones asked for", n)
		}
		if wide.t.n != narrow.t.n {
			t.Errorf("%d points: %d states with wide slots, %d with narrow", n, wide.t.n, narrow.t.n)
		}
		for i := range uint64(narrow.t.size()) {
			k := narrow.t.key(i)
			if k == 0 {
				continue
			}
			v, _ := narrow.value(k)
			if w, ok := wide.value(k); !ok || w != v {
				t.Fatalf("%d points: state %x: wide %d (found %v), narrow %d", n, k, w, ok, v)
			}
		}
	}
}

// TestCompactProgressEstimate: enumerating from the empty line (10 points,
// 12 with ALAK_LONG=1), whose number of positions is known
// (compactEstimate, the counts of docs/results.md), the progress report
// estimates the time left from the rate so far; with an unknown total it
// gives none.
func TestCompactProgressEstimate(t *testing.T) {
	t.Parallel()
	n := testlong.Size(t, 10, 12)
	count := map[int]int64{10: 76313, 12: 727899}[n] // docs/results.md
	// Every smaller line's count too: the estimate's table once said 76314
	// for 10 points (and one more than the enumeration on 1 to 9).
	var s *searcher
	for m := 1; m <= n; m++ {
		g := newGame(t, "alak", m)
		s = newSearcher(context.Background(), g.Rules(), Options{MemoryMB: 64})
		if _, err := s.solveCompact(g.Position()); err != nil {
			t.Fatal(err)
		}
		if s.nodes != s.expect {
			t.Errorf("%d points: expected %d positions and enumerated %d", m, s.expect, s.nodes)
		}
	}
	if s.expect != count || s.nodes != s.expect {
		t.Fatalf("expected %d positions on %d points and enumerated %d, want %d (docs/results.md)", s.expect, n, s.nodes, count)
	}
	// Half the positions done in ten seconds: about ten seconds left.
	s.nodes = s.expect / 2
	last := s.report(s.start.Add(10 * time.Second))
	if last.Estimate < 9*time.Second || last.Estimate > 11*time.Second {
		t.Errorf("half done after 10 s: estimate %v, want about 10 s", last.Estimate)
	}
	if last.Nodes != s.expect/2 {
		t.Errorf("progress counts %d positions, want %d", last.Nodes, s.expect/2)
	}
	s.expect = 0
	if p := s.report(s.start.Add(10 * time.Second)); p.Estimate != 0 {
		t.Errorf("no known total: estimate %v, want none", p.Estimate)
	}
	// A variant's graph has another size: no estimate.
	v := newGame(t, "alak", 7, "edge", "off")
	sv := newSearcher(context.Background(), v.Rules(), Options{MemoryMB: 64})
	if _, err := sv.solveCompact(v.Position()); err != nil {
		t.Fatal(err)
	}
	if sv.expect != 0 {
		t.Errorf("edge=off: expected %d positions, want unknown (0)", sv.expect)
	}
}
