package notation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"alak/rules"
)

// ErrNotation is wrapped by every error about text this package cannot read.
var ErrNotation = errors.New("bad notation")

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

// GTPColumn returns the GTP column name of column x (0-based): A to Z
// skipping I for the first 25 columns, then, as this project's extension for
// lines longer than 25 points, two letters AA, AB, ... (again skipping I).
func GTPColumn(x int) string { return rules.Column(x) }

// GTPVertex returns the GTP vertex of point p: column letters then the row
// number, row 1 at the bottom. A line is one row: point 3 is "C1".
func GTPVertex(r rules.Rules, p int) string { return r.Vertex(p) }

// ParseGTPVertex reads a GTP vertex such as "C1" or "c3" (any case).
func ParseGTPVertex(r rules.Rules, s string) (int, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] < '0' || t[i] > '9') {
		i++
	}
	x, ok := rules.ParseColumn(t[:i])
	row, err := strconv.Atoi(t[i:])
	if !ok || err != nil || i == 0 {
		return 0, fmt.Errorf("%w: %q is not a GTP vertex: a column letter (A-Z without I) and a row number, such as C1", ErrNotation, s)
	}
	if x >= r.Width || row < 1 || row > r.Height {
		return 0, fmt.Errorf("%w: vertex %q is off the %s board", ErrNotation, s, r.SizeString())
	}
	return (r.Height-row)*r.Width + x, nil
}

// FormatPoint writes point p as users read it: its number on a line, its GTP
// vertex on a grid.
func FormatPoint(r rules.Rules, p int) string {
	if r.IsLine() {
		return Number(p)
	}
	return GTPVertex(r, p)
}

// ParsePoint reads a point in any accepted form: on a line a number from 1
// to n, a letter a-z (lines of up to 26 points) or a GTP vertex (C1); on a
// grid a GTP vertex (C3, row 1 at the bottom).
func ParsePoint(r rules.Rules, s string) (int, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("%w: empty point: write a number from 1 to %d%s", ErrNotation, r.Points(), letterHint(r))
	}
	if r.IsLine() {
		if n, err := strconv.Atoi(t); err == nil {
			if n < 1 || n > r.Width {
				return 0, fmt.Errorf("%w: point %d is off the board: points are 1 to %d", ErrNotation, n, r.Width)
			}
			return n - 1, nil
		}
		if len(t) == 1 && t[0] >= 'a' && t[0] <= 'z' {
			p := int(t[0] - 'a')
			if p >= r.Width {
				return 0, fmt.Errorf("%w: point %q is off the board: letters are a to %s", ErrNotation, t, Letter(r.Width-1))
			}
			return p, nil
		}
		if p, err := ParseGTPVertex(r, t); err == nil {
			return p, nil
		}
		return 0, fmt.Errorf("%w: %q is not a point: write a number from 1 to %d%s, or a GTP vertex such as C1", ErrNotation, s, r.Width, letterHint(r))
	}
	return ParseGTPVertex(r, t)
}

func letterHint(r rules.Rules) string {
	if r.IsLine() && r.Width <= 26 {
		return " or a letter from a to " + Letter(r.Width-1)
	}
	return ""
}
