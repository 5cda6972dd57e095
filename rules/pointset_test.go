package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLegalSetMatchesLegalMoves plays random games under every property
// case and checks, at each position, that LegalSet holds exactly the
// placements LegalMoves lists, and that the set's Len, Has, Nth and All
// agree with that list.
func TestLegalSetMatchesLegalMoves(t *testing.T) {
	for _, r := range propertyCases(t) {
		t.Run(r.String(), func(t *testing.T) {
			randomPositions(t, r, 4, 20, 120, func(pos Position) {
				moves := pos.LegalMoves(nil)
				var set PointSet
				ok := pos.LegalSet(&set)
				if ok != (r.Movement == Placement) {
					t.Fatalf("LegalSet ok = %v under %v", ok, r.Movement)
				}
				var want []int
				for _, m := range moves {
					if m.IsPlace() {
						want = append(want, int(m))
					}
				}
				got := slices.Collect(set.All())
				if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
					t.Fatalf("%v: LegalSet %v, LegalMoves placements %v", pos, got, want)
				}
				if set.Len() != len(want) || set.Nth(len(want)) != -1 || set.Nth(-1) != -1 {
					t.Fatalf("%v: Len %d or Nth beyond the end wrong for %v", pos, set.Len(), want)
				}
				for k, p := range want {
					if set.Nth(k) != p || !set.Has(p) {
						t.Fatalf("%v: Nth(%d) = %d, Has(%d) = %v; want %d", pos, k, set.Nth(k), p, set.Has(p), p)
					}
				}
				if set.Has(-1) || set.Has(r.Points()) || set.Has(384) {
					t.Fatalf("%v: Has off the board", pos)
				}
			})
		})
	}
}

// TestBitsMatchesAt plays random games under every property case and
// checks that Bits holds exactly the stones At reports and the points
// Forbidden reports on boards of at most 64 points, and is not ok on larger
// ones.
func TestBitsMatchesAt(t *testing.T) {
	for _, r := range propertyCases(t) {
		t.Run(r.String(), func(t *testing.T) {
			randomPositions(t, r, 5, 10, 80, func(pos Position) {
				b, w, f, ok := pos.Bits()
				if ok != (r.Points() <= 64) {
					t.Fatalf("%v: Bits ok = %v on %d points", pos, ok, r.Points())
				}
				if ok {
					for p := range r.Points() {
						bit := uint64(1) << p
						if (b&bit != 0) != (pos.At(p) == Black) || (w&bit != 0) != (pos.At(p) == White) || (f&bit != 0) != pos.Forbidden(p) {
							t.Fatalf("%v: Bits disagrees with At/Forbidden at point %d", pos, p)
						}
					}
				}
			})
		})
	}
}

// randomPositions calls check on every position of games random games of at
// most plies moves each under r, the finished positions included (the
// random generator seeded by seed and the board size).
func randomPositions(t *testing.T, r Rules, seed uint64, games, plies int, check func(Position)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(r.Points())))
	for range games {
		pos := start(t, r)
		for range plies {
			check(pos)
			moves := pos.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			if err := pos.Apply(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
