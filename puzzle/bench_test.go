package puzzle

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"alak/rules"
	"alak/solve"
)

// archive plays n seeded games between the self-play's weak players: the
// archive of finished games the benchmark makes puzzles from, as the play
// server would from its own.
func archive(b *testing.B, r rules.Rules, n int, seed uint64) []*rules.Game {
	b.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	var games []*rules.Game
	for range n {
		g, err := rules.NewGame(r)
		if err != nil {
			b.Fatal(err)
		}
		for !g.Over() && g.Len() < 4*r.Points()+40 {
			if err := g.Play(weakMove(g, rng)); err != nil {
				b.Fatal(err)
			}
		}
		games = append(games, g)
	}
	return games
}

// BenchmarkFromGames makes the puzzles of an archive of 40 finished
// self-play games (FromGame: each game analysed, then Find at the
// positions around its mistakes), with the rules' dense table made
// beforehand as a server's table directory would hold it; it reports the
// puzzles made a second and the games a second. Verification is apart
// (BenchmarkVerify).
//
//	go test ./puzzle -run '^$' -bench FromGames -benchtime 3x
func BenchmarkFromGames(b *testing.B) {
	for _, spec := range []string{"alak size=9", "alak size=11", "dewdney size=11"} {
		b.Run(spec, func(b *testing.B) {
			r, err := rules.Parse(spec)
			if err != nil {
				b.Fatal(err)
			}
			games := archive(b, r, 40, 1)
			ts := &solve.Tables{Build: solve.DefaultBuild}
			g0, _ := rules.NewGame(r)
			if _, err := ts.Solve(context.Background(), g0, solve.Options{}); err != nil {
				b.Fatal(err)
			}
			opt := Options{Solve: solve.Options{MaxNodes: 5_000_000}}
			made, skipped := 0, 0
			b.ResetTimer()
			start := time.Now()
			for b.Loop() {
				for _, g := range games {
					ps, st, err := FromGame(context.Background(), ts, g, opt)
					if err != nil {
						b.Fatal(err)
					}
					made += len(ps)
					skipped += st.Skipped
				}
			}
			sec := time.Since(start).Seconds()
			b.ReportMetric(float64(made)/sec, "puzzles/s")
			b.ReportMetric(float64(b.N*len(games))/sec, "games/s")
			b.ReportMetric(float64(made)/float64(b.N*len(games)), "puzzles/game")
			b.ReportMetric(float64(skipped)/float64(b.N), "skipped/op")
		})
	}
}

// BenchmarkVerify checks the puzzles of 10 self-play games of alak on 9
// points by the second method (the search with an empty table), and
// reports the puzzles verified a second.
func BenchmarkVerify(b *testing.B) {
	r, _ := rules.Parse("alak size=9")
	ps, _, err := FromSelfPlay(context.Background(), &solve.Tables{Build: solve.DefaultBuild}, r, rand.New(rand.NewPCG(1, 47)), SelfPlayOptions{Games: 10})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		for _, p := range ps {
			if _, err := Verify(context.Background(), p, VerifyOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(ps))/time.Since(start).Seconds(), "puzzles/s")
}

// BenchmarkFromAnalysis is BenchmarkFromGames with each game's analysis
// made beforehand, as the play server keeps it for every finished game:
// what finding the puzzles costs once a game is analysed.
//
//	go test ./puzzle -run '^$' -bench FromAnalysis -benchtime 3x
func BenchmarkFromAnalysis(b *testing.B) {
	for _, spec := range []string{"alak size=9", "alak size=11", "dewdney size=11"} {
		b.Run(spec, func(b *testing.B) {
			r, err := rules.Parse(spec)
			if err != nil {
				b.Fatal(err)
			}
			games := archive(b, r, 40, 1)
			ts := &solve.Tables{Build: solve.DefaultBuild}
			opt := Options{Solve: solve.Options{MaxNodes: 5_000_000}}
			analyses := make([][]solve.PlyValue, len(games))
			for i, g := range games {
				if analyses[i], err = Analyze(context.Background(), ts, g, opt.Solve); err != nil {
					b.Fatal(err)
				}
			}
			made := 0
			b.ResetTimer()
			start := time.Now()
			for b.Loop() {
				for i, g := range games {
					ps, _, err := FromAnalysis(context.Background(), ts, g, analyses[i], opt)
					if err != nil {
						b.Fatal(err)
					}
					made += len(ps)
				}
			}
			sec := time.Since(start).Seconds()
			b.ReportMetric(float64(made)/sec, "puzzles/s")
			b.ReportMetric(float64(b.N*len(games))/sec, "games/s")
			b.ReportMetric(float64(made)/float64(b.N*len(games)), "puzzles/game")
		})
	}
}
