package solve

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"
	"testing"

	"alak/rules"
)

// brute is an independent evaluation: plain minimax over the kernel's
// Game.LegalMoves and Game.Play, with the real repetition and superko rules
// applied by Game itself. It shares no code with the solver. It returns
// Black's margin under perfect play. memo (may be nil) caches values under
// the complete game state as the kernel's own words describe it: the
// position's diagram and player to move, passes, prisoners, and the
// occurrence counts of every earlier position (Hash) and board (BoardHash).
func brute(g *rules.Game, nodes *int, limit int, memo map[string]float64) float64 {
	*nodes++
	if *nodes > limit {
		panic("brute force: too many nodes")
	}
	if o := g.Outcome(); o.Over() {
		return o.Margin
	}
	key := stateKey(g)
	if v, ok := memo[key]; ok {
		return v
	}
	black := g.Position().ToMove() == rules.Black
	best := math.Inf(1)
	if black {
		best = math.Inf(-1)
	}
	for _, m := range g.LegalMoves(nil) {
		if err := g.Play(m); err != nil {
			panic(err)
		}
		v := brute(g, nodes, limit, memo)
		if err := g.Undo(); err != nil {
			panic(err)
		}
		if black && v > best || !black && v < best {
			best = v
		}
	}
	memo[key] = best
	return best
}

// stateKey describes everything the future of g depends on: the position's
// diagram, player to move, passes and prisoners, how often each position
// (Hash) has occurred and which boards (BoardHash) have, written out in full
// (sorted, so equal states have equal keys).
func stateKey(g *rules.Game) string {
	pos := g.Position()
	text, _ := pos.MarshalText()
	seen := map[uint64]uint64{}
	boards := map[uint64]bool{}
	for i := 0; i <= g.Len(); i++ {
		p := g.PositionAt(i)
		seen[p.Hash()]++
		boards[p.BoardHash()] = true
	}
	key := fmt.Appendf(nil, "%s|%d|%d|%d|", text, pos.Passes(), pos.Prisoners(rules.Black), pos.Prisoners(rules.White))
	key = binary.AppendUvarint(key, uint64(len(seen)))
	for _, h := range slices.Sorted(maps.Keys(seen)) {
		key = binary.LittleEndian.AppendUint64(key, h)
		key = binary.AppendUvarint(key, seen[h])
	}
	for _, h := range slices.Sorted(maps.Keys(boards)) {
		key = binary.LittleEndian.AppendUint64(key, h)
	}
	return string(key)
}

func newGame(t testing.TB, preset string, size int, opts ...string) *rules.Game {
	t.Helper()
	return gridGame(t, preset, size, 1, opts...)
}

// agreesWithBrute solves g and checks the value and the value of every move
// against the brute force (bruteMoves).
func agreesWithBrute(t *testing.T, g *rules.Game, memoryMB int) {
	t.Helper()
	res, err := Solve(context.Background(), g, Options{MemoryMB: memoryMB})
	if err != nil {
		t.Fatal(err)
	}
	bv := bruteMoves(g)
	if bv.err != nil {
		t.Fatal(bv.err)
	}
	if res.Value != bv.value {
		t.Errorf("value %v, brute force %v", res.Value, bv.value)
	}
	for m, v := range res.Moves {
		want, ok := bv.moves[m]
		if !ok {
			t.Fatalf("move %v: a value, but not a legal move", m)
		}
		if v != want {
			t.Errorf("move %v: value %v, brute force %v", m, v, want)
		}
	}
	t.Logf("value %v best %v pv %v nodes %d", res.Value, res.Best, res.PV, res.Nodes)
}

// bruteValues are the brute force's value of a game and of each legal move.
type bruteValues struct {
	once  sync.Once
	value float64
	moves map[rules.Move]float64
	err   any // why the brute force gave up, if it did
}

// bruteCache holds bruteMoves' answers by rules and state, so that tests
// asking about the same game search it once: TestDenseGenericAgainstSolve
// and TestSolveLabAgainstSolve both check alak with own=together on 3
// points, the slowest brute force of either.
var bruteCache sync.Map // string → *bruteValues

// bruteMoves returns the brute force's value of g and of every legal move
// from it. The moves' searches share the start's memo: its values are
// exact minimax values keyed on the whole state, and the start's search
// has already valued every move's state, so searching each again from an
// empty memo would repeat the same minimax.
func bruteMoves(g *rules.Game) *bruteValues {
	e, _ := bruteCache.LoadOrStore(fmt.Sprintf("%#v|%s", g.Rules(), stateKey(g)), &bruteValues{})
	bv := e.(*bruteValues)
	bv.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				bv.err = r
			}
		}()
		nodes := 0
		memo := map[string]float64{}
		bv.value = brute(g.Clone(), &nodes, 5e7, memo)
		bv.moves = map[rules.Move]float64{}
		for _, m := range g.LegalMoves(nil) {
			cg := g.Clone()
			if err := cg.Play(m); err != nil {
				panic(err)
			}
			nodes = 0
			bv.moves[m] = brute(cg, &nodes, 5e7, memo)
		}
	})
	return bv
}

// TestAgainstBruteForce checks the value of the start position and of every
// move against the brute force, for every preset on small boards.
func TestAgainstBruteForce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		preset string
		sizes  []int
		opts   []string
	}{
		{"alak", []int{1, 2, 3, 4, 5, 6}, nil},
		{"alak", []int{3, 4, 5}, []string{"repetition", "2"}},
		{"traditional", []int{1, 2}, nil},
		{"tromp-taylor", []int{1, 2, 3}, nil},
		{"alterigo", []int{1, 2, 3}, nil},
		{"alak", []int{3, 4}, []string{"ko", "none"}},
		{"alak", []int{3, 4}, []string{"ko", "none", "repetition", "2"}},
		{"dewdney", []int{3, 4}, []string{"min", "1"}},
		{"golf", []int{3, 4}, []string{"min", "1"}},
	}
	for _, c := range cases {
		for _, n := range c.sizes {
			t.Run(fmt.Sprintf("%s/%d%v", c.preset, n, c.opts), func(t *testing.T) {
				agreesWithBrute(t, newGame(t, c.preset, n, c.opts...), 16)
			})
		}
	}
}

// gridGame returns a game of preset on a w×h board (h = 1: a line) with
// options set.
func gridGame(t testing.TB, preset string, w, h int, opts ...string) *rules.Game {
	t.Helper()
	r := rules.MustPreset(preset)
	r.SetSize(w, h)
	for i := 0; i+1 < len(opts); i += 2 {
		if err := r.Set(opts[i], opts[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGridsAgainstBruteForce: the solver on small grids (keys from
// Position.Bits, the half-turn as the symmetry) against the brute force,
// the start position and every move, where the brute force finishes.
func TestGridsAgainstBruteForce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		preset string
		w, h   int
		opts   []string
	}{
		{"alterigo", 2, 2, nil},
		{"alak", 2, 2, nil},
		{"alak", 3, 2, []string{"edge", "off"}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%dx%d%v", c.preset, c.w, c.h, c.opts), func(t *testing.T) {
			agreesWithBrute(t, gridGame(t, c.preset, c.w, c.h, c.opts...), 64)
		})
	}
}

// TestAlterIgoGridsAgainstProofs: Alter Igo on 2×3 and 3×3, where the brute
// force is too slow, against one-sided proofs (Prove plays every line on a
// rules.Game with its real history and shares nothing with Solve): on 2×3
// each player can force a draw, so the value is 0; on 3×3 Black can force
// a win, so the value is 1 (a win by rule counts ±1).
func TestAlterIgoGridsAgainstProofs(t *testing.T) {
	t.Parallel()
	type claim struct {
		w, h  int
		value float64
	}
	claims := []claim{{2, 3, 0}, {3, 2, 0}}
	if !testing.Short() && !raceEnabled {
		claims = append(claims, claim{3, 3, 1}) // 6.6 million positions of proof
	}
	for _, c := range claims {
		g := gridGame(t, "alterigo", c.w, c.h)
		res, err := Solve(context.Background(), g, Options{MemoryMB: 64})
		if err != nil {
			t.Fatal(err)
		}
		if res.Value != c.value {
			t.Errorf("alterigo %dx%d: value %v, want %v", c.w, c.h, res.Value, c.value)
		}
		var proofs []Proof
		if c.value == 0 {
			for _, w := range []rules.Color{rules.Black, rules.White} {
				p, err := Prove(context.Background(), g, w, ProveOptions{Draw: true, Depth: 30})
				if err != nil {
					t.Fatal(err)
				}
				proofs = append(proofs, p)
			}
		} else {
			p, err := Prove(context.Background(), g, rules.Black, ProveOptions{Depth: 30})
			if err != nil {
				t.Fatal(err)
			}
			proofs = append(proofs, p)
		}
		for _, p := range proofs {
			if !p.Proved {
				t.Errorf("alterigo %dx%d: no proof for %v (draw %v) within 30 plies", c.w, c.h, p.Winner, p.Draw)
			}
		}
		t.Logf("alterigo %dx%d: value %v best %v, %d positions", c.w, c.h, res.Value, res.Best, res.Nodes)
	}
}
