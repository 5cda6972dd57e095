package solve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"time"
	"unsafe"

	"alak/rules"
	"alak/rules/bitline"
)

// This file is the solver for positional linear Go (the tromp-taylor preset
// on a line): no suicide, positional superko, area scoring, passes always
// allowed, two consecutive passes end the game. A state is the board, the
// player to move, whether the previous move was a pass, and the set of every
// earlier board. The search is alpha-beta (MTD(f)) over that state with the
// game's line as the superko history; its transposition table is keyed by
// the board, the player to move and the pass flag only, and every entry
// carries the conditions on the history under which it holds: the earlier
// boards whose presence it used (D) and the boards its subtree played (S).
// See docs/solver-superko.md.

// maxSuperkoWidth is the widest line the positional solver takes: it keeps
// tables indexed by every board (3^n entries) and sets of boards as bitsets
// over the legal boards.
const maxSuperkoWidth = 14

// superkoApplies reports whether the rules are positional linear Go as the
// solver of this file plays it.
func superkoApplies(r rules.Rules) bool {
	return r.IsLine() && r.Movement == rules.Placement && r.Width <= maxSuperkoWidth &&
		r.EdgeCapture && r.Own == rules.OwnIllegal && r.Ko == rules.KoPositional &&
		r.Pass && r.EndPasses == 2 && r.Scoring == rules.ScoreArea &&
		r.Repetition == 0 && !r.UnchangedLoses && r.Safe == rules.SafeOff
}

// skBoard packs a line board: Black's stones in bits 0..31, White's in
// bits 32..63.
type skBoard = uint64

func skPack(b, w uint64) skBoard { return b | w<<32 }

// skRef is a board whose presence on the line excluded a placement, with
// the latest depth it occurs at. For a node at depth d, a ref at depth >= d
// lies on the node's own line (the same under every history of the node);
// a ref above d is a condition of the node's result.
type skRef struct {
	key   skBoard
	depth int32
}

// skEntry is a transposition-table slot: bounds lo <= value <= hi for the
// player to move, in the canonical orientation. Beside it are its
// conditions: S, the boards its subtree played, as a set of mirror classes
// (a board and its mirror image are one class), kept as its ns words that
// are not zero, from soff on in superkoSolver's ring; and in superkoSolver.dref, D,
// the nd earlier boards whose presence it used. It holds under every
// history that contains every board of D and no board of a class of S.
type skEntry struct {
	key    skBoard
	soff   uint32 // where S starts in the ring
	flags  uint8  // bit 0: White to move; bit 1: the previous move was a pass; bit 7: used
	lo     int8
	hi     int8
	move   int8 // best move: a point, -1 pass, -2 none
	work   uint8
	effort uint8 // the bit length of the positions its search took: what finding it again would cost
	nd     uint8
	ns     uint16
}

// skMaxD is the most boards a table entry's D holds; a result that rests on
// more earlier boards is not stored. The certificate writer's solver
// (Options.exactBoards) keeps up to skMaxDExact: it asks again at every
// node of the long ko fights where results rest on many.
const (
	skMaxD      = 6
	skMaxDExact = 32
)

const skUsed = 1 << 7

type superkoSolver struct {
	ctx      context.Context
	n        int
	full     uint64 // the board's points
	maxNodes int64
	nodes    int64
	abort    error
	progress func(Progress)
	start    time.Time
	lastProg time.Time
	done     int
	total    int

	tt     []skEntry
	ttMask uint64
	// exact (Options.exactBoards) numbers every board as a class of its
	// own, a board and its mirror image as a pair (2c and 2c+1, the
	// canonical one even), so that S names boards exactly and its mirror
	// image is its pairs swapped (swapPairs): an entry keeps S in its own
	// orientation, and a node that is its mirror image swaps it. maxD is
	// the most boards of D a slot holds.
	exact bool
	maxD  int
	// rootD is the depth decide asks at, rootCut the move that proved a
	// true answer there (a point, -1 a pass, -2 none: answered without a
	// move, by the table or a bound that holds under every history).
	rootD   int32
	rootCut int
	miss    []skMiss // unknown answers of the current deepening round (superko_id.go)
	gen     uint32
	// S sets are bitsets over the mirror classes of the legal boards (with
	// exact, over the boards, numbered in pairs).
	// A table slot's S is kept sparse, as the words that are not zero
	// (ringJ their indices, ringX the words) in a ring written in order
	// from head on; when a set no longer fits before its end, compact
	// moves the sets still in use to its start (written counts the words
	// ever written). dref
	// holds D (skMaxD boards a slot); sets[d] and refs[d] gather S and the
	// refs of the node at depth d while it is searched, and scratch (with
	// scratchJ, its words that are not zero) merges two sets.
	words int
	cls   []int32 // the mirror class of a board, by ternary index; -1 for a board with a chain without liberties
	// twin marks the even numbers of the symmetric boards numbered in
	// pairs (exact): such a board is both numbers of its pair.
	twin     []uint64
	ringJ    []uint32
	ringX    []uint64
	ringLen  uint64
	head     uint64
	written  uint64
	scratch  []uint64
	scratchJ []int32
	// touched[d] lists the words of sets[d] that are not zero.
	touched [][]int32
	dref    []skBoard
	sets    [][]uint64
	refs    [][]skRef

	// The line: path[i] is the board at depth i (the game's history, then
	// the search path). occ holds, for every board, one more than the
	// latest depth it occurs at on the line (0: not on it), by ternary
	// index. cnt counts, by mirror class, the boards of the class on the
	// line (0, 1 or 2), and on is the set of classes with a board there.
	path  []skBoard
	cnt   []uint8
	on    []uint64
	tern  []uint32
	occ   []int32
	order []int // placement points, centre first
	ln    bitline.Line
}

func newSuperkoSolver(ctx context.Context, n int, opt Options) *superkoSolver {
	s := &superkoSolver{ctx: ctx, n: n, full: uint64(1)<<n - 1, maxNodes: opt.MaxNodes, progress: opt.Progress, exact: opt.exactBoards, maxD: skMaxD}
	if s.exact {
		s.maxD = skMaxDExact
	}
	// The rules superkoApplies accepts: captures against the ends, no suicide.
	s.ln = bitline.New(n, true, bitline.OwnIllegal, bitline.SelfOff)
	s.tern = make([]uint32, 1<<n)
	for m := range s.tern {
		t, p := uint32(0), uint32(1)
		for i := 0; i < n; i++ {
			if m>>i&1 != 0 {
				t += p
			}
			p *= 3
		}
		s.tern[m] = t
	}
	pow := 1
	for i := 0; i < n; i++ {
		pow *= 3
	}
	s.occ = make([]int32, pow)
	// Number the mirror classes of the legal boards (every chain with a
	// liberty), a board and its mirror image getting one number (with
	// exact, the two numbers of a pair).
	s.cls = make([]int32, pow)
	for i := range s.cls {
		s.cls[i] = -2 // not numbered yet
	}
	classes := int32(0)
	var twins []int32
	for b := uint64(0); b <= s.full; b++ {
		free := s.full &^ b
		for w := free; ; w = (w - 1) & free {
			k := skPack(b, w)
			switch i := s.index(k); {
			case s.cls[i] != -2: // numbered with its mirror image
			case !s.legalBoard(b, w):
				s.cls[i] = -1
			case s.exact:
				// The canonical board (canon) gets the even number, its
				// mirror image the odd one; a symmetric board takes the
				// even one and stands for both (twin).
				switch mk := s.mirror(k); {
				case mk == k:
					s.cls[i] = 2 * classes
					twins = append(twins, 2*classes)
				case k < mk:
					s.cls[i], s.cls[s.index(mk)] = 2*classes, 2*classes+1
				default:
					s.cls[i], s.cls[s.index(mk)] = 2*classes+1, 2*classes
				}
				classes++
			default:
				s.cls[i], s.cls[s.index(s.mirror(k))] = classes, classes
				classes++
			}
			if w == 0 {
				break
			}
		}
	}
	if s.exact {
		classes *= 2
	}
	s.words = (int(classes) + 63) / 64
	s.twin = make([]uint64, s.words)
	for _, c := range twins {
		s.twin[c>>6] |= 1 << (c & 63)
	}
	s.on = make([]uint64, s.words)
	s.cnt = make([]uint8, classes)
	mb := opt.MemoryMB
	if mb <= 0 {
		mb = 256
	}
	// A slot takes its entry, D and half a skMiss, and its S some words
	// of the ring: the sizes measured on 1×13 (at most 127 words not zero
	// in a set, mostly fewer than 16) give the table as many slots as
	// leave the ring at least 32 words a slot, and the ring the rest.
	fixed := int(unsafe.Sizeof(skEntry{})) + 8*s.maxD + int(unsafe.Sizeof(skMiss{}))/2
	ring := min(s.words, 32)
	size := 1 << 10
	for size*2*(fixed+12*ring) <= mb<<20 && size < 1<<min(24, 4+2*n) {
		size *= 2
	}
	rl := max(mb<<20-size*fixed, 0) / 12
	rl = max(min(rl, size*s.words), 4*s.words)
	if opt.ringSets > 0 {
		rl = opt.ringSets * s.words
	}
	rl = int(min(uint64(rl), math.MaxUint32)) // an entry's soff is 32 bits
	s.ringLen = uint64(rl)
	s.ringJ = make([]uint32, rl)
	s.ringX = make([]uint64, rl)
	s.scratch = make([]uint64, s.words)
	s.tt = make([]skEntry, size)
	s.ttMask = uint64(size/2 - 1)
	s.dref = make([]skBoard, size*s.maxD)
	s.miss = make([]skMiss, size/2)
	for d := 0; d < n; d++ {
		for _, p := range []int{(n-1)/2 - d, n/2 + d} {
			if p >= 0 && p < n && !contains(s.order, p) {
				s.order = append(s.order, p)
			}
		}
	}
	return s
}

// legalBoard reports whether every chain of the board has a liberty.
func (s *superkoSolver) legalBoard(b, w uint64) bool {
	empty := s.full &^ (b | w)
	for _, m := range []uint64{b, w} {
		for r := m; r != 0; {
			ch := bitline.RunAt(m, r&-r)
			r &^= ch
			lo := ch & -ch
			hi := uint64(1) << (63 - bits.LeadingZeros64(ch))
			if (lo>>1|hi<<1)&empty == 0 {
				return false
			}
		}
	}
	return true
}

func (s *superkoSolver) index(k skBoard) uint32 { return s.tern[k&0xFFFFFFFF] + 2*s.tern[k>>32] }

// frame empties the class set and the ref list of depth d.
func (s *superkoSolver) frame(d int32) {
	for int(d) >= len(s.sets) {
		s.sets = append(s.sets, make([]uint64, s.words))
		s.touched = append(s.touched, nil)
		s.refs = append(s.refs, nil)
	}
	s.clearSet(d)
	s.refs[d] = s.refs[d][:0]
}

// clearSet empties the class set of depth d, word by touched word.
func (s *superkoSolver) clearSet(d int32) {
	set := s.sets[d]
	for _, j := range s.touched[d] {
		set[j] = 0
	}
	s.touched[d] = s.touched[d][:0]
}

// addClass adds class c to the set of depth d.
func (s *superkoSolver) addClass(d int32, c int32) {
	set := s.sets[d]
	if set[c>>6] == 0 {
		s.touched[d] = append(s.touched[d], c>>6)
	}
	set[c>>6] |= s.bits(c)
}

// bits returns the bits of class c in its word of a set: its own, and for
// a symmetric board numbered as a pair (twin), the pair's second too.
func (s *superkoSolver) bits(c int32) uint64 {
	b := uint64(1) << (c & 63)
	if s.twin[c>>6]&b != 0 {
		b |= b << 1
	}
	return b
}

// swapPairs returns word x of a set numbered in pairs with each pair's two
// bits exchanged: the word of the set's mirror image.
func swapPairs(x uint64) uint64 {
	const even = 0x5555555555555555
	return x&even<<1 | x>>1&even
}

// mark counts a board of class c on the line once more (by 1) or once
// less (by -1) and keeps s.on, whose bits of the class (bits) are set
// while the count is not zero.
func (s *superkoSolver) mark(c int32, by int8) {
	s.cnt[c] = uint8(int8(s.cnt[c]) + by)
	if s.cnt[c] == 0 {
		s.on[c>>6] &^= s.bits(c)
	} else {
		s.on[c>>6] |= s.bits(c)
	}
}

// orSet adds a sparse set (words xs at the indices js) to the set of
// depth d, its mirror image (pairs swapped) when swap is set.
func (s *superkoSolver) orSet(d int32, js []uint32, xs []uint64, swap bool) {
	set := s.sets[d]
	for k, j := range js {
		if set[j] == 0 {
			s.touched[d] = append(s.touched[d], int32(j))
		}
		x := xs[k]
		if swap {
			x = swapPairs(x)
		}
		set[j] |= x
	}
}

// addRef records at depth d that board k, latest at depth dep, was used.
func (s *superkoSolver) addRef(d int32, k skBoard, dep int32) {
	rs := s.refs[d]
	for i := range rs {
		if rs[i].key == k {
			rs[i].depth = max(rs[i].depth, dep)
			return
		}
	}
	s.refs[d] = append(rs, skRef{k, dep})
}

// gather adds what the child at depth d+1 depended on to the node at d.
func (s *superkoSolver) gather(d int32) {
	set, child := s.sets[d], s.sets[d+1]
	for _, j := range s.touched[d+1] {
		if set[j] == 0 {
			s.touched[d] = append(s.touched[d], j)
		}
		set[j] |= child[j]
	}
	for _, r := range s.refs[d+1] {
		s.addRef(d, r.key, r.depth)
	}
}

// trim drops the refs of depth d that lie on the line at or below d.
func (s *superkoSolver) trim(d int32) {
	rs := s.refs[d][:0]
	for _, r := range s.refs[d] {
		if r.depth < d {
			rs = append(rs, r)
		}
	}
	s.refs[d] = rs
}

func (s *superkoSolver) mirror(k skBoard) skBoard {
	return skPack(bitline.Rev(k&0xFFFFFFFF, s.n), bitline.Rev(k>>32, s.n))
}

// latest returns one more than the latest depth board k occurs at on the
// line, 0 when it is not on it.
func (s *superkoSolver) latest(k skBoard) int32 { return s.occ[s.index(k)] }

func (s *superkoSolver) setLatest(k skBoard, v int32) { s.occ[s.index(k)] = v }

// push appends board k at the next depth and returns what pop needs.
func (s *superkoSolver) push(k skBoard) int32 {
	old := s.latest(k)
	s.setLatest(k, int32(len(s.path))+1)
	s.path = append(s.path, k)
	if old == 0 {
		s.mark(s.class(k), 1)
	}
	return old
}

func (s *superkoSolver) pop(old int32) {
	k := s.path[len(s.path)-1]
	s.path = s.path[:len(s.path)-1]
	s.setLatest(k, old)
	if old == 0 {
		s.mark(s.class(k), -1)
	}
}

// class returns the mirror class of board k (a legal board).
func (s *superkoSolver) class(k skBoard) int32 { return s.cls[s.index(k)] }

// area returns Black's area score minus White's: stones plus empty runs
// bordered by one colour only (the ends of the line border no one).
func (s *superkoSolver) area(b, w uint64) int {
	tb, tw := s.ln.Territory(b, w)
	return bits.OnesCount64(b|tb) - bits.OnesCount64(w|tw)
}

// hasPlacement reports whether the owner of own has a placement that is not
// suicide (superko aside).
func (s *superkoSolver) hasPlacement(own, opp uint64) bool {
	for e := s.full &^ (own | opp); e != 0; e &= e - 1 {
		if _, _, _, _, ok := s.ln.Place(own, opp, bits.TrailingZeros64(e)); ok {
			return true
		}
	}
	return false
}

func (s *superkoSolver) poll() {
	if s.abort = limitErr(s.ctx, s.nodes, s.maxNodes); s.abort != nil {
		return
	}
	if s.progress != nil {
		now := time.Now()
		if now.Sub(s.lastProg) >= 500*time.Millisecond {
			s.lastProg = now
			s.progress(progressAt(now, s.start, s.nodes, s.done, s.total))
		}
	}
}

// canon returns the canonical orientation of board k and whether it is the
// mirror image.
func (s *superkoSolver) canon(k skBoard) (skBoard, bool) {
	m := s.mirror(k)
	if m < k {
		return m, true
	}
	return k, false
}

func (s *superkoSolver) slot(key skBoard, flags uint8) uint64 {
	return (mix(key^uint64(flags)<<56) & s.ttMask) * 2
}

// conds returns the S set (indices and words) and the D boards of table
// slot i.
func (s *superkoSolver) conds(i uint64) (js []uint32, xs []uint64, D []skBoard) {
	e := &s.tt[i]
	md := uint64(s.maxD)
	D = s.dref[i*md : i*md+uint64(e.nd)]
	o := uint64(e.soff)
	return s.ringJ[o : o+uint64(e.ns)], s.ringX[o : o+uint64(e.ns)], D
}

// writeSet appends to the ring the words of a dense set that are not zero
// (their indices listed in js), after compacting it if they do not fit,
// and returns where they start; ok is false for a set too big to keep.
func (s *superkoSolver) writeSet(set []uint64, js []int32) (off uint64, ok bool) {
	n := uint64(len(js))
	if n == 0 {
		return 0, true
	}
	if n > s.ringLen/4 || n > 1<<16-1 {
		return 0, false
	}
	if s.head+n > s.ringLen {
		s.compact()
	}
	off = s.head
	for k, j := range js {
		s.ringJ[off+uint64(k)] = uint32(j)
		s.ringX[off+uint64(k)] = set[j]
	}
	s.head += n
	s.written += n
	return off, true
}

// compact makes room in the ring: the sets of the entries in use move to
// its start, in the order they were written, and head follows them. If
// they take more than half the ring, the entries that would cost least to
// search again (the lowest effort, the oldest first among equals) leave
// the table until the rest take half. Writing over the oldest sets
// instead, whatever their cost, loses the results of the longest
// searches first, and a long search (a certificate's, which asks of the
// table again at every node of its proof) then does them again and again.
func (s *superkoSolver) compact() {
	var words [65]uint64 // the words of the sets in use, by effort
	for i := range s.tt {
		if e := &s.tt[i]; e.flags&skUsed != 0 && e.ns > 0 {
			words[e.effort] += uint64(e.ns)
		}
	}
	// Every entry of effort above cut is kept; of effort cut, the newest
	// that fit in the room left.
	room, cut := s.ringLen/2, len(words)-1
	for ; cut >= 0 && words[cut] <= room; cut-- {
		room -= words[cut]
	}
	var live, edge []uint32
	for i := range s.tt {
		e := &s.tt[i]
		switch {
		case e.flags&skUsed == 0 || e.ns == 0:
		case int(e.effort) > cut:
			live = append(live, uint32(i))
		case int(e.effort) == cut:
			edge = append(edge, uint32(i))
		default:
			*e = skEntry{}
		}
	}
	slices.SortFunc(edge, func(a, b uint32) int { return cmp.Compare(s.tt[b].soff, s.tt[a].soff) })
	for _, i := range edge {
		if n := uint64(s.tt[i].ns); n <= room {
			room -= n
			live = append(live, i)
		} else {
			s.tt[i] = skEntry{}
		}
	}
	slices.SortFunc(live, func(a, b uint32) int { return cmp.Compare(s.tt[a].soff, s.tt[b].soff) })
	to := uint64(0)
	for _, i := range live {
		e := &s.tt[i]
		n := uint64(e.ns)
		o := uint64(e.soff)
		copy(s.ringJ[to:to+n], s.ringJ[o:o+n])
		copy(s.ringX[to:to+n], s.ringX[o:o+n])
		e.soff = uint32(to)
		to += n
	}
	s.head = to
}

// valid reports whether the entry of slot i, stored for the board of the
// node at the end of the line, holds under the current line: every board
// of its D is on the line, and no board on the line above the node is of
// a class of its S. mirrored says the node's board is the mirror of the
// entry's orientation. A class check is the board check made coarser
// (it also refuses the entry when a board's mirror image is on the line),
// so it can only refuse more.
func (s *superkoSolver) valid(i uint64, mirrored bool) bool {
	js, xs, D := s.conds(i)
	for _, b := range D {
		if mirrored {
			b = s.mirror(b)
		}
		if s.latest(b) == 0 {
			return false
		}
	}
	// The node's own board is on the line (at the end, and above it after
	// passes); it is not a condition, but its mirror image, if it is on
	// the line too, is: its class is left out of the test while it has no
	// other board on the line. Boards numbered in pairs are kept in the
	// entry's orientation, and a node that is its mirror image tests the
	// mirror image of S.
	swap := mirrored && s.exact
	nb := s.tt[i].key // a mirror class has one number: the key's is the node's
	if swap {
		nb = s.mirror(nb)
	}
	own := s.class(nb)
	ow := uint32(own >> 6)
	for k, j := range js {
		x := xs[k]
		if swap {
			x = swapPairs(x)
		}
		x &= s.on[j]
		if j == ow && s.cnt[own] == 1 {
			x &^= s.bits(own)
		}
		if x != 0 {
			return false
		}
	}
	return true
}

// use adds the conditions of the entry of slot i, found valid at the node
// at depth d, to the node's: D as refs at their latest depths, and S.
func (s *superkoSolver) use(i uint64, d int32, mirrored bool) {
	js, xs, D := s.conds(i)
	for _, b := range D {
		if mirrored {
			b = s.mirror(b)
		}
		s.addRef(d, b, s.latest(b)-1)
	}
	s.orSet(d, js, xs, mirrored && s.exact)
}

// skPassPhase is where the pass comes in the move order of a node whose
// previous move was not a pass: after the captures (1), after the other
// points next to an enemy stone (2), or last (3).
const skPassPhase = 1

// store records the result of the node at depth d (canonical board ck),
// whose search took nodes positions, with the conditions gathered in
// s.sets[d] and s.refs[d]; hit is a copy of the entry found valid for this
// node before its search, if any.
func (s *superkoSolver) store(d int32, ck skBoard, flags uint8, mirrored bool, lo, hi, move int, nodes int64, hit *skEntry) {
	if mirrored && move >= 0 {
		move = s.n - 1 - move
	}
	e := skEntry{key: ck, flags: flags | skUsed, lo: int8(lo), hi: int8(hi), move: int8(move), work: 1, effort: uint8(bits.Len64(uint64(nodes)))}
	i := s.slot(ck, flags)
	a, c := &s.tt[i], &s.tt[i+1]
	var slot uint64
	keep := false // the slot holds the hit: keep its conditions and add the new ones
	switch {
	case hit != nil && *a == *hit:
		slot, keep = i, true
	case hit != nil && *c == *hit:
		slot, keep = i+1, true
	case a.flags&skUsed != 0 && (c.flags&skUsed == 0 || c.work < a.work):
		slot = i + 1
	default:
		slot = i
	}
	if keep {
		// Both results hold where the conditions of both do: intersect the
		// bounds under the union of the conditions.
		e.lo, e.hi = max(e.lo, hit.lo), min(e.hi, hit.hi)
		e.work = hit.work
		if e.work < 255 {
			e.work++
		}
		e.effort = max(e.effort, hit.effort)
	}
	// D in the entry's orientation: the hit's boards (when kept) and
	// the refs of the node; a result that rests on too many is dropped.
	var dbuf [skMaxDExact]skBoard
	D := dbuf[:0]
	var oldJ []uint32
	var oldX []uint64
	if keep {
		var old []skBoard
		oldJ, oldX, old = s.conds(slot)
		D = append(D, old...)
	}
	for _, r := range s.refs[d] {
		b := r.key
		if mirrored {
			b = s.mirror(b)
		}
		if slices.Contains(D, b) {
			continue
		}
		if len(D) == s.maxD {
			return
		}
		D = append(D, b)
	}
	// S: the node's set, in the entry's orientation, with the kept
	// entry's merged in.
	set, js := s.sets[d], s.touched[d]
	swap := mirrored && s.exact
	merged := len(oldJ) > 0 || swap
	if merged {
		sc := s.scratch
		s.scratchJ = s.scratchJ[:0]
		for k, j := range oldJ {
			sc[j] = oldX[k]
			s.scratchJ = append(s.scratchJ, int32(j))
		}
		for _, j := range js {
			x := set[j]
			if swap {
				x = swapPairs(x)
			}
			if x == 0 {
				continue
			}
			if sc[j] == 0 {
				s.scratchJ = append(s.scratchJ, j)
			}
			sc[j] |= x
		}
		set, js = sc, s.scratchJ
	}
	off, ok := s.writeSet(set, js)
	if merged {
		for _, j := range s.scratchJ {
			s.scratch[j] = 0
		}
	}
	if !ok {
		return
	}
	e.soff, e.ns = uint32(off), uint16(len(js))
	e.nd = uint8(len(D))
	copy(s.dref[slot*uint64(s.maxD):], D)
	s.tt[slot] = e
}

// newSuperkoSolverFor returns a solver for g's rules, started at start, with g's
// positions on the line (the last one being the position to solve).
func newSuperkoSolverFor(ctx context.Context, g *rules.Game, opt Options, start time.Time) *superkoSolver {
	s := newSuperkoSolver(ctx, g.Rules().Width, opt)
	s.start, s.lastProg = start, start
	for i := 0; i <= g.Len(); i++ {
		b, w, _, _ := g.PositionAt(i).Line()
		s.push(skPack(b, w))
	}
	return s
}

// reset readies s for a new search of g's position (a board of s's size)
// with opt's limits: the line becomes g's positions and the counters start
// again, but the table is kept. That is sound for any history: an entry is
// used only where its conditions hold on the current line (valid), which is
// all the claim of docs/solver-superko.md, method 4, needs; nothing in an entry
// refers to the root of the search that stored it (refs at or below a
// node's depth, the only ones tied to that search's line, are dropped
// before it is stored), and only proved answers are stored, so a search cut
// off at its budget leaves nothing false behind. Unknown notes (miss) are
// tied to a deepening round, and the next search starts new rounds.
func (s *superkoSolver) reset(ctx context.Context, g *rules.Game, opt Options, start time.Time) {
	for _, k := range s.path {
		s.setLatest(k, 0)
	}
	clear(s.cnt)
	clear(s.on)
	s.path = s.path[:0]
	s.ctx, s.maxNodes, s.progress = ctx, opt.MaxNodes, opt.Progress
	s.nodes, s.abort, s.done, s.total = 0, nil, 0, 0
	s.start, s.lastProg = start, start
	s.gen++
	for i := 0; i <= g.Len(); i++ {
		b, w, _, _ := g.PositionAt(i).Line()
		s.push(skPack(b, w))
	}
}

// forget empties s's table, so that the next search (after reset) starts
// as a new solver's would, in the memory s already holds: a new solver
// would allocate a second table while the garbage collector still held the
// first, twice the memory asked for. The deepening notes (miss) need no
// clearing: reset starts a new generation.
func (s *superkoSolver) forget() {
	clear(s.tt)
	s.head, s.written = 0, 0
}

// solveSuperko solves g under positional linear Go.
func solveSuperko(ctx context.Context, g *rules.Game, opt Options) (Result, error) {
	start := time.Now()
	res := Result{Moves: map[rules.Move]float64{}}
	r := g.Rules()
	if o := g.Outcome(); o.Over() {
		res.Value, res.Outcome, res.Complete = o.Margin, o.Winner, true
		res.Elapsed = time.Since(start)
		return res, nil
	}
	s := newSuperkoSolverFor(ctx, g, opt, start)
	if opt.ringWritten != nil {
		defer func() { *opt.ringWritten = s.written }()
	}
	pos := g.Position()
	komi := r.Komi
	moves := g.LegalMoves(nil)
	s.total = len(moves)
	sign := 1.0
	if pos.ToMove() == rules.White {
		sign = -1
	}
	if opt.ValueOnly {
		return s.valueOnly(g, res, start)
	}
	var err error
	bestV := -1e9
	for _, m := range moves {
		v := s.moveValue(pos, m)
		if s.abort != nil {
			err = s.abort
			break
		}
		mv := float64(v) - komi + 0 // Black's margin
		res.Moves[m] = mv
		s.done++
		bestV = max(bestV, sign*mv)
	}
	res.setBest(moves, sign, bestV)
	if err == nil {
		res.Complete = true
		if len(res.Best) > 0 {
			res.PV = s.pv(pos, res.Best[0], res.Value+komi)
		}
		err = s.abort
	}
	res.Nodes, res.Elapsed = s.nodes, time.Since(start)
	if err != nil {
		res.Complete = false
		return res, fmt.Errorf("solve cut off after %d positions: %w", s.nodes, err)
	}
	return res, nil
}

// valueOnly finds the value of g's position, the last on the line, and one
// best move with its principal variation (Options.ValueOnly).
func (s *superkoSolver) valueOnly(g *rules.Game, res Result, start time.Time) (Result, error) {
	pos := g.Position()
	komi := g.Rules().Komi
	white := pos.ToMove() == rules.White
	s.total = 1
	v := s.mtdfID(int32(len(s.path)-1), white, pos.Passes() > 0, 0)
	if white {
		v = -v // Black's margin, komi aside
	}
	if s.abort == nil {
		for _, m := range g.LegalMoves(nil) {
			if s.reaches(pos, m, v) {
				res.Best = []rules.Move{m}
				break
			}
			if s.abort != nil {
				break
			}
		}
	}
	if s.abort == nil && len(res.Best) == 1 {
		s.done = 1
		res.Value = float64(v) - komi + 0
		res.Outcome = winner(res.Value)
		res.PV = s.pv(pos, res.Best[0], float64(v))
	}
	res.Nodes, res.Elapsed = s.nodes, time.Since(start)
	if s.abort != nil || len(res.Best) != 1 {
		err := s.abort
		if err == nil {
			err = errors.New("no move keeps the value found") // cannot happen: the value is some move's
		}
		return res, fmt.Errorf("solve cut off after %d positions: %w", s.nodes, err)
	}
	res.Complete = true
	return res, nil
}

// moveValue returns Black's area margin (komi aside) after m is played from
// pos, the last position on the line, under perfect play.
func (s *superkoSolver) moveValue(pos rules.Position, m rules.Move) int {
	c, err := pos.Play(m)
	if err != nil {
		s.abort = fmt.Errorf("solve: the kernel refused its own legal move %v: %w", m, err)
		return 0
	}
	b, w, _, _ := c.Line()
	old := s.push(skPack(b, w))
	defer s.pop(old)
	if c.Over() {
		return s.area(b, w)
	}
	v := s.mtdfID(int32(len(s.path)-1), c.ToMove() == rules.White, c.Passes() > 0, 0)
	if c.ToMove() == rules.White {
		v = -v
	}
	return v
}

// reaches reports whether m, played from pos (the last position on the
// line), keeps Black's margin (komi aside) at want for the player who plays
// it, the best that player can do: at least want for Black, at most want
// for White.
func (s *superkoSolver) reaches(pos rules.Position, m rules.Move, want int) bool {
	c, err := pos.Play(m)
	if err != nil {
		s.abort = fmt.Errorf("solve: the kernel refused its own legal move %v: %w", m, err)
		return false
	}
	b, w, _, _ := c.Line()
	old := s.push(skPack(b, w))
	defer s.pop(old)
	if c.Over() {
		return s.area(b, w) == want
	}
	// The child's value, for its player to move, must be at most t.
	t := want
	if pos.ToMove() == rules.Black {
		t = -want
	}
	a, _ := s.decide(int32(len(s.path)-1), c.ToMove() == rules.White, c.Passes() > 0, t+1)
	return a == skFalse
}

// pv follows best moves from pos (the last position on the line), starting
// with first, whose value for the player who plays it is v (komi aside),
// until the game ends or the line is long.
func (s *superkoSolver) pv(pos rules.Position, first rules.Move, v float64) []rules.Move {
	line := []rules.Move{first}
	depth0 := len(s.path)
	var olds []int32
	defer func() {
		for len(s.path) > depth0 {
			s.pop(olds[len(olds)-1])
			olds = olds[:len(olds)-1]
		}
	}()
	cur, _ := pos.Play(first)
	b, w, _, _ := cur.Line()
	olds = append(olds, s.push(skPack(b, w)))
	want := int(v) // Black's margin
	for len(line) < 4*s.n+8 && s.abort == nil && !cur.Over() {
		next := rules.NoMove
		var nextPos rules.Position
		for _, m := range s.legal(cur) {
			if s.reaches(cur, m, want) {
				next = m
				nextPos, _ = cur.Play(m)
				break
			}
		}
		if next == rules.NoMove {
			break
		}
		line = append(line, next)
		cur = nextPos
		b, w, _, _ := cur.Line()
		olds = append(olds, s.push(skPack(b, w)))
	}
	return line
}

// legal lists the legal moves of pos, the last position on the line, with
// superko applied against the line.
func (s *superkoSolver) legal(pos rules.Position) []rules.Move {
	var out []rules.Move
	for _, m := range pos.LegalMoves(nil) {
		c, err := pos.Play(m)
		if err != nil {
			continue
		}
		b, w, _, _ := c.Line()
		if m.IsPlace() && s.latest(skPack(b, w)) != 0 {
			continue
		}
		out = append(out, m)
	}
	return out
}
