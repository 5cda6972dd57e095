// Package bitline holds the word-level primitives of Alak on a line: runs
// of stones, captures, a placement with the own-liberty rule, slides with
// self-capture, the mirror image of a word and the Zobrist key of a set of
// points. A line of up to 64 points is a pair of words, bit i for point i:
// the stones of the player to move (me) and of the opponent (op). The rules
// kernel plays its line positions with these functions, and so do the
// playout simulators of package player and the solvers of package solve,
// so that a rule is written once. The package has no state and imports
// nothing of the project; rules.Bitline builds the Line of a rule set.
//
//	l := bitline.New(6, true, bitline.OwnStays, bitline.SelfOff) // alak on 6 points
//	me, op := uint64(0b000011), uint64(0b011100)                 // xxooo-
//	me, op, capt, _, _ := l.Place(me, op, 5)                     // x on point 6
//	fmt.Printf("%06b %06b %06b\n", me, op, capt)                 // 100011 000000 011100
//
// The x placed on the last point flanks the three o with the x on the
// second point: they are captured.
package bitline
