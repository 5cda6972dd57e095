package player

import (
	"context"
	"testing"

	"alak/rules"
)

func benchGame(b *testing.B, spec string) *rules.Game {
	b.Helper()
	r, err := rules.Parse(spec)
	if err != nil {
		b.Fatal(err)
	}
	g, err := rules.NewGame(r)
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkPlayoutAlak11 runs random playouts to the end of the game from the
// empty 11-point board under alak rules; it reports playouts/s, the unit
// of the target docs/speed.md gives (at least one million a second a core).
func BenchmarkPlayoutAlak11(b *testing.B) {
	pos := benchGame(b, "alak").Position()
	rng := fastRand{1}
	play := newPlayouter(pos.Rules())
	moves := 0
	for b.Loop() {
		res := play.run(pos, &rng)
		if res.ended {
			moves++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(moves)/float64(b.N), "ended")
}

// BenchmarkPlayoutAlterIgo9 runs random playouts on the empty 9×9 board
// under Alter Igo rules.
func BenchmarkPlayoutAlterIgo9(b *testing.B) {
	pos := benchGame(b, "alterigo").Position()
	rng := fastRand{1}
	play := newPlayouter(pos.Rules())
	ended := 0
	for b.Loop() {
		if play.run(pos, &rng).ended {
			ended++
		}
	}
	b.ReportMetric(float64(ended)/float64(b.N), "ended")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}

func benchMCTS(b *testing.B, rulesSpec string) {
	g := benchGame(b, rulesSpec)
	p := NewMCTS("mcts", 1000, 0, 0.7, 1)
	total := 0
	for b.Loop() {
		if _, err := p.Move(context.Background(), g); err != nil {
			b.Fatal(err)
		}
		total += p.Iterations()
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "iterations/s")
}

// BenchmarkMCTSAlak11 measures MCTS iterations per second from the empty
// 11-point board (1000 iterations per move).
func BenchmarkMCTSAlak11(b *testing.B) { benchMCTS(b, "alak") }

// BenchmarkMCTSAlterIgo9 measures MCTS iterations per second from the empty
// 9×9 board under Alter Igo.
func BenchmarkMCTSAlterIgo9(b *testing.B) { benchMCTS(b, "alterigo") }

// BenchmarkAlphaBetaAlak11 measures alpha-beta nodes per second from the
// empty 11-point board (a 200 000-node budget per move).
func BenchmarkAlphaBetaAlak11(b *testing.B) {
	g := benchGame(b, "alak")
	p := NewAlphaBeta("alphabeta", 0, 200000, 0, 1)
	var nodes int64
	for b.Loop() {
		if _, err := p.Move(context.Background(), g); err != nil {
			b.Fatal(err)
		}
		nodes += p.Nodes()
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
