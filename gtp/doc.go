// Package gtp speaks the Go Text Protocol (GTP version 2) on both sides.
//
// Client runs an external engine as a subprocess and sends it commands:
//
//	c, err := gtp.Start(ctx, "gnugo", "--mode", "gtp")
//	defer c.Close()
//	move, err := c.Command(ctx, "genmove", "b")
//
// Engine is the front end that lets other programs drive alak's rules and
// players over GTP (see docs/gtp.md for the commands and the vertex
// conventions on lines and grids).
package gtp
