package rules

import (
	"fmt"
	"math/bits"
	"strings"
)

// String writes the position as the seeds' line diagram: x and o for stones,
// the stone just played in capitals, - for an empty point and / for a point
// emptied by the last move's captures (forbidden to the player to move under
// Baljeu's rules). Grid rows are joined by |, top row first.
func (pos Position) String() string {
	if pos.e == nil {
		return ""
	}
	var b strings.Builder
	last := -1
	if pos.last.IsPlace() || pos.last.IsSlide() {
		last = pos.last.Point()
	}
	w := pos.e.r.Width
	for p := range pos.e.n {
		if p > 0 && p%w == 0 {
			b.WriteByte('|')
		}
		c := pos.At(p)
		switch {
		case c != None && p == last:
			b.WriteByte(c.Symbol() - 'a' + 'A')
		case c != None:
			b.WriteByte(c.Symbol())
		case pos.Removed(p) || pos.Forbidden(p):
			b.WriteByte('/')
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// MarshalText writes the diagram and the player to move: "x--oX- o".
func (pos Position) MarshalText() ([]byte, error) {
	return []byte(pos.String() + " " + string(pos.toMove.Symbol())), nil
}

// UnmarshalText reads what MarshalText writes. The rules are the receiver's
// if it has any, otherwise the alak preset; the size is the diagram's.
func (pos *Position) UnmarshalText(b []byte) error {
	r := MustPreset("alak")
	if pos.e != nil {
		r = pos.e.r
	}
	diagram, side, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	toMove, err := ParseColor(side)
	if err != nil {
		return err
	}
	p, err := ParseDiagram(r, diagram, toMove)
	if err != nil {
		return err
	}
	*pos = p
	return nil
}

// ParseColor reads a player: x, o, b, w, black or white (any case).
func ParseColor(s string) (Color, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "x", "b", "black":
		return Black, nil
	case "o", "w", "white":
		return White, nil
	}
	return None, fmt.Errorf("%w: player %q: write x (black) or o (white)", ErrSyntax, s)
}

// ParseDiagram sets up a position from a diagram in the form String writes,
// with _ also accepted for an empty point, and the player to move. The
// board's size is taken from the diagram. A / point is empty and marks the
// last move's captures: under KoCaptured it is forbidden to the player to
// move; under KoSimple it is the ko point when retaking there would recreate
// the board before the capital stone was played.
func ParseDiagram(r Rules, diagram string, toMove Color) (Position, error) {
	if toMove != Black && toMove != White {
		return Position{}, fmt.Errorf("%w: the player to move must be x or o", ErrSetup)
	}
	rows := strings.Split(strings.ReplaceAll(strings.TrimSpace(diagram), "\n", "|"), "|")
	w := len(rows[0])
	for _, row := range rows {
		if len(row) != w {
			return Position{}, fmt.Errorf("%w: diagram %q: every row must have the same length", ErrSetup, diagram)
		}
	}
	if w == 0 {
		return Position{}, fmt.Errorf("%w: the diagram is empty; write points as x, o, - (or _) and /", ErrSetup)
	}
	r.SetSize(w, len(rows))
	if r.Width != w || r.Height != len(rows) {
		return Position{}, fmt.Errorf("%w: diagram %q: a grid with one column is written as a line", ErrSetup, diagram)
	}
	start, err := NewPosition(r)
	if err != nil {
		return Position{}, err
	}
	cells := make([]Color, 0, r.Points())
	var slash []int
	last := -1
	for _, row := range rows {
		for _, ch := range row {
			p := len(cells)
			c := None
			switch ch {
			case 'x', 'X':
				c = Black
			case 'o', 'O':
				c = White
			case '-', '_', '.':
			case '/':
				slash = append(slash, p)
			default:
				return Position{}, fmt.Errorf("%w: diagram %q: %q is not a point; use x, o (capital for the last stone), - or _ for empty, / for just captured", ErrSetup, diagram, ch)
			}
			if ch == 'X' || ch == 'O' {
				if last >= 0 {
					return Position{}, fmt.Errorf("%w: diagram %q: only one stone can be the last played (capital)", ErrSetup, diagram)
				}
				last = p
			}
			cells = append(cells, c)
		}
	}
	if last >= 0 && cells[last] == toMove {
		return Position{}, fmt.Errorf("%w: diagram %q: the capital stone is the last move, so %s cannot be to move", ErrSetup, diagram, toMove)
	}
	return setup(start, cells, toMove, last, slash)
}

func setup(pos Position, cells []Color, toMove Color, last int, slash []int) (Position, error) {
	e := pos.e
	pos.toMove, pos.st, pos.hash = toMove, [2]uint64{}, 0
	if last >= 0 {
		pos.last = Place(last)
		if e.r.Movement == Sliding {
			pos.last = NoMove
		}
	}
	if pos.g != nil {
		g := &grid{}
		for p, c := range cells {
			if c != None {
				g.st[c].set(p)
				pos.hash ^= zobrist.stone[c][p]
			}
		}
		if len(slash) > 0 {
			g.marks = &gridMarks{}
			for _, p := range slash {
				g.marks.removed.set(p)
			}
			if e.r.Ko == KoCaptured {
				g.marks.forbid = g.marks.removed
			}
		}
		pos.g = g
	} else {
		for p, c := range cells {
			if c != None {
				pos.st[c] |= 1 << p
			}
		}
		pos.hash = hashRun(Black, pos.st[Black]) ^ hashRun(White, pos.st[White])
		for _, p := range slash {
			pos.removed |= 1 << p
		}
		switch e.r.Ko {
		case KoCaptured:
			pos.forbid = pos.removed
		case KoSimple:
			if len(slash) == 1 && last >= 0 {
				prev := pos.st
				prev[toMove.Opp()] &^= 1 << last
				prev[toMove] |= pos.removed
				if back, _, _, ok := e.place(pos.st, toMove, slash[0]); ok && back == prev {
					pos.forbid = pos.removed
				}
			}
		}
	}
	if e.r.Movement == Placement && e.r.Own != OwnStays {
		if p := pos.deadChain(); p >= 0 {
			return Position{}, fmt.Errorf("%w: the chain at point %d has no liberties, which these rules never leave on the board", ErrSetup, p+1)
		}
	}
	if e.r.Movement == Sliding {
		pos.end = pos.endState()
	} else if !e.r.Pass && !pos.hasLegal() {
		pos.end = NoMoves
	}
	return pos, nil
}

// deadChain returns a point of a chain without liberties, or -1.
func (pos Position) deadChain() int {
	e := pos.e
	if pos.g != nil {
		g := pos.g
		empty := e.gm.full.andNot(g.st[Black].or(g.st[White]))
		for p := range e.n {
			if c := g.at(p); c != None {
				if _, free := e.chain(g.st[c], empty, p); !free {
					return p
				}
			}
		}
		return -1
	}
	for c := Black; c <= White; c++ {
		for set := pos.st[c]; set != 0; {
			lo := set & -set
			run, _ := e.ln.RightRun(pos.st[c], 0, lo)
			run |= lo
			set &^= run
			_, lc := e.ln.LeftRun(pos.st[c], pos.st[c^1], lo)
			_, rc := e.ln.RightRun(pos.st[c], pos.st[c^1], lo)
			if lc && rc {
				return bits.TrailingZeros64(lo)
			}
		}
	}
	return -1
}
