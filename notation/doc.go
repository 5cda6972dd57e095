// Package notation reads and writes Alak in text: point names (numbers 1..n,
// the mail server's letters a..z, GTP vertices), moves, SGF records and
// plain move lists. The line diagrams themselves (x--oX-) belong to the
// rules package, as Position.String and rules.ParseDiagram.
//
//	r := rules.MustPreset("alak")
//	m, err := notation.ParseMove(r, "c")   // point 3, as a letter
//	fmt.Println(notation.FormatMove(r, m)) // "3"
package notation
