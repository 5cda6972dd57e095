package solve

import (
	"math"
	"math/bits"

	"alak/rules"
	"alak/rules/bitline"
)

// The dense index of the dense solver (dense.go): a number for every state
// of a line game under the alak rules and their variants that keep the state
// history-free (placement, the mover's own chains stay, ko=captured or none,
// edge capture on or off, no passing, stones counted), with no key stored,
// one number for a state and its mirror image (the line read from the
// other end), which have the same value.
//
// A state is the board, the player to move and the forbidden points. With
// ko=captured the forbidden points are none, or what the last placement
// captured: one run of empty points closed on both sides by the previous
// mover's stones (or, with edge capture, by an end of the line), or two
// such runs on either side of the stone just placed (under own=together
// also the shapes of dense_gaps.go, where the mover's chain went with
// its captures). The states are split
// into regions, each a block of consecutive numbers, one per player to move
// and shape of the forbidden points, the region's descriptor: none (the
// open regions, first), the run [a, c] (m = 0), or the runs [a, m-1] and
// [m+1, c] around the stone m. A descriptor fixes the points from the
// closer below a to the closer above c (its window): its runs are empty
// and its closers (and m) are the previous mover's stones. Only the points
// below the window (the prefix, [0, lo)) and above it (the suffix, [s, n))
// are free. Points are digits in base 3 (0 empty, 1 x, 2 o), and
//
//   - a descriptor and its mirror image have one region, the descriptor's
//     with the smaller key (a*n+c)*n+m; a state of the other is mirrored
//     first. Its number is the region's offset + the prefix's rank + 3^lo
//     times the suffix's rank (point i of each the digit of weight 3^i
//     from the part's first point);
//   - a descriptor that is its own mirror image (the open one, a window in
//     the middle of the line) has prefix and suffix of one length h, and a
//     state and its mirror image exchange the prefix's rank x and the
//     reversed suffix's rank y (read from the line's end inwards). The
//     region numbers the pairs x <= y: y(y+1)/2 + x; on a line of odd
//     length the open region's middle point is free too, its digit
//     times the number of pairs added.
//
// Every number is a state (up to mirror image) and every state has one
// number (TestDenseIndexRoundTrip), so the solver keeps one bit a state per
// question and one byte a state for margins, and nothing else.

// denseMaxPoints is the longest line the index handles: its rank tables
// cover three bytes of a word.
const denseMaxPoints = 24

// dindex is the dense index of one rule set.
type dindex struct {
	ln    bitline.Line
	n     int
	mask  uint64
	ko    bool // KoCaptured or KoSimple: the regions with forbidden points exist
	komi2 int32
	kind  int // denseAlak, denseAlterIgo or denseGeneric
	// The rules of the generic family (dense_generic.go): ko=simple (only
	// single points are ever forbidden), the own-liberty rule, area
	// scoring (the captured points a finished state holds are territory).
	simple bool
	own    rules.OwnLiberty
	area   bool
	pow3   [denseMaxPoints + 1]uint64
	total  uint64    // states
	regs   []dregion // in index order: Black to move, then White to move
	openAt [2]int    // the open regions' places in regs, by player to move
	half   uint64    // the first state with White to move (the two halves are the same size)
	// key maps the player to move (0 Black, 1 White) and a descriptor's
	// key (a*n+c)*n+m (plus kind*n^3 for the gap descriptors,
	// dense_gaps.go) to its region's number times 2, plus 1 when the
	// descriptor is the mirror image of the region's: -1 for none.
	key [2][]int32
	e8  [3][256]uint64
	dec [6561]uint16 // 8 base-3 digits: the x points in the low byte, the o points in the high byte
	h   int          // the open regions' prefix length: n/2

	// The sliding games (dense_slide.go): a player left with fewer pieces
	// than minPieces loses; the self-capture rule; and in a solve without
	// margins, the most pieces of each side (x, o) a state that is solved
	// has (slideCone).
	minPieces   int
	selfCapture rules.SelfCapture
	maxPieces   [2]int
}

// dregion is a block of states: one player to move and one descriptor.
type dregion struct {
	off   uint64 // the first state's number
	size  uint64
	p3    uint64 // 3^lo, the suffix's weight; in a symmetric region, the number of pairs
	lmask uint64 // the prefix's points
	f     uint64 // the forbidden points
	stone uint64 // the previous mover's stones the descriptor fixes
	free  uint64 // the prefix's and the suffix's points (and a free middle)
	lo, s uint8  // the prefix is [0, lo), the suffix [s, n)
	white bool   // White to move
	sym   bool   // the descriptor is its own mirror image
	mid   int8   // a symmetric open region of odd length: the middle point; else -1

	// The gap descriptors (dense_gaps.go) also fix stones of the player
	// to move (tstone) and empty points that are not forbidden (gap).
	tstone, gap uint64
}

// The rule families of the dense index.
const (
	denseAlak     = iota // the mover's own chains stay, ko=captured|none, stones counted (alak)
	denseAlterIgo        // every chain without a liberty goes, an unchanged board loses, no count (alterigo on a line)
	denseGeneric         // the alak family's other history-free rules: own=illegal|removed, ko=simple, score=area (dense_generic.go)
	denseSlide           // the sliding games: dewdney, golf and their options (dense_slide.go)
)

// denseLoss is the successor "number" of a placement that leaves the board
// unchanged under the Alter Igo rules: the mover loses at once.
const denseLoss = ^uint64(0)

// denseApplies reports whether the dense index covers the rules.
func denseApplies(r rules.Rules) bool {
	_, ok := denseKind(r)
	return ok
}

// denseKind returns the family of rules r, and false when the dense index
// does not cover them: placement on a line of at most denseMaxPoints
// points, with the options that keep a state's value a property of the
// state (a repetition rule, no superko, no passing), and either the alak
// rules (own chains stay, ko=captured|none, stones counted, komi in half
// points that keeps every margin within a byte) or the Alter Igo rules
// (every chain without a liberty removed together, no ko, an unchanged
// board loses, no count), or the other rules of the alak family whose
// forbidden points are still the shapes captures leave, answered by the
// generic moves of dense_generic.go: the own chain stays, is illegal or
// is removed after the captures, ko=captured|none|simple, stones or area
// counted; or sliding rules (dewdney, golf: dense_slide.go).
func denseKind(r rules.Rules) (int, bool) {
	if r.Validate() != nil || !r.IsLine() || r.Width > denseMaxPoints || r.Pass || r.Repetition < 2 || r.Safe != rules.SafeOff {
		return 0, false
	}
	switch {
	case r.Movement == rules.Sliding:
		return denseSlide, slideApplies(r)
	case r.Movement != rules.Placement:
		return 0, false
	case r.Own == rules.OwnStays && (r.Ko == rules.KoCaptured || r.Ko == rules.KoNone) &&
		r.Scoring == rules.ScoreStones && !r.UnchangedLoses &&
		r.Komi*2 == float64(half(r.Komi)) && 2*r.Width+int(abs32(half(r.Komi))) <= 127:
		return denseAlak, true
	case r.Own == rules.OwnRemovedTogether && r.Ko == rules.KoNone && r.Scoring == rules.ScoreNone && r.UnchangedLoses:
		return denseAlterIgo, true
	case (r.Own == rules.OwnStays || r.Own == rules.OwnIllegal || r.Own == rules.OwnRemoved ||
		// own=together, removed with the captures: the gap
		// descriptors (dense_gaps.go), not with ko=simple.
		r.Own == rules.OwnRemovedTogether && r.Ko != rules.KoSimple) &&
		(r.Ko == rules.KoCaptured || r.Ko == rules.KoNone || r.Ko == rules.KoSimple) &&
		(r.Scoring == rules.ScoreStones || r.Scoring == rules.ScoreArea) && !r.UnchangedLoses &&
		r.Komi*2 == float64(half(r.Komi)) && 2*r.Width+int(abs32(half(r.Komi))) <= 127:
		return denseGeneric, true
	}
	return 0, false
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// newDindex builds the index of rules r (denseApplies(r)).
func newDindex(r rules.Rules) *dindex {
	n := r.Width
	ln, _ := rules.Bitline(r)
	kind, _ := denseKind(r)
	ix := &dindex{ln: ln, n: n, mask: ln.Mask(), ko: r.Ko == rules.KoCaptured || r.Ko == rules.KoSimple,
		komi2: half(r.Komi), kind: kind, simple: r.Ko == rules.KoSimple, own: r.Own, area: r.Scoring == rules.ScoreArea,
		minPieces: r.MinPieces, selfCapture: r.SelfCapture, maxPieces: [2]int{n, n}}
	ix.pow3[0] = 1
	for i := 1; i <= denseMaxPoints; i++ {
		ix.pow3[i] = 3 * ix.pow3[i-1]
	}
	for k := range ix.e8 {
		for v := range 256 {
			var e uint64
			for j := range 8 {
				if v>>j&1 != 0 && 8*k+j < denseMaxPoints {
					e += ix.pow3[8*k+j]
				}
			}
			ix.e8[k][v] = e
		}
	}
	for d := range ix.dec {
		var x, y uint16
		for j, v := 0, d; j < 8; j, v = j+1, v/3 {
			switch v % 3 {
			case 1:
				x |= 1 << j
			case 2:
				y |= 1 << j
			}
		}
		ix.dec[d] = x | y<<8
	}
	h := n / 2
	ix.h = h
	pairs := ix.pow3[h] * (ix.pow3[h] + 1) / 2
	for side := range 2 {
		reg := dregion{size: pairs, p3: pairs, lmask: uint64(1)<<h - 1, free: ix.mask,
			lo: uint8(h), s: uint8(n - h), white: side == 1, sym: true, mid: -1}
		if n%2 == 1 {
			reg.mid, reg.size = int8(h), 3*pairs
		}
		ix.openAt[side] = len(ix.regs)
		ix.regs = append(ix.regs, reg)
		ix.key[side] = make([]int32, n*n*n*dkKinds(ix.together()))
		for i := range ix.key[side] {
			ix.key[side][i] = -1
		}
		if !ix.ko {
			continue
		}
		// m = 0: the single run [a, c]; a < m < c: the runs [a, m-1]
		// and [m+1, c] around the stone m. Keys ascend, so of a
		// descriptor and its mirror image the one with the smaller key
		// comes first. Under simple ko only single points are forbidden.
		for a := range n {
			for c := a; c < n; c++ {
				if ix.simple {
					if c == a {
						ix.addDescriptor(dkStone, a, c, 0, side == 1)
					}
					continue
				}
				ix.addDescriptor(dkStone, a, c, 0, side == 1)
				for m := a + 1; m < c && !ix.together(); m++ {
					ix.addDescriptor(dkStone, a, c, m, side == 1)
				}
			}
		}
		if ix.together() {
			ix.addGapDescriptors(side == 1)
		}
	}
	var off uint64
	for i := range ix.regs {
		ix.regs[i].off = off
		off += ix.regs[i].size
	}
	ix.total = off
	ix.half = ix.regs[ix.openAt[1]].off
	return ix
}

// addDescriptor adds the region of the descriptor (a, c, m) of the kind
// dk (dkStone, or a gap kind of dense_gaps.go) with White to move if
// white, when the descriptor is the shape of a capture.
func (ix *dindex) addDescriptor(dk, a, c, m int, white bool) {
	n := ix.n
	f := span(a, c)
	var stone, tstone, gap uint64
	lo, hi := a, c // the window, without its closers
	switch dk {
	case dkStone:
		if m != 0 {
			f &^= 1 << m
			stone |= 1 << m
		}
	case dkGap:
		f &^= 1 << m
		gap = 1 << m
	case dkBelow:
		gap, lo = span(m, a-1), m
	case dkAbove:
		gap, hi = span(c+1, m), m
	}
	// The closers: the previous mover's stones, except beside a gap
	// descriptor's empty run, where they are the player to move's (the
	// previous mover's chain removed went up to them); or an end with
	// edge capture.
	switch {
	case lo > 0 && dk == dkBelow:
		tstone |= 1 << (lo - 1)
		lo--
	case lo > 0:
		stone |= 1 << (lo - 1)
		lo--
	case !ix.ln.Edge():
		return
	}
	switch {
	case hi < n-1 && dk == dkAbove:
		tstone |= 1 << (hi + 1)
		hi++
	case hi < n-1:
		stone |= 1 << (hi + 1)
		hi++
	case !ix.ln.Edge():
		return
	}
	if stone == 0 && dk == dkStone || ix.together() && ix.noPlacementLeaves(dk, a, c, m) {
		return // the whole line: no stone captured it; or no placement leaves it
	}
	free := ix.mask&^(uint64(1)<<(hi+1)-1) | (uint64(1)<<lo - 1)
	side := 0
	if white {
		side = 1
	}
	k := ix.dkey(dk, a, c, m)
	mk := ix.mirrorKey(dk, a, c, m)
	if mk < k {
		ix.key[side][k] = ix.key[side][mk] | 1
		return
	}
	ix.key[side][k] = int32(2 * len(ix.regs))
	reg := dregion{size: ix.pow3[bits.OnesCount64(free)], p3: ix.pow3[lo], lmask: uint64(1)<<lo - 1,
		f: f, stone: stone, tstone: tstone, gap: gap, free: free, lo: uint8(lo), s: uint8(hi + 1), white: white, mid: -1}
	if mk == k {
		pairs := ix.pow3[lo] * (ix.pow3[lo] + 1) / 2
		reg.sym, reg.size, reg.p3 = true, pairs, pairs
	}
	ix.regs = append(ix.regs, reg)
}

// e is the rank in base 3 of the points of x, each a digit 1: the sum of
// 3^i over the points i of x.
func (ix *dindex) e(x uint64) uint64 {
	return ix.e8[0][x&255] + ix.e8[1][x>>8&255] + ix.e8[2][x>>16&255]
}

// rank is the base-3 rank of the board (b, w): digit 1 for x, 2 for o.
func (ix *dindex) rank(b, w uint64) uint64 { return ix.e(b) + 2*ix.e(w) }

// openReg returns the open region with White to move if white.
func (ix *dindex) openReg(white bool) *dregion {
	if white {
		return &ix.regs[ix.openAt[1]]
	}
	return &ix.regs[ix.openAt[0]]
}

// rev returns the mirror image of a word of the line.
func (ix *dindex) rev(x uint64) uint64 { return bitline.Rev(x, ix.n) }

// pair is the number, in the symmetric region reg, of the prefix rank x,
// the reversed suffix's rank y and the middle digit md: the pair is
// unordered, a state and its mirror image having the same number.
func pair(reg *dregion, x, y, md uint64) uint64 {
	if x > y {
		x, y = y, x
	}
	return reg.off + md*reg.p3 + y*(y+1)/2 + x
}

// at is the number of the state of the region reg with the board (b, w),
// in the region's orientation, whose fixed points are those of the
// descriptor.
func (ix *dindex) at(reg *dregion, b, w uint64) uint64 {
	lm := reg.lmask
	if !reg.sym {
		return reg.off + ix.rank(b&lm, w&lm) + reg.p3*ix.rank(b>>reg.s, w>>reg.s)
	}
	var md uint64
	if reg.mid >= 0 {
		md = b>>reg.mid&1 + 2*(w>>reg.mid&1)
	}
	return pair(reg, ix.rank(b&lm, w&lm), ix.rank(ix.rev(b)&lm, ix.rev(w)&lm), md)
}

// descriptorOf returns the region of the forbidden points f (not empty)
// on the board (b, w) with White to move if white and whether the state
// is the mirror image of its descriptor's, and false when f is not the
// shape of a capture. Only the gap descriptors (dense_gaps.go) depend on
// the board.
func (ix *dindex) descriptorOf(b, w, f uint64, white bool) (reg *dregion, mirrored, ok bool) {
	if !ix.ko || f&^ix.mask != 0 || f == 0 {
		return nil, false, false
	}
	n := ix.n
	a, c := bits.TrailingZeros64(f), 63-bits.LeadingZeros64(f)
	m := 0
	if gap := ^f & (uint64(1)<<c - 1) &^ (uint64(1)<<a - 1); gap != 0 {
		if gap&(gap-1) != 0 {
			return nil, false, false
		}
		m = bits.TrailingZeros64(gap)
	}
	side := 0
	if white {
		side = 1
	}
	k := (a*n+c)*n + m
	if ix.together() {
		k = ix.gapKey(b, w, f, a, c, m)
	}
	id := ix.key[side][k]
	if id < 0 {
		return nil, false, false
	}
	return &ix.regs[id>>1], id&1 != 0, true
}

// index returns the number of the state (b, w, f, White to move if white),
// and false when it has none: forbidden points that no capture leaves (a
// set-up position), or a board that is not one of the line's.
func (ix *dindex) index(b, w, f uint64, white bool) (uint64, bool) {
	if (b|w|f)&^ix.mask != 0 || b&w != 0 || (b|w)&f != 0 {
		return 0, false
	}
	if f == 0 {
		return ix.at(ix.openReg(white), b, w), true
	}
	reg, mirrored, ok := ix.descriptorOf(b, w, f, white)
	if !ok {
		return 0, false
	}
	if mirrored {
		b, w = ix.rev(b), ix.rev(w)
	}
	mover, next := b, w // the player who just moved owns the descriptor's stones
	if !white {
		mover, next = w, b
	}
	if mover&reg.stone != reg.stone || next&reg.tstone != reg.tstone {
		return 0, false
	}
	return ix.at(reg, b, w), true
}

// region returns the region of the state number i (< total).
func (ix *dindex) region(i uint64) *dregion {
	lo, hi := 0, len(ix.regs)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ix.regs[mid].off <= i {
			lo = mid
		} else {
			hi = mid
		}
	}
	return &ix.regs[lo]
}

// digits decodes a base-3 rank into the points of x (digit 1) and of o
// (digit 2).
func (ix *dindex) digits(d uint64) (x, y uint64) {
	for sh := uint(0); d != 0; sh += 8 {
		q := d / 6561
		t := ix.dec[d-q*6561]
		x |= uint64(t&255) << sh
		y |= uint64(t>>8) << sh
		d = q
	}
	return x, y
}

// triRoot returns the y with y(y+1)/2 <= k < (y+1)(y+2)/2.
func triRoot(k uint64) uint64 {
	y := uint64((math.Sqrt(float64(8*k+1)) - 1) / 2)
	for y*(y+1)/2 > k {
		y--
	}
	for (y+1)*(y+2)/2 <= k {
		y++
	}
	return y
}

// state decodes the state number i of the region reg, in the region's
// orientation.
func (ix *dindex) state(reg *dregion, i uint64) (b, w, f uint64, white bool) {
	r := i - reg.off
	if reg.sym {
		var md uint64
		if reg.mid >= 0 {
			md = r / reg.p3
			r -= md * reg.p3
		}
		y := triRoot(r)
		b, w = ix.digits(r - y*(y+1)/2)
		yb, yw := ix.digits(y)
		b |= ix.rev(yb)
		w |= ix.rev(yw)
		switch md {
		case 1:
			b |= 1 << reg.mid
		case 2:
			w |= 1 << reg.mid
		}
	} else {
		suf := r / reg.p3
		b, w = ix.digits(r - suf*reg.p3)
		sb, sw := ix.digits(suf)
		b |= sb << reg.s
		w |= sw << reg.s
	}
	if reg.white {
		b |= reg.stone
		w |= reg.tstone
	} else {
		w |= reg.stone
		b |= reg.tstone
	}
	return b, w, reg.f, reg.white
}

// stateOpen is state, with the board's place in the open regions, which
// the number of a state of an open region gives at once.
func (ix *dindex) stateOpen(reg *dregion, i uint64) (b, w, f uint64, white bool, o dopen) {
	if !reg.sym || reg.f != 0 {
		b, w, f, white = ix.state(reg, i)
		return b, w, f, white, ix.open(b, w)
	}
	r := i - reg.off
	if reg.mid >= 0 {
		o.md = r / reg.p3
		r -= o.md * reg.p3
	}
	o.y = triRoot(r)
	o.x = r - o.y*(o.y+1)/2
	b, w = ix.digits(o.x)
	yb, yw := ix.digits(o.y)
	b |= ix.rev(yb)
	w |= ix.rev(yw)
	switch o.md {
	case 1:
		b |= 1 << reg.mid
	case 2:
		w |= 1 << reg.mid
	}
	return b, w, 0, reg.white, o
}

// legal returns the points the player to move may place on (under every
// rule but own=illegal: see legalFor); none means the game is over.
func (ix *dindex) legal(b, w, f uint64) uint64 { return ix.mask &^ (b | w | f) }

// legalFor is legal with the player to move (White if white) known: under
// own=illegal it leaves out the suicides.
func (ix *dindex) legalFor(b, w, f uint64, white bool) uint64 {
	if ix.kind == denseGeneric && ix.own == rules.OwnIllegal {
		if white {
			return ix.ln.Legal(w, b, f)
		}
		return ix.ln.Legal(b, w, f)
	}
	return ix.mask &^ (b | w | f)
}

// margin2 is the score of a finished state: Black's stones minus White's
// minus komi, in half points (0 under the Alter Igo rules, which count
// nothing).
func (ix *dindex) margin2(b, w uint64) int32 {
	switch {
	case ix.kind == denseAlterIgo:
		return 0
	case ix.area:
		tb, tw := ix.ln.Territory(b, w)
		b, w = b|tb, w|tw
	}
	return 2*int32(bits.OnesCount64(b)-bits.OnesCount64(w)) - ix.komi2
}

// loss2 is the margin (half points) of a game the player to move (White if
// white) loses by rule: -2 for Black, 2 for White.
func loss2(white bool) int32 {
	if white {
		return 2
	}
	return -2
}

// dopen is a board's place in the open regions: the ranks of its prefix
// and of its reversed suffix (n/2 points each) and the middle point's
// digit (odd n).
type dopen struct{ x, y, md uint64 }

// open returns the dopen of the board (b, w).
func (ix *dindex) open(b, w uint64) dopen {
	reg := ix.openReg(false)
	lm := reg.lmask
	o := dopen{x: ix.rank(b&lm, w&lm), y: ix.rank(ix.rev(b)&lm, ix.rev(w)&lm)}
	if m := reg.mid; m >= 0 {
		o.md = b>>m&1 + 2*(w>>m&1)
	}
	return o
}

// add returns o with the digit d added at the empty point p (or, d
// negative as a uint64, taken away from p).
func (ix *dindex) add(o dopen, p int, d uint64) dopen {
	switch {
	case p < ix.h:
		o.x += d * ix.pow3[p]
	case p >= ix.n-ix.h:
		o.y += d * ix.pow3[ix.n-1-p]
	default:
		o.md += d
	}
	return o
}

// child returns the number of the state after the player to move (White if
// white) places on p, an empty point that is not forbidden, on the board
// (b, w) whose dopen is o.
func (ix *dindex) child(b, w uint64, o dopen, white bool, p int) uint64 {
	switch ix.kind {
	case denseGeneric:
		return ix.childGeneric(b, w, white, p)
	case denseAlterIgo:
		return ix.childTogether(b, w, white, p)
	}
	bit := uint64(1) << p
	me, op, d, next := b, w, uint64(1), ix.openReg(true)
	if white {
		me, op, d, next = w, b, 2, ix.openReg(false)
	}
	capt := ix.ln.CapturesFlat(op, me|bit, bit)
	if capt == 0 {
		o = ix.add(o, p, d)
		return pair(next, o.x, o.y, o.md)
	}
	nb, nw := b|bit, w&^capt
	if white {
		nb, nw = b&^capt, w|bit
	}
	if !ix.ko {
		return ix.at(next, nb, nw)
	}
	a, c := bits.TrailingZeros64(capt), 63-bits.LeadingZeros64(capt)
	m := 0
	if a < p && c > p {
		m = p
	}
	side := 1
	if white {
		side = 0
	}
	id := ix.key[side][(a*ix.n+c)*ix.n+m]
	if id&1 != 0 {
		nb, nw = ix.rev(nb), ix.rev(nw)
	}
	return ix.at(&ix.regs[id>>1], nb, nw)
}

// dstate is a state with its number: the board, the forbidden points and
// (known from the context) the player to move.
type dstate struct {
	i, b, w, f uint64
}

// preds appends to out every predecessor of the state (b, w, f, White to
// move if white): every state with a placement that leads to it, once per
// such placement (a state has at most one placement to any other), by
// number (its mirror image's, where that is the number). The player to move
// in each is the one who did not move in the state.
func (ix *dindex) preds(b, w, f uint64, white bool, out []dstate) []dstate {
	switch ix.kind {
	case denseGeneric:
		return ix.predsGeneric(b, w, f, white, out)
	case denseAlterIgo:
		return ix.predsTogether(b, w, white, out)
	case denseSlide:
		return ix.predsSlide(b, w, white, out)
	}
	mover, op := b, w // the player who just moved, and the other
	if !white {
		mover, op = w, b
	}
	if f == 0 && ix.ko {
		return ix.predsOpen(b, w, white, out)
	}
	ps := mover
	if f != 0 {
		ps &= f<<1 | f>>1 // the stone that captured f is next to it
	}
	for ; ps != 0; ps &= ps - 1 {
		p := bits.TrailingZeros64(ps)
		bit := uint64(1) << p
		if ix.ko {
			// The captured points are the forbidden ones.
			if ix.ln.CapturesFlat(op|f, mover, bit) == f {
				out = ix.predsWith(mover&^bit, op|f, p, !white, out)
			}
			continue
		}
		// No ko: the captured runs are the empty runs next to p closed on
		// their far side by the mover, or none.
		empty := ix.mask &^ (b | w)
		l, r := ix.ln.ClosedRuns(empty, mover, bit)
		capts := [4]uint64{0, l, r, l | r}
		for k, capt := range capts {
			if k > 0 && (capt == 0 || k == 3 && (l == 0 || r == 0)) {
				continue
			}
			if ix.ln.CapturesFlat(op|capt, mover, bit) == capt {
				out = ix.predsWith(mover&^bit, op|capt, p, !white, out)
			}
		}
	}
	return out
}

// dcand is a forbidden-point shape of a board: its region, whether the
// board is mirrored in it, and the board's number in it (asymmetric
// regions).
type dcand struct {
	reg      *dregion
	mirrored bool
	base     uint64
}

// predsOpen is preds for a state with no forbidden point under
// ko=captured: the placement captured nothing. Its predecessors have the
// same stones but the placed one, and as forbidden points none or a shape
// the other player's captures leave; the shapes are those of the state's
// own board (the placed stone is not next to any of them, since it does
// not close a run of the other player's), so they are found once for all
// the stones that can have been placed.
func (ix *dindex) predsOpen(b, w uint64, white bool, out []dstate) []dstate {
	mover, op, d := b, w, uint64(1)
	side := 0 // the player to move in the predecessors: the mover
	if !white {
		mover, op, d, side = w, b, 2, 1
	}
	var cands [2 * denseMaxPoints]dcand
	nc := 0
	ix.shapes(mover, op, side, func(reg *dregion, mirrored bool) {
		c := dcand{reg: reg, mirrored: mirrored}
		if !reg.sym {
			if mirrored {
				c.base = ix.at(reg, ix.rev(b), ix.rev(w))
			} else {
				c.base = ix.at(reg, b, w)
			}
		}
		cands[nc] = c
		nc++
	})
	o := ix.open(b, w)
	open := &ix.regs[ix.openAt[side]]
	for ps := mover; ps != 0; ps &= ps - 1 {
		p := bits.TrailingZeros64(ps)
		bit := uint64(1) << p
		if ix.ln.CapturesFlat(op, mover, bit) != 0 {
			continue
		}
		pb, pw := b, w
		if white {
			pb &^= bit
		} else {
			pw &^= bit
		}
		po := ix.add(o, p, -d)
		out = append(out, dstate{pair(open, po.x, po.y, po.md), pb, pw, 0})
		for _, c := range cands[:nc] {
			var i uint64
			switch {
			case c.reg.sym && c.mirrored:
				i = ix.at(c.reg, ix.rev(pb), ix.rev(pw))
			case c.reg.sym:
				i = ix.at(c.reg, pb, pw)
			default:
				q := p
				if c.mirrored {
					q = ix.n - 1 - p
				}
				wt := ix.pow3[q]
				if q >= int(c.reg.lo) {
					wt = c.reg.p3 * ix.pow3[q-int(c.reg.s)]
				}
				i = c.base - d*wt
			}
			f := c.reg.f
			if c.mirrored {
				f = ix.rev(f)
			}
			out = append(out, dstate{i, pb, pw, f})
		}
	}
	return out
}

// shapes calls fn with the region of every forbidden-point shape the
// placement of the player with the stones op can have left on the board
// (me, op) with the player me to move (side), and whether the shape is
// the mirror image of the region's: every run of empty points closed on
// both sides by op's stones or an end (one stone at least), and every two
// such runs around one of op's stones; under own=together also the gap
// shapes (gapShapes, dense_gaps.go).
func (ix *dindex) shapes(me, op uint64, side int, fn func(*dregion, bool)) {
	if ix.together() {
		ix.gapShapes(me, op, side, fn)
	}
	n := ix.n
	prevA, prevC := -1, 0 // the last run closed on both sides, -1 if the last run was not
	for r := range bitline.Runs(ix.mask &^ (me | op)) {
		a, c := r.First, r.Last
		// Closed on both sides, one stone at least: not the whole line.
		if below, above := ix.ln.Closed(r, op); !below || !above || r.Points == ix.mask {
			prevA = -1
			continue
		}
		// Under simple ko only single points have regions.
		if id := ix.key[side][(a*n+c)*n]; id >= 0 {
			fn(&ix.regs[id>>1], id&1 != 0)
		}
		if prevA >= 0 && prevC+2 == a {
			if id := ix.key[side][(prevA*n+c)*n+a-1]; id >= 0 {
				fn(&ix.regs[id>>1], id&1 != 0)
			}
		}
		prevA, prevC = a, c
	}
}

// predsWith appends the states where the player to move (White if white)
// has the stones me, the other op, and the point p is empty and not
// forbidden: no forbidden point, or, with ko=captured, any shape the other
// player's last placement can have left.
func (ix *dindex) predsWith(me, op uint64, p int, white bool, out []dstate) []dstate {
	b, w, side := me, op, 0
	if white {
		b, w, side = op, me, 1
	}
	out = append(out, dstate{ix.at(&ix.regs[ix.openAt[side]], b, w), b, w, 0})
	if !ix.ko {
		return out
	}
	pbit := uint64(1) << p
	rb, rw := ix.rev(b), ix.rev(w)
	ix.shapes(me, op, side, func(reg *dregion, mirrored bool) {
		f := reg.f
		if mirrored {
			f = ix.rev(f)
		}
		if f&pbit != 0 {
			return
		}
		if mirrored {
			out = append(out, dstate{ix.at(reg, rb, rw), b, w, f})
		} else {
			out = append(out, dstate{ix.at(reg, b, w), b, w, f})
		}
	})
	return out
}

// terminals calls fn with every finished state of the region reg (in the
// region's orientation) whose margin (half points) is from lo to hi: those
// whose free points all hold stones, so that every empty point is
// forbidden. Their margin depends only on how many of the free points hold
// x stones, so only those counts are enumerated. A state of a symmetric
// region may come twice (as itself and as its mirror image).
func (ix *dindex) terminals(reg *dregion, lo, hi int32, fn func(s dstate)) {
	if reg.gap != 0 {
		return // an empty point that is not forbidden: a legal placement
	}
	var sb, sw uint64 // the descriptor's stones
	if reg.white {
		sb = reg.stone
	} else {
		sw = reg.stone
	}
	free := reg.free
	nf := bits.OnesCount64(free)
	// The free points are [0, low) and [high, n): a number v of nf bits
	// is put on them as v's low bits and the rest from high up.
	low, high := uint(reg.lo), uint(reg.s)
	if reg.stone == 0 {
		low, high = uint(ix.n), uint(ix.n)
	}
	// Under area scoring the forbidden points, every empty point of a
	// finished state, are the territory of the previous mover, whose
	// stones (or an end) close them.
	terr := int32(0)
	if ix.area {
		terr = 2 * int32(bits.OnesCount64(reg.f))
		if !reg.white {
			terr = -terr
		}
	}
	for k := 0; k <= nf; k++ {
		m := 2*int32(k+bits.OnesCount64(sb)-(nf-k)-bits.OnesCount64(sw)) - ix.komi2 + terr
		if ix.kind == denseAlterIgo {
			m = 0
		}
		if m < lo || m > hi {
			continue
		}
		for v := uint64(1)<<k - 1; v < 1<<nf; {
			x := v&(1<<low-1) | v>>low<<high
			b, w := x|sb, free&^x|sw
			fn(dstate{ix.at(reg, b, w), b, w, reg.f})
			if v == 0 {
				break
			}
			c := v & -v // the next number of k bits (Gosper)
			r := v + c
			v = (r^v)>>2/c | r
		}
	}
}

// childTogether is child under the Alter Igo rules: the number of the
// state after the placement, or denseLoss when it leaves the board
// unchanged.
func (ix *dindex) childTogether(b, w uint64, white bool, p int) uint64 {
	me, op := b, w
	if white {
		me, op = w, b
	}
	nme, nop, _, _, _ := ix.ln.Place(me, op, p)
	if nme == me && nop == op {
		return denseLoss
	}
	if white {
		return ix.at(ix.openReg(false), nop, nme)
	}
	return ix.at(ix.openReg(true), nme, nop)
}

// allLose reports whether every placement of the player to move (one at
// least) leaves the board unchanged under the Alter Igo rules: the player
// to move loses.
func (ix *dindex) allLose(b, w uint64, white bool) bool {
	pts := ix.legal(b, w, 0)
	if pts == 0 {
		return false
	}
	for ; pts != 0; pts &= pts - 1 {
		if ix.childTogether(b, w, white, bits.TrailingZeros64(pts)) != denseLoss {
			return false
		}
	}
	return true
}

// predsTogether is preds under the Alter Igo rules (no forbidden points).
// The mover placed p and captured the other player's runs next to it, or
// had its own run, p's, removed with them. If p's stone stayed, it is one
// of the mover's stones, and the captured runs are empty runs next to it,
// closed on their far side by the mover. If it went, the points removed,
// p's run and the captured runs beside it (only on a side where p has no
// stone of its own), make a whole empty run of the state: each split of an
// empty run into a run of the mover's around p and the other player's
// runs at its ends is a candidate. Every candidate is replayed: kept only
// if the placement leads to the state (and changes the board).
func (ix *dindex) predsTogether(b, w uint64, white bool, out []dstate) []dstate {
	mover, op := b, w // the player who just moved, and the other
	if !white {
		mover, op = w, b
	}
	empty := ix.mask &^ (b | w)
	try := func(me, opQ uint64, p int) {
		nme, nop, _, _, _ := ix.ln.Place(me, opQ, p)
		if nme != mover || nop != op || (nme == me && nop == opQ) {
			return
		}
		qb, qw := me, opQ // the predecessor, the mover to move
		if !white {
			qb, qw = opQ, me
		}
		out = append(out, dstate{ix.at(ix.openReg(!white), qb, qw), qb, qw, 0})
	}
	for ps := mover; ps != 0; ps &= ps - 1 {
		ix.undoPlacement(empty, mover, op, bits.TrailingZeros64(ps), try)
	}
	// Each split of an empty run into the mover's run [l0, l1] and the
	// captured runs beside it, p at the mover's run's end next to each (as
	// undoRemoved's, dense_gaps.go; written here so that the closure try,
	// called directly, inlines).
	for r := range bitline.Runs(empty) {
		e0, e1 := r.First, r.Last
		for l0 := e0; l0 <= e1; l0++ {
			for l1 := l0; l1 <= e1; l1++ {
				own := span(l0, l1) // the mover's run removed; the other player's beside it
				for p := l0; p <= l1; p++ {
					if l0 > e0 && p != l0 || l1 < e1 && p != l1 {
						continue
					}
					try(mover|own&^(uint64(1)<<p), op|r.Points&^own, p)
				}
			}
		}
	}
	return out
}

// undoPlacement calls try with each predecessor of a placement at point p
// by the player whose stones are mover (op: the other player's stones,
// empty: the empty points): the stone taken off, with none, either or both
// of the empty runs next to it that its placement could have captured (a
// run closed on its other side by mover's stones or an end) given back to
// the other player.
func (ix *dindex) undoPlacement(empty, mover, op uint64, p int, try func(pm, po uint64, p int)) {
	bit := uint64(1) << p
	l, r := ix.ln.ClosedRuns(empty, mover, bit)
	try(mover&^bit, op, p)
	if l != 0 {
		try(mover&^bit, op|l, p)
	}
	if r != 0 {
		try(mover&^bit, op|r, p)
	}
	if l != 0 && r != 0 {
		try(mover&^bit, op|l|r, p)
	}
}
