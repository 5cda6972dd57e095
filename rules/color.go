package rules

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
