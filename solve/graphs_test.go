package solve

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"alak/rules"
)

// TestTablesDepths checks the shared state graph of a small line
// (Tables.Depths): from goroutines asking at once about positions of
// games, some with repetitions, it answers what a graph made for
// the game's position alone answers (Depths, the values of Claim 3 and the
// depths); one graph serves them all; and a bound the line's graph does
// not fit fails with ErrMemory, a line that is not small with
// ErrUnsupported.
func TestTablesDepths(t *testing.T) {
	t.Parallel()
	const n = 7
	ts := &Tables{ReadOnly: true}
	// Games of a random Black against a White that takes the most
	// stones, some prefixes, and those whose history repeated a position
	// (about one game in fifty).
	var games []*rules.Game
	rng := rand.New(rand.NewPCG(7, 1))
	repeated := 0
	for i := 0; repeated < 6 && i < 5000; i++ {
		g := newGame(t, "alak", n)
		seen := map[uint64]bool{g.Position().Hash(): true}
		for !g.Over() && g.Len() < 200 {
			pos := g.Position()
			var best []rules.Move
			bv := math.MinInt
			for _, m := range pos.LegalMoves(nil) {
				c, err := pos.Play(m)
				if err != nil {
					t.Fatal(err)
				}
				v := rng.IntN(10)
				if pos.ToMove() == rules.White {
					v = c.Count(rules.White) - c.Count(rules.Black)
				}
				if c.Over() {
					v -= 100
				}
				switch {
				case v > bv:
					best, bv = append(best[:0], m), v
				case v == bv:
					best = append(best, m)
				}
			}
			if err := g.Play(best[rng.IntN(len(best))]); err != nil {
				t.Fatal(err)
			}
			if h := g.Position().Hash(); seen[h] {
				if !g.Over() {
					games = append(games, g)
					repeated++
				}
				break
			} else {
				seen[h] = true
			}
			if i < 6 && g.Len() == 3+i {
				games = append(games, g.Clone())
			}
		}
	}
	if repeated < 6 {
		t.Fatalf("%d games repeated a position, want 6", repeated)
	}
	var wg sync.WaitGroup
	for i, g := range games {
		wg.Go(func() {
			got, err := ts.Depths(context.Background(), g)
			if err != nil {
				t.Errorf("game %d: %v", i, err)
				return
			}
			want, err := Depths(context.Background(), g, Options{MemoryMB: 64})
			if err != nil {
				t.Errorf("game %d: %v", i, err)
				return
			}
			for m, w := range want {
				if got[m] != w {
					t.Errorf("game %d %v, move %v: shared graph %+v, own graph %+v", i, g.Moves(), m, got[m], w)
				}
			}
		})
	}
	wg.Wait()
	if k := len(ts.graphs.by); k != 1 {
		t.Errorf("%d graphs kept, want 1", k)
	}

	small := &Tables{ReadOnly: true, GraphMB: 1} // about 1,500 positions; alak on 9 points has 24,325
	if _, err := small.Depths(context.Background(), newGame(t, "alak", 9)); !errors.Is(err, ErrMemory) {
		t.Errorf("alak 9 within 1 MB: %v, want ErrMemory", err)
	}
	none := &Tables{ReadOnly: true, SmallStates: -1}
	if _, err := none.Depths(context.Background(), newGame(t, "alak", n)); !errors.Is(err, ErrUnsupported) {
		t.Errorf("no small line: %v, want ErrUnsupported", err)
	}
	t.Logf("%d games, %d with a repetition", len(games), repeated)
}
