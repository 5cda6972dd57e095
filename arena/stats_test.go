package arena

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestElo(t *testing.T) {
	for _, tc := range []struct{ score, want float64 }{
		{0.5, 0},
		// 400·log10(0.9/0.1) = 400·log10(9) = 381.697...: the figure of
		// the JSON example (17 wins, 2 draws, 1 loss).
		{0.9, 400 * math.Log10(9)},
		{0.75, 400 * math.Log10(3)},
		{0.25, -400 * math.Log10(3)},
		{1, EloCap}, {0, -EloCap},
	} {
		if got := Elo(tc.score); !near(got, tc.want) {
			t.Errorf("Elo(%v) = %v, want %v", tc.score, got, tc.want)
		}
	}
	for _, s := range []float64{0.1, 0.3, 0.5, 0.64, 0.9} {
		if got := Expected(Elo(s)); !near(got, s) {
			t.Errorf("Expected(Elo(%v)) = %v", s, got)
		}
	}
}

func TestWilson(t *testing.T) {
	z2 := z95 * z95
	// 50 of 100: centre 0.5, half-width z·sqrt(0.25/100 + z²/40000)/(1 + z²/100)
	// = 0.0961..., the interval (0.4038, 0.5962) of the textbooks.
	lo, hi := Wilson(0.5, 100)
	if math.Abs(lo-0.4038) > 5e-5 || math.Abs(hi-0.5962) > 5e-5 {
		t.Errorf("Wilson(0.5, 100) = %v, %v; want 0.4038, 0.5962", lo, hi)
	}
	// 0 of n: the interval is [0, z²/(n+z²)].
	if lo, hi := Wilson(0, 10); lo != 0 || !near(hi, z2/(10+z2)) {
		t.Errorf("Wilson(0, 10) = %v, %v; want 0, %v", lo, hi, z2/(10+z2))
	}
	// The interval is symmetric under score ↔ 1 − score.
	a, b := Wilson(0.8, 40)
	c, d := Wilson(0.2, 40)
	if !near(a, 1-d) || !near(b, 1-c) {
		t.Errorf("Wilson(0.8, 40) = %v, %v but Wilson(0.2, 40) = %v, %v", a, b, c, d)
	}
}

func TestSummarize(t *testing.T) {
	// The example: 17 wins, 1 loss and 2 draws of 20 give a score
	// of 0.9 and an Elo of 381.7.
	var games []Game
	for i := range 20 {
		s := 1.0
		switch {
		case i == 0:
			s = 0
		case i < 3:
			s = 0.5
		}
		games = append(games, Game{Index: i, P1Score: s})
	}
	res := Summarize([2]string{"mcts", "greedy"}, games)
	if res.Wins != [2]int{17, 1} || res.Draws != 2 || !near(res.Score, 0.9) || !near(res.Elo, 400*math.Log10(9)) {
		t.Fatalf("%+v", res)
	}
	if !(res.EloCI[0] < res.Elo && res.Elo < res.EloCI[1]) || !near(res.EloCI[0], Elo(res.ScoreCI[0])) {
		t.Errorf("Elo interval %v around %v from score interval %v", res.EloCI, res.Elo, res.ScoreCI)
	}
}
