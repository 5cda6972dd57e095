// Package gtp speaks the Go Text Protocol (GTP version 2) on both sides.
//
// Engine is the front end that lets other programs drive alak's rules and
// players over GTP; `alak gtp` runs it on standard input and output. It
// drives its game through a session.Session, and a failure wraps the
// library's error behind it:
//
//	e, err := gtp.NewEngine(rules.MustPreset("alak"), p) // p chooses genmove's moves
//	defer e.Close()
//	err = e.Run(ctx, os.Stdin, os.Stdout)                // until quit or the end of input
//	_, err = e.Execute(ctx, "play", "w", "A1")           // errors.Is(err, rules.ErrOccupied) after play b A1
//
// Client runs an external engine as a subprocess and sends it commands:
//
//	c, err := gtp.Start(ctx, "gnugo", "--mode", "gtp")
//	defer c.Close()
//	move, err := c.Command(ctx, "genmove", "b")
//
// docs/gtp.md lists the commands and the vertex conventions on lines and
// grids, including the two-letter columns of lines longer than 25 points.
package gtp
