package solve

import (
	"context"
	"flag"
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"alak/internal/testlong"
	"alak/rules"
)

// The gap descriptors (dense_gaps.go) join the generic family's checks
// through denseGenericVariants (the index against a brute force over every
// state, the moves against the kernel, the predecessors against the
// successors, every state against the textbook retrograde analysis, the
// empty line against Solve); the brute force of the index under
// own=together is below, written from the rule's text, not from the kernel.

// naiveTogether places a stone of c (1 for x, 2 for o) on the empty point p
// of cells (0 empty) under own=together, as seed 004 states it (rule 4,
// docs/rules.md): after the placement every chain with no empty neighbour
// (an end of the line is no liberty with edge capture, and a liberty
// without) is removed at once, the mover's included. Only the chains
// beside p and p's own can have lost their last liberty, so only they are
// looked at (a board set up with a chain already without liberties keeps
// it, as the kernel does). It returns the board after and the other
// player's points removed.
func naiveTogether(cells []int8, c int8, p int, edge bool) ([]int8, uint64) {
	n := len(cells)
	after := slices.Clone(cells)
	after[p] = c
	var capt uint64
	var dead []int
	for _, q := range []int{p - 1, p, p + 1} {
		if q < 0 || q >= n || after[q] == 0 {
			continue
		}
		lo, hi := q, q
		for lo > 0 && after[lo-1] == after[q] {
			lo--
		}
		for hi < n-1 && after[hi+1] == after[q] {
			hi++
		}
		free := lo == 0 && !edge || lo > 0 && after[lo-1] == 0 ||
			hi == n-1 && !edge || hi < n-1 && after[hi+1] == 0
		if free || (q != p && after[q] == c) {
			continue // a liberty; or the mover's chain seen from a neighbour (it is p's)
		}
		for i := lo; i <= hi; i++ {
			dead = append(dead, i)
		}
	}
	for _, i := range dead {
		if after[i] != c {
			capt |= 1 << i
		}
		after[i] = 0
	}
	return after, capt
}

// togetherForbids returns, by (x's points, o's points, 1 when White is to
// move), every set of forbidden points a placement leaves under
// own=together and ko=captured on n points: the other player's points
// removed, by naiveTogether, from every board (each point empty, x or o)
// with either player to move and every empty point placed on.
func togetherForbids(n int, edge bool) map[[3]uint64][]uint64 {
	out := map[[3]uint64][]uint64{}
	cells := make([]int8, n)
	var walk func(i int)
	walk = func(i int) {
		if i < n {
			for v := range int8(3) {
				cells[i] = v
				walk(i + 1)
			}
			return
		}
		for c := int8(1); c <= 2; c++ {
			for p := range n {
				if cells[p] != 0 {
					continue
				}
				after, capt := naiveTogether(cells, c, p, edge)
				if capt == 0 {
					continue
				}
				var b, w uint64
				for q, v := range after {
					switch v {
					case 1:
						b |= 1 << q
					case 2:
						w |= 1 << q
					}
				}
				k := [3]uint64{b, w, uint64(c) - 1 ^ 1} // the other player is to move
				if !slices.Contains(out[k], capt) {
					out[k] = append(out[k], capt)
				}
			}
		}
	}
	walk(0)
	return out
}

// TestNaiveTogetherAgainstKernel: the brute force's rule is the kernel's
// on every position of up to 7 points (boards without a chain already
// without liberties, which the kernel refuses to set up), either player to
// move, with and without edge capture: the board after each placement and
// the forbidden points (ko=captured).
func TestNaiveTogetherAgainstKernel(t *testing.T) {
	t.Parallel()
	for _, edge := range []string{"on", "off"} {
		for n := 1; n <= 7; n++ {
			r := denseRules(t, n, "own", "together", "edge", edge)
			ix := newDindex(r)
			cells := make([]int8, n)
			checked := 0
			for b := uint64(0); b < 1<<n; b++ {
				for w := uint64(0); w < 1<<n; w++ {
					if b&w != 0 {
						continue
					}
					for _, white := range []bool{false, true} {
						side := rules.Black
						c := int8(1)
						if white {
							side, c = rules.White, 2
						}
						pos, err := rules.ParseDiagram(r, diagram(n, b, w, 0), side)
						if err != nil {
							continue // a chain without liberties
						}
						for q := range n {
							cells[q] = int8(b>>q&1 + 2*(w>>q&1))
						}
						for pts := ix.legal(b, w, 0); pts != 0; pts &= pts - 1 {
							p := bits.TrailingZeros64(pts)
							after, capt := naiveTogether(cells, c, p, edge == "on")
							next, err := pos.Play(rules.Place(p))
							if err != nil {
								t.Fatal(err)
							}
							nb, nw, nf, _ := next.Line()
							var ab, aw uint64
							for q, v := range after {
								ab |= uint64(v&1) << q
								aw |= uint64(v>>1) << q
							}
							if nb != ab || nw != aw || nf != capt {
								t.Fatalf("edge=%s: %v then %d: kernel %v, brute force %s", edge, pos, p+1, next, diagram(n, ab, aw, capt))
							}
							checked++
						}
					}
				}
			}
			if checked == 0 {
				t.Fatalf("edge=%s %d: nothing checked", edge, n)
			}
		}
	}
}

// TestLabTogetherColumn: the rule lab's own=together column (docs/rulelab.md)
// is answered by the dense solver and gives the values, best openings and
// every opening's value of Solve's state graph (method 1, retro.go) up to
// 12 points (9 with -short or the race detector, 8 with the race detector
// without ALAK_LONG=1), and on 1 to 15 points the
// column of docs/rulelab.md's table, which method 1 made at commit 631a634
// before the dense solver took own=together: a draw on every size, every
// opening keeping it.
func TestLabTogetherColumn(t *testing.T) {
	t.Parallel()
	maxSolve := 12
	if testing.Short() || raceEnabled {
		maxSolve = 9
	}
	if raceEnabled && !testlong.Enabled(t) {
		maxSolve = 8
	}
	v := Variant{"own", "together"}
	for n := 1; n <= 15; n++ {
		r, err := v.Rules(n)
		if err != nil {
			t.Fatal(err)
		}
		got, err := SolveLab(context.Background(), &Tables{Jobs: 2}, r, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Method != MethodDense {
			t.Fatalf("%d points: answered by %q, want the dense solver", n, got.Method)
		}
		if n <= maxSolve {
			g, err := rules.NewGame(r)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Solve(context.Background(), g, Options{MemoryMB: 2048})
			if err != nil {
				t.Fatal(err)
			}
			if got.Value != want.Value || !slices.Equal(got.Best, want.Best) || fmt.Sprint(got.Moves) != fmt.Sprint(want.Moves) {
				t.Errorf("%d points: dense %v best %v moves %v; Solve %v best %v moves %v", n, got.Value, got.Best, got.Moves, want.Value, want.Best, want.Moves)
			}
		}
		if got.Value != 0 || len(got.Best) != n {
			t.Errorf("%d points: %v with best openings %v; docs/rulelab.md (method 1): 0 (all)", n, got.Value, got.Best)
		}
	}
}

// denseTogether: how many points TestDenseTogetherLiveDraws goes to
// (docs/rulelab.md's 16 by hand).
var denseTogether = flag.Int("dense.together", 12, "TestDenseTogetherLiveDraws: check the own=together lines up to this many points")

// TestDenseTogetherLiveDraws: under the alak rules with own=together every
// state of the index that is not finished is a draw: its margin is 0 in
// the dense solver's table, on every line up to 7 points (with
// ALAK_LONG=1 -dense.together, 12, or 8 under the race detector;
// docs/rulelab.md gives the counts up to 16). The table is checked
// state by state against the textbook retrograde analysis up to 8 points
// (TestDenseAgainstPlainRetro); here, up to 5 points (6 with
// ALAK_LONG=1), every position the kernel sets up (no chain without liberties) that is not over is also a
// draw by Solve's state graph (method 1).
func TestDenseTogetherLiveDraws(t *testing.T) {
	t.Parallel()
	maxN := sweep(t, 7, 8, *denseTogether)
	if testing.Short() {
		maxN = min(maxN, 8)
	}
	if flagGiven("dense.together") {
		maxN = *denseTogether
	}
	solveUpTo := testlong.Size(t, 5, 6)
	for n := 1; n <= maxN; n++ {
		r := denseRules(t, n, "own", "together")
		tab := denseTable(t, r, 2)
		ix := tab.ix
		decisive := 0
		for i, m := range tab.margins {
			if m == 0 {
				continue
			}
			decisive++
			b, w, f, white := ix.state(ix.region(uint64(i)), uint64(i))
			if ix.legal(b, w, f) != 0 {
				t.Fatalf("%d points: %s (white %v) is not finished and its margin is %d half points", n, diagram(n, b, w, f), white, m)
			}
		}
		t.Logf("%d points: %d states, %d of them not draws, all finished", n, ix.total, decisive)
		if n > solveUpTo {
			continue
		}
		solved := 0
		eachState(ix, func(i, b, w, f uint64, white bool) {
			side := rules.Black
			if white {
				side = rules.White
			}
			pos, err := rules.ParseDiagram(r, diagram(n, b, w, f), side)
			if err != nil || pos.Over() {
				return
			}
			res, err := Solve(context.Background(), rules.NewGameFrom(pos), Options{MemoryMB: 256})
			if err != nil {
				t.Fatal(err)
			}
			if res.Value != 0 {
				t.Fatalf("%d points: %v: Solve gives %v", n, pos, res.Value)
			}
			solved++
		})
		if solved == 0 {
			t.Fatalf("%d points: no position solved", n)
		}
	}
}
