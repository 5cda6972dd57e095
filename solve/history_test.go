package solve

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"alak/internal/testlong"
	"alak/notation"
	"alak/rules"
)

// shuffleGame plays up to plies moves of a seeded random game that keeps
// going back to positions it has been through without drawing: at each ply
// it plays, with probability 2/3, a move back to a position that has
// occurred but is not used up (one more occurrence would not draw), if there
// is one; otherwise a move to a new position; a move that ends the game or
// draws only when there is nothing else. So its history fills up with
// positions that have occurred Repetition−1 times (used up), and late in the
// game few positions are left that can still be played through.
func shuffleGame(t testing.TB, g *rules.Game, rng *rand.Rand, plies int) {
	t.Helper()
	n := g.Rules().Repetition
	for range plies {
		if g.Over() {
			return
		}
		count := map[uint64]int{}
		for i := 0; i <= g.Len(); i++ {
			count[g.PositionAt(i).Hash()]++
		}
		moves := g.LegalMoves(nil)
		var back, fresh []rules.Move
		for _, m := range moves {
			c, err := g.Position().Play(m)
			switch {
			case err != nil || c.Over() || count[c.Hash()]+1 >= n:
			case count[c.Hash()] > 0:
				back = append(back, m)
			default:
				fresh = append(fresh, m)
			}
		}
		m := moves[rng.IntN(len(moves))]
		switch {
		case len(back) > 0 && (len(fresh) == 0 || rng.IntN(3) < 2):
			m = back[rng.IntN(len(back))]
		case len(fresh) > 0:
			m = fresh[rng.IntN(len(fresh))]
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
}

// usedUp reports whether g's history holds a position other than the
// current one that has occurred Repetition−1 times (its next occurrence
// draws).
func usedUp(g *rules.Game) bool {
	n := g.Rules().Repetition
	count := map[uint64]int{}
	for i := 0; i < g.Len(); i++ {
		count[g.PositionAt(i).Hash()]++
	}
	for h, c := range count {
		if h != g.Position().Hash() && c+1 >= n {
			return true
		}
	}
	return false
}

// bruteWithin is brute (brute_test.go) stopped after limit positions: it
// returns false when the brute force did not finish.
func bruteWithin(g *rules.Game, limit int, memo map[string]float64) (v float64, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	nodes := 0
	return brute(g, &nodes, limit, memo), true
}

// TestHistoryAgainstBruteForce: positions reached by shuffling games
// (shuffleGame), whose histories hold used-up positions, solved as alak
// analyze solves them; the value of every legal move (and so the value,
// their best) is checked against the brute force of brute_test.go (minimax
// over Game with the real repetition rule, memoised on the whole history; it
// shares no code with the solver). The brute force explores histories, and
// a history can pass through a position up to Repetition−1 times, so it
// finishes only on tiny state graphs: dewdney and golf on 4 to 6 slots
// with few pieces (from the start position of either on 6 slots it does not
// finish in 10⁵ positions, nor from most positions of long games on 6 or
// more slots), and alak with ko=none on 4 points. Each game is checked from its end backwards, as far as the
// brute force finishes within its budget (one memo per game: later
// positions are states of earlier positions' trees), and games are drawn
// until 8 positions with used-up positions in their history are checked
// (1 without ALAK_LONG=1, whose walk back stops there).
func TestHistoryAgainstBruteForce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		preset string
		sizes  []int
		opts   []string
	}{
		{"dewdney", []int{4, 5}, []string{"min", "1"}},
		{"dewdney", []int{5}, []string{"min", "1", "repetition", "4"}},
		{"dewdney", []int{5}, []string{"start", "xx_oo"}},
		{"dewdney", []int{5}, []string{"start", "x_xoo"}},
		{"golf", []int{5}, []string{"start", "xx_oo", "min", "1"}},
		{"golf", []int{6}, []string{"start", "x_o_xo", "min", "1"}},
		{"dewdney", []int{5}, []string{"start", "xx_oo", "repetition", "2"}},
		{"golf", []int{5}, []string{"start", "xx_oo", "repetition", "2"}},
		{"alak", []int{4}, []string{"ko", "none"}},
		{"alak", []int{4}, []string{"ko", "none", "repetition", "2"}},
	}
	for _, c := range cases {
		for _, n := range c.sizes {
			t.Run(fmt.Sprintf("%s/%d%v", c.preset, n, c.opts), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(n), 18))
				checked, used, games := 0, 0, 0
				// 8 positions with used-up histories with ALAK_LONG=1, 1 without.
				wantUsed, long := sweep(t, 1, 8, 8), testlong.Enabled(t)
				for ; used < wantUsed && games < 20; games++ {
					g := newGame(t, c.preset, n, c.opts...)
					shuffleGame(t, g, rng, 60)
					memo := map[string]float64{}
					for ; ; g.Undo() {
						if !g.Over() {
							ok := agreesWithBruteWithin(t, g, memo)
							if !ok {
								break
							}
							checked++
							if usedUp(g) {
								used++
							}
						}
						// The short form stops at the positions it wants: the
						// earlier ones, left, cost the brute force the most.
						if g.Len() == 0 || used >= wantUsed && !long {
							break
						}
					}
				}
				t.Logf("%d games, %d positions checked, %d with used-up positions in their history", games, checked, used)
				if used < wantUsed {
					t.Errorf("%d positions with used-up positions in their history checked in %d games, want %d", used, games, wantUsed)
				}
			})
		}
	}
}

// agreesWithBruteWithin solves g and checks the value of every legal move
// against the brute force, and the value against the best of them. It
// returns false, having checked nothing, when the brute force does not
// finish within its budget.
func agreesWithBruteWithin(t *testing.T, g *rules.Game, memo map[string]float64) bool {
	t.Helper()
	moves := g.LegalMoves(nil)
	want := make([]float64, len(moves))
	for i, m := range moves {
		cg := g.Clone()
		if err := cg.Play(m); err != nil {
			t.Fatal(err)
		}
		v, ok := bruteWithin(cg, 1e4, memo)
		if !ok {
			return false
		}
		want[i] = v
	}
	res, err := Solve(context.Background(), g, Options{MemoryMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	checkMoveValues(t, g, res, moves, want)
	return true
}

// checkMoveValues compares the solver's result at g with the expected value of
// every legal move; the expected value of g is the best of them for the
// player to move.
func checkMoveValues(t *testing.T, g *rules.Game, res Result, moves []rules.Move, want []float64) {
	t.Helper()
	black := g.Position().ToMove() == rules.Black
	best := math.Inf(1)
	if black {
		best = math.Inf(-1)
	}
	for i, m := range moves {
		got, ok := res.Moves[m]
		switch {
		case !ok:
			t.Errorf("after %v: no value for the legal move %v", g.Moves(), m)
		case got != want[i]:
			t.Errorf("after %v, move %v: value %v, want %v", g.Moves(), m, got, want[i])
		}
		if black && want[i] > best || !black && want[i] < best {
			best = want[i]
		}
	}
	if len(res.Moves) != len(moves) {
		t.Errorf("after %v: values of %d moves, %d legal", g.Moves(), len(res.Moves), len(moves))
	}
	if res.Value != best {
		t.Errorf("after %v: value %v, want %v", g.Moves(), res.Value, best)
	}
}

// graphRef is an independent evaluation of Claims 1 and 2 of docs/solver.md
// (the value of a position under a history is the value of the state graph
// in which the positions the history has used up are finished and worth 0,
// and an endless play is worth 0), on exact positions (no mirror images)
// keyed by Position.Hash, the kernel's repetition key. It computes the
// graph value by value iteration: V₀ is 0 at every live position, V_{k+1}
// the minimax of V_k over the moves, which is the value of the game cut off
// after k plies at 0; past as many plies as there are positions a player
// who can force a finished position worth at least t (or keep the other
// from one worth less) does so within the cut, so the iteration reaches a
// fixed point, and it is the graph value. It shares no code with the
// solver (no attractors, predecessor lists or mirror images).
type graphRef struct {
	ids   map[uint64]int
	pos   []rules.Position
	succ  [][]int
	cache map[string][]float64
}

// newGraphRef enumerates the positions reachable from root.
func newGraphRef(root rules.Position) *graphRef {
	r := &graphRef{ids: map[uint64]int{}, cache: map[string][]float64{}}
	r.node(root)
	for i := 0; i < len(r.pos); i++ {
		var next []int
		if !r.pos[i].Over() {
			for _, m := range r.pos[i].LegalMoves(nil) {
				c, err := r.pos[i].Play(m)
				if err != nil {
					panic(err)
				}
				next = append(next, r.node(c))
			}
		}
		r.succ = append(r.succ, next)
	}
	return r
}

func (r *graphRef) node(p rules.Position) int {
	if id, ok := r.ids[p.Hash()]; ok {
		return id
	}
	r.ids[p.Hash()] = len(r.pos)
	r.pos = append(r.pos, p)
	return len(r.pos) - 1
}

// value returns Black's margin at g's position under perfect play, given
// its history. The position must be reachable from the root.
func (r *graphRef) value(g *rules.Game) float64 {
	if o := g.Outcome(); o.Over() {
		return o.Margin
	}
	count := map[uint64]int{}
	for i := 0; i < g.Len(); i++ {
		count[g.PositionAt(i).Hash()]++
	}
	blocked := map[int]bool{}
	var key []int
	for h, c := range count {
		if id, ok := r.ids[h]; ok && h != g.Position().Hash() && c+1 >= g.Rules().Repetition {
			blocked[id] = true
			key = append(key, id)
		}
	}
	slices.Sort(key)
	k := fmt.Sprint(key)
	v, ok := r.cache[k]
	if !ok {
		v = r.iterate(blocked)
		r.cache[k] = v
	}
	return v[r.ids[g.Position().Hash()]]
}

func (r *graphRef) iterate(blocked map[int]bool) []float64 {
	v := make([]float64, len(r.pos))
	for i, p := range r.pos {
		if p.Over() {
			v[i] = p.Outcome().Margin
		}
	}
	for changed := true; changed; {
		changed = false
		next := slices.Clone(v)
		for i, p := range r.pos {
			if p.Over() || blocked[i] {
				continue
			}
			black := p.ToMove() == rules.Black
			best := math.Inf(1)
			if black {
				best = math.Inf(-1)
			}
			for _, c := range r.succ[i] {
				if black && v[c] > best || !black && v[c] < best {
					best = v[c]
				}
			}
			if best != v[i] {
				next[i], changed = best, true
			}
		}
		v = next
	}
	return v
}

// TestHistoryAgainstGraphValues: shuffling games on boards the brute force
// cannot reach (usingUp), solved before every ply as alak analyze does; the value of every legal move is checked against graphRef, an
// independent evaluation of the claims that TestHistoryAgainstBruteForce
// checks against the rules on small boards (and that docs/solver.md
// proves). Dewdney and golf on 6 to 9 slots, with the threefold rule and
// with repetition=2; alak with its forbidden points on 7 and 8 points, and
// with ko=none on 7 and 8.
func TestHistoryAgainstGraphValues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		preset string
		sizes  []int
		opts   []string
	}{
		{"dewdney", []int{6, 7, 8, 9}, nil},
		{"golf", []int{6, 7, 8, 9}, nil},
		{"dewdney", []int{7}, []string{"repetition", "2"}},
		{"golf", []int{7}, []string{"repetition", "2"}},
		{"alak", []int{7, 8}, nil},
		{"alak", []int{7, 8}, []string{"ko", "none"}},
	}
	// Without ALAK_LONG=1 the sweep stops at 6 slots and alak at 7 points.
	maxSlide, maxAlak := sweep(t, 6, 9, 9), sweep(t, 7, 8, 8)
	for _, c := range cases {
		for _, n := range c.sizes {
			if (c.preset == "alak" && n > maxAlak) || n > maxSlide {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d%v", c.preset, n, c.opts), func(t *testing.T) {
				checked, used := 0, 0
				for _, g := range usingUp(t, c.preset, n, c.opts, 2) {
					replay := rules.NewGameFrom(g.Start())
					for _, m := range g.Moves() {
						ref := newGraphRef(replay.Position())
						moves := replay.LegalMoves(nil)
						want := make([]float64, len(moves))
						for i, mv := range moves {
							cg := replay.Clone()
							if err := cg.Play(mv); err != nil {
								t.Fatal(err)
							}
							want[i] = ref.value(cg)
						}
						res, err := Solve(context.Background(), replay, Options{MemoryMB: 16})
						if err != nil {
							t.Fatal(err)
						}
						checkMoveValues(t, replay, res, moves, want)
						checked++
						if usedUp(replay) {
							used++
						}
						if err := replay.Play(m); err != nil {
							t.Fatal(err)
						}
					}
				}
				t.Logf("%d positions checked, %d with used-up positions in their history", checked, used)
				if used < 5 {
					t.Errorf("%d positions with used-up positions in their history checked, want 5 or more", used)
				}
			})
		}
	}
}

// usingUp returns k shuffling games (shuffleGame, 60 plies) of preset on n
// points in whose history a position gets used up, the first k such games
// of the seeds 0, 1, 2, ... (on dewdney and golf nearly every game; on alak,
// where a position recurs only through captures, a few in a thousand).
func usingUp(t *testing.T, preset string, n int, opts []string, k int) []*rules.Game {
	t.Helper()
	var games []*rules.Game
	for seed := uint64(0); len(games) < k; seed++ {
		if seed == 5000 {
			t.Fatalf("%s %d %v: %d of 5000 games use a position up, want %d", preset, n, opts, len(games), k)
		}
		g := newGame(t, preset, n, opts...)
		shuffleGame(t, g, rand.New(rand.NewPCG(seed, uint64(n))), 60)
		replay := rules.NewGameFrom(g.Start())
		for _, m := range g.Moves() {
			if usedUp(replay) {
				games = append(games, g)
				break
			}
			if err := replay.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return games
}

// shuffleDewdney is a 22-ply Dewdney game in which the players shuffle back
// and forth (2-1, 1-2 against 7-6, 6-7 and others), found by a search for
// a line of one-slot moves after 1-5 9-7 in which no position occurs a
// third time: from ply 7 on its histories use positions up. The solver
// before this file searched them with path-dependent alpha-beta and did not
// finish ply 7 in 50 million positions.
var shuffleDewdney = "1-5 9-7 2-1 7-6 1-2 6-7 2-1 7-6 1-2 8-7 2-1 10-9 1-2 7-8 2-1 6-7 1-2 7-6 2-1 6-7 1-2 11-10"

// TestAnalyzeShuffleDewdney analyses shuffleDewdney as alak analyze does (a
// solve before every ply) with a budget of a million positions a solve: a
// solve now enumerates the 64,576 positions of the graph once, whatever the
// history. All 22 plies with ALAK_LONG=1; without, the solve before ply 8
// alone (the first seven are played unsolved; from the eighth on the
// histories hold used-up positions, so that solve has them).
func TestAnalyzeShuffleDewdney(t *testing.T) {
	t.Parallel()
	g := newGame(t, "dewdney", 11)
	used, solved := 0, 0
	plies := strings.Fields(shuffleDewdney)
	first, last := sweep(t, 7, 0, 0), sweep(t, 8, len(plies), len(plies))
	for i, s := range plies[:last] {
		m, err := notation.Human.Decode(g.Rules(), s)
		if err != nil {
			t.Fatal(err)
		}
		if i >= first {
			res, err := Solve(context.Background(), g, Options{MaxNodes: 1_000_000})
			if err != nil {
				t.Fatalf("ply %d: %v", i+1, err)
			}
			if _, ok := res.Moves[m]; !ok || !res.Complete {
				t.Errorf("ply %d: complete %v, no value for %s", i+1, res.Complete, s)
			}
			solved++
			if usedUp(g) {
				used++
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if want := sweep(t, 1, 10, 10); used < want { // of 1 ply solved, or 22
		t.Errorf("%d of the %d plies solved had used-up positions in their history, want at least %d", used, solved, want)
	}
}
