package rules_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"alak/rules"
)

// Baljeu's first Alak-3 game (seed 002): Black's second stone captures
// against the end of the line, and White, forbidden to play where its stone
// was just removed, cannot move.
func ExampleGame() {
	r, _ := rules.Parse("alak size=3")
	g, _ := rules.NewGame(r)
	for _, p := range []int{0, 2, 1} {
		if err := g.Play(rules.Place(p)); err != nil {
			fmt.Println(err)
		}
		fmt.Println(g.Position())
	}
	fmt.Println(g.Outcome(), g.Outcome().Winner)
	// Output:
	// X--
	// x-O
	// xX/
	// 2-0 black
}

// A refused move says why, and wraps rules.ErrIllegal.
func ExamplePosition_Play() {
	pos, _ := rules.ParseDiagram(rules.MustPreset("alak"), "xX/-", rules.White)
	_, err := pos.Play(rules.Place(2))
	fmt.Println(err)
	fmt.Println(errors.Is(err, rules.ErrForbidden), errors.Is(err, rules.ErrIllegal))
	// Output:
	// point 3: the point is forbidden: your stones were just captured there
	// true true
}

// Rules are data: a preset plus options, written back the same way.
func ExampleParse() {
	r, err := rules.Parse("traditional size=6 komi=0.5")
	fmt.Println(r, err)
	fmt.Println(r.Changed(false))
	// Output:
	// traditional size=6 komi=0.5 <nil>
	// [komi=0.5]
}

// Dewdney's sliding game, the code-golf example o_oox: the x on slot 5
// slides left to the nearest empty slot, captures nothing, and under the
// golf rules is itself removed, flanked by o on both sides.
func ExamplePosition_Play_slide() {
	r := rules.MustPreset("golf")
	r.MinPieces = 0 // a fragment of a board
	pos, _ := rules.ParseDiagram(r, "o_oox", rules.Black)
	next, _ := pos.Play(rules.Slide(4, 1))
	fmt.Println(next)
	// Output:
	// o/oo-
}

// Rules, positions and moves are text in JSON.
func ExampleRules_MarshalText() {
	r, _ := rules.Parse("alak size=6")
	pos, _ := rules.ParseDiagram(r, "x--oX-", rules.White)
	b, _ := json.Marshal(struct {
		Rules    rules.Rules
		Position rules.Position
		Move     rules.Move
	}{r, pos, rules.Place(5)})
	fmt.Println(string(b))
	// Output:
	// {"Rules":"alak size=6","Position":"x--oX- o","Move":"6"}
}

// A random game of alak on 11 points played in place by the playout kernel
// from a seeded generator: the same seed plays the same game.
func ExamplePosition_Playout() {
	pos, _ := rules.NewPosition(rules.MustPreset("alak"))
	rng := rules.Rand(2024)
	plies, ok := pos.Playout(&rng, 1000)
	fmt.Println(ok, plies, pos.Ply(), pos.Over())
	fmt.Println(pos, pos.Outcome(), pos.Prisoners(rules.Black), pos.Prisoners(rules.White))
	// Output:
	// true 35 35 true
	// /X//xxxooxx 6-2 15 12
}
