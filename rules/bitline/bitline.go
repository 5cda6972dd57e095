package bitline

import (
	"iter"
	"math/bits"
)

// Own says what becomes of the mover's run left without a liberty by a
// placement (after the enemy runs it captures are removed, except under
// OwnRemovedTogether): rules.OwnLiberty, as rules.Bitline maps it.
type Own uint8

// Own-liberty rules.
const (
	OwnStays           Own = iota // legal, and the run stays
	OwnIllegal                    // illegal: no suicide
	OwnRemoved                    // legal; the run is removed after the captures
	OwnRemovedTogether            // the run is removed with the captured runs, which do not give it a liberty
)

// Self says whether a slide can lose the moved piece: rules.SelfCapture,
// as rules.Bitline maps it.
type Self uint8

// Self-capture rules of sliding games.
const (
	SelfOff   Self = iota // the moved piece is never removed
	SelfPiece             // the moved piece is removed when both its neighbours are enemy pieces
	SelfRun               // the run the moved piece joins is removed when enemy pieces flank it
)

// Line is a line of 1 to 64 points under a set of capture rules: whether
// the ends are liberties, the own-liberty rule of placements and the
// self-capture rule of slides. Its methods work on the stones of the mover
// (me) and of the opponent (op) as words, bit i for point i. A Line is a
// small value, never changed after New; the methods take a pointer only so
// that the words it holds are read in place.
type Line struct {
	n    int
	mask uint64 // the points of the line
	edge bool   // the ends are not liberties: runs are captured against them
	own  Own
	self Self
	// For CapturesFlat: edgeHi is the bit just above the line when the
	// ends are not liberties (0 otherwise, and on 64 points); edgeLo and
	// edgeTop are 1 when the low end, and the high end of a 64-point line,
	// close a run.
	edgeHi, edgeLo, edgeTop uint64
}

// New returns the line of n points (1 to 64; New panics otherwise) where
// edge says the ends are not liberties, under the own-liberty rule own and
// the self-capture rule self.
func New(n int, edge bool, own Own, self Self) Line {
	if n < 1 || n > 64 {
		panic("bitline: a line has 1 to 64 points")
	}
	l := Line{n: n, mask: ^uint64(0) >> (64 - n), edge: edge, own: own, self: self}
	if edge {
		l.edgeLo = 1
		if n < 64 {
			l.edgeHi = 1 << n
		} else {
			l.edgeTop = 1
		}
	}
	return l
}

// N returns the number of points.
func (l *Line) N() int { return l.n }

// Mask returns the word of every point of the line.
func (l *Line) Mask() uint64 { return l.mask }

// Edge reports whether the ends are not liberties.
func (l *Line) Edge() bool { return l.edge }

// LeftRun returns the points of run that extend leftwards (towards point 0)
// from the point next to bit, and whether the run is closed on that side:
// the point beyond it is in wall, or it reaches the end of the line and the
// ends are not liberties. When the point next to bit is not in run, the run
// is empty, closed when that point is in wall (or, past the end of the
// line, when the ends are not liberties).
func (l *Line) LeftRun(run, wall, bit uint64) (uint64, bool) {
	below := bit - 1
	x := ^run & below
	if x == 0 {
		return below, l.edge
	}
	hb := uint64(1) << (63 - bits.LeadingZeros64(x))
	return below &^ (hb<<1 - 1), wall&hb != 0
}

// RightRun is LeftRun towards the last point.
func (l *Line) RightRun(run, wall, bit uint64) (uint64, bool) {
	above := l.mask &^ (bit<<1 - 1)
	x := ^run & above
	if x == 0 {
		return above, l.edge
	}
	lb := x & -x
	return above & (lb - 1), wall&lb != 0
}

// RunAt returns the maximal run of set bits of m that holds bit, which
// must be in m.
func RunAt(m, bit uint64) uint64 {
	up := (m + bit) &^ m // the first clear bit above the run
	run := up - bit      // bit and the run above it
	if low := ^m & (bit - 1); low == 0 {
		run |= bit - 1
	} else {
		hb := uint64(1) << (63 - bits.LeadingZeros64(low))
		run |= (bit - 1) &^ (hb<<1 - 1)
	}
	return run & m
}

// A Run is a maximal run of consecutive points of a set: its points, and
// its first and last point.
type Run struct {
	Points      uint64
	First, Last int
}

// Runs yields the runs of consecutive points of set, lowest first: the
// empty runs of a line when set is its empty points.
func Runs(set uint64) iter.Seq[Run] {
	return func(yield func(Run) bool) {
		for set != 0 {
			lo := set & -set
			up := (set + lo) &^ set // the point just past the run (0 past the 64th point)
			run := up - lo          // the carry filled the run: lo and every point up to up
			set &^= run
			if !yield(Run{run, bits.TrailingZeros64(lo), bits.TrailingZeros64(up) - 1}) {
				return
			}
		}
	}
}

// Closed reports whether the run r of the line is closed below and above
// by wall: on each side, the point next to it is in wall, or r reaches the
// end of the line there and the ends are not liberties.
func (l *Line) Closed(r Run, wall uint64) (below, above bool) {
	if r.First == 0 {
		below = l.edge
	} else {
		below = wall>>(r.First-1)&1 != 0
	}
	if r.Last == l.n-1 {
		above = l.edge
	} else {
		above = wall>>(r.Last+1)&1 != 0
	}
	return below, above
}

// ClosedRuns returns the runs of run next to bit, on its left and on its
// right, each closed on its far side by wall (or by an end of the line
// that is not a liberty); 0 on a side where there is no such run. A
// placement on bit by the player whose stones are wall captures them when
// run is the other player's stones; the solvers undo placements with run
// the empty points.
func (l *Line) ClosedRuns(run, wall, bit uint64) (left, right uint64) {
	if run&(bit>>1) != 0 {
		if r, closed := l.LeftRun(run, wall, bit); closed {
			left = r
		}
	}
	if run&(bit<<1) != 0 {
		if r, closed := l.RightRun(run, wall, bit); closed {
			right = r
		}
	}
	return left, right
}

// Captures returns the runs of op next to the stone bit that are closed on
// their far side by me (or by an end of the line that is not a liberty):
// the stones a stone of me on bit captures.
func (l *Line) Captures(op, me, bit uint64) (capt uint64) {
	if op&(bit>>1) != 0 {
		if run, closed := l.LeftRun(op, me, bit); closed {
			capt |= run
		}
	}
	if op&(bit<<1) != 0 {
		if run, closed := l.RightRun(op, me, bit); closed {
			capt |= run
		}
	}
	return capt
}

// nonzero is 1 when x is not 0, else 0, without a branch.
func nonzero(x uint64) uint64 { return (x | -x) >> 63 }

// CapturesFlat is Captures without branches, for hot loops where whether
// a neighbour is an enemy stone is a coin toss: the mispredicted branches
// of Captures cost more than computing both sides. me may hold bit or not.
// It is small enough to be inlined, and its steps are few, since in a
// playout they are on the chain from one placement to the next.
//
// Above bit, adding the bit above bit to op carries through op's run there
// and stops on the point just past it, the one point the sum shares with
// the wall on that side (me's points, and the point past the line when the
// ends are not liberties). That point less the bit above bit is the run;
// when no point is shared, the subtraction wraps and sets the word's top
// bit, which voids the run, unless the carry left the word at the end of a
// 64-point line that closes runs. Below bit, the run ends just above the
// highest point under bit that op does not hold, point k-1 (or k = 0), and
// is closed when bit k of the wall shifted up one point is set (me's stone
// on point k-1, or at k = 0 the low end): bit less that bit is then the run
// from k, and bit less nothing has no point below bit.
func (l *Line) CapturesFlat(op, me, bit uint64) uint64 {
	sum, carry := bits.Add64(op, bit<<1, 0)
	runR := sum&((me|l.edgeHi)&^op) - bit<<1
	runR &= runR>>63 - (carry&l.edgeTop + 1) // all ones when closed, else 0
	k := bits.Len64((bit - 1) &^ op)         // at most 63: bit is at most point 63
	return runR | (bit-(me<<1|l.edgeLo)&(1<<(k&63)))&(bit-1)
}

// ShortPoints is the longest line CapturesShort serves.
const ShortPoints = 12

// CapturesShort is CapturesFlat for lines of up to ShortPoints points
// (it is wrong on longer ones), in fewer steps: the carry out of the top
// of the word cannot close a run there, and the point past the run below
// bit comes from a table (the bit just above the highest point of a set
// of 12 points) where CapturesFlat scans for it, which at GOAMD64=v1 is a
// BSR, a conditional move for the empty set, an increment and a shift.
func (l *Line) CapturesShort(op, me, bit uint64) uint64 {
	runR := (op+bit<<1)&((me|l.edgeHi)&^op) - bit<<1
	runR &= runR>>63 - 1 // all ones when closed, else 0
	return runR | (bit-(me<<1|l.edgeLo)&uint64(aboveHighest[(bit-1)&^op&(1<<ShortPoints-1)]))&(bit-1)
}

// aboveHighest[x] is the bit just above the highest set bit of x, 1 for 0.
var aboveHighest = func() (t [1 << ShortPoints]uint16) {
	for x := range t {
		t[x] = uint16(1) << bits.Len(uint(x))
	}
	return t
}()

// Place puts a stone of the mover on the empty point p and applies the
// captures and the own-liberty rule. It returns both sides' stones after
// it, the enemy points captured and the mover's points removed; ok is false,
// and the stones are returned unchanged, when the placement is suicide
// under OwnIllegal. Ko rules are the caller's.
func (l *Line) Place(me, op uint64, p int) (nme, nop, capt, lost uint64, ok bool) {
	bit := uint64(1) << p
	me |= bit
	capt = l.Captures(op, me, bit)
	// A capture next to the stone leaves it a liberty, except under
	// OwnRemovedTogether, where the captured stones are still a wall.
	if l.own != OwnStays && (capt == 0 || l.own == OwnRemovedTogether) {
		lrun, lc := l.LeftRun(me, op, bit)
		rrun, rc := l.RightRun(me, op, bit)
		if lc && rc {
			if l.own == OwnIllegal {
				return me &^ bit, op, 0, 0, false
			}
			lost = lrun | bit | rrun
		}
	}
	return me &^ lost, op &^ capt, capt, lost, true
}

// Legal returns the points of the line that are empty, not in forbid and
// not suicide for the mover: every one but forbid's under the own-liberty
// rules other than OwnIllegal. Ko rules are the caller's.
func (l *Line) Legal(me, op, forbid uint64) uint64 {
	cand := l.mask &^ (me | op | forbid)
	if l.own != OwnIllegal {
		return cand
	}
	for set := cand; set != 0; set &= set - 1 {
		p := bits.TrailingZeros64(set)
		if _, _, _, _, ok := l.Place(me, op, p); !ok {
			cand &^= 1 << p
		}
	}
	return cand
}

// SlideTargets returns the slots a piece on from can slide to: the nearest
// empty slot on its left and on its right (-1 where there is none).
func (l *Line) SlideTargets(empty uint64, from int) (left, right int) {
	bit := uint64(1) << from
	left, right = -1, -1
	if x := empty & (bit - 1); x != 0 {
		left = 63 - bits.LeadingZeros64(x)
	}
	if x := empty &^ (bit<<1 - 1); x != 0 {
		right = bits.TrailingZeros64(x)
	}
	return left, right
}

// Slide moves the mover's piece from one slot to another (a target of
// SlideTargets) and applies the flanking captures and the self-capture
// rule. It returns both sides' pieces after it, the enemy slots captured and
// the mover's slots removed.
func (l *Line) Slide(me, op uint64, from, to int) (nme, nop, capt, lost uint64) {
	bit := uint64(1) << to
	me = me&^(1<<from) | bit
	capt = l.Captures(op, me, bit)
	op &^= capt
	switch l.self {
	case SelfPiece:
		left := op&(bit>>1) != 0 || (to == 0 && l.edge)
		right := op&(bit<<1) != 0 || (to == l.n-1 && l.edge)
		if left && right {
			lost = bit
		}
	case SelfRun:
		lrun, lc := l.LeftRun(me, op, bit)
		rrun, rc := l.RightRun(me, op, bit)
		if lc && rc {
			lost = lrun | bit | rrun
		}
	}
	return me &^ lost, op, capt, lost
}

// Territory returns the empty points of the line that x's stones alone
// border, and those that o's alone border: each run of empty points whose
// neighbours are stones of one colour only (the ends border no one).
func (l *Line) Territory(x, o uint64) (tx, to uint64) {
	for rem := l.mask &^ (x | o); rem != 0; {
		lo := rem & -rem
		up := (rem + lo) &^ rem // the point just past the run (0 past the 64th point)
		run := (up - lo) & rem
		rem &^= run
		nb := (lo>>1 | up) & l.mask
		bx, bo := nonzero(nb&x), nonzero(nb&o)
		tx |= run & -(bx &^ bo)
		to |= run & -(bo &^ bx)
	}
	return tx, to
}

// Rev returns the low n bits of x (1 <= n <= 64) in reverse order, the
// bits above them dropped: point i goes to point n-1-i, the mirror image of
// a word of a line of n points (and the half turn of a grid of n points
// numbered row by row).
func Rev(x uint64, n int) uint64 { return bits.Reverse64(x) >> (64 - n) }

// Rev2 is Rev for a word of n 2-bit cells (1 <= n <= 32), cell i in bits 2i
// and 2i+1: cell i goes to cell n-1-i, its two bits in their order, and the
// bits above the cells are dropped.
func Rev2(x uint64, n int) uint64 {
	const even = 0x5555555555555555
	r := bits.Reverse64(x) >> (64 - 2*n) // each cell's bits swapped
	return (r>>1)&even | (r&even)<<1
}

// Key returns the XOR of keys[i] over the points i of set: the Zobrist key
// of a run of stones (or of any set of points) of one table of keys.
func Key(keys *[64]uint64, set uint64) uint64 {
	var h uint64
	for set != 0 {
		h ^= keys[bits.TrailingZeros64(set)]
		set &= set - 1
	}
	return h
}

// RunKeys holds the prefix keys of a table of 64 keys: RunKeys[i] is the
// XOR of keys[0] to keys[i-1]. The key of a run of consecutive points is
// then the XOR of two entries, where Key loops over the points.
type RunKeys [65]uint64

// NewRunKeys returns the prefix keys of keys.
func NewRunKeys(keys *[64]uint64) (k RunKeys) {
	for i, key := range keys {
		k[i+1] = k[i] ^ key
	}
	return k
}

// Run returns Key(keys, run) for a run of consecutive points, or the empty
// set (its two look-ups are then the same entry): the prefix up to its end
// XOR the prefix up to its start.
func (k *RunKeys) Run(run uint64) uint64 {
	return k[bits.Len64(run)] ^ k[bits.TrailingZeros64(run)&63]
}

// Around returns Key(keys, set) for a set made of one run (or none) below
// bit and one above it, such as the points a stone on bit captures.
func (k *RunKeys) Around(set, bit uint64) uint64 {
	lo := set & (bit - 1)
	return k.Run(lo) ^ k.Run(set^lo)
}

// ByteKeys holds, for each of the two low bytes of a word, the key of every
// set of points within it: ByteKeys[b][v] is the XOR of keys[8b+i] over the
// set bits i of v. The key of a set of points of a line of up to 16 points
// is then the XOR of two entries, whatever the set.
type ByteKeys [2][256]uint64

// NewByteKeys returns the byte keys of the first 16 keys.
func NewByteKeys(keys *[64]uint64) (k ByteKeys) {
	for b := range k {
		for v := 1; v < 256; v++ {
			low := v & -v
			k[b][v] = k[b][v&^low] ^ keys[8*b+bits.TrailingZeros(uint(low))]
		}
	}
	return k
}

// Low16 returns Key(keys, set) for a set of the 16 low points.
func (k *ByteKeys) Low16(set uint64) uint64 {
	return k[0][set&0xff] ^ k[1][set>>8&0xff]
}
