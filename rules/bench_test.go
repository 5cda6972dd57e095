package rules

import (
	"math/bits"
	"testing"
)

// xorshift is a tiny seeded generator for the benchmarks' random playouts.
type xorshift uint64

func (x *xorshift) next() uint64 {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return uint64(*x)
}

// nthBit returns the index of the k-th set bit of set (k from 0). (A
// branch-free halving search measured slower: k is small on 11 points.)
func nthBit(set uint64, k int) int {
	for range k {
		set &= set - 1
	}
	return bits.TrailingZeros64(set)
}

// BenchmarkPlayoutAlak11 plays random playouts on the 11-point board under
// alak rules with the fast paths LegalPoints and Apply; one op is one
// placement.
func BenchmarkPlayoutAlak11(b *testing.B) {
	root := start(b, MustPreset("alak"))
	pos := root
	rng := xorshift(88172645463325252)
	for b.Loop() {
		pts, _ := pos.LegalPoints()
		if pts == 0 || pos.Ply() > 200 {
			pos = root
			pts, _ = pos.LegalPoints()
		}
		k := (rng.next() >> 32) * uint64(bits.OnesCount64(pts)) >> 32 // uniform below the count, no division
		if err := pos.Apply(Place(nthBit(pts, int(k)))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "placements/s")
}

// BenchmarkPlayoutAlterIgo9x9 plays random Alter Igo playouts on 9×9 with
// LegalMoves; one op is one move.
func BenchmarkPlayoutAlterIgo9x9(b *testing.B) {
	benchPlayout(b, MustPreset("alterigo"))
}

// BenchmarkPlayoutGeneric runs the generic LegalMoves path on lines.
func BenchmarkPlayoutGeneric(b *testing.B) {
	for _, spec := range []string{"alak", "traditional", "tromp-taylor", "dewdney", "golf"} {
		r, _ := Parse(spec)
		b.Run(spec, func(b *testing.B) { benchPlayout(b, r) })
	}
}

func benchPlayout(b *testing.B, r Rules) {
	root := start(b, r)
	pos := root
	rng := xorshift(88172645463325252)
	buf := make([]Move, 0, 400)
	for b.Loop() {
		buf = pos.LegalMoves(buf[:0])
		if len(buf) == 0 || pos.Ply() > 300 {
			pos = root
			buf = pos.LegalMoves(buf[:0])
		}
		if err := pos.Apply(buf[rng.next()%uint64(len(buf))]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// TestNthBit checks the benchmarks' bit choice against counting the set
// bits one by one.
func TestNthBit(t *testing.T) {
	rng := xorshift(7)
	for range 20000 {
		set := rng.next()
		if rng.next()&1 == 0 {
			set &= 1<<11 - 1
		}
		k := 0
		for i := range 64 {
			if set>>i&1 == 0 {
				continue
			}
			if got := nthBit(set, k); got != i {
				t.Fatalf("nthBit(%#x, %d) = %d, want %d", set, k, got, i)
			}
			k++
		}
	}
}
