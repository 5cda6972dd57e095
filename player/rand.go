package player

import (
	"math/bits"

	"alak/rules"
)

// fastRand is a small seeded generator for the playouts, where
// math/rand's interface call per draw would cost more than the move
// itself: the rules' playout generator (rules.Rand, wyrand), whose state
// s is, so that the rules' playout kernel draws from it in turn.
type fastRand struct{ s uint64 }

// n returns a number in [0, k) for k > 0 (Lemire's multiply-shift; the
// bias is below 2^-58 for the small k used here).
func (r *fastRand) n(k int) int { return (*rules.Rand)(&r.s).IntN(k) }

// nthBit returns the index of the i-th set bit (from 0) of x.
func nthBit(x uint64, i int) int {
	for ; i > 0; i-- {
		x &= x - 1
	}
	return bits.TrailingZeros64(x)
}
