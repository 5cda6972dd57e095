package arena_test

import (
	"context"
	"fmt"

	"alak/arena"
	"alak/rules"
)

// A small match: greedy against random on 7 points, from seeded openings.
// The wins depend on the seed; their sum is always the number of games.
func ExampleMatch() {
	r, _ := rules.Parse("alak size=7")
	res, err := arena.Match(context.Background(), arena.Config{
		Rules: r, Players: [2]string{"greedy", "random"}, Games: 10, Openings: "random:2", Seed: 1,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Games, res.Wins[0]+res.Wins[1]+res.Draws)
	// Output: 10 10
}

// Ratings from match results, relative to the first player.
func ExampleFitElo() {
	ratings := arena.FitElo([]string{"random", "greedy"}, []arena.Result{
		{Players: [2]string{"greedy", "random"}, Games: 20, Score: 0.75},
	})
	for _, r := range ratings {
		fmt.Printf("%s %.0f\n", r.Player, r.Elo)
	}
	// Output:
	// greedy 180
	// random 0
}
