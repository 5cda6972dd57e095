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

// nthBit returns the index of the k-th set bit of set (k from 0, below the
// number of set bits), without a branch on the bits (the one branch, on
// the size of the set, goes the same way for a whole playout): a loop clearing k bits ends after
// a random number of rounds, and its mispredicted exit cost a fifth of a
// placement. The bits are counted per byte, the counts summed into running
// totals by one multiplication, the byte holding the bit found by comparing
// all eight totals with k at once, and the bit within it looked up.
//
// A set of the 16 low points (lines of up to 16 points, alak's 11) takes a
// shorter path, since the choice is on the playout's chain of dependent
// steps (the legal points, the choice, the captures, the next legal
// points), whose length bounds the time a placement: the bit is in the low byte when k is below the low byte's count,
// else in the high byte; both bytes are looked up and one result kept by a
// conditional move.
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

// BenchmarkPlayoutAlak11 plays random playouts on the 11-point board under
// alak rules with the fast paths LegalPoints and Apply; one op is one
// placement.
func BenchmarkPlayoutAlak11(b *testing.B) {
	pl := newLinePlayout(start(b, MustPreset("alak")))
	for b.Loop() {
		if err := pl.place(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "placements/s")
}

// linePlayout plays random placements on a line, chosen from LegalPoints
// and played with Apply, starting again from the root when the game ends
// (or after 200 plies, which random alak games do not reach). The state is
// a struct so that the benchmark loop's body is one call: b.Loop keeps
// alive every variable its body assigns, which sent the legal points and
// the choice through memory on the playout's chain of dependent steps.
type linePlayout struct {
	root, pos Position
	rng       xorshift
	plies     int // pos.Ply(), counted here: the accessor copies the position
}

func newLinePlayout(root Position) *linePlayout {
	return &linePlayout{root: root, pos: root, rng: xorshift(88172645463325252)}
}

// place plays one random placement.
func (pl *linePlayout) place() error {
	pts, _ := pl.pos.LegalPoints()
	if pts == 0 || pl.plies > 200 {
		pl.pos, pl.plies = pl.root, 0
		pts, _ = pl.pos.LegalPoints()
	}
	pl.plies++
	k := (pl.rng.next() >> 32) * uint64(bits.OnesCount64(pts)) >> 32 // uniform below the count, no division
	return pl.pos.Apply(Place(nthBit(pts, int(k))))
}

// BenchmarkPlayoutAlterIgo9x9 plays random Alter Igo playouts on 9×9,
// choosing each move from LegalSet as the line benchmark does from
// LegalPoints; one op is one move.
func BenchmarkPlayoutAlterIgo9x9(b *testing.B) {
	root := start(b, MustPreset("alterigo"))
	pos := root
	rng := xorshift(88172645463325252)
	var set PointSet
	for b.Loop() {
		pos.LegalSet(&set)
		n := set.Len()
		if n == 0 || pos.Ply() > 300 {
			pos = root
			pos.LegalSet(&set)
			n = set.Len()
		}
		k := (rng.next() >> 32) * uint64(n) >> 32
		if err := pos.Apply(Place(set.Nth(int(k)))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkPlayoutAlterIgo9x9Moves is the same playout choosing from the
// list LegalMoves makes.
func BenchmarkPlayoutAlterIgo9x9Moves(b *testing.B) {
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
		switch rng.next() % 3 {
		case 0:
			set &= 1<<11 - 1
		case 1:
			set &= 1<<16 - 1
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
