package solve

import (
	"alak/rules"
	"alak/rules/bitline"
)

// The safe-eye rule (rules.SafeEye) adds a set of safe points to a line
// position. Method 1's state graph and the alpha-beta searches key a
// position by its bitboards; the safe points join the forbidden points'
// word from bit 32 on (stateBits), so that lines of up to maxSafePoints
// points take the rule with the tables' keys unchanged; the searcher's rev
// reverses the two halves of a word apart (safeRev). The dense, compact and
// superko solvers do not take the rule: their indexes have no room for it.
const maxSafePoints = 32

// declareCode marks a declaration in a table entry's move (encodeMove),
// the point in the low six bits.
const declareCode = 0x4000

// stateBits returns the bitboards that key pos: the stones of Black and
// White, and the forbidden points with the safe points from bit 32 on.
func stateBits(pos rules.Position) (b, w, f uint64) {
	b, w, f, _ = pos.Bits()
	if s := pos.SafeSet(); s != 0 {
		f |= s << 32
	}
	return b, w, f
}

// safeRev reverses a line of n <= 32 points in each half of x: the
// points in bits 0..31 and the safe points in bits 32..63.
func safeRev(x uint64, n int) uint64 {
	return bitline.Rev(x&0xFFFFFFFF, n) | bitline.Rev(x>>32, n)<<32
}

// safeBoardKey is the safe points' part of a superko key: the kernel's
// boards (rules.Position.BoardHash) hold them, so the same stones with
// other safe points are another board. f is stateBits' third word.
func safeBoardKey(f uint64) uint64 {
	if f>>32 == 0 {
		return 0
	}
	return mix(f>>32 ^ 0x5AFE5AFE5AFE5AFE)
}
