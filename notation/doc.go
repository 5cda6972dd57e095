// Package notation reads and writes Alak in text: point names (numbers 1..n,
// the mail server's letters a..z, GTP vertices), moves (a Notation per
// form: Human, GTP), the board display shared by the commands, results in
// words and in SGF's form, and game records as SGF and as plain move
// lists. The line diagrams themselves
// (x--oX-) belong to the rules package, as Position.String and
// rules.ParseDiagram. docs/notation.md describes every format.
//
//	r := rules.MustPreset("alak")
//	m, err := notation.Human.Decode(r, "c")        // point 3, as a letter
//	fmt.Println(notation.Human.Encode(r, m))       // "3", the stored form
//	fmt.Println(notation.GTP.Encode(r, m))         // "C1"
//
//	rec, err := notation.ReadRecord(data)          // SGF or a move list
//	g, err := rec.Game()                           // replayed, every move checked
//	fmt.Print(notation.Board(g.Position(), false))
package notation
