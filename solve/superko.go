package solve

import (
	"context"
	"fmt"
	"math/bits"
	"time"

	"alak/rules"
)

// This file is the solver for positional linear Go (the tromp-taylor preset
// on a line): no suicide, positional superko, area scoring, passes always
// allowed, two consecutive passes end the game. A state is the board, the
// player to move, whether the previous move was a pass, and the set of every
// earlier board. The search is alpha-beta over that state with the game path
// as the superko history; its transposition table is keyed by the board,
// the player to move and the pass flag only, and each entry carries the
// conditions on the history under which it holds (see docs/solver.md,
// "Positional superko on lines").

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
		r.Repetition == 0 && !r.UnchangedLoses
}

// pgBoard packs a line board: Black's stones in bits 0..31, White's in
// bits 32..63.
type pgBoard = uint64

func pgPack(b, w uint64) pgBoard { return b | w<<32 }

// pgDeps says what a search result depends on beyond the state of its
// node, besides the set of boards its subtree played (kept beside it, in
// pgSolver.sets, because its size depends on the board):
//
//   - refs: boards whose presence in the history excluded a placement,
//     each with the latest path depth it occurs at. A ref at a depth at or
//     below a node is part of that node's own line (the same under every
//     history of the node); the others are conditions: the result holds only
//     when those boards are earlier boards.
//   - ov: more refs than fit; ovMin is the smallest depth of those lost.
type pgDeps struct {
	nref  int32
	ov    bool
	ovMin int32
	ref   [4]pgBoard
	rdep  [4]int32
}

func (d *pgDeps) addRef(k pgBoard, depth int32) {
	for i := int32(0); i < d.nref; i++ {
		if d.ref[i] == k {
			d.rdep[i] = max(d.rdep[i], depth)
			return
		}
	}
	if int(d.nref) < len(d.ref) {
		d.ref[d.nref], d.rdep[d.nref] = k, depth
		d.nref++
		return
	}
	if !d.ov || depth < d.ovMin {
		d.ovMin = depth
	}
	d.ov = true
}

func (d *pgDeps) merge(o *pgDeps) {
	for i := int32(0); i < o.nref; i++ {
		d.addRef(o.ref[i], o.rdep[i])
	}
	if o.ov {
		if !d.ov || o.ovMin < d.ovMin {
			d.ovMin = o.ovMin
		}
		d.ov = true
	}
}

// trim drops the refs that lie on the line at or below depth: for a node at
// that depth they are part of its own line.
func (d *pgDeps) trim(depth int32) {
	k := int32(0)
	for i := int32(0); i < d.nref; i++ {
		if d.rdep[i] < depth {
			d.ref[k], d.rdep[k] = d.ref[i], d.rdep[i]
			k++
		}
	}
	d.nref = k
	if d.ov && d.ovMin >= depth {
		d.ov = false
	}
}

// pgEntry is a transposition-table slot: bounds lo <= value <= hi for the
// player to move, valid under every history that holds the refs and none of
// the boards the subtree played (kept in pgSolver.slab at the slot's index),
// all in the canonical orientation.
type pgEntry struct {
	key   pgBoard
	ref   [2]pgBoard
	flags uint8 // bit 0: White to move; bit 1: the previous move was a pass; bit 7: used
	lo    int8
	hi    int8
	move  int8 // best move: a point, -1 pass, -2 none
	nref  uint8
	work  uint8
}

const pgUsed = 1 << 7

var pgTrace = false
var pgPassPhase = 1

type pgSolver struct {
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

	tt     []pgEntry
	ttMask uint64
	// Sets of boards, as bitsets over the legal boards (dense): slab holds
	// one per table slot, sets one per search depth (the boards played
	// below the node at that depth so far).
	words  int
	dense  []int32 // by ternary index; -1 for a board with a chain without liberties
	mdense []int32 // the dense index of the mirror image, by dense index
	slab   []uint64
	sets   [][]uint64

	// The line: path[i] is the board at depth i (the game's history, then
	// the search path), pathM its mirror image.
	path  []pgBoard
	pathM []pgBoard
	// occ holds, for every board on the line, one more than the latest
	// depth it occurs at (0: not on the line), by ternary index.
	tern  []uint32
	occ   []int32
	order []int // placement points, centre first
	rev   func(uint64) uint64
}

func newPgSolver(ctx context.Context, n int, opt Options) *pgSolver {
	s := &pgSolver{ctx: ctx, n: n, full: uint64(1)<<n - 1, maxNodes: opt.MaxNodes, progress: opt.Progress}
	shift := 64 - n
	s.rev = func(x uint64) uint64 { return bits.Reverse64(x) >> shift }
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
	s.dense = make([]int32, pow)
	var boards []pgBoard
	for b := uint64(0); b <= s.full; b++ {
		free := s.full &^ b
		for w := free; ; w = (w - 1) & free {
			k := pgPack(b, w)
			i := s.index(k)
			s.dense[i] = -1
			if s.legalBoard(b, w) {
				s.dense[i] = int32(len(boards))
				boards = append(boards, k)
			}
			if w == 0 {
				break
			}
		}
	}
	s.mdense = make([]int32, len(boards))
	for i, k := range boards {
		s.mdense[i] = s.dense[s.index(s.mirror(k))]
	}
	s.words = (len(boards) + 63) / 64
	mb := opt.MemoryMB
	if mb <= 0 {
		mb = 256
	}
	per := 40 + 8*s.words
	size := 1 << 10
	for size*2*per <= mb<<20 && size < 1<<min(22, 4+2*n) {
		size *= 2
	}
	s.tt = make([]pgEntry, size)
	s.ttMask = uint64(size/2 - 1)
	s.slab = make([]uint64, size*s.words)
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
func (s *pgSolver) legalBoard(b, w uint64) bool {
	empty := s.full &^ (b | w)
	for _, m := range []uint64{b, w} {
		for r := m; r != 0; {
			ch := runAt(m, r&-r)
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

func (s *pgSolver) index(k pgBoard) uint32 { return s.tern[k&0xFFFFFFFF] + 2*s.tern[k>>32] }

// set returns the board set of depth d, growing the list as needed.
func (s *pgSolver) set(d int32) []uint64 {
	for int(d) >= len(s.sets) {
		s.sets = append(s.sets, make([]uint64, s.words))
	}
	return s.sets[d]
}

func (s *pgSolver) mirror(k pgBoard) pgBoard {
	return pgPack(s.rev(k&0xFFFFFFFF), s.rev(k>>32))
}

// latest returns one more than the latest depth board k occurs at on the
// line, 0 when it is not on it.
func (s *pgSolver) latest(k pgBoard) int32 { return s.occ[s.index(k)] }

func (s *pgSolver) setLatest(k pgBoard, v int32) { s.occ[s.index(k)] = v }

// push appends board k at the next depth and returns what pop needs.
func (s *pgSolver) push(k pgBoard) int32 {
	old := s.latest(k)
	s.setLatest(k, int32(len(s.path))+1)
	s.path = append(s.path, k)
	s.pathM = append(s.pathM, s.mirror(k))
	return old
}

func (s *pgSolver) pop(old int32) {
	k := s.path[len(s.path)-1]
	s.path = s.path[:len(s.path)-1]
	s.pathM = s.pathM[:len(s.pathM)-1]
	s.setLatest(k, old)
}

// runAt returns the maximal run of set bits of m that contains bit.
func runAt(m, bit uint64) uint64 {
	up := (m + bit) &^ m // the first clear bit above the run
	run := up - bit      // bit and the run above it
	if low := ^m & (bit - 1); low == 0 {
		run |= bit - 1
	} else {
		hb := uint64(1) << (63 - bits.LeadingZeros64(low))
		run |= (bit - 1) &^ (hb<<1 - 1)
	}
	return run & m
}

// place plays a stone of the owner of own at p (empty), under no suicide with
// captures against the ends of the line. It returns the new stones of both
// sides, the opponent stones captured, and false for suicide.
func (s *pgSolver) place(own, opp uint64, p int) (uint64, uint64, uint64, bool) {
	bit := uint64(1) << p
	own |= bit
	var capt uint64
	if left := bit >> 1; opp&left != 0 {
		ch := runAt(opp, left)
		lo := ch & -ch
		if lo == 1 || own&(lo>>1) != 0 {
			capt |= ch
		}
	}
	if right := (bit << 1) & s.full; opp&right != 0 {
		ch := runAt(opp, right)
		hi := uint64(1) << (63 - bits.LeadingZeros64(ch))
		if hi<<1&s.full == 0 || own&(hi<<1) != 0 {
			capt |= ch
		}
	}
	opp &^= capt
	if capt == 0 {
		ch := runAt(own, bit)
		lo := ch & -ch
		hi := uint64(1) << (63 - bits.LeadingZeros64(ch))
		empty := s.full &^ (own | opp)
		if (lo>>1|hi<<1)&empty == 0 {
			return 0, 0, 0, false
		}
	}
	return own, opp, capt, true
}

// area returns Black's area score minus White's: stones plus empty runs
// bordered by one colour only (the ends of the line border no one).
func (s *pgSolver) area(b, w uint64) int {
	v := bits.OnesCount64(b) - bits.OnesCount64(w)
	empty := s.full &^ (b | w)
	for empty != 0 {
		lo := empty & -empty
		run := ((empty + lo) &^ empty) - lo
		run &= empty
		empty &^= run
		hi := uint64(1) << (63 - bits.LeadingZeros64(run))
		nb := lo>>1 | hi<<1&s.full
		byB, byW := b&nb != 0, w&nb != 0
		switch {
		case byB && !byW:
			v += bits.OnesCount64(run)
		case byW && !byB:
			v -= bits.OnesCount64(run)
		}
	}
	return v
}

// hasPlacement reports whether the owner of own has a placement that is not
// suicide (superko aside).
func (s *pgSolver) hasPlacement(own, opp uint64) bool {
	for e := s.full &^ (own | opp); e != 0; e &= e - 1 {
		if _, _, _, ok := s.place(own, opp, bits.TrailingZeros64(e)); ok {
			return true
		}
	}
	return false
}

func (s *pgSolver) poll() {
	if err := s.ctx.Err(); err != nil {
		s.abort = err
		return
	}
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		s.abort = ErrNodeLimit
		return
	}
	if s.progress != nil {
		now := time.Now()
		if now.Sub(s.lastProg) >= 500*time.Millisecond {
			s.lastProg = now
			el := now.Sub(s.start)
			p := Progress{Nodes: s.nodes, Elapsed: el, Done: s.done, Total: s.total}
			if el > 0 {
				p.Rate = float64(s.nodes) / el.Seconds()
			}
			if s.done > 0 && s.total > s.done {
				p.Estimate = time.Duration(float64(el) * float64(s.total-s.done) / float64(s.done))
			}
			s.progress(p)
		}
	}
}

// canon returns the canonical orientation of board k and whether it is the
// mirror image.
func (s *pgSolver) canon(k pgBoard) (pgBoard, bool) {
	m := s.mirror(k)
	if m < k {
		return m, true
	}
	return k, false
}

func (s *pgSolver) slot(key pgBoard, flags uint8) uint64 {
	return (mix(key^uint64(flags)<<56) & s.ttMask) * 2
}

// valid reports whether entry e, stored for the board of the node at depth
// d in slot i, holds under the current line: every ref is an earlier board,
// and no earlier board is one the entry's subtree played. mirrored says the
// node's board is the mirror of the entry's orientation.
func (s *pgSolver) valid(e *pgEntry, i uint64, d int32, mirrored bool) bool {
	path := s.path
	if mirrored {
		path = s.pathM
	}
	for j := uint8(0); j < e.nref; j++ {
		r := e.ref[j]
		if mirrored {
			r = s.mirror(r)
		}
		if s.latest(r) == 0 {
			return false
		}
	}
	set := s.slab[i*uint64(s.words) : (i+1)*uint64(s.words)]
	for j := d - 1; j >= 0; j-- {
		x := path[j]
		if x == e.key || (e.nref > 0 && x == e.ref[0]) || (e.nref > 1 && x == e.ref[1]) {
			continue
		}
		if k := s.dense[s.index(x)]; k >= 0 && set[k>>6]>>(k&63)&1 != 0 {
			return false
		}
	}
	return true
}

// use adds what entry e in slot i (found valid at the node at depth d)
// depends on to the node's: its refs, with their latest depths on the line,
// and its boards.
func (s *pgSolver) use(e *pgEntry, i uint64, d int32, mirrored bool, deps *pgDeps) {
	for j := uint8(0); j < e.nref; j++ {
		r := e.ref[j]
		if mirrored {
			r = s.mirror(r)
		}
		deps.addRef(r, s.latest(r)-1)
	}
	src := s.slab[i*uint64(s.words) : (i+1)*uint64(s.words)]
	dst := s.set(d)
	if !mirrored {
		for j := range dst {
			dst[j] |= src[j]
		}
		return
	}
	for j, word := range src {
		for ; word != 0; word &= word - 1 {
			k := s.mdense[j<<6|bits.TrailingZeros64(word)]
			dst[k>>6] |= 1 << (k & 63)
		}
	}
}

// search returns the value for the player to move (Black's area minus
// White's, negated for White) of the node at depth d, the last board on the
// line, within (alpha, beta), fail-soft, and what it depends on. passed says
// the previous move was a pass.
func (s *pgSolver) search(d int32, white, passed bool, alpha, beta int) (int, pgDeps) {
	var deps pgDeps
	set := s.set(d)
	clear(set)
	s.nodes++
	if s.nodes&1023 == 0 {
		s.poll()
	}
	if s.abort != nil {
		return 0, deps
	}
	k := s.path[d]
	b, w := k&0xFFFFFFFF, k>>32
	own, opp := b, w
	if white {
		own, opp = w, b
	}
	n := s.n
	best, bestMove := -n-1, -2
	sc := 0
	if passed || alpha < n {
		sc = s.area(b, w)
		if white {
			sc = -sc
		}
	}
	if passed {
		// Passing ends the game with the board as it stands.
		best, bestMove = sc, -1
		if sc >= beta || sc >= n {
			return sc, deps
		}
	} else if sc > alpha && !s.hasPlacement(opp, own) {
		// A pass leaves the opponent only a pass, which ends the game.
		best, bestMove = sc, -1
		if sc >= beta || sc >= n {
			return sc, deps
		}
	}
	if alpha >= n {
		return n, deps // no result exceeds the whole board
	}
	beta = min(beta, n)
	alpha = max(alpha, best)

	flags := uint8(0)
	if white {
		flags |= 1
	}
	if passed {
		flags |= 2
	}
	ck, mirrored := s.canon(k)
	i := s.slot(ck, flags)
	first := -2
	var hit *pgEntry
	var hitSlot uint64
	for j := uint64(0); j < 2; j++ {
		e := &s.tt[i+j]
		if e.flags&pgUsed != 0 && e.key == ck && e.flags&^pgUsed == flags && s.valid(e, i+j, d, mirrored) {
			c := *e // the slot may be replaced during the search below
			hit, hitSlot = &c, i+j
			break
		}
	}
	if hit != nil {
		lo, hi := int(hit.lo), int(hit.hi)
		if lo >= beta || hi <= alpha || lo == hi {
			s.use(hit, hitSlot, d, mirrored, &deps)
			v := lo
			if hi <= alpha {
				v = hi
			}
			if lo >= beta {
				v = lo
			}
			return max(v, best), deps
		}
		if lo > alpha || hi < beta {
			s.use(hit, hitSlot, d, mirrored, &deps)
			alpha, beta = max(alpha, lo), min(beta, hi)
		}
		first = int(hit.move)
		if first >= 0 && mirrored {
			first = n - 1 - first
		}
	}

	alpha0 := alpha
	empty := s.full &^ (b | w)
	try := func(p int) bool { // reports a cut-off
		var nb, nw uint64
		var ok bool
		if white {
			nw, nb, _, ok = s.place(w, b, p)
		} else {
			nb, nw, _, ok = s.place(b, w, p)
		}
		if !ok {
			return false
		}
		ck := pgPack(nb, nw)
		if l := s.latest(ck); l != 0 {
			deps.addRef(ck, l-1) // superko
			return false
		}
		ki := s.dense[s.index(ck)]
		set[ki>>6] |= 1 << (ki & 63)
		old := s.push(ck)
		v, cd := s.search(d+1, !white, false, -beta, -max(alpha, best))
		s.pop(old)
		v = -v
		deps.merge(&cd)
		for j, x := range s.sets[d+1] {
			set[j] |= x
		}
		if v > best {
			best, bestMove = v, p
			if best >= beta {
				return true
			}
		}
		return false
	}
	passTry := func() bool {
		old := s.push(k)
		v, cd := s.search(d+1, !white, true, -beta, -max(alpha, best))
		s.pop(old)
		v = -v
		deps.merge(&cd)
		for j, x := range s.sets[d+1] {
			set[j] |= x
		}
		if v > best {
			best, bestMove = v, -1
			if best >= beta {
				return true
			}
		}
		return false
	}
	cut := false
	if first >= 0 && empty>>first&1 != 0 {
		cut = try(first)
	} else if first == -1 && !passed {
		cut = passTry()
	}
	if !cut && s.abort == nil {
		// Captures first, then the other points next to an enemy stone,
		// then the rest, each from the centre out; the pass where
		// pgPassPhase puts it.
		opp := w
		if white {
			opp = b
		}
		var capts, contact uint64
		for e := empty; e != 0; e &= e - 1 {
			bit := e & -e
			if (bit<<1|bit>>1)&opp != 0 {
				contact |= bit
				p := bits.TrailingZeros64(bit)
				var capt uint64
				if white {
					_, _, capt, _ = s.place(w, b, p)
				} else {
					_, _, capt, _ = s.place(b, w, p)
				}
				if capt != 0 {
					capts |= bit
				}
			}
		}
		phases := [3]uint64{capts, contact &^ capts, empty &^ contact}
		passDone := passed || first == -1
		for ph := 0; ph <= 3 && !cut && s.abort == nil; ph++ {
			if ph == pgPassPhase && !passDone {
				passDone = true
				if cut = passTry(); cut || s.abort != nil {
					break
				}
			}
			if ph == 3 {
				break
			}
			for _, p := range s.order {
				if p == first || phases[ph]>>p&1 == 0 {
					continue
				}
				if cut = try(p); cut || s.abort != nil {
					break
				}
			}
		}
		if !cut && !passDone && s.abort == nil {
			passTry()
		}
	}
	if s.abort != nil {
		return 0, deps
	}
	deps.trim(d)
	if !deps.ov && deps.nref <= 2 {
		lo, hi := -n-1, n+1
		switch {
		case best <= alpha0:
			hi = best
		case best >= beta:
			lo = best
		default:
			lo, hi = best, best
		}
		s.store(ck, flags, mirrored, lo, hi, bestMove, &deps, hit, set)
	}
	return best, deps
}

// store records a result for the canonical board ck, with the boards set
// its subtree played (in the node's orientation); hit is a copy of the entry
// found valid for this node before the search, if any.
func (s *pgSolver) store(ck pgBoard, flags uint8, mirrored bool, lo, hi, move int, deps *pgDeps, hit *pgEntry, set []uint64) {
	var refs [2]pgBoard
	for i := int32(0); i < deps.nref; i++ {
		refs[i] = deps.ref[i]
		if mirrored {
			refs[i] = s.mirror(refs[i])
		}
	}
	if mirrored && move >= 0 {
		move = s.n - 1 - move
	}
	e := pgEntry{key: ck, ref: refs, flags: flags | pgUsed, lo: int8(lo), hi: int8(hi),
		move: int8(move), nref: uint8(deps.nref), work: 1}
	i := s.slot(ck, flags)
	a, c := &s.tt[i], &s.tt[i+1]
	var slot uint64
	keep := false // keep the slot's boards and add the new ones
	switch {
	case hit != nil && *a == *hit:
		slot, keep = i, true
	case hit != nil && *c == *hit:
		slot, keep = i+1, true
	case a.flags&pgUsed != 0 && (c.flags&pgUsed == 0 || c.work < a.work):
		slot = i + 1
	default:
		slot = i
	}
	if keep {
		// Both results hold where the conditions of both do: intersect the
		// bounds under the union of the conditions, if the refs fit.
		m := e
		for j := uint8(0); j < hit.nref && keep; j++ {
			r := hit.ref[j]
			if (m.nref > 0 && m.ref[0] == r) || (m.nref > 1 && m.ref[1] == r) {
				continue
			}
			if m.nref == 2 {
				keep = false
				break
			}
			m.ref[m.nref] = r
			m.nref++
		}
		if keep {
			m.lo, m.hi = max(m.lo, hit.lo), min(m.hi, hit.hi)
			m.work = hit.work
			if m.work < 255 {
				m.work++
			}
			e = m
		}
	}
	dst := s.slab[slot*uint64(s.words) : (slot+1)*uint64(s.words)]
	if !keep {
		clear(dst)
	}
	if !mirrored {
		for j := range dst {
			dst[j] |= set[j]
		}
	} else {
		for j, word := range set {
			for ; word != 0; word &= word - 1 {
				k := s.mdense[j<<6|bits.TrailingZeros64(word)]
				dst[k>>6] |= 1 << (k & 63)
			}
		}
	}
	s.tt[slot] = e
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
	s := newPgSolver(ctx, r.Width, opt)
	s.start, s.lastProg = start, start
	for i := 0; i <= g.Len(); i++ {
		b, w, _, _ := g.PositionAt(i).Line()
		s.push(pgPack(b, w))
	}
	pos := g.Position()
	komi := r.Komi
	moves := g.LegalMoves(nil)
	s.total = len(moves)
	sign := 1.0
	if pos.ToMove() == rules.White {
		sign = -1
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
	for _, m := range moves {
		if v, ok := res.Moves[m]; ok && sign*v == bestV {
			res.Best = append(res.Best, m)
		}
	}
	if len(res.Best) > 0 {
		res.Value = sign * bestV
	}
	res.Outcome = winner(res.Value)
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

// moveValue returns Black's area margin (komi aside) after m is played from
// pos, the last position on the line, under perfect play.
func (s *pgSolver) moveValue(pos rules.Position, m rules.Move) int {
	c, err := pos.Play(m)
	if err != nil {
		s.abort = fmt.Errorf("solve: the kernel refused its own legal move %v: %w", m, err)
		return 0
	}
	b, w, _, _ := c.Line()
	old := s.push(pgPack(b, w))
	defer s.pop(old)
	if c.Over() {
		return s.area(b, w)
	}
	v := s.mtdf(int32(len(s.path)-1), c.ToMove() == rules.White, c.Passes() > 0, 0)
	if c.ToMove() == rules.White {
		v = -v
	}
	return v
}

// mtdf returns the exact value of the node at depth d by null-window
// searches (MTD(f)) starting from the guess g.
func (s *pgSolver) mtdf(d int32, white, passed bool, g int) int {
	lo, hi := -s.n, s.n
	for lo < hi && s.abort == nil {
		beta := max(g, lo+1)
		n0 := s.nodes
		v, _ := s.search(d, white, passed, beta-1, beta)
		if pgTrace {
			fmt.Printf("mtdf d=%d beta=%d -> %d (%d nodes)\n", d, beta, v, s.nodes-n0)
		}
		if v < beta {
			hi = v
		} else {
			lo = v
		}
		g = v
	}
	return lo
}

// pv follows best moves from pos (the last position on the line), starting
// with first, whose value for the player who plays it is v (komi aside),
// until the game ends or the line is long.
func (s *pgSolver) pv(pos rules.Position, first rules.Move, v float64) []rules.Move {
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
	olds = append(olds, s.push(pgPack(b, w)))
	want := int(v) // Black's margin
	for len(line) < 4*s.n+8 && s.abort == nil && !cur.Over() {
		next := rules.NoMove
		var nextPos rules.Position
		for _, m := range s.legal(cur) {
			if s.moveValue(cur, m) == want {
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
		olds = append(olds, s.push(pgPack(b, w)))
	}
	return line
}

// legal lists the legal moves of pos, the last position on the line, with
// superko applied against the line.
func (s *pgSolver) legal(pos rules.Position) []rules.Move {
	var out []rules.Move
	for _, m := range pos.LegalMoves(nil) {
		c, err := pos.Play(m)
		if err != nil {
			continue
		}
		b, w, _, _ := c.Line()
		if m.IsPlace() && s.latest(pgPack(b, w)) != 0 {
			continue
		}
		out = append(out, m)
	}
	return out
}
