package rules

import (
	"math/bits"

	"alak/rules/bitline"
)

// Rand is the seeded generator the playout kernel draws from (wyrand): its
// value is its whole state, so Rand(seed) is a generator and the caller
// owns it, and a playout is reproduced by the same seed. Any value is a
// valid seed.
type Rand uint64

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	*r += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(uint64(*r), uint64(*r)^0xe7037ed1a0b428db)
	return hi ^ lo
}

// IntN returns a number from 0 to k-1 for k > 0, the high word of the
// next 64 bits times k (Lemire's multiply-shift; the bias is below 2^-58
// for k up to 64). It is the choice the playout kernel makes among k legal
// points.
func (r *Rand) IntN(k int) int {
	hi, _ := bits.Mul64(r.Uint64(), uint64(k))
	return int(hi)
}

// PlayoutRules reports whether the playout kernel (Position.Playout) plays
// under r: a line under placement rules where the mover's own stones stay
// (own=stays), without passing, without the unchanged-board rule, with the
// points just captured forbidden (ko=captured) or no ko rule (ko=none);
// captures against the ends on or off, any scoring, komi and repetition
// rule (the repetition draw is the Game's, as for Apply). The alak preset
// is such rules, on every size from 1 to 64.
func PlayoutRules(r Rules) bool {
	e, err := newEngine(r)
	return err == nil && e.stays
}

// Playout plays up to limit placements on the position in place, each
// point chosen uniformly from LegalPoints with rng.IntN(the number of
// legal points), the points counted from the line's low end; it stops when
// the game ends (the player to move has no legal placement). It returns
// the number of placements played. *pos is then exactly the position that
// Apply would have left after the same placements: stones, hash,
// prisoners, forbidden and removed points, last move, ply and end of game.
// Without the Game's repetition rule some games never end (on 2 points
// under ko=none each placement captures the other stone), so limit is what
// bounds the work.
//
// It is the playout kernel: one loop over the position's words held in
// locals, where Apply keeps them in the Position in memory and puts a
// store and a load on every placement's chain of dependent steps, with the
// choice and the captures free of branches. ok is false, and *pos and rng
// are left unchanged, when the rules are not ones it plays under
// (PlayoutRules) or pos is the zero Position; a finished game plays
// nothing (ok true, 0 placements).
func (pos *Position) Playout(rng *Rand, limit int) (plies int, ok bool) {
	e := pos.e
	if e == nil || !e.stays {
		return 0, false
	}
	if pos.end != NotOver || limit <= 0 {
		return 0, true
	}
	if e.n > smallPoints {
		return playoutWide(pos, rng, limit), true
	}
	for plies < limit && pos.end == NotOver {
		plies += playoutSmall(pos, rng, min(limit-plies, smallChunk))
	}
	return plies, true
}

// The loops of Playout do not form the legal points from the stones: under
// ko=captured the points a placement captures are forbidden to the next
// player, so the stones and forbidden points after a placement are the
// stones before it and the new stone, and the legal points after it are
// the legal points before it, less the point played, plus the points that
// were forbidden before it. That keeps the captures off the chain of
// dependent steps from one choice to the next, which is then the list or
// the count of the legal points, the scaled random number, the choice, the
// point's bit, one XOR and one OR; the captures run beside it and are
// needed one placement later. Under ko=none the captured points are legal
// at once. The branch on the ko rule goes the same way for a whole loop.

// smallPoints is the longest line playoutSmall plays on: its tables
// (selectNibbles, and CapturesShort's) serve lines of up to 12 points.
const smallPoints = min(selectBits, bitline.ShortPoints)

// smallChunk bounds the placements of one call of playoutSmall, whose
// 32-bit prisoner counters (two in a word) must not overflow: a placement
// on up to 12 points captures at most 11 stones.
const smallChunk = 1 << 26

// playoutSmall is Playout's loop on lines of up to 12 points (alak's 11).
// One entry of selectNibbles gives the legal points' indices and their
// number, another the captures' count; the captures come from
// CapturesShort and their key from the byte keys. The loop is written out for two placements a round, one
// by each player, so that nothing in it is indexed by the colour: a holds
// the stones of the player to move at the start, b the other's, and their
// prisoners are the low and the high half of one word. The two halves of
// the round are the same steps with a and b swapped. (One placement a
// round, with the colours swapped at each, as playoutWide does, took 10%
// more time: its compiled loop kept more of its values on the stack.)
func playoutSmall(pos *Position, rng *Rand, limit int) int {
	e := pos.e
	ln := &e.ln
	captured := e.koMask != 0
	c := uint(pos.toMove & 1)
	a, b := pos.st[c], pos.st[c^1]
	forbid := pos.forbid
	legal := e.mask ^ (a | b | forbid)
	if legal == 0 {
		return 0 // not reached: Apply marks such a position over
	}
	hash := pos.hash
	ka, kb := (*[64]uint64)(zobrist.stone[c][:64]), (*[64]uint64)(zobrist.stone[c^1][:64])
	bka, bkb := &byteKeys[c], &byteKeys[c^1]
	prisoners := uint64(uint16(pos.prisoners[c])) | uint64(uint16(pos.prisoners[c^1]))<<32
	r := uint64(*rng)
	var p, capt uint64
	left := limit
	for {
		// a's placement.
		left--
		r += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(r, r^0xe7037ed1a0b428db)
		list := selectNibbles[legal&(1<<selectBits-1)]
		k, _ := bits.Mul64(hi^lo, list>>60)
		p = list >> (k * 4 & 63) & 15
		bit := uint64(1) << p
		capt = ln.CapturesShort(b, a, bit)
		a |= bit
		b ^= capt
		hash ^= ka[p] ^ bkb.Low16(capt)
		prisoners += selectNibbles[capt&(1<<selectBits-1)] >> 60
		legal ^= bit
		if captured {
			legal |= forbid
			forbid = capt
		} else {
			legal |= capt
		}
		if legal == 0 {
			pos.end = NoMoves
			break
		}
		if left == 0 {
			break
		}
		// b's placement.
		left--
		r += 0xa0761d6478bd642f
		hi, lo = bits.Mul64(r, r^0xe7037ed1a0b428db)
		list = selectNibbles[legal&(1<<selectBits-1)]
		k, _ = bits.Mul64(hi^lo, list>>60)
		p = list >> (k * 4 & 63) & 15
		bit = uint64(1) << p
		capt = ln.CapturesShort(a, b, bit)
		b |= bit
		a ^= capt
		hash ^= kb[p] ^ bka.Low16(capt)
		prisoners += selectNibbles[capt&(1<<selectBits-1)] >> 60 << 32
		legal ^= bit
		if captured {
			legal |= forbid
			forbid = capt
		} else {
			legal |= capt
		}
		if legal == 0 {
			pos.end = NoMoves
			break
		}
		if left == 0 {
			break
		}
	}
	*rng = Rand(r)
	i := limit - left
	pos.st[c], pos.st[c^1] = a, b
	pos.prisoners[c], pos.prisoners[c^1] = int16(prisoners), int16(prisoners>>32)
	pos.forbid, pos.removed, pos.hash = forbid, capt, hash
	pos.last, pos.toMove, pos.ply = Place(int(p)), Color(c^uint(i&1)), pos.ply+int32(i)
	return i
}

// selectBits is the size of the sets selectNibbles lists.
const selectBits = 12

// selectNibbles[v] lists the set bits of v, the lowest first, one 4-bit
// index each, and their number in the top four bits: the k-th set bit of v
// (from 0) is selectNibbles[v]>>(4k)&15, and it has selectNibbles[v]>>60
// bits. One load gives the playout both, where the count would otherwise
// come from OnesCount64 (a call where POPCNT is not known to exist, as at
// GOAMD64=v1).
var selectNibbles = func() (t [1 << selectBits]uint64) {
	for v := range t {
		var list uint64
		k := 0
		for i := range selectBits {
			if v>>i&1 != 0 {
				list |= uint64(i) << (4 * k)
				k++
			}
		}
		t[v] = list | uint64(k)<<60
	}
	return t
}()

// playoutWide is Playout's loop on lines of more than 12 points: the
// choice by nthBit, the captures' key from the byte keys on up to 16
// points, else from the prefix keys (a branch that goes the same way for a
// whole loop). The keys and prisoners of the player to move and of the
// other are swapped at each placement; the prisoners are 32-bit counters,
// which the position's 16-bit counts wrap as Apply's do.
func playoutWide(pos *Position, rng *Rand, limit int) int {
	e := pos.e
	ln := &e.ln
	byteKeyed := e.n <= 16
	captured := e.koMask != 0
	c := uint(pos.toMove & 1)
	me, op := pos.st[c], pos.st[c^1]
	forbid := pos.forbid
	legal := e.mask ^ (me | op | forbid)
	if legal == 0 {
		return 0 // not reached: Apply marks such a position over
	}
	hash := pos.hash
	keyMe, keyOp := (*[64]uint64)(zobrist.stone[c][:64]), (*[64]uint64)(zobrist.stone[c^1][:64])
	rkMe, rkOp := &runKeys[c], &runKeys[c^1]
	bkMe, bkOp := &byteKeys[c], &byteKeys[c^1]
	pm, po := uint32(uint16(pos.prisoners[c])), uint32(uint16(pos.prisoners[c^1]))
	r := uint64(*rng)
	var p, capt uint64
	i := 0
	for i < limit {
		i++
		r += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(r, r^0xe7037ed1a0b428db)
		k, _ := bits.Mul64(hi^lo, uint64(bits.OnesCount64(legal)))
		p = uint64(nthBit(legal, int(k)))
		bit := uint64(1) << (p & 63)
		capt = ln.CapturesFlat(op, me, bit)
		me |= bit
		op ^= capt
		if byteKeyed {
			hash ^= keyMe[p&63] ^ bkOp.Low16(capt)
		} else {
			hash ^= keyMe[p&63] ^ rkOp.Around(capt, bit)
		}
		pm += uint32(bits.OnesCount64(capt))
		legal ^= bit
		if captured {
			legal |= forbid
			forbid = capt
		} else {
			legal |= capt
		}
		me, op, pm, po, c = op, me, po, pm, c^1
		keyMe, keyOp, rkMe, rkOp, bkMe, bkOp = keyOp, keyMe, rkOp, rkMe, bkOp, bkMe
		if legal == 0 {
			pos.end = NoMoves // every empty point is forbidden: no legal placement
			break
		}
	}
	c &= 1
	*rng = Rand(r)
	pos.st[c], pos.st[c^1] = me, op
	pos.prisoners[c], pos.prisoners[c^1] = int16(pm), int16(po)
	pos.forbid, pos.removed, pos.hash = forbid, capt, hash
	pos.last, pos.toMove, pos.ply = Place(int(p)), Color(c), pos.ply+int32(i)
	return i
}

// nthBit returns the index of the k-th set bit of set (k from 0, below the
// number of set bits), without a branch on the bits (the one branch, on
// the size of the set, goes the same way for a whole playout): a loop
// clearing k bits ends after a random number of rounds, and its
// mispredicted exit cost a fifth of a placement. The bits are counted per
// byte, the counts summed into running totals by one multiplication, the
// byte holding the bit found by comparing all eight totals with k at once,
// and the bit within it looked up.
//
// A set of the 16 low points takes a shorter path: the bit is in the low
// byte when k is below the low byte's count, else in the high byte; both
// bytes are looked up and one result kept by a conditional move.
func nthBit(set uint64, k int) int {
	if set < 1<<16 {
		lo := bits.OnesCount8(uint8(set))
		inLo := int(selectInByte[set&0xff][k&7])
		p := 8 + int(selectInByte[set>>8&0xff][(k-lo)&7])
		if k < lo {
			p = inLo
		}
		return p
	}
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	c := set - set>>1&0x5555555555555555
	c = c&0x3333333333333333 + c>>2&0x3333333333333333
	c = (c + c>>4) & 0x0f0f0f0f0f0f0f0f
	sums := c * ones // byte i: the bits set in bytes 0..i
	upTo := (uint64(k)*ones | highs) - sums
	b := uint(bits.OnesCount64(upTo&highs)) * 8 // bytes whose running total is at most k
	before := sums << 8 >> b & 0xff
	return int(b) + int(selectInByte[set>>b&0xff][uint64(k)-before])
}

// selectInByte[v][k] is the index of the k-th set bit of the byte v.
var selectInByte = func() (t [256][8]uint8) {
	for v := range 256 {
		k := 0
		for i := range 8 {
			if v>>i&1 != 0 {
				t[v][k] = uint8(i)
				k++
			}
		}
	}
	return t
}()
