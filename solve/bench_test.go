package solve

import (
	"context"
	"math/rand/v2"
	"testing"

	"alak/rules"
)

// benchSolve solves the start position of preset on n points from scratch
// (no results table) and reports positions per second.
func benchSolve(b *testing.B, preset string, n int, memoryMB int) {
	r := rules.MustPreset(preset)
	r.SetSize(n, 1)
	var nodes int64
	for b.Loop() {
		g, err := rules.NewGame(r)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Solve(context.Background(), g, Options{MemoryMB: memoryMB})
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "positions/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "positions/op")
}

func BenchmarkSolveAlak11(b *testing.B)       { benchSolve(b, "alak", 11, 256) }
func BenchmarkSolveAlak13(b *testing.B)       { benchSolve(b, "alak", 13, 2048) }
func BenchmarkSolveTrompTaylor4(b *testing.B) { benchSolve(b, "tromp-taylor", 4, 256) }
func BenchmarkSolveTraditional5(b *testing.B) { benchSolve(b, "traditional", 5, 256) }
func BenchmarkSolveDewdney11(b *testing.B)    { benchSolve(b, "dewdney", 11, 1024) }

// benchAnalyze analyses a random game of preset (on its own board) as alak
// analyze does: a solve before each of its plies, no results table. The
// game is the first of the seeds 0, 1, 2, ... whose uniformly random moves
// make plies plies before it ends. It reports the seed and how many plies
// had a history that used a position up (solved under that history).
func benchAnalyze(b *testing.B, preset string, plies int) {
	r := rules.MustPreset(preset)
	var moves []rules.Move
	seed := uint64(0)
	for ; moves == nil; seed++ {
		g, err := rules.NewGame(r)
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 60))
		for g.Len() < plies && !g.Over() {
			legal := g.LegalMoves(nil)
			if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
		if g.Len() == plies {
			moves = g.Moves()
		}
	}
	var nodes int64
	used := 0
	for b.Loop() {
		g, err := rules.NewGame(r)
		if err != nil {
			b.Fatal(err)
		}
		used = 0
		for _, m := range moves {
			res, err := Solve(context.Background(), g, Options{MemoryMB: 256})
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := res.Moves[m]; !ok {
				b.Fatalf("ply %d: no value for %v", g.Len()+1, m)
			}
			nodes += res.Nodes
			if usedUp(g) {
				used++
			}
			if err := g.Play(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "positions/op")
	b.ReportMetric(float64(seed-1), "seed")
	b.ReportMetric(float64(used), "used-up-plies")
}

func BenchmarkAnalyzeRandomDewdney60(b *testing.B) { benchAnalyze(b, "dewdney", 60) }
func BenchmarkAnalyzeRandomGolf60(b *testing.B)    { benchAnalyze(b, "golf", 60) }

// BenchmarkSolveFromDenseTable solves positions of alak on 10 points that
// a dense table answers (as the server's computer player and draw offers
// do): the time and memory of a question the table settles, not a search.
func BenchmarkSolveFromDenseTable(b *testing.B) {
	r := rules.MustPreset("alak")
	r.SetSize(10, 1)
	tab, err := LoadTable(b.TempDir(), r)
	if err != nil {
		b.Fatal(err)
	}
	if err := tab.SetDense(denseTable(b, r, 2)); err != nil {
		b.Fatal(err)
	}
	tab.Freeze()
	g, err := rules.NewGame(r)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range []int{4, 5, 3} {
		if err := g.Play(rules.Place(p)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := Solve(context.Background(), g, Options{Table: tab})
		if err != nil || res.Nodes != 0 {
			b.Fatalf("the table does not answer: %v, %d positions searched", err, res.Nodes)
		}
	}
}
