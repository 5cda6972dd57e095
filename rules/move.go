package rules

import (
	"alak/internal/clip"
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
	if m.IsDeclare() {
		return declareBase - int(m)
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
	case m.IsDeclare():
		return "*" + strconv.Itoa(m.Point()+1)
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
	if rest, ok := strings.CutPrefix(t, "*"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > 1<<15 {
			return NoMove, fmt.Errorf("%w: %q: a declaration is * and a point number from 1, like *3", ErrSyntax, clip.Text(s))
		}
		return Declare(n - 1), nil
	}
	if a, b, ok := strings.Cut(t, "-"); ok {
		from, err1 := strconv.Atoi(a)
		to, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || from < 1 || to < 1 || from > 1000 || to > 1000 {
			return NoMove, fmt.Errorf("%w: %q: a slide is two slot numbers from 1 like 1-4", ErrSyntax, clip.Text(s))
		}
		return Slide(from-1, to-1), nil
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > 1<<16 {
		return NoMove, fmt.Errorf("%w: %q: a move is a point number from 1, from-to, pass or resign", ErrSyntax, clip.Text(s))
	}
	return Place(n - 1), nil
}

// gtpLetters are the column letters of a vertex: A to Z without I.
const gtpLetters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// Column names column x (0-based) of a vertex: A to Z skipping I for the
// first 25 columns, then two letters AA, AB, ... (again without I), this
// project's extension for lines longer than 25 points.
func Column(x int) string {
	if x < 25 {
		return gtpLetters[x : x+1]
	}
	x -= 25
	return gtpLetters[x/25:x/25+1] + gtpLetters[x%25:x%25+1]
}

// ParseColumn reads what Column writes, in either case.
func ParseColumn(s string) (int, bool) {
	s = strings.ToUpper(s)
	idx := func(b byte) int { return strings.IndexByte(gtpLetters, b) }
	switch len(s) {
	case 1:
		if i := idx(s[0]); i >= 0 {
			return i, true
		}
	case 2:
		if a, b := idx(s[0]), idx(s[1]); a >= 0 && b >= 0 {
			return 25 + a*25 + b, true
		}
	}
	return 0, false
}

// Vertex names point p of the board as GTP does: the column letters, then
// the row number, row 1 at the bottom. A line is one row: point 3 is "C1".
func (r Rules) Vertex(p int) string {
	w, h := max(r.Width, 1), max(r.Height, 1)
	x, y := p%w, p/w
	return Column(x) + strconv.Itoa(h-y)
}

// ParseVertex reads a vertex such as "C3" (any case) on the board of r.
func (r Rules) ParseVertex(s string) (int, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] < '0' || t[i] > '9') {
		i++
	}
	x, ok := ParseColumn(t[:i])
	row, err := strconv.Atoi(t[i:])
	if !ok || err != nil || i == 0 {
		return 0, fmt.Errorf("%w: %q is not a vertex: a column letter (A-Z without I) and a row number, such as C1", ErrSyntax, clip.Text(s))
	}
	if x >= r.Width || row < 1 || row > r.Height {
		return 0, fmt.Errorf("%w: vertex %q is off the %s board", ErrSyntax, clip.Text(s), r.SizeString())
	}
	return (r.Height-row)*r.Width + x, nil
}

// MoveText writes m in the one text form of a move under r, which games
// are stored and sent in: a placement on a line as its point number from 1
// ("3"), a placement on a grid as its vertex ("C3", row 1 at the bottom), a
// slide as two slot numbers ("1-4"), "pass" and "resign". Move.String, which
// does not know the board, writes a grid point as its index instead.
func (r Rules) MoveText(m Move) string {
	if m.IsPlace() && !r.IsLine() {
		return r.Vertex(m.Point())
	}
	return m.String()
}

// ParseMoveText reads what MoveText writes (vertices in either case) and
// checks that the move fits the board and the kind of move of r; it does
// not check that the move is legal.
func (r Rules) ParseMoveText(s string) (Move, error) {
	t := strings.TrimSpace(s)
	var m Move
	var err error
	if !r.IsLine() && t != "" && (t[0] < '0' || t[0] > '9') && !strings.EqualFold(t, "pass") && !strings.EqualFold(t, "resign") {
		var p int
		if p, err = r.ParseVertex(t); err != nil {
			return NoMove, err
		}
		m = Place(p)
	} else if m, err = parseMove(t); err != nil {
		return NoMove, err
	}
	switch {
	case m.IsSlide() && r.Movement != Sliding:
		return NoMove, fmt.Errorf("%w: %q: these rules place stones; a move is a point, pass or resign", ErrSyntax, clip.Text(s))
	case m.IsPlace() && r.Movement == Sliding:
		return NoMove, fmt.Errorf("%w: %q: these rules slide pieces; a move is two slot numbers such as 1-4", ErrSyntax, clip.Text(s))
	case m.IsDeclare() && r.Safe == SafeOff:
		return NoMove, fmt.Errorf("%w: %q: a declaration (*N) needs the rule safe=eye or safe=field", ErrSyntax, clip.Text(s))
	case m.IsDeclare() && m.Point() >= r.Points():
		return NoMove, fmt.Errorf("%w: %q: the board has %d points", ErrSyntax, clip.Text(s), r.Points())
	case m.IsPlace() && m.Point() >= r.Points():
		return NoMove, fmt.Errorf("%w: %q: the board has %d points", ErrSyntax, clip.Text(s), r.Points())
	case m.IsSlide() && (m.From() >= r.Width || m.To() >= r.Width):
		return NoMove, fmt.Errorf("%w: %q: the line has %d slots", ErrSyntax, clip.Text(s), r.Width)
	case !r.IsLine() && m.IsPlace() && !strings.ContainsAny(t, gtpLetters+strings.ToLower(gtpLetters)):
		return NoMove, fmt.Errorf("%w: %q: a point of a grid is a vertex such as C3", ErrSyntax, clip.Text(s))
	}
	return m, nil
}
