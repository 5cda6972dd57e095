package notation_test

import (
	"fmt"
	"os"

	"alak/notation"
	"alak/rules"
)

// Baljeu's Alak-6 game (seed 002) from a move list, shown as a board and
// written as SGF.
func Example() {
	rec, err := notation.ReadRecord([]byte("# rules: alak size=6\n1 4 5 6 2 3 5 1 2 6 4 3 1 5 4\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := rec.Game()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(notation.Board(g.Position(), false))
	fmt.Println(notation.GameResultWords(g))
	if err := notation.WriteSGF(os.Stdout, notation.NewRecord(g)); err != nil {
		fmt.Println(err)
	}
	// Output:
	//  x x / X / /
	//  1 2 3 4 5 6
	//  a b c d e f
	// Game over: Black wins 3-0 on the count (White had no legal move, which ends the game). Stones: x 3, o 0.
	// Black wins 3-0 on the count (White had no legal move, which ends the game)
	// (;FF[4]GM[1]CA[UTF-8]AP[alak:devel]SZ[6:1]RU[alak]RE[B+3]
	// ;B[aa];W[da];B[ea];W[fa];B[ba];W[ca];B[ea];W[aa];B[ba];W[fa]
	// ;B[da];W[ca];B[aa];W[ea];B[da]
	// )
}

// A record's illegal move is named by its number, the move and the reason.
func ExampleRecord_Game() {
	rec, _ := notation.ReadMoveList([]byte("# rules: alak size=6\n1 4 5 6 5\n"))
	_, err := rec.Game()
	fmt.Println(err)
	// Output:
	// move 5 (5 by Black): point 5: the point is forbidden: your stones were just captured there
}

// A person's move under the golf rules (a slide, typed with a space) and
// on Alter Igo's grid (a vertex, in either case), written in the stored
// form.
func ExampleHumanNotation() {
	golf := rules.MustPreset("golf")
	m, _ := notation.Human.Decode(golf, "1 4")
	fmt.Println(notation.Human.Encode(golf, m))
	grid := rules.MustPreset("alterigo")
	p, _ := notation.Human.Decode(grid, "c3")
	fmt.Println(notation.Human.Encode(grid, p), int(p))
	// Output:
	// 1-4
	// C3 56
}

// The same moves in GTP's form: vertices, a slide as two of them.
func ExampleGTPNotation() {
	golf := rules.MustPreset("golf")
	m, _ := notation.GTP.Decode(golf, "a1-d1")
	fmt.Println(notation.GTP.Encode(golf, m), notation.Human.Encode(golf, m))
	// Output:
	// A1-D1 1-4
}
