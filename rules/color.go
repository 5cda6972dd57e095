package rules

import (
	"fmt"
	"strings"
)

// Color is a player or the content of a point.
type Color int8

// The players, and None for an empty point or a drawn game.
const (
	Black Color = iota // x, moves first
	White              // o
	None               // an empty point, or no winner
)

// Opp returns the other player. It is only meaningful for Black and White.
func (c Color) Opp() Color { return c ^ 1 }

// Symbol returns the lower-case diagram letter: x, o, or - for None.
func (c Color) Symbol() byte {
	switch c {
	case Black:
		return 'x'
	case White:
		return 'o'
	}
	return '-'
}

// Letter returns the player's letter as the diagrams, the JSON snapshot,
// the database and the messages write it: "x" or "o" ("" for None).
func (c Color) Letter() string {
	switch c {
	case Black:
		return "x"
	case White:
		return "o"
	}
	return ""
}

// ParseColor reads a player as Letter or String writes it: x, o, b, w,
// black or white (any case).
func ParseColor(s string) (Color, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "x", "b", "black":
		return Black, nil
	case "o", "w", "white":
		return White, nil
	}
	return None, fmt.Errorf("%w: player %q: write x (black) or o (white)", ErrSyntax, s)
}

// String returns "black", "white" or "none".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "none"
}
