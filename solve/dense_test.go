package solve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"sort"
	"testing"

	"alak/internal/testlong"
	"alak/rules"
)

// The dense solver (dense.go, dense_index.go) is checked against the
// kernel (its successors are rules.Position.Play's), against itself (its
// predecessors are the edges of its successors), against a plain
// retrograde analysis with counters over the same states (values of every
// state, reachable or not), and against the compact solver (compact.go,
// itself checked against retro.go and the brute force): every state the
// compact solver enumerates from the empty line has the same value.

// denseVariant is a rule set the dense solver handles: a preset and
// options.
type denseVariant struct {
	preset string
	opts   []string
}

func (v denseVariant) String() string { return fmt.Sprint(v.preset, v.opts) }

// rules returns the variant's rules on n points.
func (v denseVariant) rules(t testing.TB, n int) rules.Rules {
	t.Helper()
	return newGame(t, v.preset, n, v.opts...).Rules()
}

// denseVariants are the rule sets the dense solver handles: the alak
// preset and the variants of the compact solver, Alter Igo on a line
// (with and without edge captures), and the generic family's variants
// (dense_generic_test.go).
var denseVariants = func() []denseVariant {
	var vs []denseVariant
	for _, o := range compactVariants {
		vs = append(vs, denseVariant{"alak", o})
	}
	vs = append(vs, denseVariant{"alterigo", nil}, denseVariant{"alterigo", []string{"edge", "off"}})
	return append(vs, denseGenericVariants...)
}()

// denseRules returns the alak rules on n points with the options opts.
func denseRules(t testing.TB, n int, opts ...string) rules.Rules {
	t.Helper()
	return newGame(t, "alak", n, opts...).Rules()
}

// diagram writes the state (b, w, f) as rules.ParseDiagram reads it.
func diagram(n int, b, w, f uint64) string {
	d := make([]byte, n)
	for i := range d {
		switch {
		case b>>i&1 != 0:
			d[i] = 'x'
		case w>>i&1 != 0:
			d[i] = 'o'
		case f>>i&1 != 0:
			d[i] = '/'
		default:
			d[i] = '-'
		}
	}
	return string(d)
}

// eachState calls fn with every state of the index, in order.
func eachState(ix *dindex, fn func(i, b, w, f uint64, white bool)) {
	for r := range ix.regs {
		reg := &ix.regs[r]
		for i := reg.off; i < reg.off+reg.size; i++ {
			b, w, f, white := ix.state(reg, i)
			fn(i, b, w, f, white)
		}
	}
}

// TestDenseIndexRoundTrip: every number decodes to a state that encodes to
// the same number, and the numbers are exactly those of the states of the
// line up to mirror image: every board, either player to move, and as
// forbidden points none or a shape a capture leaves (found by brute force
// over every board and every set of empty points), a state and its mirror
// image having the same number and two other states different ones.
func TestDenseIndexRoundTrip(t *testing.T) {
	t.Parallel()
	for _, v := range denseVariants {
		for n := 1; n <= 8; n++ {
			r := v.rules(t, n)
			ix := newDindex(r)
			eachState(ix, func(i, b, w, f uint64, white bool) {
				if reg := ix.region(i); i < reg.off || i >= reg.off+reg.size {
					t.Fatalf("%d %v: state %d found in region at %d size %d", n, v, i, reg.off, reg.size)
				}
				j, ok := ix.index(b, w, f, white)
				if !ok || j != i {
					t.Fatalf("%d %v: state %d is %s (white %v), which indexes to %d, %v", n, v, i, diagram(n, b, w, f), white, j, ok)
				}
			})
			// Every state by brute force.
			geo := cgraph{g: newGeo(r)}
			var together map[[3]uint64][]uint64
			if r.Own == rules.OwnRemovedTogether && r.Ko == rules.KoCaptured {
				together = togetherForbids(n, r.EdgeCapture) // dense_gaps_test.go
			}
			seen := make([]bool, ix.total)
			canon := map[uint64]uint64{} // number -> a canonical state word
			for b := uint64(0); b < 1<<n; b++ {
				for w := uint64(0); w < 1<<n; w++ {
					if b&w != 0 {
						continue
					}
					for _, white := range []bool{false, true} {
						mover := b
						if !white {
							mover = w
						}
						fs := []uint64{0}
						switch {
						case together != nil:
							k := [3]uint64{b, w, 0}
							if white {
								k[2] = 1
							}
							fs = append(fs, together[k]...)
						case r.Ko == rules.KoCaptured:
							fs = geo.forbidCandidates(ix.mask&^(b|w), mover, nil)
						case r.Ko == rules.KoSimple: // single points only
							for _, f := range geo.forbidCandidates(ix.mask&^(b|w), mover, nil) {
								if bits.OnesCount64(f) == 1 {
									fs = append(fs, f)
								}
							}
						}
						for _, f := range fs {
							i, ok := ix.index(b, w, f, white)
							if !ok {
								t.Fatalf("%d %v: %s (white %v) has no number", n, v, diagram(n, b, w, f), white)
							}
							if m, ok := ix.index(ix.rev(b), ix.rev(w), ix.rev(f), white); !ok || m != i {
								t.Fatalf("%d %v: %s (white %v) is %d, its mirror image %d (%v)", n, v, diagram(n, b, w, f), white, i, m, ok)
							}
							k, _ := geo.g.canon(b, w, f, white)
							if old, dup := canon[i]; dup && old != k {
								t.Fatalf("%d %v: %s (white %v) and another state are both %d", n, v, diagram(n, b, w, f), white, i)
							}
							canon[i] = k
							seen[i] = true
						}
					}
				}
			}
			switch {
			case together != nil:
				// Under own=together a descriptor's window cannot say
				// whether the placed stone's chain, which runs on into
				// the free points, was closed on its far side (and so
				// removed), so the index also numbers states no
				// placement leaves (dense_gaps.go): more states, but
				// every region holds states a placement leaves.
				hit := make([]bool, len(ix.regs))
				for i := range canon {
					hit[sort.Search(len(ix.regs), func(k int) bool { return ix.regs[k].off > i })-1] = true
				}
				if k := slices.Index(hit, false); k >= 0 || len(canon) > int(ix.total) {
					t.Errorf("%d %v: %d states up to mirror image by brute force, the index has %d; region %d holds none of them", n, v, len(canon), ix.total, k)
				}
			case len(canon) != int(ix.total):
				t.Errorf("%d %v: %d states up to mirror image by brute force, the index has %d", n, v, len(canon), ix.total)
			}
		}
	}
}

// TestDenseIndexCounts pins the number of states of the alak preset's index
// (the figures of docs/results.md), counted by brute force up to 8 points
// in TestDenseIndexRoundTrip.
func TestDenseIndexCounts(t *testing.T) {
	t.Parallel()
	want := map[int]uint64{1: 6, 8: 11394, 11: 340424, 16: 96464198, 19: 2830394080, 20: 8717029896, 21: 26829085380, 22: 82520770832}
	for n, c := range want {
		if got := newDindex(denseRules(t, n)).total; got != c {
			t.Errorf("%d points: %d states, want %d", n, got, c)
		}
	}
}

// kernelPosition returns the kernel's position of a state.
func kernelPosition(t testing.TB, r rules.Rules, b, w, f uint64, white bool) rules.Position {
	t.Helper()
	side := rules.Black
	if white {
		side = rules.White
	}
	pos, err := rules.ParseDiagram(r, diagram(r.Width, b, w, f), side)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// simpleKoPosition returns the kernel's position of a state with a ko
// point f under ko=simple: a diagram marks the stone just played by a
// capital letter, which the kernel needs to see that retaking on f would
// bring back the board before it; false when neither neighbour of f the
// previous mover holds makes f the ko point.
func simpleKoPosition(r rules.Rules, b, w, f uint64, white bool) (rules.Position, bool) {
	side, mover, capital := rules.Black, w, byte('O')
	if white {
		side, mover, capital = rules.White, b, 'X'
	}
	for _, q := range []uint64{f >> 1, f << 1} {
		if q&mover == 0 {
			continue
		}
		d := []byte(diagram(r.Width, b, w, f))
		d[bits.TrailingZeros64(q)] = capital
		pos, err := rules.ParseDiagram(r, string(d), side)
		if _, _, pf, _ := pos.Line(); err == nil && pf == f {
			return pos, true
		}
	}
	return rules.Position{}, false
}

// TestDenseMovesAgainstKernel: in every state of up to 7 points, the
// legal points are the kernel's, the game is over exactly when the kernel
// says so (with the kernel's margin), and each placement leads to the
// number of the kernel's position after it.
func TestDenseMovesAgainstKernel(t *testing.T) {
	t.Parallel()
	for _, v := range denseVariants {
		for n := 1; n <= 7; n++ {
			r := v.rules(t, n)
			ix := newDindex(r)
			eachState(ix, func(i, b, w, f uint64, white bool) {
				side := rules.Black
				if white {
					side = rules.White
				}
				pos, err := rules.ParseDiagram(r, diagram(r.Width, b, w, f), side)
				if r.Ko == rules.KoSimple && f != 0 {
					var ok bool
					if pos, ok = simpleKoPosition(r, b, w, f, white); !ok {
						return // no placement leaves this ko point: not a position of these rules
					}
					err = nil
				}
				if err != nil {
					if v.preset == "alterigo" || r.Own != rules.OwnStays {
						return // a chain with no liberty: not a position of these rules
					}
					t.Fatal(err)
				}
				var want uint64
				for _, m := range pos.LegalMoves(nil) {
					want |= 1 << m.Point()
				}
				pts := ix.legalFor(b, w, f, white)
				if pts != want || (pts == 0) != pos.Over() {
					t.Fatalf("%d %v: %v: legal %b, kernel %b", n, v, pos, pts, want)
				}
				if pos.Over() && half(pos.Outcome().Margin) != ix.margin2(b, w) {
					t.Fatalf("%d %v: %v: margin %d half points, kernel %v", n, v, pos, ix.margin2(b, w), pos.Outcome().Margin)
				}
				o := ix.open(b, w)
				for ; pts != 0; pts &= pts - 1 {
					p := bits.TrailingZeros64(pts)
					c, err := pos.Play(rules.Place(p))
					if err != nil {
						t.Fatal(err)
					}
					got := ix.child(b, w, o, white, p)
					if o := c.Outcome(); o.Reason == rules.Unchanged || got == denseLoss {
						if o.Reason != rules.Unchanged || got != denseLoss || half(o.Margin) != loss2(white) {
							t.Fatalf("%d %v: %v then %d: child %d, kernel %v (%v)", n, v, pos, p+1, got, c, o)
						}
						continue
					}
					cb, cw, cf, _ := c.Line()
					j, ok := ix.index(cb, cw, cf, c.ToMove() == rules.White)
					if !ok || got != j {
						t.Fatalf("%d %v: %v then %d: child %d, kernel %v (%d, %v)", n, v, pos, p+1, got, c, j, ok)
					}
				}
			})
		}
	}
}

// densePredsAgree checks the predecessors of every state against the
// edges: the set of its predecessors is that of the states with a
// placement leading to it (up to mirror image, so a state with two
// placements leading to one state, or to it and its mirror image, is
// listed once, or twice, as the mirror images of the state the placements
// lead to are not listed apart; the solver keeps no counters).
func densePredsAgree(t *testing.T, r rules.Rules) {
	t.Helper()
	ix := newDindex(r)
	want := make([][]uint64, ix.total)
	eachState(ix, func(i, b, w, f uint64, white bool) {
		o := ix.open(b, w)
		for pts := ix.legalFor(b, w, f, white); pts != 0; pts &= pts - 1 {
			if c := ix.child(b, w, o, white, bits.TrailingZeros64(pts)); c != denseLoss {
				want[c] = append(want[c], i)
			}
		}
	})
	var buf []dstate
	eachState(ix, func(i, b, w, f uint64, white bool) {
		buf = ix.preds(b, w, f, white, buf[:0])
		var got []uint64
		for _, q := range buf {
			if slices.Contains(got, q.i) {
				continue
			}
			// The state given with each predecessor is the one numbered.
			if j, ok := ix.index(q.b, q.w, q.f, !white); !ok || j != q.i {
				_ = j
				t.Fatalf("%v: %s (white %v): predecessor %d given as %s, which is %d (%v)", r, diagram(ix.n, b, w, f), white, q.i, diagram(ix.n, q.b, q.w, q.f), j, ok)
			}
			got = append(got, q.i)
		}
		slices.Sort(got)
		slices.Sort(want[i])
		want[i] = slices.Compact(want[i])
		if !slices.Equal(got, want[i]) {
			t.Fatalf("%v: %s (white %v): predecessors %v, edges from %v", r, diagram(ix.n, b, w, f), white, got, want[i])
		}
	})
}

// TestDensePredecessors: predecessors against successors on every state
// of up to 8 points (9 with ALAK_LONG=1).
func TestDensePredecessors(t *testing.T) {
	t.Parallel()
	for _, v := range denseVariants {
		for n := 1; n <= sweep(t, 8, 9, 9); n++ {
			densePredsAgree(t, v.rules(t, n))
		}
	}
}

// plainRetro solves every state of the index by the textbook retrograde
// analysis (successor lists, predecessor lists, a counter per state, one
// attractor per threshold), as retro.go does over positions: the values
// the dense solver must give, every state included. A move that loses at
// once (Alter Igo's unchanged board) is an outcome, not a state.
func plainRetro(ix *dindex) []int32 {
	succ := make([][]uint64, ix.total)
	pred := make([][]uint64, ix.total)
	term := make([]int32, ix.total)
	over := make([]bool, ix.total)
	losses := make([]int, ix.total)
	eachState(ix, func(i, b, w, f uint64, white bool) {
		if ix.kind == denseSlide { // dense_slide_test.go
			term[i], over[i], succ[i] = slideEdges(ix, b, w, white)
			for _, c := range succ[i] {
				pred[c] = append(pred[c], i)
			}
			return
		}
		pts := ix.legalFor(b, w, f, white)
		if pts == 0 {
			over[i], term[i] = true, ix.margin2(b, w)
		}
		o := ix.open(b, w)
		for ; pts != 0; pts &= pts - 1 {
			c := ix.child(b, w, o, white, bits.TrailingZeros64(pts))
			if c == denseLoss {
				losses[i]++
				continue
			}
			succ[i] = append(succ[i], c)
			pred[c] = append(pred[c], i)
		}
	})
	white := make([]bool, ix.total)
	eachState(ix, func(i, _, _, _ uint64, wh bool) { white[i] = wh })
	ts, _ := ix.thresholds()
	value := make([]int32, ix.total)
	for k := range value {
		value[k] = ts[0]
	}
	for _, t := range ts[1:] {
		attackerWhite := t <= 0 // Black attacks for t > 0, White for t <= 0
		in := make([]bool, ix.total)
		cnt := make([]int, ix.total)
		var queue []uint64
		reaches := func(v int32) bool { return !attackerWhite && v >= t || attackerWhite && v < t }
		for i := range in {
			cnt[i] = len(succ[i]) + losses[i]
			if over[i] && reaches(term[i]) {
				in[i] = true
				queue = append(queue, uint64(i))
			}
			if losses[i] > 0 && reaches(loss2(white[i])) {
				if cnt[i] -= losses[i]; white[i] == attackerWhite || cnt[i] == 0 {
					in[i] = true
					queue = append(queue, uint64(i))
				}
			}
		}
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			for _, p := range pred[c] {
				if in[p] {
					continue
				}
				if white[p] == attackerWhite {
					in[p] = true
					queue = append(queue, p)
				} else if cnt[p]--; cnt[p] == 0 {
					in[p] = true
					queue = append(queue, p)
				}
			}
		}
		for i := range in {
			if in[i] != attackerWhite {
				value[i] = t
			}
		}
	}
	return value
}

// denseTable solves every state of the rules r and returns the table.
func denseTable(t testing.TB, r rules.Rules, jobs int) *DenseTable {
	t.Helper()
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	_, tab, err := DenseSolve(context.Background(), g, DenseOptions{Jobs: jobs, Margins: true})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestDenseAgainstPlainRetro: every state of up to 8 points (7 with the
// race detector), reachable or not, with one and with two jobs.
func TestDenseAgainstPlainRetro(t *testing.T) {
	t.Parallel()
	maxN := 8
	if raceEnabled {
		maxN = 6
	}
	for _, v := range denseVariants {
		for n := 1; n <= maxN; n++ {
			r := v.rules(t, n)
			if g, _ := rules.NewGame(r); g.Over() {
				continue // one point under own=illegal: nothing to solve
			}
			want := plainRetro(newDindex(r))
			for _, jobs := range []int{1, 2} {
				tab := denseTable(t, r, jobs)
				for i, wv := range want {
					if int32(tab.margins[i]) != wv {
						b, w, f, white := tab.ix.state(tab.ix.region(uint64(i)), uint64(i))
						t.Fatalf("%d %v jobs %d: %s (white %v): dense %d, plain %d", n, v, jobs, diagram(n, b, w, f), white, tab.margins[i], wv)
					}
				}
			}
		}
	}
}

// denseAgreesWithCompact compares every state the compact solver
// enumerates from the empty line of r (and its mirror image) with the
// dense table.
func denseAgreesWithCompact(t *testing.T, r rules.Rules, tab *DenseTable) {
	t.Helper()
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	s := newSearcher(context.Background(), r, Options{MemoryMB: 8000})
	cg, err := s.solveCompact(g.Position())
	if err != nil {
		t.Fatal(err)
	}
	for i := range uint64(cg.t.size()) {
		k := cg.t.key(i)
		if k == 0 {
			continue
		}
		want, _ := cg.value(k)
		for _, kk := range []uint64{k, cg.g.mirror(k)} {
			b, w, f, white := cg.g.unword(kk)
			j, ok := tab.ix.index(b, w, f, white)
			if !ok || int32(tab.margins[j]) != want {
				t.Fatalf("%v: %s (white %v): dense %d (%v), compact %d", r, diagram(r.Width, b, w, f), white, tab.margins[j], ok, want)
			}
		}
	}
}

// denseCompare is the largest alak line TestDenseAgainstCompact checks:
// `go test ./solve -run DenseAgainstCompact -dense.compare 14` is the
// documented run of docs/solver-dense.md.
var denseCompare = flag.Int("dense.compare", 11, "TestDenseAgainstCompact: check every alak line up to this many points")

// TestDenseAgainstCompact: every state reachable from the empty line, up
// to 8 points (11 with ALAK_LONG=1, 9 under the race detector, or
// -dense.compare N), the variants up to 8.
func TestDenseAgainstCompact(t *testing.T) {
	t.Parallel()
	maxN := sweep(t, 8, 9, *denseCompare)
	if testing.Short() {
		maxN = min(maxN, 9)
	}
	if flagGiven("dense.compare") {
		maxN = *denseCompare
	}
	for n := 1; n <= maxN; n++ {
		r := denseRules(t, n)
		denseAgreesWithCompact(t, r, denseTable(t, r, 2))
	}
	for _, v := range denseVariants[1:] {
		if v.preset != "alak" {
			continue
		}
		for n := 1; n <= 8; n++ {
			r := v.rules(t, n)
			if !newSearcher(context.Background(), r, Options{}).compactEligible() {
				break // the generic family: against Solve in TestDenseGenericAgainstSolve
			}
			denseAgreesWithCompact(t, r, denseTable(t, r, 1))
		}
	}
}

// TestDenseSolveAgainstSolve: the result for the empty line (value, best
// moves, every move's value) is Solve's up to 7 points (10 with
// ALAK_LONG=1, 8 under the race detector), with and without margins (the
// first pass's answer in memory and in a file), and the principal
// variation keeps the value at every ply.
func TestDenseSolveAgainstSolve(t *testing.T) {
	t.Parallel()
	maxN := sweep(t, 7, 8, 10)
	for n := 1; n <= maxN; n++ {
		g := newGame(t, "alak", n)
		want, err := Solve(context.Background(), g, Options{MemoryMB: 256})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []DenseOptions{{Margins: true}, {}, {Spill: true, SpillDir: t.TempDir()}} {
			o.Jobs = 2
			margins := o.Margins
			got, tab, err := DenseSolve(context.Background(), g, o)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("alak %d (margins %v, spill %v)", n, margins, o.Spill)
			if got.Value != want.Value || !slices.Equal(got.Best, want.Best) || fmt.Sprint(got.Moves) != fmt.Sprint(want.Moves) {
				t.Errorf("%s: dense %v best %v moves %v; Solve %v best %v moves %v", name, got.Value, got.Best, got.Moves, want.Value, want.Best, want.Moves)
			}
			if margins != (tab != nil) {
				t.Errorf("%s: table %v", name, tab)
			}
			checkPV(t, name, g, got.PV, got.Value)
		}
	}
}

// checkPV replays a principal variation through the kernel and checks with
// Solve that every position on it has the value v.
func checkPV(t *testing.T, name string, g *rules.Game, pv []rules.Move, v float64) {
	t.Helper()
	h := rules.NewGameFrom(g.Position())
	if len(pv) == 0 && !h.Over() {
		t.Errorf("%s: no principal variation", name)
	}
	for k, m := range pv {
		if err := h.Play(m); err != nil {
			t.Fatalf("%s: the principal variation %v: ply %d: %v", name, pv, k+1, err)
		}
		if h.Over() {
			if o := h.Outcome(); o.Margin != v {
				t.Errorf("%s: the principal variation %v ends %v, not %v", name, pv, o, v)
			}
			break
		}
		res, err := Solve(context.Background(), rules.NewGameFrom(h.Position()), Options{MemoryMB: 64})
		if err != nil {
			t.Fatal(err)
		}
		if res.Value != v {
			t.Errorf("%s: the principal variation %v: after ply %d the value is %v, not %v", name, pv, k+1, res.Value, v)
		}
	}
}

// benchDense solves every state of preset on n points (every state's
// margin kept, or the value and openings only) with jobs goroutines, and
// reports states per second.
func benchDense(b *testing.B, preset string, n, jobs int, margins bool) {
	g := newGame(b, preset, n)
	var states uint64
	for b.Loop() {
		res, _, err := DenseSolve(context.Background(), g, DenseOptions{Jobs: jobs, Margins: margins})
		if err != nil {
			b.Fatal(err)
		}
		states += uint64(res.Nodes)
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(states)/float64(b.N), "states/op")
}

// The dense solver's benchmarks (docs/results.md, "Speed"): every state's
// margin of alak on 11, 14 and 16 points with one goroutine and on 16
// with two (the target: under 8 s), the value and openings of alak on 19
// points with two (the target: under 2 minutes; 0.9 GB), and Alter Igo on
// a line of 13 points.
func BenchmarkDenseAlak11(b *testing.B)      { benchDense(b, "alak", 11, 1, true) }
func BenchmarkDenseAlak14(b *testing.B)      { benchDense(b, "alak", 14, 1, true) }
func BenchmarkDenseAlak16(b *testing.B)      { benchDense(b, "alak", 16, 1, true) }
func BenchmarkDenseAlak16Jobs2(b *testing.B) { benchDense(b, "alak", 16, 2, true) }
func BenchmarkDenseAlak19Value(b *testing.B) { benchDense(b, "alak", 19, 2, false) }
func BenchmarkDenseAlterIgo13(b *testing.B)  { benchDense(b, "alterigo", 13, 1, true) }

// TestDenseTerminals: the finished states terminals enumerates, margin by
// margin, are every finished state of the index with that margin (but
// under own=illegal, where a scan finds them: TestDenseGenericFinished).
func TestDenseTerminals(t *testing.T) {
	t.Parallel()
	for _, v := range denseVariants {
		for n := 1; n <= 8; n++ {
			if v.rules(t, n).Own == rules.OwnIllegal {
				break
			}
			ix := newDindex(v.rules(t, n))
			want := map[uint64]int32{}
			eachState(ix, func(i, b, w, f uint64, white bool) {
				if ix.legal(b, w, f) == 0 {
					want[i] = ix.margin2(b, w)
				}
			})
			got := map[uint64]int32{}
			ts, _ := ix.thresholds()
			for _, m := range ts {
				for r := range ix.regs {
					ix.terminals(&ix.regs[r], m, m, func(s dstate) {
						if ix.legal(s.b, s.w, s.f) != 0 || ix.margin2(s.b, s.w) != m {
							t.Fatalf("%d %v: terminals gave %s, margin %d", n, v, diagram(n, s.b, s.w, s.f), m)
						}
						got[s.i] = m
					})
				}
			}
			if !maps.Equal(got, want) {
				t.Errorf("%d %v: %d finished states enumerated, %d in the index", n, v, len(got), len(want))
			}
		}
	}
}

// TestDenseCancelAndLimits: a cancelled context stops a dense solve with
// the context's error, from the start or from the progress callback (which
// a solve of a second or more calls); the memory bound is refused
// beforehand; a history that used up a position, a set-up position and
// other rules are refused.
func TestDenseCancelAndLimits(t *testing.T) {
	t.Parallel()
	g := newGame(t, "alak", 13)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := DenseSolve(ctx, g, DenseOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if !testing.Short() && !raceEnabled {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		calls := 0
		_, _, err := DenseSolve(ctx, newGame(t, "alak", 15), DenseOptions{Jobs: 2, Margins: true, Progress: func(p Progress) {
			calls++
			if p.Nodes <= 0 || p.Elapsed <= 0 {
				t.Errorf("progress %+v", p)
			}
			cancel()
		}})
		if !errors.Is(err, context.Canceled) || calls == 0 {
			t.Errorf("cancelled from the progress callback: %v after %d calls", err, calls)
		}
	}
	if _, _, err := DenseSolve(context.Background(), g, DenseOptions{MemoryMB: 1, Margins: true}); !errors.Is(err, ErrMemory) {
		t.Errorf("1 MB: %v, want ErrMemory", err)
	}
	h := newGame(t, "alak", 4, "ko", "none", "repetition", "2")
	for _, m := range []int{0, 3, 1, 2} {
		if err := h.Play(rules.Place(m)); err != nil {
			t.Fatal(err)
		}
	}
	pos, err := rules.ParseDiagram(g.Rules(), "x/-o-/-------", rules.Black)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		g    *rules.Game
		want error
	}{
		{"a set-up position", rules.NewGameFrom(pos), ErrUnsupported},
		{"tromp-taylor", newGame(t, "tromp-taylor", 5), ErrUnsupported},
		{"a line of 25 points", newGame(t, "alak", 25), ErrUnsupported},
		{"a used-up earlier position", h, ErrDenseHistory},
	} {
		if _, _, err := DenseSolve(context.Background(), c.g, DenseOptions{}); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestDenseAlterIgo: Alter Igo on a line. The result for the empty line
// (value, best moves, every move's value) is Solve's up to 7 points (9
// with ALAK_LONG=1; the alterigo table of docs/results.md), with and
// without edge captures (8 points without them), and
// each principal variation keeps the value. Positions inside the game are
// checked by one-sided proofs (Prove, which plays the real game with its
// history and shares nothing with either solver): on 6 points, every
// position of retro.go's state graph from the empty line whose value
// there differs from the dense solver's, and every 16th of the others
// (every 48th without ALAK_LONG=1). They differ because retro.go keys the position after a placement that
// leaves the board unchanged (a finished game, the mover lost) like the
// live position with that board and player to move, so one stands for
// both (docs/solver-dense.md, method 1b, "Other presets"); the proofs side with
// the dense solver, where such a placement is an outcome, not a state.
func TestDenseAlterIgo(t *testing.T) {
	t.Parallel()
	for n := 1; n <= sweep(t, 6, 9, 9); n++ {
		g := newGame(t, "alterigo", n)
		want, err := Solve(context.Background(), g, Options{MemoryMB: 64})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := DenseSolve(context.Background(), g, DenseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Value != want.Value || !slices.Equal(got.Best, want.Best) || !maps.Equal(got.Moves, want.Moves) {
			t.Errorf("alterigo %d: dense %v best %v moves %v; Solve %v best %v moves %v", n, got.Value, got.Best, got.Moves, want.Value, want.Best, want.Moves)
		}
		// The principal variation is proved up to 4 points (7, nine
		// tenths of this test's time, with ALAK_LONG=1).
		if n <= sweep(t, 4, 7, 7) && !testing.Short() {
			checkPVProved(t, fmt.Sprintf("alterigo %d", n), g, got.PV, got.Value)
		}
	}
	if testing.Short() {
		return
	}
	// Without edge captures Solve erred from 8 points on before its keys
	// were fixed (the openings 2 and 7 of 8 points, 2 and 8 of 9, are
	// worth 0, not -1): Solve agrees, and every opening's value is proved
	// (up to 7 points, 8 with ALAK_LONG=1).
	for n := 1; n <= 8; n++ {
		g := newGame(t, "alterigo", n, "edge", "off")
		got, _, err := DenseSolve(context.Background(), g, DenseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := Solve(context.Background(), g, Options{MemoryMB: 64})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got.Moves, want.Moves) {
			t.Errorf("alterigo %d edge=off: dense moves %v; Solve %v", n, got.Moves, want.Moves)
		}
		for m, v := range got.Moves {
			h := g.Clone()
			if err := h.Play(m); err != nil {
				t.Fatal(err)
			}
			if !h.Over() && n <= sweep(t, 7, 8, 8) {
				proveValue(t, h, v)
			}
		}
	}
	// retro.go once keyed a finished position (a placement that leaves the
	// board unchanged) like the live one with the same board, and 28 of
	// the 276 live positions of 6 points took wrong values (docs/solver-dense.md).
	// Now every live position of its graph has the dense solver's value,
	// with edge captures and without (up to 7 points, 9 with ALAK_LONG=1);
	// a sample of 6 points is proved: every 16th position of its graph with
	// ALAK_LONG=1, every 48th without (nine tenths of this test's time
	// went to the proofs of every 16th).
	every := testlong.Size(t, 48, 16)
	for _, edge := range []string{"on", "off"} {
		for n := 1; n <= sweep(t, 7, 9, 9); n++ {
			g := newGame(t, "alterigo", n, "edge", edge)
			rg, err := newSearcher(context.Background(), g.Rules(), Options{MemoryMB: 256}).solveGraph(g.Position())
			if err != nil {
				t.Fatal(err)
			}
			tab := denseTable(t, g.Rules(), 2)
			live, differ := 0, 0
			for i, p := range rg.pos {
				if p.Over() {
					continue
				}
				live++
				v, ok := tab.Lookup(p)
				if !ok {
					t.Fatalf("%v: no dense value", p)
				}
				if old := float64(rg.value[i]) / 2; old != v {
					differ++
					if differ <= 3 {
						t.Errorf("alterigo %d edge=%s: %v worth %v by retro.go, %v by the dense solver", n, edge, p, old, v)
					}
				}
				if n == 6 && edge == "on" && i%every == 0 {
					b, w, _, _ := p.Line()
					q, err := rules.ParseDiagram(g.Rules(), diagram(6, b, w, 0), p.ToMove())
					if err != nil {
						t.Fatal(err)
					}
					proveValue(t, rules.NewGameFrom(q), v)
				}
			}
			if differ > 0 || live == 0 {
				t.Errorf("alterigo %d edge=%s: %d of %d live positions differ", n, edge, differ, live)
			}
		}
	}
}

// proveValue checks with one-sided proofs that the value of g's position
// is v (Alter Igo: 1, 0 or -1).
func proveValue(t *testing.T, g *rules.Game, v float64) {
	t.Helper()
	goals := []struct {
		who  rules.Color
		draw bool
	}{{rules.Black, true}, {rules.White, true}} // a draw: both hold it
	switch {
	case v > 0:
		goals = goals[:1]
		goals[0].draw = false
	case v < 0:
		goals = goals[1:]
		goals[0].draw = false
	}
	for _, goal := range goals {
		p, err := Prove(context.Background(), g, goal.who, ProveOptions{Draw: goal.draw, Depth: 60})
		if err != nil {
			t.Fatal(err)
		}
		if !p.Proved {
			t.Errorf("%v (%v to move), dense value %v: %v cannot force a win (draw %v) within 60 plies", g.Position(), g.Position().ToMove(), v, goal.who, goal.draw)
		}
	}
}

// checkPVProved replays a principal variation through the kernel and
// checks with one-sided proofs that every position on it has the value v.
func checkPVProved(t *testing.T, name string, g *rules.Game, pv []rules.Move, v float64) {
	t.Helper()
	h := g.Clone()
	for k, m := range pv {
		if err := h.Play(m); err != nil {
			t.Fatalf("%s: the principal variation %v: ply %d: %v", name, pv, k+1, err)
		}
		if h.Over() {
			if o := h.Outcome(); o.Margin != v {
				t.Errorf("%s: the principal variation %v ends %v, not %v", name, pv, o, v)
			}
			return
		}
		proveValue(t, rules.NewGameFrom(h.Position()), v)
	}
}
