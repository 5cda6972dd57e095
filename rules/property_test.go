package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"alak/internal/testlong"
)

// propertyCases are the rule sets and sizes random play runs on.
func propertyCases(t testing.TB) []Rules {
	var out []Rules
	for _, name := range []string{"alak", "traditional", "tromp-taylor", "alterigo"} {
		for _, n := range []int{1, 2, 5, 11, 19, 64} {
			out = append(out, preset(t, name, n, 1))
		}
	}
	for _, name := range []string{"alak", "traditional", "alterigo"} {
		out = append(out, preset(t, name, 5, 4), preset(t, name, 9, 9))
	}
	for _, name := range []string{"dewdney", "golf"} {
		for _, n := range []int{6, 11, 20} {
			out = append(out, preset(t, name, n, 1))
		}
	}
	for _, opt := range []string{"edge=off", "own=illegal", "own=removed", "own=together", "ko=none", "ko=simple", "ko=superko", "ko=situational", "pass=on", "score=area"} {
		r, err := Parse("alak size=9 " + opt)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	golfRun, _ := Parse("golf selfcapture=run")
	golfEdge, _ := Parse("dewdney edge=on")
	return append(out, golfRun, golfEdge)
}

// chainFree reports whether the chain through p has a liberty, walking the
// board through At only (independent of the engines' capture code).
func chainFree(pos Position, p int) bool {
	w, h := pos.Size()
	edgeFree := !pos.Rules().EdgeCapture
	c := pos.At(p)
	seen := map[int]bool{p: true}
	stack := []int{p}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := q%w, q/w
		var nbs []int
		for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			nx, ny := x+d[0], y+d[1]
			if h == 1 && d[1] != 0 {
				continue // a line has no rows above or below
			}
			if nx < 0 || ny < 0 || nx >= w || ny >= h {
				if edgeFree {
					return true
				}
				continue
			}
			nbs = append(nbs, ny*w+nx)
		}
		for _, nb := range nbs {
			switch pos.At(nb) {
			case None:
				return true
			case c:
				if !seen[nb] {
					seen[nb] = true
					stack = append(stack, nb)
				}
			}
		}
	}
	return false
}

// checkStep checks the invariants of one move from pos to next.
func checkStep(t *testing.T, pos, next Position, m Move) {
	t.Helper()
	r := pos.Rules()
	if got, want := next.BoardHash(), recomputeHash(next); got != want {
		t.Fatalf("%s -> %v: incremental hash %x, recomputed %x", pos, m, got, want)
	}
	mover := pos.ToMove()
	if m == Pass || m == Resign {
		if layout(next) != layout(pos) {
			t.Fatalf("%v changed the board", m)
		}
		return
	}
	capt := next.Prisoners(mover) - pos.Prisoners(mover)
	lost := next.Prisoners(mover.Opp()) - pos.Prisoners(mover.Opp())
	added := 1
	if m.IsSlide() {
		added = 0
	}
	if got, want := next.Count(mover), pos.Count(mover)+added-lost; got != want {
		t.Fatalf("%s -> %v -> %s: mover has %d stones, want %d", pos, m, next, got, want)
	}
	if got, want := next.Count(mover.Opp()), pos.Count(mover.Opp())-capt; got != want {
		t.Fatalf("%s -> %v -> %s: opponent has %d stones, want %d", pos, m, next, got, want)
	}
	for p := range pos.Points() {
		a, b := pos.At(p), next.At(p)
		switch {
		case next.Removed(p):
			if b != None {
				t.Fatalf("%s -> %v: point %d marked removed but holds %v", pos, m, p+1, b)
			}
		case p == m.Point():
			if b != mover {
				t.Fatalf("%s -> %v: the moved stone is not on %d", pos, m, p+1)
			}
		case m.IsSlide() && p == m.From():
			if b != None {
				t.Fatalf("%s -> %v: the slot moved from is not empty", pos, m)
			}
		case a != b:
			t.Fatalf("%s -> %v -> %s: point %d changed without a capture", pos, m, next, p+1)
		}
	}
	if r.Movement == Placement && r.Own != OwnStays {
		for p := range next.Points() {
			if next.At(p) != None && !chainFree(next, p) {
				t.Fatalf("%s -> %v -> %s: the chain on %d has no liberty under own=%s", pos, m, next, p+1, ownNames[r.Own])
			}
		}
	}
}

// mirrorMoves maps moves through the mirror image of a board of width w.
func mirrorMoves(moves []Move, w int) []Move {
	out := make([]Move, len(moves))
	for i, m := range moves {
		out[i] = mirrorMove(m, func(p int) int { return p/w*w + (w - 1 - p%w) })
	}
	slices.Sort(out)
	return out
}

func TestRandomPlayProperties(t *testing.T) {
	games := testlong.Size(t, 10, 30) // a rule set
	if testing.Short() {
		games = 5
	}
	for _, r := range propertyCases(t) {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(r.Points())))
			for range games {
				g, err := NewGame(r)
				if err != nil {
					t.Fatal(err)
				}
				for ply := 0; ply < 4*r.Points()+20 && !g.Over(); ply++ {
					pos := g.Position()
					keep := pos
					moves := g.LegalMoves(nil)
					if len(moves) == 0 {
						t.Fatalf("%s: no legal move but the game is not over", pos)
					}
					want := mirrorMoves(moves, r.Width)
					got := g.LegalMoves(nil)
					if !r.IsLine() || r.Ko < KoPositional {
						got = pos.Mirror().LegalMoves(nil)
					}
					slices.Sort(got)
					if !r.IsLine() || r.Ko < KoPositional {
						if !slices.Equal(got, want) {
							t.Fatalf("%s: legal moves %v, of the mirror %v", pos, moves, got)
						}
					}
					if mm := pos.Mirror().Mirror(); mm.String() != pos.String() || mm.Hash() != pos.Hash() {
						t.Fatalf("%s: mirror twice gives %s", pos, mm)
					}
					m := moves[rng.IntN(len(moves))]
					if err := g.Play(m); err != nil {
						t.Fatalf("%s: legal move %v refused: %v", pos, m, err)
					}
					if pos != keep {
						t.Fatalf("Play changed its receiver")
					}
					checkStep(t, pos, g.Position(), m)
				}
			}
		})
	}
}

// The bitboard line engine and the grid engine run on a 1×n board must
// agree on every position of random games.
func TestLineMatchesGrid(t *testing.T) {
	for _, r := range propertyCases(t) {
		if !r.IsLine() || r.Movement != Placement {
			continue
		}
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2, uint64(r.Points())))
			for range 20 {
				a, b := start(t, r), asGrid(t, r)
				for ply := 0; ply < 4*r.Points()+20 && !a.Over(); ply++ {
					ma, mb := a.LegalMoves(nil), b.LegalMoves(nil)
					if !slices.Equal(ma, mb) {
						t.Fatalf("%s: line moves %v, grid moves %v", a, ma, mb)
					}
					m := ma[rng.IntN(len(ma))]
					a, b = play(t, a, m), play(t, b, m)
					if a.String() != b.String() || a.Hash() != b.Hash() || a.Outcome() != b.Outcome() {
						t.Fatalf("after %v: line %s %v, grid %s %v", m, a, a.Outcome(), b, b.Outcome())
					}
				}
				if a.Over() != b.Over() {
					t.Fatalf("line over=%v at %s, grid over=%v", a.Over(), a, b.Over())
				}
			}
		})
	}
}

// naiveSlide is an independent, array-based reading of the sliding rules.
func naiveSlide(cells []byte, from, to int, edge bool, self SelfCapture) (out []byte, ok bool) {
	n := len(cells)
	me := cells[from]
	if me != 'x' && me != 'o' || cells[to] != '_' {
		return nil, false
	}
	step := 1
	if to < from {
		step = -1
	}
	for q := from + step; q != to; q += step {
		if cells[q] == '_' {
			return nil, false // not the nearest empty slot
		}
	}
	op := byte('x' + 'o' - me)
	out = slices.Clone(cells)
	out[from], out[to] = '_', me
	flanked := func(q, dir int, who, wall byte) (int, bool) {
		for q >= 0 && q < n && out[q] == who {
			q += dir
		}
		if q < 0 || q >= n {
			return q, edge
		}
		return q, out[q] == wall
	}
	for _, dir := range []int{-1, 1} {
		if q := to + dir; q >= 0 && q < n && out[q] == op {
			if end, ok := flanked(q, dir, op, me); ok {
				for ; q != end; q += dir {
					out[q] = '_'
				}
			}
		}
	}
	at := func(q int) byte {
		if q < 0 || q >= n {
			if edge {
				return op
			}
			return 'e'
		}
		return out[q]
	}
	switch self {
	case SelfPiece:
		if at(to-1) == op && at(to+1) == op {
			out[to] = '_'
		}
	case SelfRun:
		l, lok := flanked(to, -1, me, op)
		r, rok := flanked(to, 1, me, op)
		if lok && rok {
			for q := l + 1; q < r; q++ {
				out[q] = '_'
			}
		}
	}
	return out, true
}

func TestSlidingMatchesNaive(t *testing.T) {
	for _, r := range propertyCases(t) {
		if r.Movement != Sliding {
			continue
		}
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, uint64(r.Points())))
			for range 30 {
				pos := start(t, r)
				for ply := 0; ply < 200 && !pos.Over(); ply++ {
					cells := []byte(layout(pos))
					var want []Move
					for from := range cells {
						for to := range cells {
							if cells[from] == pos.ToMove().Symbol() {
								if _, ok := naiveSlide(cells, from, to, r.EdgeCapture, r.SelfCapture); ok {
									want = append(want, Slide(from, to))
								}
							}
						}
					}
					got := pos.LegalMoves(nil)
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Fatalf("%s: moves %v, naive %v", layout(pos), got, want)
					}
					m := got[rng.IntN(len(got))]
					out, _ := naiveSlide(cells, m.From(), m.To(), r.EdgeCapture, r.SelfCapture)
					pos = play(t, pos, m)
					if layout(pos) != string(out) {
						t.Fatalf("%s %v: got %s, naive %s", cells, m, layout(pos), out)
					}
				}
			}
		})
	}
}

// Positions are values: many goroutines may play from the same one (run
// with -race).
func TestPositionSharedBetweenGoroutines(t *testing.T) {
	for _, name := range Presets() {
		pos := start(t, MustPreset(name))
		var wg sync.WaitGroup
		results := make([]string, 4)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := pos
				rng := rand.New(rand.NewPCG(4, 0))
				var b strings.Builder
				for !p.Over() && p.Ply() < 60 {
					moves := p.LegalMoves(nil)
					p, _ = p.Play(moves[rng.IntN(len(moves))])
					fmt.Fprint(&b, p.String(), " ")
				}
				results[i] = b.String()
			}()
		}
		wg.Wait()
		for _, s := range results[1:] {
			if s != results[0] {
				t.Errorf("%s: the same seeded game differed between goroutines", name)
			}
		}
	}
}
