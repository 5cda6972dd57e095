package solve

import (
	"fmt"
	"slices"

	"alak/rules"
)

// Wins shared between histories (docs/solver-proof-search.md, 5c, "Wins by state"). A
// win found at a node holds on another line to the same state unless that
// line's history adds a repetition draw to one of the win's lines. The
// reach of a win says how far it can: for each position its lines meet,
// the most occurrences of it on any one line, counted from the node (the
// node's own position once). On a line whose earlier positions (before
// the node) occur c times each, every line of the win meets each position
// at most c + reach times, so if c + reach stays below the repetition
// count n for every position of the reach, no line of it is drawn and the
// win holds there, move for move. Positions the reach does not name never
// occur below the node, whatever came before.

// reach is a sorted list of position indices (reachIndex), each shifted
// left 4 bits with its count in the low 4 (counts are below n, at most 9).
type reach struct{ ids []uint32 }

// emptyReach is the reach of a finished game: no position counts there.
var emptyReach = &reach{}

// reachMax is the longest reach kept: a longer one is dropped (nil), and
// so is every reach built on it, so that the table's memory stays bounded.
const reachMax = 4096

// reachIndex numbers the positions the search meets and counts the
// occurrences of each on the game's line.
type reachIndex struct {
	idx   map[uint64]uint32
	cnt   []uint8  // occurrences on the line, per index
	line  []uint32 // the index of each position of the line
	most  []uint8  // scratch for merges, per index
	dirty []uint32
}

func newReachIndex() *reachIndex { return &reachIndex{idx: map[uint64]uint32{}} }

func (x *reachIndex) index(h uint64) uint32 {
	i, ok := x.idx[h]
	if !ok {
		i = uint32(len(x.cnt))
		x.idx[h] = i
		x.cnt = append(x.cnt, 0)
		x.most = append(x.most, 0)
	}
	return i
}

// reset counts the line of g.
func (x *reachIndex) reset(g *rules.Game) {
	for _, i := range x.line {
		x.cnt[i]--
	}
	x.line = x.line[:0]
	for t := 0; t <= g.Len(); t++ {
		x.push(g.PositionAt(t).Hash())
	}
}

func (x *reachIndex) push(h uint64) {
	i := x.index(h)
	x.cnt[i]++
	x.line = append(x.line, i)
}

func (x *reachIndex) pop() {
	i := x.line[len(x.line)-1]
	x.cnt[i]--
	x.line = x.line[:len(x.line)-1]
}

// before returns the occurrences of position i on the line before the
// node (the line's last position).
func (x *reachIndex) before(i uint32) int {
	c := int(x.cnt[i])
	if i == x.line[len(x.line)-1] {
		c--
	}
	return c
}

// holds reports whether a win of reach r found elsewhere holds at the
// line's last position: no position of r occurs n times on any of its
// lines, given the occurrences before.
func (x *reachIndex) holds(r *reach, n int) bool {
	for _, e := range r.ids {
		if x.before(e>>4)+int(e&15) >= n {
			return false
		}
	}
	return true
}

// combine returns the reach of a node from those of the children its
// result rests on (each not nil): the most of each position over them, and
// the node's own position once more; nil when it would pass reachMax or
// count n occurrences of a position (which a win cannot).
func (x *reachIndex) combine(kids []*reach, n int) *reach {
	own := x.line[len(x.line)-1]
	if len(kids) == 1 {
		// The common case, a node of the side that wins: the child's reach
		// with the node's position counted once more.
		ids := make([]uint32, 0, len(kids[0].ids)+1)
		found := false
		for _, e := range kids[0].ids {
			if e>>4 == own {
				e++
				found = true
				if int(e&15) >= n {
					return nil
				}
			}
			ids = append(ids, e)
		}
		if !found {
			at, _ := slices.BinarySearchFunc(ids, own, func(e, t uint32) int { return int(e>>4) - int(t) })
			ids = slices.Insert(ids, at, own<<4|1)
		}
		if len(ids) > reachMax {
			return nil
		}
		return &reach{ids: ids}
	}
	x.dirty = x.dirty[:0]
	for _, r := range kids {
		for _, e := range r.ids {
			i, c := e>>4, uint8(e&15)
			if x.most[i] == 0 {
				x.dirty = append(x.dirty, i)
			}
			x.most[i] = max(x.most[i], c)
		}
	}
	if x.most[own] == 0 {
		x.dirty = append(x.dirty, own)
	}
	x.most[own]++
	var r *reach
	if len(x.dirty) <= reachMax && int(x.most[own]) < n {
		slices.Sort(x.dirty)
		ids := make([]uint32, len(x.dirty))
		for j, i := range x.dirty {
			ids[j] = i<<4 | uint32(x.most[i])
		}
		r = &reach{ids: ids}
	}
	for _, i := range x.dirty {
		x.most[i] = 0
	}
	return r
}

// fromOccurrences returns the reach of a strategy played out from the
// line's last position, given the most occurrences on the game (history
// included) of each position it met.
func (x *reachIndex) fromOccurrences(occ map[uint64]uint8, n int) *reach {
	if len(occ) > reachMax {
		return nil
	}
	ids := make([]uint32, 0, len(occ))
	for h, o := range occ {
		i := x.index(h)
		c := int(o) - x.before(i)
		if c < 1 || c >= n {
			return nil
		}
		ids = append(ids, i<<4|uint32(c))
	}
	slices.Sort(ids)
	return &reach{ids: ids}
}

// swKeep is the most reaches sw keeps for a state, swMax the most
// positions all of them name together.
const (
	swKeep = 3
	swMax  = 1 << 27
)

// repetition returns the occurrence that draws, or one no line reaches
// where the rules have no such draw.
func (s *pnSearch) repetition() int {
	if n := s.g.Rules().Repetition; n > 0 {
		return n
	}
	return 1 << 30
}

// won reports whether e is a result the side seeking a win obtained.
func (s *pnSearch) won(e pnEntry) bool {
	if s.draw {
		return e.dn == 0
	}
	return e.pn == 0
}

// winning is that result, with reach r.
func (s *pnSearch) winning(r *reach) pnEntry {
	if s.draw {
		return pnEntry{pn: pnInf, dn: 0, dep: noDep, r: r}
	}
	return pnEntry{pn: 0, dn: pnInf, dep: noDep, r: r}
}

// sharedWin returns the reach of a win found at state k that holds on the
// game's line, or nil.
func (s *pnSearch) sharedWin(k tableKey) *reach {
	n := s.repetition()
	for _, r := range s.sw[k] {
		if s.rx.holds(r, n) {
			s.winHits++
			if s.onWinHit != nil {
				s.onWinHit(r)
			}
			return r
		}
		s.winMisses++
	}
	return nil
}

// storeWin keeps a win of reach r at the game's state: in place of a
// longer one when the state has swKeep already.
func (s *pnSearch) storeWin(r *reach) {
	if r == nil || s.sw == nil {
		return
	}
	k := s.prover.key()
	rs := s.sw[k]
	if len(rs) < swKeep {
		if s.swSize+int64(len(r.ids)) > swMax {
			return
		}
		s.sw[k] = append(rs, r)
		s.swSize += int64(len(r.ids))
		return
	}
	j := 0
	for i := range rs {
		if len(rs[i].ids) > len(rs[j].ids) {
			j = i
		}
	}
	if len(r.ids) < len(rs[j].ids) {
		s.swSize += int64(len(r.ids) - len(rs[j].ids))
		rs[j] = r
	}
}

// reachOf returns the reach of a win at a node with children kids: at the
// winner's nodes, the shortest reach of a child it wins by; at the
// other's, all of them.
func (s *pnSearch) reachOf(kids []pnEntry, attack bool) *reach {
	n := s.repetition()
	if attack != s.draw {
		var best *reach
		for _, k := range kids {
			if s.won(k) && k.r != nil && (best == nil || len(k.r.ids) < len(best.ids)) {
				best = k.r
			}
		}
		if best == nil {
			return nil
		}
		return s.rx.combine([]*reach{best}, n)
	}
	rs := make([]*reach, len(kids))
	for i, k := range kids {
		if k.r == nil {
			return nil
		}
		rs[i] = k.r
	}
	return s.rx.combine(rs, n)
}

// nearWinReach is nearWin with the reach of the strategy played out (nil
// without the table by state).
func (s *pnSearch) nearWinReach() (bool, *reach) {
	var occ map[uint64]uint8
	if s.rx != nil {
		occ = map[uint64]uint8{}
	}
	if ok, _ := s.graphWin(occ); !ok || s.rx == nil {
		return ok, nil
	}
	return true, s.rx.fromOccurrences(occ, s.repetition())
}

// Shared subtrees of a win (format 3 of package proofcheck): a state where
// the search found a win that holds on the line is written as a shared
// subtree with the reach of what is written; a node of the same state
// refers to one of the state's subtrees whose reach holds on its line, as
// the checker requires (proofcheck, checker.use), and where none does gets
// one more, written on its line. The subtree is recorded in place,
// on the game's line, from the search's own proof there (its table keys
// are those of the line): the checker checks it from its position with no
// history, where every position occurs fewer times than here, so the same
// lines end as they end here. Its reach counts the occurrences on its lines
// less those before its root. While a subtree is written, accs holds, for
// it and each one it is inside, innermost last, that reach so far and the
// line's counts before its root.
type accFrame struct {
	most map[uint32]uint8
	base map[uint32]uint8 // the line's counts before the root (only its positions count)
}

// fresh returns the occurrences of position i on the line from the root
// of frame f (its count in the checker's game of the subtree).
func (s *pnSearch) fresh(f *accFrame, i uint32) uint8 {
	return s.rx.cnt[i] - f.base[i]
}

// countReach notes the game's position in the innermost shared subtree
// being written.
func (s *pnSearch) countReach() {
	if len(s.accs) == 0 || s.rx == nil {
		return
	}
	f := s.accs[len(s.accs)-1]
	i := s.rx.line[len(s.rx.line)-1]
	f.most[i] = max(f.most[i], s.fresh(f, i))
}

// accOcc adds to the innermost shared subtree the occurrences a strategy
// played out on the line met (expander.occ).
func (s *pnSearch) accOcc(occ map[uint64]uint8) {
	f := s.accs[len(s.accs)-1]
	for h, o := range occ {
		i := s.rx.index(h)
		f.most[i] = max(f.most[i], o-f.base[i])
	}
}

// useReach adds to the innermost shared subtree, if any, the positions of
// a shared subtree of reach r used at the game's position: each as often
// as on the line before (from the enclosing subtree's root) plus its count
// in r.
func (s *pnSearch) useReach(r *reach) {
	if len(s.accs) == 0 {
		return
	}
	f := s.accs[len(s.accs)-1]
	cur := s.rx.line[len(s.rx.line)-1]
	for _, e := range r.ids {
		i := e >> 4
		b := s.fresh(f, i)
		if i == cur {
			b--
		}
		f.most[i] = max(f.most[i], b+uint8(e&15))
	}
}

// holdingWin returns a shared subtree of the game's state, written
// already, whose reach holds on the line.
func (s *pnSearch) holdingWin() (uint32, bool) {
	n := s.repetition()
	for _, id := range s.sh.wins[s.prover.key()] {
		if r := s.sh.defs[id].r; r != nil && s.rx.holds(r, n) {
			return id, true
		}
	}
	return 0, false
}

// recordSharedWin writes, in a proof of a win, a reference to a shared
// subtree of the game's state whose reach holds on the line, or, where the
// search found a win there that holds, a subtree of the state written on
// the line (another one where those written before do not hold here);
// done is false where neither applies and the node is to be written in
// line.
func (s *pnSearch) recordSharedWin() (h int, ok, done bool) {
	if id, ok := s.holdingWin(); ok {
		s.referTo(id)
		s.useReach(s.sh.defs[id].r)
		return s.sh.defs[id].h, true, true
	}
	k := s.prover.key()
	if s.sharedWin(k) == nil {
		return 0, false, false
	}
	mark := len(s.rec)
	sk := shareKey{k: k}
	s.define(sk)
	id := uint32(len(s.sh.defs) - 1)
	s.sh.wins[k] = append(s.sh.wins[k], id)
	f := &accFrame{most: map[uint32]uint8{}, base: make(map[uint32]uint8, len(s.rx.line))}
	for _, i := range s.rx.line[:len(s.rx.line)-1] { // the root counts once in the subtree
		f.base[i]++
	}
	s.accs = append(s.accs, f)
	s.inLine = true
	h, ok = s.record()
	s.accs = s.accs[:len(s.accs)-1]
	if !ok {
		if s.err == nil {
			s.err = fmt.Errorf("the search's win at %v did not hold when written", s.g.Moves())
		}
		return h, false, true
	}
	ids := make([]uint32, 0, len(f.most))
	for i, c := range f.most {
		ids = append(ids, i<<4|uint32(c))
	}
	slices.Sort(ids)
	r := &reach{ids: ids}
	if !s.rx.holds(r, s.repetition()) {
		// Written on this line, every line of it holds here, so its reach
		// does; were it otherwise, the node is written in line instead.
		s.recordDrop(mark)
		return 0, false, false
	}
	s.sh.defs[id].r, s.sh.defs[id].h = r, h
	s.useReach(r)
	return h, true, true
}
