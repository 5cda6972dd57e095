package gtp_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"alak/gtp"
	"alak/rules"
)

// Baljeu's rules on 6 points: White's B1 captures Black's A1 against the
// end of the line, and Black may not place there again at once. The failure
// wraps the rules' reason: errors.Is(err, rules.ErrForbidden) holds.
func ExampleEngine_Execute() {
	e, err := gtp.NewEngine(rules.MustPreset("alak"), nil)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for _, cmd := range [][]string{
		{"rectangular_boardsize", "6", "1"},
		{"play", "b", "A1"},
		{"play", "w", "B1"},
		{"play", "b", "A1"},
		{"gogui-rules_legal_moves"},
		{"final_score"},
	} {
		text, err := e.Execute(ctx, cmd[0], cmd[1:]...)
		if err != nil {
			fmt.Printf("%v: ? %v\n", cmd, err)
			fmt.Println("forbidden:", errors.Is(err, rules.ErrForbidden))
			continue
		}
		fmt.Printf("%v: = %q\n", cmd, text)
	}
	// Output:
	// [rectangular_boardsize 6 1]: = ""
	// [play b A1]: = ""
	// [play w B1]: = ""
	// [play b A1]: ? illegal move A1: the point is forbidden: your stones were just captured there
	// forbidden: true
	// [gogui-rules_legal_moves]: = "C1 D1 E1 F1"
	// [final_score]: = "W+1"
}

// An external engine: start it, ask for a move, and quit.
func ExampleStart() {
	ctx := context.Background()
	c, err := gtp.Start(ctx, "alak", "gtp", "--player", "greedy", "--seed", "1")
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Command(ctx, "rectangular_boardsize", "11", "1"); err != nil {
		log.Fatal(err)
	}
	move, err := c.Command(ctx, "genmove", "b")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(move)
}
