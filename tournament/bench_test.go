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

// BenchmarkSwissTournament pairs every round of a 512-player, 12-round
// Swiss with random results and a withdrawal after one round in ten:
// the rounds where the first levels cannot pair everyone are the costly
// ones.
func BenchmarkSwissTournament(b *testing.B) {
	for b.Loop() {
		r := rand.New(rand.NewPCG(9, 512))
		s := State{ID: "p", Format: FormatSwiss, Rounds: 12, Players: randomPlayers(r, MaxPlayers)}
		for {
			st, err := Next(s)
			if err != nil {
				b.Fatal(err)
			}
			if st.Finished {
				break
			}
			for _, g := range st.Games {
				if !g.Finished() {
					g.Outcome = randomOutcome(r)
				}
				s.Games = append(s.Games, g)
			}
			if r.IntN(10) == 0 {
				i := r.IntN(len(s.Players))
				s.Players = append([]Player(nil), s.Players...)
				s.Players[i].Withdrawn = true
			}
		}
	}
}
