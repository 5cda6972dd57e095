// Package rules is the rules kernel of alak: positions, moves, rule options
// and presets for Alak and its family (Baljeu's Alak, Traditional Alak,
// Tromp-Taylor linear Go, Alter Igo, and Dewdney's sliding game as Burke and
// the code-golf text read it). It is pure: no I/O, no randomness of its own
// (the playout kernel, Position.Playout, draws from a Rand the caller seeds
// and owns), no mutable globals. docs/rules.md gives the seed passage behind
// every rule.
//
// A rule set is data: a Rules value made by Preset or Parse and changed by
// Set. A Position is an immutable value; Play returns a new one, so
// positions can be shared between goroutines. Lines of up to 64 points run
// on one-word bitboards; grids up to 19×19 on 384-bit bitboards with a
// neighbour table, behind the same API. A Game
// adds the history: positional and situational superko, the draw by
// repetition, and Undo.
//
//	r, _ := rules.Parse("alak size=6")
//	g, _ := rules.NewGame(r)
//	for _, p := range []int{0, 3, 4, 5} { // points 1, 4, 5, 6
//		if err := g.Play(rules.Place(p)); err != nil {
//			log.Fatal(err) // wraps rules.ErrIllegal, with the reason
//		}
//	}
//	fmt.Println(g.Position()) // x--o/O: White's stone on 6 captured the x on 5
//
// Points are 0-based in the kernel. Rules.MoveText writes a move in the one
// stored form (a point 1-based on a line, a GTP vertex on a grid: Vertex,
// ParseVertex, Column; a slide from-to) and ParseMoveText reads it back;
// package notation reads the other forms people type (the mail server's
// letters a..z, vertices on a line) and writes GTP's.
package rules
