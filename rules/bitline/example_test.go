package bitline_test

import (
	"fmt"

	"alak/rules/bitline"
)

// A placement on alak's line: xxooo- and x on the last point, which
// flanks the three o with the x on the second point (the seed's rule: a run
// of stones flanked on both sides by the enemy is captured).
func ExampleLine_Place() {
	l := bitline.New(6, true, bitline.OwnStays, bitline.SelfOff)
	me, op := uint64(0b000011), uint64(0b011100) // bit i is point i+1: xxooo-
	me, op, capt, _, _ := l.Place(me, op, 5)
	fmt.Printf("%06b %06b %06b\n", me, op, capt)
	// Output:
	// 100011 000000 011100
}

// The mirror image of a word: the line read from the other end.
func ExampleRev() {
	fmt.Printf("%06b\n", bitline.Rev(0b000011, 6)) // xx---- to ----xx
	// Output:
	// 110000
}
