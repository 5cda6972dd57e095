package player

import (
	"math"
	"testing"

	"alak/rules"
)

// Playouts under the safe-eye rule follow the kernel: no stone on a safe
// point, declarations among the moves. On 3 points under safe=field after
// Black declares 2, points 1 and 3 keep the safe liberty for good, so no
// game can end with a margin beyond one stone; a playout that placed on 2
// (the line simulator knows nothing of safe points) can reach two.
func TestSafePlayouts(t *testing.T) {
	r, err := rules.Parse("alak size=3 safe=field")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := rules.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	if pos, err = pos.Play(rules.Declare(1)); err != nil {
		t.Fatal(err)
	}
	p := newPlayouter(r)
	rng := fastRand{31}
	for i := range 300 {
		res := p.run(pos, &rng)
		if !res.ended || math.Abs(res.margin) > 1 {
			t.Fatalf("playout %d: margin %v, ended %v; want a finished game within one stone", i, res.margin, res.ended)
		}
	}
}
