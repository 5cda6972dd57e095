// Package notation reads and writes Alak in text: point names (numbers 1..n,
// the mail server's letters a..z, GTP vertices), moves, the board display
// shared by the commands, results in words and in SGF's form, and game
// records as SGF and as plain move lists. The line diagrams themselves
// (x--oX-) belong to the rules package, as Position.String and
// rules.ParseDiagram. docs/notation.md describes every format.
//
//	r := rules.MustPreset("alak")
//	m, err := notation.ParseMove(r, "c")   // point 3, as a letter
//	fmt.Println(notation.FormatMove(r, m)) // "3"
//
//	rec, err := notation.ReadRecord(data)  // SGF or a move list
//	g, err := rec.Game()                   // replayed, every move checked
//	fmt.Print(notation.Board(g.Position(), false))
package notation
