package tournament_test

import (
	"fmt"

	"alak/tournament"
)

// A live round robin of four, every game won by X: Next pairs each round
// once the previous one is over, then names the winner. ada and bo both
// score 2; Sonneborn-Berger puts ada first (she beat di and bo, 1 + 2;
// bo beat cy and di, 1 + 1).
func Example() {
	s := tournament.State{ID: "club", Format: tournament.FormatRoundRobin, Players: []tournament.Player{
		{Name: "ada", Rating: 1700}, {Name: "bo", Rating: 1600}, {Name: "cy", Rating: 1500}, {Name: "di", Rating: 1400},
	}}
	for {
		st, err := tournament.Next(s)
		if err != nil {
			fmt.Println(err)
			return
		}
		if st.Finished {
			fmt.Println("winner:", st.Winner)
			break
		}
		for _, g := range st.Games {
			fmt.Printf("round %d: %s-%s\n", g.Round, g.X, g.O)
			g.Outcome = tournament.XWins
			s.Games = append(s.Games, g)
		}
	}
	for _, r := range tournament.Standings(s) {
		fmt.Println(r.Rank, r.Name, r.Score, r.Tiebreaks)
	}
	// Output:
	// round 1: ada-di
	// round 1: bo-cy
	// round 2: di-cy
	// round 2: ada-bo
	// round 3: bo-di
	// round 3: cy-ada
	// winner: ada
	// 1 ada 2 [3]
	// 2 bo 2 [2]
	// 3 cy 1 [2]
	// 4 di 1 [1]
}
