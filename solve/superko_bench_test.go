package solve

import (
	"context"
	"testing"

	"alak/rules"
)

// Benchmarks of the positional linear Go solver (superko.go) from the empty
// board, with no results table; benchSolve (bench_test.go) reports positions
// per second and positions per solve.
//
//	go test ./solve -run '^$' -bench TrompTaylor

func BenchmarkSolveTrompTaylor5(b *testing.B)  { benchSolve(b, "tromp-taylor", 5, 256) }
func BenchmarkSolveTrompTaylor6(b *testing.B)  { benchSolve(b, "tromp-taylor", 6, 256) }
func BenchmarkSolveTrompTaylor7(b *testing.B)  { benchSolve(b, "tromp-taylor", 7, 256) }
func BenchmarkSolveTrompTaylor8(b *testing.B)  { benchSolve(b, "tromp-taylor", 8, 256) }
func BenchmarkSolveTrompTaylor9(b *testing.B)  { benchSolve(b, "tromp-taylor", 9, 256) }
func BenchmarkSolveTrompTaylor10(b *testing.B) { benchSolve(b, "tromp-taylor", 10, 1024) }
func BenchmarkSolveTrompTaylor11(b *testing.B) { benchSolve(b, "tromp-taylor", 11, 2048) }

// benchSplit asks "is 1×9 worth at least 1?" (it is worth 0) split at
// 100,000 positions a part, with tables kept from part to part or fresh for
// each part, and reports positions per answer.
//
//	go test ./solve -run '^$' -bench SplitTrompTaylor9
func benchSplit(b *testing.B, fresh bool) {
	r := rules.MustPreset("tromp-taylor")
	r.SetSize(9, 1)
	var nodes int64
	for b.Loop() {
		g, err := rules.NewGame(r)
		if err != nil {
			b.Fatal(err)
		}
		res, err := AtLeastSplit(context.Background(), g, 1, Options{MemoryMB: 256}, SplitOptions{Budget: 100_000, FreshTables: fresh})
		if err != nil {
			b.Fatal(err)
		}
		if res.Holds || res.Bound.Bound != 0 {
			b.Fatalf("1×9 at least 1: holds %v, bound %v; the value is 0", res.Holds, res.Bound.Bound)
		}
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "positions/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "positions/op")
}

func BenchmarkSplitTrompTaylor9Kept(b *testing.B)  { benchSplit(b, false) }
func BenchmarkSplitTrompTaylor9Fresh(b *testing.B) { benchSplit(b, true) }
