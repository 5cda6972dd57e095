package rules

import (
	"alak/internal/clip"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// String writes the position as the seeds' line diagram: x and o for stones,
// the stone just played in capitals, - for an empty point and / for a point
// emptied by the last move's captures (under Baljeu's rules, the points
// forbidden to the player to move). Grid rows are joined by |, top row
// first.
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
		case pos.Safe(p):
			b.WriteByte('*') // a point declared safe (safe.go)
		case pos.Forbidden(p) || pos.Removed(p) && pos.e.r.Ko != KoCaptured:
			// Under Baljeu's rule / is a point the player to move may not
			// take: a point the mover's own stones left (own=removed) is
			// not one, and is drawn empty.
			b.WriteByte('/')
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// MarshalText writes the position in full: the diagram, the player to
// move, then, when they are not zero, the prisoners each side took before
// (Black's first) and the consecutive passes that led to it, and the last
// move where the diagram cannot show it (a slide; a stone that did not
// stay): "x--oX- o", "x-o--- x prisoners=2-1 passes=1", "xx-x-o-ooo- o
// last=4-5". The rules are not part of
// it: ParsePosition reads it back under given rules.
func (pos Position) MarshalText() ([]byte, error) {
	if pos.e == nil {
		return nil, fmt.Errorf("%w: the zero Position has no rules; use NewPosition", ErrSetup)
	}
	s := pos.String() + " " + pos.toMove.Letter()
	if pos.prisoners != [2]int16{} {
		s += fmt.Sprintf(" prisoners=%d-%d", pos.prisoners[Black], pos.prisoners[White])
	}
	if pos.passes > 0 {
		s += fmt.Sprintf(" passes=%d", pos.passes)
	}
	if pos.lastHidden() {
		s += " last=" + pos.e.r.MoveText(pos.last)
	}
	return []byte(s), nil
}

// lastHidden reports whether the diagram cannot show the last move: a
// slide (the capital shows only where it went), or a placement whose stone
// is gone (removed with the chain it closed, under own=removed or
// own=together).
func (pos Position) lastHidden() bool {
	return pos.last.IsSlide() || pos.last.IsDeclare() || pos.last.IsPlace() && pos.At(pos.last.Point()) == None
}

// UnmarshalText reads what MarshalText writes under the receiver's rules.
// A position without rules (the zero Position) cannot be read into: the
// text does not say the rules, so use ParsePosition.
func (pos *Position) UnmarshalText(b []byte) error {
	if pos.e == nil {
		return fmt.Errorf("%w: a position's text does not hold its rules; read it with ParsePosition(rules, text)", ErrSetup)
	}
	p, err := ParsePosition(pos.e.r, string(b))
	if err != nil {
		return err
	}
	*pos = p
	return nil
}

// ParsePosition reads a position as MarshalText writes it under the rules r.
// The board's size is the diagram's.
func ParsePosition(r Rules, text string) (Position, error) {
	f := strings.Fields(text)
	if len(f) < 2 {
		return Position{}, fmt.Errorf("%w: position %q: the diagram is followed by the player to move: write x (black) or o (white), as in x--oX- o", ErrSetup, clip.Text(text))
	}
	toMove, err := ParseColor(f[1])
	if err != nil {
		return Position{}, err
	}
	pos, err := ParseDiagram(r, f[0], toMove)
	if err != nil {
		return Position{}, err
	}
	var black, white, passes int
	last := NoMove
	seen := map[string]bool{}
	for _, kv := range f[2:] {
		k, v, _ := strings.Cut(kv, "=")
		if seen[k] {
			return Position{}, fmt.Errorf("%w: position %q: %s is given twice", ErrSetup, clip.Text(text), clip.Text(k))
		}
		seen[k] = true
		switch k {
		case "prisoners":
			a, b, ok := strings.Cut(v, "-")
			var e1, e2 error
			black, e1 = strconv.Atoi(a)
			white, e2 = strconv.Atoi(b)
			if !ok || e1 != nil || e2 != nil {
				return Position{}, fmt.Errorf("%w: prisoners=%q: write Black's then White's, such as prisoners=2-1", ErrSetup, clip.Text(v))
			}
		case "passes":
			if passes, err = strconv.Atoi(v); err != nil || passes < 1 || passes > 9 {
				return Position{}, fmt.Errorf("%w: passes=%q: a count from 1 to 9", ErrSetup, clip.Text(v))
			}
		case "last":
			if last, err = r.ParseMoveText(v); err != nil || !(last.IsSlide() || last.IsPlace() || last.IsDeclare()) {
				return Position{}, fmt.Errorf("%w: last=%q: the last move is a point, a slide such as 4-5 or a declaration such as *3", ErrSetup, clip.Text(v))
			}
		default:
			return Position{}, fmt.Errorf("%w: position %q: %q is not understood; after the diagram and the player to move come prisoners=B-W, passes=N and last=MOVE", ErrSetup, clip.Text(text), clip.Text(kv))
		}
	}
	if pos, err = pos.WithPrisoners(black, white); err != nil {
		return Position{}, err
	}
	if last != NoMove {
		switch {
		case passes > 0:
			return Position{}, fmt.Errorf("%w: last=%s and passes=%d: the last move was a pass", ErrSetup, r.MoveText(last), passes)
		case last.IsPlace() && (pos.last != NoMove || pos.At(last.Point()) != None):
			return Position{}, fmt.Errorf("%w: last=%s: a placement whose stone stayed is drawn as the capital stone", ErrSetup, r.MoveText(last))
		case last.IsDeclare() && (pos.last != NoMove || !pos.Safe(last.Point()) || pos.removed != 0):
			return Position{}, fmt.Errorf("%w: last=%s: a declaration leaves its point safe (*) and captures nothing, so the diagram has no capital stone and no /", ErrSetup, r.MoveText(last))
		case last.IsSlide() && (pos.At(last.From()) != None || pos.At(last.To()) == toMove):
			return Position{}, fmt.Errorf("%w: last=%s: the slide leaves its slot empty and ends on a piece of the player who moved (or an empty slot, when the piece was captured)", ErrSetup, r.MoveText(last))
		}
		pos.last = last
	}
	if passes > 0 {
		switch {
		case !r.Pass:
			return Position{}, fmt.Errorf("%w: passes=%d: these rules have no passing", ErrSetup, passes)
		case pos.last != NoMove || pos.removed != 0:
			return Position{}, fmt.Errorf("%w: passes=%d: the last move was a pass, so the diagram has no capital stone and no /", ErrSetup, passes)
		}
		pos.passes, pos.last = uint8(passes), Pass
		pos.forbid = 0
		if passes >= r.EndPasses {
			pos.end = Passes
		}
	}
	return pos, nil
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
	var safe uint64
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
			case '*':
				if r.Safe == SafeOff || !r.IsLine() {
					return Position{}, fmt.Errorf("%w: diagram %q: * is a safe point, which needs the rule safe=eye or safe=field", ErrSetup, diagram)
				}
				safe |= 1 << p
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
	pos, err := setup(start, cells, toMove, last, slash)
	if err != nil || safe == 0 {
		return pos, err
	}
	return pos.WithSafe(safe)
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
