package rules

import "alak/rules/bitline"

// engine is a validated rule set compiled for play: board masks, the start
// position, and for grids the neighbour table. It is immutable and shared by
// every position of a game.
type engine struct {
	r    Rules
	n    int    // points
	mask uint64 // lines: the board's bits
	line bool
	nbr  [][4]int16 // grids: up to four neighbours of each point, -1 padded
	// openLegal: on a line, every empty point that is not forbidden is a
	// legal placement (no suicide check, no ko after a pass to test).
	openLegal bool
	// stays: a line under placement rules where the mover's own chains
	// stay (OwnStays), with no passing, no simple ko and no unchanged-board
	// rule: Apply's branch-free fast path (the alak preset).
	stays bool
	// koMask: lines, all ones when the points a placement captures are
	// forbidden to the next player (KoCaptured), else 0.
	koMask uint64
	ln     bitline.Line // lines: the word-level primitives of the line's rules
	gm     gridMasks    // grids: board, column and border masks
	gw     int          // grids: the bitboard words in use (the rest stay 0)
}

// zobrist holds the keys of the incremental hash: one per colour and point
// (up to 19×19), one for White to move, and one per forbidden point.
var zobrist = func() (z struct {
	stone  [2][19 * 19]uint64
	forbid [19 * 19]uint64
	white  uint64
	safe   [64]uint64
}) {
	s := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		s += 0x9E3779B97F4A7C15
		x := s
		x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
		x = (x ^ x>>27) * 0x94D049BB133111EB
		return x ^ x>>31
	}
	for c := range z.stone {
		for p := range z.stone[c] {
			z.stone[c][p] = next()
		}
	}
	for p := range z.forbid {
		z.forbid[p] = next()
	}
	z.white = next()
	for p := range z.safe { // after the others, which keep their values
		z.safe[p] = next()
	}
	return z
}()

func newEngine(r Rules) (*engine, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	e := &engine{r: r, n: r.Points(), line: r.IsLine()}
	if e.line {
		e.openLegal = r.Movement == Placement && r.Own != OwnIllegal &&
			!(r.Ko == KoSimple && r.Pass && r.Own != OwnStays) && r.Safe == SafeOff
		e.stays = r.Safe == SafeOff && r.Movement == Placement && r.Own == OwnStays && !r.Pass &&
			!r.UnchangedLoses && (r.Ko == KoNone || r.Ko == KoCaptured)
		if r.Ko == KoCaptured {
			e.koMask = ^uint64(0)
		}
		e.ln = lineOf(r)
		e.mask = e.ln.Mask()
		return e, nil
	}
	e.buildGrid()
	return e, nil
}

// Bitline returns the word-level primitives of the line of r, for the
// simulators and solvers that play on the bitboards of Position.Line; ok is
// false when r is not valid rules on a line.
func Bitline(r Rules) (l bitline.Line, ok bool) {
	if !r.IsLine() || r.Validate() != nil {
		return bitline.Line{}, false
	}
	return lineOf(r), true
}

// lineOf returns the primitives of the line of the valid rules r.
func lineOf(r Rules) bitline.Line {
	own := [...]bitline.Own{OwnStays: bitline.OwnStays, OwnIllegal: bitline.OwnIllegal,
		OwnRemoved: bitline.OwnRemoved, OwnRemovedTogether: bitline.OwnRemovedTogether}[r.Own]
	self := [...]bitline.Self{SelfOff: bitline.SelfOff, SelfPiece: bitline.SelfPiece,
		SelfRun: bitline.SelfRun}[r.SelfCapture]
	return bitline.New(r.Width, r.EdgeCapture, own, self)
}

// buildGrid fills the neighbour table of a grid engine.
func (e *engine) buildGrid() {
	r := e.r
	e.openLegal, e.stays = false, false // line fast paths
	e.gw = (e.n + 63) / 64
	e.nbr = make([][4]int16, e.n)
	for p := range e.n {
		x, y := p%r.Width, p/r.Width
		k := 0
		e.nbr[p] = [4]int16{-1, -1, -1, -1}
		add := func(q int) { e.nbr[p][k] = int16(q); k++ }
		if y > 0 {
			add(p - r.Width)
		}
		if x > 0 {
			add(p - 1)
		}
		if x < r.Width-1 {
			add(p + 1)
		}
		if y < r.Height-1 {
			add(p + r.Width)
		}
	}
	e.buildMasks()
}

// hashRun returns the XOR of the stone keys of colour c on the points of set.
func hashRun(c Color, set uint64) uint64 {
	return bitline.Key((*[64]uint64)(zobrist.stone[c][:64]), set)
}

// runKeys holds the prefix keys of the stone keys of the first 64 points
// of each colour: the key of a run of stones in two look-ups.
var runKeys = [2]bitline.RunKeys{
	bitline.NewRunKeys((*[64]uint64)(zobrist.stone[Black][:64])),
	bitline.NewRunKeys((*[64]uint64)(zobrist.stone[White][:64])),
}

// byteKeys holds the keys of every set of points within each of the two
// low bytes, by colour: the key of any set of stones on a line of up to 16
// points in two look-ups.
var byteKeys = [2]bitline.ByteKeys{
	bitline.NewByteKeys((*[64]uint64)(zobrist.stone[Black][:64])),
	bitline.NewByteKeys((*[64]uint64)(zobrist.stone[White][:64])),
}

// forbidKey mixes the forbidden points of a line into a key.
func forbidKey(set uint64) uint64 {
	return bitline.Key((*[64]uint64)(zobrist.forbid[:64]), set)
}

// slide moves the piece of colour c from one slot to another (a target of
// Line.SlideTargets) and applies flanking captures and self-capture.
func (e *engine) slide(st [2]uint64, c Color, from, to int) (nst [2]uint64, capt, lost uint64) {
	nst[c], nst[c^1], capt, lost = e.ln.Slide(st[c], st[c^1], from, to)
	return nst, capt, lost
}

// place puts a stone of colour c on the empty point p of a line and applies
// captures and the own-liberty rule, without ko checks. It returns the new
// stones, the enemy points captured and the mover's points removed; ok is
// false when the placement is suicide under OwnIllegal.
func (e *engine) place(st [2]uint64, c Color, p int) (nst [2]uint64, capt, lost uint64, ok bool) {
	nst[c], nst[c^1], capt, lost, ok = e.ln.Place(st[c], st[c^1], p)
	return nst, capt, lost, ok
}
