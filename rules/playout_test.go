package rules

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"alak/internal/testlong"
)

// playoutOptions are the option combinations the playout kernel plays
// under besides the size: captures against the ends on and off, ko=captured
// and ko=none, every scoring (with komi where the board is counted), and
// the repetition rule off (it is the Game's, so it changes nothing here).
var playoutOptions = func() (out []string) {
	for _, edge := range []string{"", " edge=off"} {
		for _, ko := range []string{"", " ko=none"} {
			for _, score := range []string{"", " score=area komi=0.5", " score=territory", " score=area+prisoners komi=-2", " score=none repetition=off"} {
				out = append(out, edge+ko+score)
			}
		}
	}
	return out
}()

// playoutRules returns the alak rules on n points with the options opt.
func playoutRules(t testing.TB, n int, opt string) Rules {
	t.Helper()
	r, err := Parse(fmt.Sprintf("alak size=%d%s", n, opt))
	if err != nil {
		t.Fatal(err)
	}
	if !PlayoutRules(r) {
		t.Fatalf("PlayoutRules(%s) is false", r)
	}
	return r
}

// refPlacement plays on pos the placement the playout kernel's choice
// names, found the long way: the list of legal moves from LegalMoves (in
// the order of the points), the index drawn by rng.IntN over its length,
// and the move played with Apply.
func refPlacement(t testing.TB, pos *Position, rng *Rand) {
	t.Helper()
	moves := pos.LegalMoves(nil)
	if len(moves) == 0 {
		t.Fatalf("%s: no legal move in a game that is not over", pos)
	}
	m := moves[rng.IntN(len(moves))]
	if err := pos.Apply(m); err != nil {
		t.Fatalf("%s: Apply(%v): %v", pos, m, err)
	}
}

// checkPlayout plays a random game from pos to its end (or maxPlies) twice:
// the kernel one placement a call, and the reference (refPlacement), and
// checks after every placement that the two positions are equal in every
// field (stones, hash, prisoners, forbidden and removed points, last move,
// side to move, ply, end of game), that the outcomes are equal, that the
// hash is the one recomputed from the stones, and that both drew the same
// random numbers. Then the kernel plays the same game from pos again in
// calls of up to chunk placements and must reach the same end.
func checkPlayout(t *testing.T, pos Position, seed uint64, maxPlies, chunk int) {
	t.Helper()
	start := pos
	ref, kr, rr := pos, Rand(seed), Rand(seed)
	plies := 0
	for !ref.Over() && plies < maxPlies {
		before := pos
		refPlacement(t, &ref, &rr)
		n, ok := pos.Playout(&kr, 1)
		plies++
		switch {
		case !ok || n != 1:
			t.Fatalf("%s: Playout(1) = %d, %v; want 1, true", before, n, ok)
		case pos != ref:
			t.Fatalf("%s (%s to move, prisoners %d-%d):\nkernel    %+v\nreference %+v",
				before, before.ToMove(), before.Prisoners(Black), before.Prisoners(White), pos, ref)
		case pos.Outcome() != ref.Outcome():
			t.Fatalf("%s: outcome %v, reference %v", pos, pos.Outcome(), ref.Outcome())
		case pos.BoardHash() != recomputeHash(pos):
			t.Fatalf("%s: hash %x, recomputed %x", pos, pos.BoardHash(), recomputeHash(pos))
		case kr != rr:
			t.Fatalf("%s: generator state %x, reference %x", pos, kr, rr)
		}
	}
	if ref.Over() {
		if n, ok := pos.Playout(&kr, 1); n != 0 || !ok || pos != ref || kr != rr {
			t.Fatalf("%s: Playout on a finished game played %d (ok %v) or changed it", ref, n, ok)
		}
	}
	again, r2 := start, Rand(seed)
	for done := 0; done < plies; {
		n, ok := again.Playout(&r2, min(chunk, plies-done))
		if !ok || n == 0 {
			t.Fatalf("%s: Playout(%d) = %d, %v after %d of %d placements", again, chunk, n, ok, done, plies)
		}
		done += n
	}
	if again != ref || r2 != rr {
		t.Fatalf("in calls of %d: %+v\none at a time: %+v", chunk, again, ref)
	}
}

// randomPosition returns a position of r reached by random placements
// from the start, or a set-up: a random diagram (stones, and points just
// captured where the ko rule forbids them) with either player to move and
// random prisoners.
func randomPosition(t *testing.T, r Rules, rng *Rand) Position {
	t.Helper()
	n := r.Points()
	switch rng.IntN(3) {
	case 0:
		return start(t, r)
	case 1:
		pos := start(t, r)
		for range rng.IntN(2 * n) {
			if pos.Over() {
				break
			}
			refPlacement(t, &pos, rng)
		}
		return pos
	}
	for {
		var b strings.Builder
		for range n {
			b.WriteByte("xo--xo-/"[rng.IntN(8)])
		}
		diagram := b.String()
		if r.Ko != KoCaptured {
			diagram = strings.ReplaceAll(diagram, "/", "-")
		}
		pos, err := ParseDiagram(r, diagram, Color(rng.IntN(2)))
		if err != nil {
			continue // such as a "/" no capture can have left
		}
		if pos, err = pos.WithPrisoners(rng.IntN(MaxPrisoners+1), rng.IntN(40)); err != nil {
			t.Fatal(err)
		}
		return pos
	}
}

// TestPlayoutMatchesApply plays random games with the playout kernel on
// every line size from 1 to 64 under every option combination it accepts,
// from the empty board, from positions of random games and from random
// set-ups, and checks every placement against Apply (checkPlayout): three
// games a size and option set, six with ALAK_LONG=1.
func TestPlayoutMatchesApply(t *testing.T) {
	games := testlong.Size(t, 3, 6)
	if testing.Short() {
		games = 2
	}
	for _, opt := range playoutOptions {
		t.Run(strings.TrimSpace(opt), func(t *testing.T) {
			for n := 1; n <= 64; n++ {
				r := playoutRules(t, n, opt)
				rng := Rand(uint64(n)<<32 | uint64(len(opt)))
				for g := range games {
					pos := randomPosition(t, r, &rng)
					checkPlayout(t, pos, rng.Uint64(), 6*n+40, 1+g%5)
				}
			}
		})
	}
}

// TestPlayoutRefuses checks that the kernel refuses every rule set it does
// not play under, leaving the position and the generator as they were, and
// that PlayoutRules says so; and that it accepts the presets' rules it
// does play under.
func TestPlayoutRefuses(t *testing.T) {
	refused := []string{"alak ko=simple", "alak own=illegal", "alak own=removed", "alak own=together",
		"alak pass=on", "alak unchanged=on", "alak ko=superko", "alak ko=situational", "alak size=3x3",
		"traditional", "tromp-taylor", "alterigo", "alterigo size=11", "dewdney", "golf"}
	for _, spec := range refused {
		r, err := Parse(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if PlayoutRules(r) {
			t.Errorf("PlayoutRules(%s) is true", spec)
		}
		pos := start(t, r)
		before, rng := pos, Rand(5)
		if n, ok := pos.Playout(&rng, 100); ok || n != 0 || pos != before || rng != 5 {
			t.Errorf("%s: Playout = %d, %v (position changed: %v, generator %x)", spec, n, ok, pos != before, rng)
		}
	}
	var zero Position
	if n, ok := zero.Playout(new(Rand), 10); ok || n != 0 {
		t.Errorf("zero Position: Playout = %d, %v", n, ok)
	}
	// A grid of one column is a line.
	if r := MustPreset("alak"); true {
		r.SetSize(1, 7)
		if !PlayoutRules(r) {
			t.Errorf("PlayoutRules(%s) is false", r)
		}
	}
	for _, name := range Presets() {
		r := MustPreset(name)
		pos := start(t, r)
		_, ok := pos.Playout(new(Rand), 1)
		if ok != PlayoutRules(r) || ok != (name == "alak") {
			t.Errorf("%s: Playout ok %v, PlayoutRules %v", name, ok, PlayoutRules(r))
		}
	}
}

// TestSelectNibbles checks the kernel's choice on short lines, and nthBit
// on any line, against counting the set bits one by one.
func TestSelectNibbles(t *testing.T) {
	for set := range uint64(1 << selectBits) {
		k := 0
		for i := range selectBits {
			if set>>i&1 == 0 {
				continue
			}
			if got := int(selectNibbles[set] >> (4 * k) & 15); got != i {
				t.Fatalf("selectNibbles[%#x] entry %d = %d, want %d", set, k, got, i)
			}
			k++
		}
		if got := selectNibbles[set] >> 60; got != uint64(k) {
			t.Fatalf("selectNibbles[%#x] counts %d bits, want %d", set, got, k)
		}
		if k < 15 && selectNibbles[set]<<4>>(4+4*k) != 0 {
			t.Fatalf("selectNibbles[%#x] = %#x has entries past its %d bits", set, selectNibbles[set], k)
		}
	}
}

// TestNthBit checks the bit choice of the kernel's longer lines (and of
// BenchmarkApplyPlayoutAlak11) against counting the set bits one by one.
func TestNthBit(t *testing.T) {
	rng := Rand(7)
	for range 20000 {
		set := rng.Uint64()
		switch rng.IntN(3) {
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
		if k != bits.OnesCount64(set) {
			t.Fatalf("%#x: counted %d bits", set, k)
		}
	}
}

// FuzzPlayout: from any position of any rules the kernel plays under,
// reached by the placements the input picks, the kernel's playout with
// any seed agrees with Apply placement by placement (checkPlayout).
func FuzzPlayout(f *testing.F) {
	f.Add(uint8(10), uint8(0), []byte{}, uint64(1), uint8(1))
	f.Add(uint8(0), uint8(3), []byte{0}, uint64(2), uint8(2))
	f.Add(uint8(11), uint8(1), []byte{3, 7, 1, 0, 2}, uint64(3), uint8(3))
	f.Add(uint8(12), uint8(2), []byte{5, 5, 5, 5}, uint64(4), uint8(4))
	f.Add(uint8(15), uint8(7), []byte{1, 2, 3}, uint64(5), uint8(5))
	f.Add(uint8(16), uint8(5), []byte{9}, uint64(6), uint8(1))
	f.Add(uint8(63), uint8(4), []byte{0, 0, 0, 0, 0, 0}, uint64(7), uint8(200))
	f.Fuzz(func(t *testing.T, size, opts uint8, prefix []byte, seed uint64, chunk uint8) {
		n := 1 + int(size)%64
		r := playoutRules(t, n, playoutOptions[int(opts)%len(playoutOptions)])
		pos := start(t, r)
		for _, b := range prefix {
			if pos.Over() {
				break
			}
			moves := pos.LegalMoves(nil)
			if err := pos.Apply(moves[int(b)%len(moves)]); err != nil {
				t.Fatal(err)
			}
		}
		checkPlayout(t, pos, seed, 6*n+40, 1+int(chunk))
	})
}

// TestPlayoutLongGame plays a game that never ends (on 2 points without a
// ko rule every placement captures the other stone) for 100,000
// placements in one call and checks it against Apply: the prisoners pass
// the 16-bit counters' limit and wrap as Apply's do.
func TestPlayoutLongGame(t *testing.T) {
	r := playoutRules(t, 2, " ko=none")
	pos := start(t, r)
	ref, kr, rr := pos, Rand(11), Rand(11)
	const plies = 100000
	if n, ok := pos.Playout(&kr, plies); n != plies || !ok {
		t.Fatalf("Playout(%d) = %d, %v", plies, n, ok)
	}
	for range plies {
		refPlacement(t, &ref, &rr)
	}
	if pos != ref || kr != rr {
		t.Fatalf("after %d placements:\nkernel    %+v\nreference %+v", plies, pos, ref)
	}
	if ref.Prisoners(Black) >= 0 && ref.Prisoners(White) >= 0 {
		t.Fatalf("prisoners %d-%d: the counters did not wrap", ref.Prisoners(Black), ref.Prisoners(White))
	}
}
