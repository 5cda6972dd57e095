package rules

import (
	"fmt"
	"slices"
)

// grid is the board of a grid position: one cell per point, row by row from
// the top. It is never changed after the position that owns it is made.
type grid struct {
	cells   []Color
	count   [2]int
	forbid  []int16 // points the player to move may not place on
	removed []int16 // points emptied by captures on the last move
}

// pointSet is a set of up to 19×19 points.
type pointSet [6]uint64

func (s *pointSet) add(p int)          { s[p>>6] |= 1 << (p & 63) }
func (s *pointSet) has(p int) bool     { return s[p>>6]>>(p&63)&1 != 0 }
func (g *grid) isForbidden(p int) bool { return slices.Contains(g.forbid, int16(p)) }
func (g *grid) isRemoved(p int) bool   { return slices.Contains(g.removed, int16(p)) }

func (g *grid) forbidKey() uint64 {
	var h uint64
	for _, p := range g.forbid {
		h ^= zobrist.forbid[p]
	}
	return h
}

func (g *grid) withoutMarks() *grid {
	if len(g.forbid) == 0 && len(g.removed) == 0 {
		return g
	}
	return &grid{cells: g.cells, count: g.count}
}

// onEdge reports whether p is on the border of the board. A board of one
// row has only its two ends: rows above and below a line do not exist.
func (e *engine) onEdge(p int) bool {
	x, y := p%e.r.Width, p/e.r.Width
	return x == 0 || x == e.r.Width-1 || (e.r.Height > 1 && (y == 0 || y == e.r.Height-1))
}

// string collects the string of colour c through p into members (appended)
// and reports whether it has a liberty: an empty neighbour, or, when the
// edges are liberties (EdgeCapture off), a point on the edge.
func (e *engine) string(cells []Color, p int, members []int16) ([]int16, bool) {
	c := cells[p]
	var seen pointSet
	seen.add(p)
	start := len(members)
	members = append(members, int16(p))
	free := false
	for i := start; i < len(members); i++ {
		q := int(members[i])
		if !e.r.EdgeCapture && e.onEdge(q) {
			free = true
		}
		for _, nb := range e.nbr[q] {
			if nb < 0 {
				break
			}
			switch cells[nb] {
			case None:
				free = true
			case c:
				if !seen.has(int(nb)) {
					seen.add(int(nb))
					members = append(members, nb)
				}
			}
		}
	}
	return members, free
}

// placeGrid puts a stone of colour c on the empty point p and applies
// captures and the own-liberty rule, without ko checks.
func (e *engine) placeGrid(cells []Color, c Color, p int) (out []Color, capt, lost []int16, err error) {
	out = slices.Clone(cells)
	out[p] = c
	var buf [19 * 19]int16
	var dead []int16
	for _, nb := range e.nbr[p] {
		if nb < 0 {
			break
		}
		if out[nb] != c.Opp() || slices.Contains(dead, nb) {
			continue
		}
		members, free := e.string(out, int(nb), buf[:0])
		if !free {
			dead = append(dead, members...)
		}
	}
	if e.r.Own != OwnStays {
		board := out
		if e.r.Own != OwnRemovedTogether && len(dead) > 0 {
			board = slices.Clone(out)
			for _, q := range dead {
				board[q] = None
			}
		}
		members, free := e.string(board, p, buf[:0])
		if !free {
			if e.r.Own == OwnIllegal {
				return cells, nil, nil, ErrSuicide
			}
			lost = slices.Clone(members)
		}
	}
	for _, q := range dead {
		out[q] = None
	}
	for _, q := range lost {
		out[q] = None
	}
	if len(dead) > 0 {
		capt = slices.Clone(dead)
	}
	return out, capt, lost, nil
}

func (pos Position) playGrid(p int) (Position, error) {
	e, g := pos.e, pos.g
	if g.cells[p] != None {
		return pos, fmt.Errorf("point %d: %w", p+1, ErrOccupied)
	}
	if g.isForbidden(p) {
		if e.r.Ko == KoSimple {
			return pos, fmt.Errorf("point %d: %w", p+1, ErrKo)
		}
		return pos, fmt.Errorf("point %d: %w", p+1, ErrForbidden)
	}
	c := pos.toMove
	cells, capt, lost, err := e.placeGrid(g.cells, c, p)
	if err != nil {
		return pos, fmt.Errorf("point %d: %w", p+1, err)
	}
	same := slices.Equal(cells, g.cells)
	if e.r.Ko == KoSimple && pos.last == Pass && same {
		return pos, fmt.Errorf("point %d: %w", p+1, ErrKo)
	}
	next := pos.advance(Place(p))
	ng := &grid{cells: cells, count: g.count}
	ng.count[c] += 1 - len(lost)
	ng.count[c^1] -= len(capt)
	next.hash ^= zobrist.stone[c][p]
	for _, q := range capt {
		next.hash ^= zobrist.stone[c^1][q]
	}
	for _, q := range lost {
		next.hash ^= zobrist.stone[c][q]
	}
	ng.removed = append(slices.Clone(capt), lost...)
	next.prisoners[c] += int16(len(capt))
	next.prisoners[c^1] += int16(len(lost))
	switch e.r.Ko {
	case KoCaptured:
		ng.forbid = capt
	case KoSimple:
		if len(capt) == 1 {
			if back, _, _, err := e.placeGrid(cells, c^1, int(capt[0])); err == nil && slices.Equal(back, g.cells) {
				ng.forbid = capt
			}
		}
	}
	next.g = ng
	if e.r.UnchangedLoses && same {
		next.end = Unchanged
		return next, nil
	}
	if !e.r.Pass && !next.hasLegal() {
		next.end = NoMoves
	}
	return next, nil
}

// legal reports whether the player to move may place on the empty point p.
func (g *grid) legal(pos Position, p int) bool {
	e := pos.e
	if g.cells[p] != None || g.isForbidden(p) {
		return false
	}
	checkKo := e.r.Ko == KoSimple && pos.last == Pass && e.r.Own != OwnStays
	if e.r.Own != OwnIllegal && !checkKo {
		return true
	}
	cells, _, _, err := e.placeGrid(g.cells, pos.toMove, p)
	return err == nil && !(checkKo && slices.Equal(cells, g.cells))
}

func (g *grid) hasLegal(pos Position) bool {
	for p := range g.cells {
		if g.legal(pos, p) {
			return true
		}
	}
	return false
}

func (g *grid) legalPlacements(pos Position, buf []Move) []Move {
	for p := range g.cells {
		if g.legal(pos, p) {
			buf = append(buf, Place(p))
		}
	}
	return buf
}

func (g *grid) territory(e *engine) (t [2]int) {
	var seen pointSet
	var stack []int
	for p, c := range g.cells {
		if c != None || seen.has(p) {
			continue
		}
		var by [2]bool
		size := 0
		stack = append(stack[:0], p)
		seen.add(p)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			for _, nb := range e.nbr[q] {
				if nb < 0 {
					break
				}
				switch g.cells[nb] {
				case None:
					if !seen.has(int(nb)) {
						seen.add(int(nb))
						stack = append(stack, int(nb))
					}
				default:
					by[g.cells[nb]] = true
				}
			}
		}
		if by[Black] != by[White] {
			c := Black
			if by[White] {
				c = White
			}
			t[c] += size
		}
	}
	return t
}

// mirrorGrid reflects the grid left to right.
func (pos Position) mirrorGrid() Position {
	w := pos.e.r.Width
	f := func(p int) int { return p/w*w + (w - 1 - p%w) }
	g := pos.g
	ng := &grid{cells: make([]Color, len(g.cells)), count: g.count}
	var h uint64
	for p, c := range g.cells {
		ng.cells[f(p)] = c
		if c != None {
			h ^= zobrist.stone[c][f(p)]
		}
	}
	for _, p := range g.forbid {
		ng.forbid = append(ng.forbid, int16(f(int(p))))
	}
	for _, p := range g.removed {
		ng.removed = append(ng.removed, int16(f(int(p))))
	}
	m := pos
	m.g, m.hash = ng, h
	m.last = mirrorMove(pos.last, f)
	return m
}

// less orders grids by their cells, for Canonical.
func (g *grid) less(o *grid) bool {
	if c := slices.Compare(g.cells, o.cells); c != 0 {
		return c < 0
	}
	return slices.Compare(g.forbid, o.forbid) < 0
}
