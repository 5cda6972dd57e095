package solve

import "math/bits"

// ttKey identifies a search state exactly on lines: the stones and the
// forbidden points of the mirror-canonical position, and x, which holds the
// player to move and, where they matter, the pass count, the prisoner
// difference and a hash of the history (see docs/solver.md).
type ttKey struct {
	b, w, f, x uint64
}

func (k ttKey) hash() uint64 {
	h := mix(k.b ^ 0x243F6A8885A308D3)
	h = mix(h ^ k.w)
	h = mix(h ^ k.f ^ 0x13198A2E03707344)
	return mix(h ^ k.x)
}

// mix is the splitmix64 finaliser.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	return x ^ x>>31
}

// entry is one transposition-table slot: bounds lo <= value <= hi (in half
// points, from the side to move's view), the best move found (canonical
// orientation) and a measure of the work behind it (0: empty slot).
type entry struct {
	key    ttKey
	lo, hi int16
	move   uint16
	work   uint8
}

const entryBytes = 48

// ttable is a two-way set-associative transposition table of fixed size.
// Its slots are made at the first store: a solve that the results tables
// answer whole (the server's computer player, a draw offer) searches
// nothing and makes none (they were 10 MB a solve on 10 points:
// BenchmarkSolveFromDenseTable).
type ttable struct {
	slots []entry // nil until the first store
	size  int
	mask  uint64 // of bucket indices; a bucket is two slots
}

func newTable(memoryMB int, want int) *ttable {
	n := memoryMB << 20 / entryBytes
	if want > 0 && want < n {
		n = want
	}
	if n < 64 {
		n = 64
	}
	size := 1 << (bits.Len(uint(n)) - 1) // a power of two, at most n
	return &ttable{size: size, mask: uint64(size/2 - 1)}
}

func (t *ttable) probe(k ttKey) *entry {
	if t.slots == nil {
		return nil
	}
	i := (k.hash() & t.mask) * 2
	if e := &t.slots[i]; e.work != 0 && e.key == k {
		return e
	}
	if e := &t.slots[i+1]; e.work != 0 && e.key == k {
		return e
	}
	return nil
}

// store records bounds for k, intersected with those already held for k.
func (t *ttable) store(k ttKey, lo, hi int16, move uint16, work uint8) {
	if work == 0 {
		work = 1
	}
	if t.slots == nil {
		t.slots = make([]entry, t.size)
	}
	i := (k.hash() & t.mask) * 2
	a, b := &t.slots[i], &t.slots[i+1]
	for _, e := range []*entry{a, b} {
		if e.work != 0 && e.key == k {
			if e.lo > lo {
				lo = e.lo
			}
			if e.hi < hi {
				hi = e.hi
			}
			if move == 0 {
				move = e.move
			}
			if e.work > work {
				work = e.work
			}
			*e = entry{k, lo, hi, move, work}
			return
		}
	}
	victim := a
	if b.work < a.work {
		victim = b
	}
	*victim = entry{k, lo, hi, move, work}
}

// each calls f for every occupied slot.
func (t *ttable) each(f func(e *entry)) {
	for i := range t.slots {
		if t.slots[i].work != 0 {
			f(&t.slots[i])
		}
	}
}
