package solve

import (
	"context"
	"fmt"
	"maps"
	"math/bits"
	"path/filepath"
	"slices"
	"testing"

	"alak/internal/testlong"
	"alak/rules"
)

// The dense solver on the sliding games (dense_slide.go), checked as on
// the placement games: its index against a brute force, its moves and
// finished states against the kernel, its predecessors against its
// successors, every state's value against the textbook retrograde analysis
// (plainRetro), and every position reachable from the start against
// method 1 (retro.go), which enumerates the positions with the kernel.

// slideVariants are the sliding rule sets checked: the two presets, and
// their options (edge captures, the other self-capture rules, the minimum
// of pieces, komi).
var slideVariants = []denseVariant{
	{"dewdney", nil},
	{"golf", nil},
	{"dewdney", []string{"edge", "on"}},
	{"golf", []string{"edge", "on"}},
	{"dewdney", []string{"selfcapture", "run"}},
	{"golf", []string{"selfcapture", "run", "edge", "on"}},
	{"dewdney", []string{"min", "0", "komi", "0.5"}},
	{"golf", []string{"min", "1"}},
	{"golf", []string{"min", "3", "komi", "-2"}},
}

// slideMoves returns the slides of the player to move (White if white) on
// the board (b, w), found as the solver finds them: each piece to the
// nearest empty slot on either side.
func slideMoves(ix *dindex, b, w uint64, white bool) []rules.Move {
	me := b
	if white {
		me = w
	}
	var ms []rules.Move
	for ps := me; ps != 0; ps &= ps - 1 {
		from := bits.TrailingZeros64(ps)
		l, r := ix.ln.SlideTargets(ix.mask&^(b|w), from)
		for _, to := range []int{l, r} {
			if to >= 0 {
				ms = append(ms, rules.Slide(from, to))
			}
		}
	}
	return ms
}

// slideEdges gives plainRetro a state of a sliding game: its margin and
// whether it is finished, or its successors.
func slideEdges(ix *dindex, b, w uint64, white bool) (int32, bool, []uint64) {
	if m, over := ix.slideOver(b, w, white); over {
		return m, true, nil
	}
	o := ix.open(b, w)
	var succ []uint64
	for _, m := range slideMoves(ix, b, w, white) {
		succ = append(succ, ix.slideSucc(b, w, o, white, m.From(), m.To()))
	}
	return 0, false, succ
}

// TestDenseSlideIndex: every board of the line, either player to move,
// has a number, its mirror image the same one and any other state another,
// and every number is a state, up to 8 slots.
func TestDenseSlideIndex(t *testing.T) {
	t.Parallel()
	for _, v := range slideVariants[:2] {
		for n := 1; n <= 8; n++ {
			r := v.rules(t, n)
			ix := newDindex(r)
			if ix.kind != denseSlide {
				t.Fatalf("%v on %d slots: kind %d", v, n, ix.kind)
			}
			eachState(ix, func(i, b, w, f uint64, white bool) {
				if j, ok := ix.index(b, w, f, white); f != 0 || !ok || j != i {
					t.Fatalf("%v %d: state %d is %s, which indexes to %d (%v)", v, n, i, diagram(n, b, w, f), j, ok)
				}
			})
			owner := map[uint64][3]uint64{}
			for b := range uint64(1) << n {
				for w := range uint64(1) << n {
					if b&w != 0 {
						continue
					}
					for side, white := range []bool{false, true} {
						i, ok := ix.index(b, w, 0, white)
						m, mok := ix.index(ix.rev(b), ix.rev(w), 0, white)
						if !ok || !mok || m != i || i >= ix.total {
							t.Fatalf("%v %d: %s (white %v) is %d (%v), its mirror image %d (%v)", v, n, diagram(n, b, w, 0), white, i, ok, m, mok)
						}
						k := [3]uint64{b, w, uint64(side)} // the state, or its mirror image if smaller
						if mk := [3]uint64{ix.rev(b), ix.rev(w), uint64(side)}; mk[0] < k[0] || mk[0] == k[0] && mk[1] < k[1] {
							k = mk
						}
						if old, dup := owner[i]; dup && old != k {
							t.Fatalf("%v %d: %s (white %v) and another state are both %d", v, n, diagram(n, b, w, 0), white, i)
						}
						owner[i] = k
					}
				}
			}
			if len(owner) != int(ix.total) {
				t.Errorf("%v %d: %d states up to mirror image, the index has %d", v, n, len(owner), ix.total)
			}
		}
	}
}

// TestDenseSlideMoves: in every state of up to 7 slots, the game is over
// exactly when the kernel says so, with the kernel's margin; the slides
// are the kernel's legal moves; and each leads to the number of the
// kernel's position after it, which is finished, with its margin, exactly
// when the kernel's is.
func TestDenseSlideMoves(t *testing.T) {
	t.Parallel()
	for _, v := range slideVariants {
		for n := 1; n <= 7; n++ {
			r := v.rules(t, n)
			ix := newDindex(r)
			eachState(ix, func(i, b, w, f uint64, white bool) {
				side := rules.Black
				if white {
					side = rules.White
				}
				pos, err := rules.ParseDiagram(r, diagram(n, b, w, 0), side)
				if err != nil {
					t.Fatalf("%v %d: %s: %v", v, n, diagram(n, b, w, 0), err)
				}
				m, over := ix.slideOver(b, w, white)
				// A set-up with both sides short was not reached by a move:
				// the kernel calls it a draw, the graph a win of the player
				// who moved last (checked on the successors below).
				both := bits.OnesCount64(b) < r.MinPieces && bits.OnesCount64(w) < r.MinPieces
				if over != pos.Over() || over && !both && m != half(pos.Outcome().Margin) {
					t.Fatalf("%v %d: %v: over %v margin %d, kernel %v", v, n, pos, over, m, pos.Outcome())
				}
				if over {
					return
				}
				want := pos.LegalMoves(nil)
				if got := slideMoves(ix, b, w, white); !slices.Equal(got, want) {
					t.Fatalf("%v %d: %v: slides %v, kernel %v", v, n, pos, got, want)
				}
				o := ix.open(b, w)
				for _, mv := range want {
					c, err := pos.Play(mv)
					if err != nil {
						t.Fatal(err)
					}
					cb, cw, _, _ := c.Line()
					j, ok := ix.index(cb, cw, 0, !white)
					if got := ix.slideSucc(b, w, o, white, mv.From(), mv.To()); !ok || got != j {
						t.Fatalf("%v %d: %v then %v: successor %d, kernel %v (%d, %v)", v, n, pos, mv, got, c, j, ok)
					}
					cm, cover := ix.slideOver(cb, cw, !white)
					if cover != c.Over() || cover && cm != half(c.Outcome().Margin) {
						t.Fatalf("%v %d: %v then %v: over %v margin %d, kernel %v", v, n, pos, mv, cover, cm, c.Outcome())
					}
				}
			})
		}
	}
}

// TestDenseSlidePredecessors: on every state of up to 9 slots (8 without
// ALAK_LONG=1), the predecessors are the states with a slide leading to it
// (up to mirror image, as densePredsAgree compares them), each given with
// its board.
func TestDenseSlidePredecessors(t *testing.T) {
	t.Parallel()
	for _, v := range slideVariants {
		for n := 1; n <= testlong.Size(t, 8, 9); n++ {
			r := v.rules(t, n)
			ix := newDindex(r)
			want := make([][]uint64, ix.total)
			eachState(ix, func(i, b, w, _ uint64, white bool) {
				_, _, succ := slideEdges(ix, b, w, white)
				for _, c := range succ {
					want[c] = append(want[c], i)
				}
			})
			var buf []dstate
			eachState(ix, func(i, b, w, _ uint64, white bool) {
				buf = ix.preds(b, w, 0, white, buf[:0])
				var got []uint64
				for _, q := range buf {
					if j, ok := ix.index(q.b, q.w, q.f, !white); !ok || j != q.i {
						t.Fatalf("%v %d: %s (white %v): predecessor %d given as %s, which is %d (%v)", v, n, diagram(n, b, w, 0), white, q.i, diagram(n, q.b, q.w, q.f), j, ok)
					}
					got = append(got, q.i)
				}
				slices.Sort(got)
				got = slices.Compact(got)
				slices.Sort(want[i])
				want[i] = slices.Compact(want[i])
				if !slices.Equal(got, want[i]) {
					t.Fatalf("%v %d: %s (white %v): predecessors %v, edges from %v", v, n, diagram(n, b, w, 0), white, got, want[i])
				}
			})
		}
	}
}

// TestDenseSlideAgainstPlainRetro: every state of up to 8 slots (6 with
// the race detector), reachable or not, has the value of the textbook
// retrograde analysis, with one and with two jobs.
func TestDenseSlideAgainstPlainRetro(t *testing.T) {
	t.Parallel()
	maxN := 8
	if raceEnabled {
		maxN = 6
	}
	for _, v := range slideVariants {
		for n := 1; n <= maxN; n++ {
			r := v.rules(t, n)
			want := plainRetro(newDindex(r))
			for _, jobs := range []int{1, 2} {
				ix := newDindex(r)
				d := &dsolver{ix: ix, ctx: context.Background(), jobs: jobs, margin: make([]int8, ix.total)}
				d.bm = make([]uint64, denseWords(ix))
				d.setAttacker(false)
				d.summary = make([]uint64, (d.words()+denseBlock*64-1)/(denseBlock*64))
				if err := d.pass(false, true, nil); err != nil {
					t.Fatal(err)
				}
				d.clear()
				if err := d.pass(true, true, nil); err != nil {
					t.Fatal(err)
				}
				for i, wv := range want {
					if int32(d.margin[i]) != wv {
						b, w, _, white := ix.state(ix.region(uint64(i)), uint64(i))
						t.Fatalf("%v %d jobs %d: %s (white %v): dense %d, plain %d", v, n, jobs, diagram(n, b, w, 0), white, d.margin[i], wv)
					}
				}
			}
		}
	}
}

// TestDenseSlideColours: where the rules treat the colours alike
// (slideSwaps), every state of up to 8 slots is worth, by the textbook
// retrograde analysis, minus the state with the colours swapped: the
// ground on which a solve without margins runs Black's pass only.
func TestDenseSlideColours(t *testing.T) {
	t.Parallel()
	swaps := 0
	for _, v := range slideVariants {
		for n := 1; n <= 8; n++ {
			ix := newDindex(v.rules(t, n))
			if !ix.slideSwaps() {
				continue
			}
			swaps++
			val := plainRetro(ix)
			eachState(ix, func(i, b, w, _ uint64, white bool) {
				if j := ix.swapped(b, w, white); val[j] != -val[i] {
					t.Fatalf("%v %d: %s (white %v) is worth %d, with the colours swapped %d", v, n, diagram(n, b, w, 0), white, val[i], val[j])
				}
			})
		}
	}
	if swaps == 0 {
		t.Error("no rule set treats the colours alike")
	}
}

// TestDenseSlideAgainstSolve: two methods, one answer. For dewdney and
// golf on 6 to 8 slots (11 with ALAK_LONG=1, 9 under the race detector),
// every live position of method 1's graph from the start (retro.go, which
// plays the kernel's moves) has the dense solver's value; the result for
// the start (value, best moves, every move's value) is Solve's with
// margins, without, and with the first pass spilled; and on up to 8 slots
// each principal variation keeps the value at every ply (Solve). Five
// set-up positions too (the three of 9 and 10 slots without ALAK_LONG=1),
// two with more pieces on one side, one of them on 10 slots (the solve
// without margins keeps to the states with no more pieces a side than it
// has).
func TestDenseSlideAgainstSolve(t *testing.T) {
	t.Parallel()
	maxN := sweep(t, 7, 9, 11)
	var games []*rules.Game
	for _, preset := range []string{"dewdney", "golf"} {
		for n := 6; n <= maxN; n++ {
			games = append(games, newGame(t, preset, n))
		}
		for _, d := range []string{"x_o_xxo_o_", "ox__xo_xo", "xx_oo__oxx_o", "xxx_o__o_x", "ox_oo_x_oo_"} {
			if len(d) > maxN+2 {
				continue // 11 and 12 slots: with ALAK_LONG=1
			}
			g := newGame(t, preset, len(d))
			pos, err := rules.ParseDiagram(g.Rules(), d, rules.White)
			if err != nil {
				t.Fatal(err)
			}
			games = append(games, rules.NewGameFrom(pos))
		}
	}
	for _, g := range games {
		r := g.Rules()
		name := fmt.Sprintf("%v from %v", r, g.Position())
		want, err := Solve(context.Background(), g, Options{MemoryMB: 256})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []DenseOptions{{Margins: true}, {}, {Spill: true, SpillDir: t.TempDir()}} {
			o.Jobs = 2
			got, tab, err := DenseSolve(context.Background(), g, o)
			if err != nil {
				t.Fatal(err)
			}
			if got.Value != want.Value || !slices.Equal(got.Best, want.Best) || !maps.Equal(got.Moves, want.Moves) {
				t.Errorf("%s (margins %v, spill %v): dense %v best %v moves %v; Solve %v best %v moves %v", name, o.Margins, o.Spill, got.Value, got.Best, got.Moves, want.Value, want.Best, want.Moves)
			}
			if r.Width <= 8 {
				checkPV(t, name, g, got.PV, got.Value)
			}
			if tab == nil {
				continue
			}
			rg, err := newSearcher(context.Background(), r, Options{MemoryMB: 256}).solveGraph(g.Position())
			if err != nil {
				t.Fatal(err)
			}
			live, differ := 0, 0
			for i, p := range rg.pos {
				if p.Over() {
					continue
				}
				live++
				v, ok := tab.Lookup(p)
				if old := float64(rg.value[i]) / 2; !ok || old != v {
					if differ++; differ <= 3 {
						t.Errorf("%s: %v (%v to move) worth %v by retro.go, %v (%v) by the dense solver", name, p, p.ToMove(), old, v, ok)
					}
				}
			}
			if differ > 0 || live < 2 {
				t.Errorf("%s: %d of %d live positions differ", name, differ, live)
			}
		}
	}
}

// TestDenseSlideTable: a dewdney table is saved under its rules' name,
// read back, and serves Solve through LoadTable at once (no position
// searched) with Solve's answers, along a game.
func TestDenseSlideTable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := newGame(t, "dewdney", 9)
	r := g.Rules()
	tab := denseTable(t, r, 2)
	path, err := tab.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "dewdney_size=9.dense" {
		t.Errorf("saved as %s", path)
	}
	back, err := ReadDense(path, r)
	if err != nil || !slices.Equal(back.margins, tab.margins) {
		t.Fatalf("read back: %v", err)
	}
	if _, err := ReadDense(path, newGame(t, "golf", 9).Rules()); err == nil {
		t.Errorf("a dewdney table read as golf's")
	}
	res, err := LoadTable(dir, r)
	if err != nil || res.Dense() == nil {
		t.Fatalf("LoadTable: %v, %v", res, err)
	}
	for ply := 0; ply < 8 && !g.Over(); ply++ {
		got, err := Solve(context.Background(), g, Options{MemoryMB: 64, Table: res})
		if err != nil {
			t.Fatal(err)
		}
		want, err := Solve(context.Background(), g, Options{MemoryMB: 64})
		if err != nil {
			t.Fatal(err)
		}
		if got.Nodes != 0 || got.Value != want.Value || !slices.Equal(got.Best, want.Best) || !maps.Equal(got.Moves, want.Moves) {
			t.Errorf("after %v: with the dense table %+v; Solve %+v", g.Moves(), got, want)
		}
		ms := g.LegalMoves(nil)
		if err := g.Play(ms[ply%len(ms)]); err != nil {
			t.Fatal(err)
		}
	}
}

func BenchmarkDenseDewdney14(b *testing.B)      { benchDense(b, "dewdney", 14, 1, true) }
func BenchmarkDenseGolf14(b *testing.B)         { benchDense(b, "golf", 14, 1, true) }
func BenchmarkDenseDewdney17Value(b *testing.B) { benchDense(b, "dewdney", 17, 2, false) }
