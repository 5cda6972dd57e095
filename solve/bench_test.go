package solve

import (
	"context"
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
