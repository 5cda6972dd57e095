package rules

import (
	"iter"
	"math/bits"
)

// PointSet is a set of points of a board of up to 19×19 (384 points): bit
// p%64 of word p/64 holds point p. It is what LegalSet fills, for playouts
// and searches that choose among the legal placements without listing them.
type PointSet [6]uint64

// Has reports whether p is in the set.
func (s *PointSet) Has(p int) bool {
	return p >= 0 && p < 64*len(s) && s[p>>6]>>(p&63)&1 != 0
}

// Len returns the number of points in the set.
func (s *PointSet) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Nth returns the k-th point of the set in increasing order (k from 0), or
// -1 when the set has k points or fewer.
func (s *PointSet) Nth(k int) int {
	if k < 0 {
		return -1
	}
	for i, w := range s {
		c := bits.OnesCount64(w)
		if k >= c {
			k -= c
			continue
		}
		for range k {
			w &= w - 1
		}
		return i<<6 | bits.TrailingZeros64(w)
	}
	return -1
}

// All yields the points of the set in increasing order.
func (s *PointSet) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i, w := range s {
			for ; w != 0; w &= w - 1 {
				if !yield(i<<6 | bits.TrailingZeros64(w)) {
					return
				}
			}
		}
	}
}

// LegalSet sets *dst to the points the player to move may place on,
// superko aside (Game.LegalMoves applies it): the placements of LegalMoves
// as a set, on lines and grids. It reports false, leaving *dst empty, under
// sliding rules. A finished game has no legal placement.
func (pos Position) LegalSet(dst *PointSet) bool {
	*dst = PointSet{}
	e := pos.e
	if e == nil || e.r.Movement != Placement {
		return false
	}
	if pos.end != NotOver {
		return true
	}
	if pos.g == nil {
		dst[0], _ = pos.LegalPoints()
		return true
	}
	cand := (*bitboard)(dst)
	if pos.g.candidates(cand, &pos) {
		for i := range e.gw {
			for w := cand[i]; w != 0; w &= w - 1 {
				if p := i<<6 | bits.TrailingZeros64(w); !pos.g.legalAt(&pos, p) {
					cand[i] &^= 1 << (p & 63)
				}
			}
		}
	}
	return true
}
