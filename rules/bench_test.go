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

// BenchmarkPlayoutAlak11 plays random playouts on the 11-point board under
// alak rules with the playout kernel, Position.Playout, from the empty
// board to the end of each game; one op is one placement. Each placement
// is a uniform choice among the legal points, and the hash and prisoners
// are kept; the prisoners and the hash every game ends with are checked
// against its stones and placements.
func BenchmarkPlayoutAlak11(b *testing.B) {
	root := start(b, MustPreset("alak"))
	pos := root
	rng := Rand(88172645463325252)
	// At the end of every game: every placement added a stone and every
	// capture took one off the board into the capturer's prisoners (a
	// placed stone always stays), and the hash is the one of the stones
	// on the board, from the byte keys (checked against hashRun by
	// TestByteKeysMatchHashRun). The tally reads the fields: the accessors
	// copy the position.
	var prisoners, gone, wrongHash int
	tally := func(pos *Position) {
		prisoners += int(pos.prisoners[Black]) + int(pos.prisoners[White])
		gone += int(pos.ply) - bits.OnesCount64(pos.st[Black]|pos.st[White])
		if pos.hash != byteKeys[Black].Low16(pos.st[Black])^byteKeys[White].Low16(pos.st[White]) {
			wrongHash++
		}
	}
	b.ResetTimer()
	for left := b.N; left > 0; {
		n, ok := pos.Playout(&rng, left)
		if !ok {
			b.Fatal("the kernel refused alak")
		}
		left -= n
		if pos.end != NotOver {
			tally(&pos)
			pos = root
		}
	}
	b.StopTimer()
	tally(&pos)
	if prisoners != gone {
		b.Fatalf("%d prisoners, %d stones placed and gone", prisoners, gone)
	}
	if wrongHash != 0 {
		b.Fatalf("%d games ended with a wrong hash", wrongHash)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "placements/s")
}

// BenchmarkApplyPlayoutAlak11 is BenchmarkPlayoutAlak11 through the API of
// searches and games: each placement chosen from LegalPoints and played
// with Apply (before the playout kernel of playout.go, this was
// BenchmarkPlayoutAlak11); one op is one placement.
func BenchmarkApplyPlayoutAlak11(b *testing.B) {
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
