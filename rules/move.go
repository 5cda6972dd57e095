package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Move is a small integer: a placement on a point, a slide from one slot to
// another, a pass, or a resignation. Points are 0-based in the kernel (the
// notation package writes them 1-based); a grid point is y*width+x.
type Move int32

// Special moves.
const (
	NoMove Move = -1 // the absence of a move (the last move of a start position)
	Pass   Move = -2
	Resign Move = -3
)

const slideFlag = 1 << 20

// Place returns the placement of a stone on point p (0-based).
func Place(p int) Move { return Move(p) }

// Slide returns the move of the piece on slot from to slot to (0-based).
func Slide(from, to int) Move { return Move(slideFlag | from<<10 | to) }

// IsPlace reports whether m places a stone.
func (m Move) IsPlace() bool { return m >= 0 && m < slideFlag }

// IsSlide reports whether m slides a piece.
func (m Move) IsSlide() bool { return m >= slideFlag }

// Point returns the point of a placement, or the target slot of a slide.
func (m Move) Point() int {
	if m.IsSlide() {
		return m.To()
	}
	return int(m)
}

// From returns the slot a sliding move starts from.
func (m Move) From() int { return int(m-slideFlag) >> 10 }

// To returns the slot a sliding move ends on.
func (m Move) To() int { return int(m-slideFlag) & 1023 }

// String writes the move with 1-based points: "3", "1-4", "pass", "resign".
// Grid points are written as their 1-based index; the notation package
// writes them as coordinates.
func (m Move) String() string {
	switch {
	case m == Pass:
		return "pass"
	case m == Resign:
		return "resign"
	case m.IsSlide():
		return strconv.Itoa(m.From()+1) + "-" + strconv.Itoa(m.To()+1)
	case m.IsPlace():
		return strconv.Itoa(int(m) + 1)
	}
	return "none"
}

// MarshalText implements encoding.TextMarshaler with the form of String.
func (m Move) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler. It accepts what String
// writes: a 1-based point number, "from-to", "pass" or "resign".
func (m *Move) UnmarshalText(b []byte) error {
	mv, err := parseMove(string(b))
	if err != nil {
		return err
	}
	*m = mv
	return nil
}

func parseMove(s string) (Move, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "pass":
		return Pass, nil
	case "resign":
		return Resign, nil
	}
	if a, b, ok := strings.Cut(t, "-"); ok {
		from, err1 := strconv.Atoi(a)
		to, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || from < 1 || to < 1 || from > 1000 || to > 1000 {
			return NoMove, fmt.Errorf("%w: %q: a slide is two slot numbers from 1 like 1-4", ErrSyntax, s)
		}
		return Slide(from-1, to-1), nil
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > 1<<16 {
		return NoMove, fmt.Errorf("%w: %q: a move is a point number from 1, from-to, pass or resign", ErrSyntax, s)
	}
	return Place(n - 1), nil
}
