package rules

import "testing"

// TestCapturesFlat checks the branch-free capture of the placement fast
// path against the run-walking captures, on random boards of every length
// from 1 to 64 points (64 exercises the carry leaving the word), with
// captures against the ends on and off.
func TestCapturesFlat(t *testing.T) {
	rng := xorshift(99)
	for n := 1; n <= 64; n++ {
		for _, edge := range []bool{true, false} {
			r := MustPreset("alak")
			r.Width, r.EdgeCapture = n, edge
			e, err := newEngine(r)
			if err != nil {
				t.Fatal(err)
			}
			for range 3000 {
				a, b := rng.next()&e.mask, rng.next()&e.mask
				if rng.next()&1 == 0 { // sparser boards: longer empty runs
					a &= rng.next()
					b &= rng.next()
				}
				me, op := a&^b, b&^a
				p := int(rng.next() % uint64(n))
				bit := uint64(1) << p
				me, op = me|bit, op&^bit
				want := e.captures(op, me, bit)
				if got := e.capturesFlat(op, me, bit); got != want {
					t.Fatalf("n=%d edge=%v me=%#x op=%#x p=%d: capturesFlat %#x, captures %#x", n, edge, me, op, p, got, want)
				}
			}
		}
	}
}
