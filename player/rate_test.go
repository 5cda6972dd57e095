package player

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"testing"

	"alak/rules"
	"alak/solve"
)

var rateRules = flag.String("rate.rules", "alak size=9", "BenchmarkPerfectMoveRate: the rules of the test positions")
var ratePositions = flag.Int("rate.positions", 40, "BenchmarkPerfectMoveRate: the number of test positions")
var rateMemory = flag.Int("rate.memory", 16, "BenchmarkPerfectMoveRate: the solver's memory limit in MB (11 points needs about 512)")

// BenchmarkPerfectMoveRate measures how often each level's player chooses
// a perfect move, against solve.Solve, in positions from seeded games
// between random and greedy where at most half the moves are perfect. It
// reports two rates: best% (a move of the best value, Black's margin under
// perfect play) and kept% (a move that keeps the outcome: a win stays a
// win, a draw at least a draw). Run it once per level with -benchtime=1x:
//
//	go test ./player -run '^$' -bench PerfectMoveRate -benchtime 1x -rate.positions 40
func BenchmarkPerfectMoveRate(b *testing.B) {
	r, err := rules.Parse(*rateRules)
	if err != nil {
		b.Fatal(err)
	}
	type sample struct {
		g   *rules.Game
		res solve.Result
	}
	var samples []sample
	for _, g := range gamePositions(b, r, 200, 77) {
		if len(samples) >= *ratePositions {
			break
		}
		if g.Len()%3 != 0 {
			continue // spread the samples over the games
		}
		res, err := solve.Solve(context.Background(), g, solve.Options{MemoryMB: *rateMemory})
		if err != nil {
			b.Fatal(err)
		}
		if 2*len(res.Best) > len(res.Moves) {
			continue // most moves are perfect: too easy to tell the players apart
		}
		samples = append(samples, sample{g, res})
	}
	for n := 1; n <= Levels(); n++ {
		spec, _ := Level(n)
		b.Run(fmt.Sprintf("level=%d/%s", n, spec), func(b *testing.B) {
			best, kept := 0, 0
			for b.Loop() {
				best, kept = 0, 0
				for i, s := range samples {
					p, err := New(spec, uint64(i))
					if err != nil {
						b.Fatal(err)
					}
					m, err := p.Move(context.Background(), s.g)
					if err != nil {
						b.Fatal(err)
					}
					if slices.Contains(s.res.Best, m) {
						best++
					}
					sign := sideSign(s.g.Position().ToMove())
					if solve.Sign(sign*s.res.Moves[m]) == solve.Sign(sign*s.res.Value) {
						kept++
					}
				}
			}
			b.ReportMetric(100*float64(best)/float64(len(samples)), "best%")
			b.ReportMetric(100*float64(kept)/float64(len(samples)), "kept%")
			b.ReportMetric(float64(len(samples)), "positions")
		})
	}
}
