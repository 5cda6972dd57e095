package solve

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"alak/rules"
)

// denseGenericVariants are rule sets of the dense index's generic family
// (dense_generic.go): each single option of the rule lab (docs/rulelab.md)
// that it answers, and combinations of them. They join denseVariants, so
// every check of dense_test.go runs on them: the index against a brute
// force over every state (up to 8 points), the moves against the kernel
// (7), the predecessors against the successors (9), every state against
// the textbook retrograde analysis (8).
var denseGenericVariants = []denseVariant{
	{"alak", []string{"own", "illegal"}},
	{"alak", []string{"own", "removed"}},
	{"alak", []string{"ko", "simple"}},
	{"alak", []string{"score", "area"}},
	{"alak", []string{"own", "illegal", "ko", "simple", "edge", "off"}},
	{"alak", []string{"own", "removed", "ko", "none", "score", "area", "komi", "0.5"}},
	{"alak", []string{"own", "together"}},
	{"alak", []string{"own", "together", "edge", "off", "score", "area"}},
	{"alak", []string{"own", "together", "ko", "none", "komi", "-0.5"}},
}

// TestDenseGenericAgainstSolve: the result for the empty line (value, best
// moves, every move's value) of each generic variant is Solve's (method 1,
// retro.go, itself checked against the brute force on small boards, and
// here on up to 4 points, 3 without a ko rule or under own=together), with
// and without margins, up to 4 points (9 with ALAK_LONG=1, 7 under the
// race detector), and each
// principal variation keeps the value.
func TestDenseGenericAgainstSolve(t *testing.T) {
	t.Parallel()
	maxN := sweep(t, 4, 7, 9)
	if testing.Short() {
		maxN = min(maxN, 7)
	}
	for _, v := range denseGenericVariants {
		for n := 1; n <= maxN; n++ {
			g := newGame(t, v.preset, n, v.opts...)
			if g.Over() {
				// One point under own=illegal with edge capture: the only
				// placement is suicide, so the game is over at once (the
				// dense solver refuses a finished game; SolveLab asks Solve).
				if o := g.Outcome(); o.Margin != 0 || o.Reason != rules.NoMoves {
					t.Errorf("%v %d: over at the start with %v", v, n, o)
				}
				continue
			}
			if n <= 3 || n == 4 && g.Rules().Ko != rules.KoNone && g.Rules().Own != rules.OwnRemovedTogether {
				// (The brute force, memoised on the whole history, does not
				// finish 4 points without a ko rule, or under own=together,
				// in minutes.)
				t.Run(fmt.Sprintf("brute/%v/%d", v, n), func(t *testing.T) { agreesWithBrute(t, g, 64) })
			}
			want, err := Solve(context.Background(), g, Options{MemoryMB: 512})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range []DenseOptions{{Margins: true}, {Jobs: 2}} {
				got, _, err := DenseSolve(context.Background(), g, o)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%v %d (margins %v)", v, n, o.Margins)
				if got.Value != want.Value || !slices.Equal(got.Best, want.Best) || fmt.Sprint(got.Moves) != fmt.Sprint(want.Moves) {
					t.Errorf("%s: dense %v best %v moves %v; Solve %v best %v moves %v", name, got.Value, got.Best, got.Moves, want.Value, want.Best, want.Moves)
				}
				checkPV(t, name, g, got.PV, got.Value)
			}
		}
	}
}

// TestDenseGenericFinished: under own=illegal the finished states come
// from a scan of the index in chunks, by two workers: they are every state
// whose player to move has no legal placement, once each, with its margin.
func TestDenseGenericFinished(t *testing.T) {
	t.Parallel()
	for _, v := range denseGenericVariants {
		for n := 1; n <= 8; n++ {
			r := v.rules(t, n)
			if r.Own != rules.OwnIllegal {
				break
			}
			ix := newDindex(r)
			want := map[uint64]int32{}
			eachState(ix, func(i, b, w, f uint64, white bool) {
				if ix.legalFor(b, w, f, white) == 0 {
					want[i] = ix.margin2(b, w)
				}
			})
			d := &dsolver{ix: ix, ctx: context.Background(), jobs: 2}
			got := map[uint64]int32{}
			for _, s := range d.finishedStates() {
				if _, dup := got[s.i]; dup {
					t.Fatalf("%v %d: state %d found twice", v, n, s.i)
				}
				got[s.i] = s.m
			}
			if len(want) == 0 || !maps.Equal(got, want) {
				t.Errorf("%v %d: the scan found %d finished states, the index has %d", v, n, len(got), len(want))
			}
		}
	}
}

// TestDenseGenericRefused: the dense solver refuses the rules its index
// does not cover, with ErrUnsupported: filling the last liberty removing
// the chain together with the captures under simple ko (whose ko point
// can then be beside the point of the removed chain, a shape the gap
// descriptors do not take), superko, passing.
func TestDenseGenericRefused(t *testing.T) {
	t.Parallel()
	for _, opts := range [][]string{
		{"own", "together", "ko", "simple"},
		{"ko", "superko"},
		{"pass", "on"},
		{"score", "territory"},
	} {
		g := newGame(t, "alak", 5, opts...)
		if DenseApplies(g.Rules()) {
			t.Errorf("%v: DenseApplies", opts)
		}
		if _, _, err := DenseSolve(context.Background(), g, DenseOptions{}); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%v: %v, want ErrUnsupported", opts, err)
		}
	}
}
