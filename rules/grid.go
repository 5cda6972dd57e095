package rules

import (
	"math/bits"
	"slices"
)

// gridWords is the number of 64-bit words of a grid bitboard: 384 bits hold
// a 19×19 board.
const gridWords = 6

// bitboard is a set of grid points, bit p%64 of word p/64 for point p.
type bitboard [gridWords]uint64

func (b *bitboard) set(p int)      { b[p>>6] |= 1 << (p & 63) }
func (b *bitboard) has(p int) bool { return b[p>>6]>>(p&63)&1 != 0 }

func (b bitboard) and(o bitboard) (r bitboard) {
	for i := range b {
		r[i] = b[i] & o[i]
	}
	return r
}

func (b bitboard) or(o bitboard) (r bitboard) {
	for i := range b {
		r[i] = b[i] | o[i]
	}
	return r
}

func (b bitboard) andNot(o bitboard) (r bitboard) {
	for i := range b {
		r[i] = b[i] &^ o[i]
	}
	return r
}

// empty reports whether b has no point. It and count take a pointer: a
// copy of the array is read in 16-byte pieces, which stalls on words just
// written one at a time. (Comparing with bitboard{} calls memequal.)
func (b *bitboard) empty() bool {
	var x uint64
	for i := range b {
		x |= b[i]
	}
	return x == 0
}

func (b *bitboard) count() int {
	n := 0
	for i := range b {
		n += bits.OnesCount64(b[i])
	}
	return n
}

// shl moves every point k places up the numbering (0 < k < 64).
func (b bitboard) shl(k uint) (r bitboard) {
	r[0] = b[0] << k
	for i := 1; i < gridWords; i++ {
		r[i] = b[i]<<k | b[i-1]>>(64-k)
	}
	return r
}

// shr moves every point k places down the numbering (0 < k < 64).
func (b bitboard) shr(k uint) (r bitboard) {
	for i := 0; i < gridWords-1; i++ {
		r[i] = b[i]>>k | b[i+1]<<(64-k)
	}
	r[gridWords-1] = b[gridWords-1] >> k
	return r
}

// each calls f for every point of b in increasing order.
func (b bitboard) each(f func(p int)) {
	for i, w := range b {
		for ; w != 0; w &= w - 1 {
			f(i<<6 | bits.TrailingZeros64(w))
		}
	}
}

// grid holds what the bitboards of a line position hold, for a grid: the
// stones, the forbidden points and the points just captured. It is never
// changed after the position that owns it is made.
type grid struct {
	st    [2]bitboard
	marks *gridMarks // nil when no point is forbidden or was just emptied
}

// gridMarks are the points a grid position marks: most positions have none,
// and leaving them out halves the allocation of a move.
type gridMarks struct {
	forbid  bitboard // points the player to move may not place on
	removed bitboard // points emptied by captures on the last move
}

// noMarks is the marks of a grid without any; it is never written.
var noMarks gridMarks

// m returns the grid's marks, noMarks when it has none.
func (g *grid) m() *gridMarks {
	if g.marks == nil {
		return &noMarks
	}
	return g.marks
}

// gridMasks are the engine's precomputed bitboards for a grid.
type gridMasks struct {
	full     bitboard // every point of the board
	notFirst bitboard // points not in the first column
	notLast  bitboard // points not in the last column
	border   bitboard // points on the board's edge (only the ends on a line)
}

func (e *engine) buildMasks() {
	w, h := e.r.Width, e.r.Height
	for p := range e.n {
		x, y := p%w, p/w
		e.gm.full.set(p)
		if x > 0 {
			e.gm.notFirst.set(p)
		}
		if x < w-1 {
			e.gm.notLast.set(p)
		}
		if x == 0 || x == w-1 || (h > 1 && (y == 0 || y == h-1)) {
			e.gm.border.set(p)
		}
	}
}

// around returns the points next to b (b itself may be included).
func (e *engine) around(b bitboard) bitboard {
	w := uint(e.r.Width)
	r := b.shl(1).and(e.gm.notFirst).or(b.shr(1).and(e.gm.notLast))
	if e.r.Height > 1 {
		r = r.or(b.shl(w)).or(b.shr(w))
	}
	return r.and(e.gm.full)
}

// touchesLiberty reports whether point p alone shows that its chain is
// free: an empty neighbour, or the border when the edges are liberties.
func (e *engine) touchesLiberty(empty *bitboard, p int) bool {
	if !e.r.EdgeCapture && e.gm.border.has(p) {
		return true
	}
	for _, nb := range e.nbr[p] {
		if nb < 0 {
			break
		}
		if empty.has(int(nb)) {
			return true
		}
	}
	return false
}

// chain returns the chain of stones in same through p, and whether it has a
// liberty among empty (or on the border when the edges are liberties).
func (e *engine) chain(same, empty bitboard, p int) (bitboard, bool) {
	var s bitboard
	free := e.chainInto(&s, &same, &empty, p)
	return s, free
}

// chainInto adds the chain of stones in same through p to *s, which must
// not yet hold any of it, and reports whether the chain has a liberty. It
// walks the neighbour table (chains are usually a few stones) and works on
// the bitboards in place: copies of 48-byte arrays were much of the cost of
// a grid move.
func (e *engine) chainInto(s, same, empty *bitboard, p int) bool {
	var todo bitboard
	s.set(p)
	todo.set(p)
	free := false
	for i := 0; i < e.gw; {
		if todo[i] == 0 {
			i++
			continue
		}
		q := i<<6 | bits.TrailingZeros64(todo[i])
		todo[i] &= todo[i] - 1
		if !e.r.EdgeCapture && e.gm.border.has(q) {
			free = true
		}
		for _, nb := range e.nbr[q] {
			if nb < 0 {
				break
			}
			x := int(nb)
			switch {
			case empty.has(x):
				free = true
			case same.has(x) && !s.has(x):
				s.set(x)
				todo.set(x)
				if x>>6 < i {
					i = x >> 6
				}
			}
		}
	}
	return free
}

func (g *grid) at(p int) Color {
	switch {
	case g.st[Black].has(p):
		return Black
	case g.st[White].has(p):
		return White
	}
	return None
}

func (g *grid) isForbidden(p int) bool { return g.m().forbid.has(p) }
func (g *grid) isRemoved(p int) bool   { return g.m().removed.has(p) }

func (g *grid) forbidKey() uint64 {
	var h uint64
	g.m().forbid.each(func(p int) { h ^= zobrist.forbid[p] })
	return h
}

func (g *grid) withoutMarks() *grid {
	if g.marks == nil {
		return g
	}
	return &grid{st: g.st}
}

// placeGrid puts a stone of colour c on the empty point p of the stones st
// and applies captures and the own-liberty rule, without ko checks: the new
// stones go to *nst, the enemy points captured to *capt and the mover's
// points removed to *lost, all three zero on entry. Only the engine's words
// in use are touched.
func (e *engine) placeGrid(nst *[2]bitboard, capt, lost *bitboard, st *[2]bitboard, c Color, p int) error {
	me, op := &st[c], &st[c^1]
	var empty bitboard
	for i := range e.gw {
		empty[i] = e.gm.full[i] &^ (me[i] | op[i])
	}
	empty[p>>6] &^= 1 << (p & 63)
	var s bitboard
	for _, nb := range e.nbr[p] {
		if nb < 0 {
			break
		}
		q := int(nb)
		if !op.has(q) || capt.has(q) || e.touchesLiberty(&empty, q) {
			continue
		}
		if !e.chainInto(&s, op, &empty, q) {
			for i := range e.gw {
				capt[i] |= s[i]
			}
		}
		s = bitboard{}
	}
	if e.r.Own != OwnStays {
		libs := empty
		if e.r.Own != OwnRemovedTogether {
			for i := range e.gw {
				libs[i] |= capt[i]
			}
		}
		if !e.touchesLiberty(&libs, p) {
			mine := *me
			mine.set(p)
			if !e.chainInto(&s, &mine, &libs, p) {
				if e.r.Own == OwnIllegal {
					return ErrSuicide
				}
				*lost = s
			}
		}
	}
	nme, nop := &nst[c], &nst[c^1]
	for i := range e.gw {
		nme[i] = me[i] &^ lost[i]
		nop[i] = op[i] &^ capt[i]
	}
	if !lost.has(p) {
		nme.set(p)
	}
	return nil
}

// playGrid plays a placement on a grid, in place: on error *pos is
// unchanged.
func (pos *Position) playGrid(p int) error {
	e, g := pos.e, pos.g
	if g.at(p) != None {
		return moveErr(Place(p), ErrOccupied)
	}
	if g.m().forbid.has(p) {
		if e.r.Ko == KoSimple {
			return moveErr(Place(p), ErrKo)
		}
		return moveErr(Place(p), ErrForbidden)
	}
	c := pos.toMove
	ng := &grid{}
	var capt, lost bitboard
	if err := e.placeGrid(&ng.st, &capt, &lost, &g.st, c, p); err != nil {
		return moveErr(Place(p), err)
	}
	// The board is unchanged exactly when nothing was captured and the new
	// stone alone was removed (a removal always takes the new stone).
	same := capt.empty() && lost.count() == 1
	if e.r.Ko == KoSimple && pos.last == Pass && same {
		return moveErr(Place(p), ErrKo)
	}
	h := pos.hash ^ zobrist.stone[c][p]
	if !capt.empty() || !lost.empty() {
		ng.marks = &gridMarks{removed: capt.or(lost)}
		capt.each(func(q int) { h ^= zobrist.stone[c^1][q] })
		lost.each(func(q int) { h ^= zobrist.stone[c][q] })
		pos.prisoners[c] += int16(capt.count())
		pos.prisoners[c^1] += int16(lost.count())
		switch e.r.Ko {
		case KoCaptured:
			ng.marks.forbid = capt
		case KoSimple:
			if capt.count() == 1 {
				q := 0
				capt.each(func(x int) { q = x })
				var back [2]bitboard
				var bc, bl bitboard
				if err := e.placeGrid(&back, &bc, &bl, &ng.st, c^1, q); err == nil && back == g.st {
					ng.marks.forbid = capt
				}
			}
		}
	}
	pos.last, pos.toMove, pos.passes, pos.ply = Place(p), c^1, 0, pos.ply+1
	pos.hash, pos.g = h, ng
	if e.r.UnchangedLoses && same {
		pos.end = Unchanged
		return nil
	}
	if !e.r.Pass {
		var cand bitboard
		if ng.candidates(&cand, pos) {
			if !ng.hasLegal(*pos) {
				pos.end = NoMoves
			}
		} else if cand.empty() {
			pos.end = NoMoves
		}
	}
	return nil
}

// candidates sets *cand to the empty points that are not forbidden, and
// reports whether each must still be tried for suicide or a ko after a
// pass.
func (g *grid) candidates(cand *bitboard, pos *Position) bool {
	e := pos.e
	for i := range e.gw {
		cand[i] = e.gm.full[i] &^ (g.st[Black][i] | g.st[White][i])
	}
	if g.marks != nil {
		for i := range e.gw {
			cand[i] &^= g.marks.forbid[i]
		}
	}
	return e.r.Own == OwnIllegal || (e.r.Ko == KoSimple && pos.last == Pass && e.r.Own != OwnStays)
}

// legalAt reports whether the candidate point p survives the suicide and
// pass-ko checks.
func (g *grid) legalAt(pos *Position, p int) bool {
	var nst [2]bitboard
	var capt, lost bitboard
	err := pos.e.placeGrid(&nst, &capt, &lost, &g.st, pos.toMove, p)
	return err == nil && !(pos.e.r.Ko == KoSimple && pos.last == Pass && capt.empty() && lost.count() == 1)
}

func (g *grid) hasLegal(pos Position) bool {
	var cand bitboard
	if !g.candidates(&cand, &pos) {
		return !cand.empty()
	}
	found := false
	cand.each(func(p int) { found = found || g.legalAt(&pos, p) })
	return found
}

func (g *grid) legalPlacements(pos Position, buf []Move) []Move {
	var cand bitboard
	check := g.candidates(&cand, &pos)
	words := cand[:pos.e.gw] // the points beyond are never set
	if check {
		for i, w := range words {
			for ; w != 0; w &= w - 1 {
				if p := i<<6 | bits.TrailingZeros64(w); g.legalAt(&pos, p) {
					buf = append(buf, Place(p))
				}
			}
		}
		return buf
	}
	// Every candidate is legal. A byte at a time, the points of the byte are
	// copied from a table and the length advanced by their number: no
	// branch per point, whose loop exits mispredict (a third of a playout
	// move went to this loop). The table rows spill up to 7 entries past
	// the points, inside the capacity grown for them.
	k, n := len(buf), cand.count()
	buf = slices.Grow(buf, n+8)[:k+n+8]
	for i, w := range words {
		for b := 0; w != 0; b, w = b+8, w>>8 {
			row := &byteOffsets[w&0xff]
			base := Move(i<<6 | b)
			dst := buf[k : k+8]
			for j := range dst {
				dst[j] = base + row.at[j]
			}
			k += int(row.n)
		}
	}
	return buf[:k]
}

// byteOffsets[v] lists the set bits of the byte v: their number, and their
// indices in order (the rest of the row repeats nothing useful).
var byteOffsets = func() (t [256]struct {
	at [8]Move
	n  uint8
}) {
	for v := range t {
		for i := range 8 {
			if v>>i&1 != 0 {
				t[v].at[t[v].n] = Move(i)
				t[v].n++
			}
		}
	}
	return t
}()

func (g *grid) territory(e *engine) (t [2]int) {
	empty := e.gm.full.andNot(g.st[Black].or(g.st[White]))
	for !empty.empty() {
		p := 0
		for i, w := range empty {
			if w != 0 {
				p = i<<6 | bits.TrailingZeros64(w)
				break
			}
		}
		region, _ := e.chain(empty, bitboard{}, p)
		empty = empty.andNot(region)
		edge := e.around(region)
		byBlack, byWhite := edge.and(g.st[Black]), edge.and(g.st[White])
		byB, byW := !byBlack.empty(), !byWhite.empty()
		switch {
		case byB && !byW:
			t[Black] += region.count()
		case byW && !byB:
			t[White] += region.count()
		}
	}
	return t
}

// mirrorGrid reflects the grid left to right.
func (pos Position) mirrorGrid() Position {
	w := pos.e.r.Width
	f := func(p int) int { return p/w*w + (w - 1 - p%w) }
	g := pos.g
	var ng grid
	var h uint64
	for c := range g.st {
		g.st[c].each(func(p int) {
			ng.st[c].set(f(p))
			h ^= zobrist.stone[c][f(p)]
		})
	}
	if g.marks != nil {
		ng.marks = &gridMarks{}
		g.marks.forbid.each(func(p int) { ng.marks.forbid.set(f(p)) })
		g.marks.removed.each(func(p int) { ng.marks.removed.set(f(p)) })
	}
	m := pos
	m.g, m.hash = &ng, h
	m.last = mirrorMove(pos.last, f)
	return m
}
