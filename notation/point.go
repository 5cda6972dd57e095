package notation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"alak/internal/clip"
	"alak/rules"
)

// ErrNotation is wrapped by every error about text this package cannot read.
var ErrNotation = errors.New("bad notation")

// ParseError is the error of a point or a move that cannot be read: the
// text (cut short when long) and what is wrong with it, which says what is
// accepted. Front ends write it in their own words from the two parts.
// errors.Is(err, ErrNotation) holds for it.
type ParseError struct {
	Input string // the text that was read, clip.Text'ed
	Msg   string // what is wrong and what is accepted, without the text
}

func (e *ParseError) Error() string { return fmt.Sprintf("%v: %q: %s", ErrNotation, e.Input, e.Msg) }

// Unwrap returns ErrNotation.
func (e *ParseError) Unwrap() error { return ErrNotation }

func parseErr(input, format string, a ...any) error {
	return &ParseError{Input: clip.Text(strings.TrimSpace(input)), Msg: fmt.Sprintf(format, a...)}
}

// Letter returns the mail server's name of point p (0-based) on a line:
// "a" for the first point up to "z" for the 26th; "" beyond.
func Letter(p int) string {
	if p < 0 || p >= 26 {
		return ""
	}
	return string(rune('a' + p))
}

// Number returns the 1-based number of point p.
func Number(p int) string { return strconv.Itoa(p + 1) }

// ParseGTPVertex reads a GTP vertex such as "C1" or "c3" (any case), as
// rules.Rules.Vertex writes it.
func ParseGTPVertex(r rules.Rules, s string) (int, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] < '0' || t[i] > '9') {
		i++
	}
	x, ok := rules.ParseColumn(t[:i])
	row, err := strconv.Atoi(t[i:])
	if !ok || err != nil || i == 0 {
		return 0, parseErr(s, "not a GTP vertex: write a column letter (A-Z without I) and a row number, such as C1")
	}
	if x >= r.Width || row < 1 || row > r.Height {
		return 0, parseErr(s, "the vertex is off the %s board (columns A to %s, rows 1 to %d)", r.SizeString(), rules.Column(r.Width-1), r.Height)
	}
	return (r.Height-row)*r.Width + x, nil
}

// FormatPoint writes point p as users read it: its number on a line, its GTP
// vertex on a grid.
func FormatPoint(r rules.Rules, p int) string {
	if r.IsLine() {
		return Number(p)
	}
	return r.Vertex(p)
}

// ParsePoint reads a point in any accepted form: on a line a number from 1
// to n, a letter a-z (lines of up to 26 points) or a GTP vertex (C1); on a
// grid a GTP vertex (C3, row 1 at the bottom).
func ParsePoint(r rules.Rules, s string) (int, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, parseErr(s, "no point given: write a number from 1 to %d%s", r.Points(), letterHint(r))
	}
	if r.IsLine() {
		if n, err := strconv.Atoi(t); err == nil {
			if n < 1 || n > r.Width {
				return 0, parseErr(s, "off the board: points are 1 to %d", r.Width)
			}
			return n - 1, nil
		}
		if len(t) == 1 && t[0] >= 'a' && t[0] <= 'z' {
			p := int(t[0] - 'a')
			if p >= r.Width {
				return 0, parseErr(s, "off the board: letters are a to %s", Letter(r.Width-1))
			}
			return p, nil
		}
		if p, err := ParseGTPVertex(r, t); err == nil {
			return p, nil
		}
		return 0, parseErr(s, "not a point: write a number from 1 to %d%s, or a GTP vertex such as C1", r.Width, letterHint(r))
	}
	return ParseGTPVertex(r, t)
}

func letterHint(r rules.Rules) string {
	if r.IsLine() && r.Width <= 26 {
		return " or a letter from a to " + Letter(r.Width-1)
	}
	return ""
}
