package player_test

import (
	"context"
	"fmt"

	"alak/player"
	"alak/rules"
)

// A player from a spec; with a playout budget MCTS is reproducible.
func ExampleNew() {
	g, _ := rules.NewGame(rules.MustPreset("alak"))
	p, err := player.New("mcts:playouts=2000", 1)
	if err != nil {
		panic(err)
	}
	m, _ := p.Move(context.Background(), g)
	fmt.Println(p.Name(), "opens on a point from 1 to 11:", m.Point() >= 0 && m.Point() < 11)
	// Output: mcts:playouts=2000 opens on a point from 1 to 11: true
}

// The named levels run from random to the perfect player.
func ExampleLevel() {
	for _, n := range []int{1, 5, player.Levels()} {
		spec, _ := player.Level(n)
		fmt.Println(n, spec)
	}
	// Output:
	// 1 random
	// 5 mcts:playouts=1000
	// 9 perfect:time=3s
}

// A spec from outside (a play server's request): the built-in players only,
// every budget bounded.
func ExampleNewUntrusted() {
	p, _ := player.NewUntrusted("alphabeta:depth=8", 1)
	fmt.Println(p.Name())
	_, err := player.NewUntrusted("perfect:table=/var/lib/alak", 1)
	fmt.Println(err)
	_, err = player.NewUntrusted("mcts:time=1m", 1)
	fmt.Println(err)
	// Output:
	// alphabeta:time=3s,depth=8
	// player perfect: table= is not accepted here: it reads and writes files; the options are time, nodes and mem
	// player mcts: time=1m: from 1ms to 3s per move is accepted here
}
