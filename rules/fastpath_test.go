package rules

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"alak/internal/testlong"
)

// TestRunKeysMatchHashRun checks the prefix keys the alak fast path takes
// captured runs' keys from against hashRun, which XORs the stone keys point
// by point: every run of consecutive points on every line size, both
// colours.
func TestRunKeysMatchHashRun(t *testing.T) {
	for n := 1; n <= 64; n++ {
		for c := Black; c <= White; c++ {
			for lo := range n {
				for hi := lo + 1; hi <= n; hi++ {
					run := ^uint64(0) >> (64 - (hi - lo)) << lo // points lo to hi-1
					if got, want := runKeys[c].Run(run), hashRun(c, run); got != want {
						t.Fatalf("n=%d %v: points %d to %d: run key %x, hashRun %x", n, c, lo, hi-1, got, want)
					}
				}
			}
		}
	}
}

// TestByteKeysMatchHashRun checks the byte keys the alak fast path takes
// the captures' key from on lines of up to 16 points against hashRun: every
// set of up to 16 points, both colours.
func TestByteKeysMatchHashRun(t *testing.T) {
	for c := Black; c <= White; c++ {
		for set := range uint64(1 << 16) {
			if got, want := byteKeys[c].Low16(set), hashRun(c, set); got != want {
				t.Fatalf("%v: %016b: byte key %x, hashRun %x", c, set, got, want)
			}
		}
	}
}

// stayCases are rule sets Apply plays through placeStays: alak on every
// line size, and with captures against the ends off and without the ko
// rule.
func stayCases(t *testing.T) []Rules {
	t.Helper()
	var out []Rules
	for n := 1; n <= 64; n++ {
		for _, opt := range []string{"", " edge=off", " ko=none", " edge=off ko=none"} {
			r, err := Parse(fmt.Sprintf("alak size=%d%s", n, opt))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
	}
	return out
}

// TestPlaceStaysMatchesPlaceLine plays random games under the rule sets of
// the fast path and checks, in every position reached and for every point,
// that placeStays leaves the same position as the general line placement
// (stones, hash, prisoners, forbidden and removed points, end of game), or
// refuses the points the general path refuses and leaves the position as
// it was; and that the hash stays the one recomputed from the stones.
// Five games a rule set, 20 with ALAK_LONG=1.
func TestPlaceStaysMatchesPlaceLine(t *testing.T) {
	games := testlong.Size(t, 5, 20)
	if testing.Short() {
		games = 4
	}
	for _, r := range stayCases(t) {
		t.Run(r.String(), func(t *testing.T) {
			root := start(t, r)
			if !root.e.stays {
				t.Fatalf("%s: not a fast-path engine", r)
			}
			rng := rand.New(rand.NewPCG(3, uint64(r.Points())))
			for range games {
				pos := root
				for ply := 0; ply < 4*r.Points()+20 && !pos.Over(); ply++ {
					for p := range r.Points() {
						fast, general := pos, pos
						ok := fast.placeStays(p)
						err := general.placeLine(p)
						switch {
						case ok && err != nil:
							t.Fatalf("%s: placeStays(%d) played, placeLine refused: %v", pos, p+1, err)
						case !ok && err == nil:
							t.Fatalf("%s: placeStays(%d) refused, placeLine played", pos, p+1)
						case !ok && fast != pos:
							t.Fatalf("%s: placeStays(%d) refused but changed the position to %s", pos, p+1, fast)
						case ok && fast != general:
							t.Fatalf("%s: placeStays(%d) gives %+v, placeLine %+v", pos, p+1, fast, general)
						}
					}
					pts, _ := pos.LegalPoints()
					m := Place(nthBit(pts, rng.IntN(bits.OnesCount64(pts))))
					before := pos
					if err := pos.Apply(m); err != nil {
						t.Fatalf("%s: Apply(%v): %v", before, m, err)
					}
					if want := before; want.apply(m) != nil || want != pos {
						t.Fatalf("%s: Apply(%v) gives %s, the general path %s", before, m, pos, want)
					}
					if got, want := pos.BoardHash(), recomputeHash(pos); got != want {
						t.Fatalf("%s -> %v: hash %x, recomputed %x", before, m, got, want)
					}
				}
			}
		})
	}
}
