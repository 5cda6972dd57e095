package player

import "math/bits"

// fastRand is a small seeded generator (wyrand) for the playouts, where
// math/rand's interface call per draw would cost more than the move itself.
type fastRand struct{ s uint64 }

func (r *fastRand) next() uint64 {
	r.s += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(r.s, r.s^0xe7037ed1a0b428db)
	return hi ^ lo
}

// n returns a number in [0, k) for k > 0 (Lemire's multiply-shift; the
// bias is below 2^-58 for the small k used here).
func (r *fastRand) n(k int) int {
	hi, _ := bits.Mul64(r.next(), uint64(k))
	return int(hi)
}

// nthBit returns the index of the i-th set bit (from 0) of x.
func nthBit(x uint64, i int) int {
	for ; i > 0; i-- {
		x &= x - 1
	}
	return bits.TrailingZeros64(x)
}
