package tournament

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSwissRound pairs round 6 of a 512-player Swiss (the most the
// package accepts) after five rounds of random results.
func BenchmarkSwissRound(b *testing.B) {
	r := rand.New(rand.NewPCG(30, 6))
	s := State{ID: "b", Format: FormatSwiss, Rounds: 9, Players: randomPlayers(r, MaxPlayers)}
	for round := 0; round < 5; round++ {
		st, err := Next(s)
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range st.Games {
			if !g.Finished() {
				g.Outcome = randomOutcome(r)
			}
			s.Games = append(s.Games, g)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Next(s); err != nil {
			b.Fatal(err)
		}
	}
}
