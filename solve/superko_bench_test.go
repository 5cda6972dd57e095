package solve

import "testing"

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
