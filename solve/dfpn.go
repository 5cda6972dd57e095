package solve

import (
	"fmt"
	"math"
	"math/bits"

	"alak/rules"
)

// Depth-first proof-number search (ProveOptions.ProofNumbers; docs/
// docs/solver-proof-search.md, "5c"). Iterative deepening searches every depth again, and
// on Traditional Alak most of each iteration goes to lines that fail only
// for want of depth. Proof-number search instead grows the tree where a
// proof or a disproof looks nearest: every node carries a proof number
// (how many leaves must still be proved to prove it) and a disproof
// number, and the search descends, depth first with thresholds (df-pn),
// to the most proving leaf. It settles a question both ways, with no
// depth limit: a proof is a strategy for w, a disproof shows that no
// strategy of w's meets the goal, however long the game.
//
// Nodes are those of the game tree: a node is known by its path from the
// root (a 64-bit hash of the moves with its position's hash), so nothing
// is shared between histories and no graph-history interaction arises.
// With ProveOptions.Graph, the state graph settles nodes as in Prove.
// A collision of two nodes' keys (about 2^-64 a pair) could mislead the
// search; the certificate, recorded after and checked on its own, does
// not rest on the hash.

const pnInf = 1 << 30

// pnEntry is a node's proof and disproof numbers and the work its search
// took (positions, saturated), which decides what the table keeps when
// it is full.
//
// dep, for a result the side seeking a draw obtained (a proof of a draw
// goal, a disproof of a win goal), is the earliest index on the game's
// line (0 the start) that a repetition draw it relied on reaches back to
// (noDep: none; kept only with the table by state, ProveOptions.Table);
// only such a result with dep at the node or after it goes into that
// table.
//
// r, for a result the side seeking a win obtained, is its reach
// (reach.go), nil where it is not known; kept only with the table by
// state.
type pnEntry struct {
	pn, dn, work uint32
	dep          int32
	r            *reach
}

type pathKey struct{ path, pos uint64 }

// windowKey is a draw's entry in the table by state with a window
// (docs/solver-proof-search.md, 5c): the state, the window's length n (the plies before the
// node its repetitions reached back to, 1 to 64) and the sum of the mixed
// hashes of the window's positions, a multiset hash: the order of the
// positions does not count, how often each occurred does. A draw the side
// seeking it obtained at a state, relying on repetitions of positions of
// the window and after, holds on any line that reaches the state with the
// same positions, as often, in its last n plies: the repetition draws it
// used are all there again, and a line's earlier history only adds
// repetition draws, which such a result survives (provetable.go).
type windowKey struct {
	k    tableKey
	n    uint8
	hash uint64
}

// pathSeed is the path hash of the search's root.
const pathSeed = 0x243F6A8885A308D3

// mix64 is splitmix64's finaliser.
func mix64(x uint64) uint64 {
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}

// extendPath returns the path hash after m (a splitmix64 step).
func extendPath(h uint64, m rules.Move) uint64 {
	return mix64(h ^ (uint64(int64(m)) + 0x9E3779B97F4A7C15))
}

// mixPos spreads a position's hash before it is summed into a multiset hash.
func mixPos(h uint64) uint64 { return mix64(h + 0x9E3779B97F4A7C15) }

type pnSearch struct {
	*prover
	tt    map[pathKey]pnEntry
	ttMax int
	// hrank, with the graph, is the attractor of the win that is at
	// stake: the prover's for a win goal, the opponent's for a draw goal;
	// rank is its rank at the position settled last looked at (-1: none).
	hrank []int32
	rank  int32
	path  []uint64
	// st, with ProveOptions.Table, holds the states where the side seeking
	// a draw obtains it whatever the history (5a's argument, docs/solver-proof-search.md):
	// its results that relied on no repetition from before the node; at
	// most stMax. open, while a certificate is recorded, holds the states
	// whose shared subtrees are being written.
	st    map[tableKey]struct{}
	stMax int
	// ws, with the table by state, holds the draws that relied on
	// repetitions of positions from 1 to 64 plies before the node, keyed
	// by their window (windowKey), at most stMax; wl has, for each state, a
	// bit for each window length stored there. psum is the multiset hash
	// of the line's positions before each index (psum[i]: positions 0 to
	// i-1), kept as the search plays and undoes moves.
	ws   map[windowKey]struct{}
	wl   map[tableKey]uint64
	psum []uint64
	// windowHits counts the lookups ws answered.
	windowHits int64
	// rx and sw, with the table by state, share the side seeking a win's
	// results between histories (reach.go): rx counts the line's
	// positions, sw holds for each state the reaches of wins found there
	// (at most swKeep), swSize their total length, at most swMax; winHits
	// counts the lookups sw answered.
	rx      *reachIndex
	sw      map[tableKey][]*reach
	swSize  int64
	winHits int64
	// accs serves the writing of shared subtrees of a win (reach.go): the
	// reach of each being written, innermost last, with the line's counts
	// at its root.
	accs []*accFrame
	// subtrees, again, refs and inLineAfter are a win certificate's counts
	// once written (compactWins): the shared subtrees kept, those of them
	// at a state that had one, the references, and the subtrees put in
	// line.
	subtrees, again, refs, inLineAfter int64
	// inLine, set before record is called at the root of a shared
	// subtree of a win, has it write that node in line.
	inLine bool
	// onWinHit, when set (tests), is called at each lookup sw answers.
	onWinHit func(*reach)
	// winMisses counts the wins of sw that did not hold where looked up.
	winMisses int64
	open      map[tableKey]bool
	heights   map[tableKey]int // the longest line of each shared subtree written
	kids      [][]pnEntry      // per depth (kidsAt)
	// check and report are the positions at which the search next checks
	// its context (every checkEvery positions, 2^16) and next calls
	// searched (every reportEvery, 2^22).
	check, report, checkEvery, reportEvery int64
	// searched is ProveOptions.Searched.
	searched func(nodes int64, entries int)
}

// robust reports whether e is a result the side seeking a draw obtained.
func (s *pnSearch) robust(e pnEntry) bool {
	if s.draw {
		return e.pn == 0
	}
	return e.dn == 0
}

// drawn is that result, as the table by state gives it.
func (s *pnSearch) drawn() pnEntry {
	if s.draw {
		return pnEntry{pn: 0, dn: pnInf, dep: noDep}
	}
	return pnEntry{pn: pnInf, dn: 0, dep: noDep}
}

// repDep returns, at a position drawn by repetition, the index on the
// game's line of the earliest of the occurrences that make the draw.
func repDep(g *rules.Game) int32 {
	t := g.Len()
	h := g.PositionAt(t).Hash()
	need := g.Rules().Repetition - 1
	for i := t - 1; i >= 0; i-- {
		if g.PositionAt(i).Hash() == h {
			if need--; need <= 0 {
				return int32(i)
			}
		}
	}
	return -1
}

func (s *pnSearch) play(m rules.Move) error {
	if err := s.g.Play(m); err != nil {
		return err
	}
	s.path = append(s.path, extendPath(s.path[len(s.path)-1], m))
	if s.rx != nil {
		s.rx.push(s.g.Position().Hash())
	}
	if s.ws != nil { // the position just left joins the line's multiset
		t := s.g.Len()
		s.psum = append(s.psum, s.psum[t-1]+mixPos(s.g.PositionAt(t-1).Hash()))
	}
	return nil
}

func (s *pnSearch) undo() {
	_ = s.g.Undo()
	s.path = s.path[:len(s.path)-1]
	if s.rx != nil {
		s.rx.pop()
	}
	if s.ws != nil {
		s.psum = s.psum[:len(s.psum)-1]
	}
}

// useTable starts the table by state and its windows.
func (s *pnSearch) useTable() {
	s.st, s.ws, s.wl = map[tableKey]struct{}{}, map[windowKey]struct{}{}, map[tableKey]uint64{}
	s.initWindows()
	s.rx, s.sw = newReachIndex(), map[tableKey][]*reach{}
	s.rx.reset(s.g)
}

// initWindows starts the multiset hashes of the game's line (psum).
func (s *pnSearch) initWindows() {
	s.psum = append(s.psum[:0], 0)
	for i := 0; i < s.g.Len(); i++ {
		s.psum = append(s.psum, s.psum[i]+mixPos(s.g.PositionAt(i).Hash()))
	}
}

// windowDraw reports whether the table by state with a window has a draw
// at the game's state whose window of positions the line has just before
// the node, and the index where that window starts.
func (s *pnSearch) windowDraw(k tableKey) (int32, bool) {
	t := s.g.Len()
	for m := s.wl[k]; m != 0; m &= m - 1 {
		n := bits.TrailingZeros64(m) + 1
		if n > t {
			break
		}
		if _, ok := s.ws[windowKey{k, uint8(n), s.psum[t] - s.psum[t-n]}]; ok {
			s.windowHits++
			return int32(t - n), true
		}
	}
	return 0, false
}

// storeWindow enters a draw that relied on repetitions back to index dep
// (before the node, at most 64 plies) in the table with a window.
func (s *pnSearch) storeWindow(dep int32) {
	t := s.g.Len()
	n := t - int(dep)
	if dep < 0 || n < 1 || n > 64 || len(s.ws) >= s.stMax {
		return
	}
	k := s.prover.key()
	s.ws[windowKey{k, uint8(n), s.psum[t] - s.psum[dep]}] = struct{}{}
	s.wl[k] |= 1 << (n - 1)
}

func (s *pnSearch) key() pathKey { return pathKey{s.path[len(s.path)-1], s.g.Position().Hash()} }

// settled returns the numbers of a node known without expanding it: a
// finished game, or a state the graph settles (a draw w forces, for a
// draw goal; a state outside w's win attractor, for a win goal).
func (s *pnSearch) settled() (pnEntry, bool) {
	if o := s.g.Outcome(); o.Over() {
		dep := int32(noDep)
		if s.st != nil && o.Reason == rules.Repetition {
			dep = repDep(s.g) // only the table by state needs it
		}
		if o.Winner == s.w || s.draw && o.Winner == rules.None {
			return pnEntry{pn: 0, dn: pnInf, dep: dep, r: emptyReach}, true
		}
		return pnEntry{pn: pnInf, dn: 0, dep: dep, r: emptyReach}, true
	}
	s.rank = -1
	if s.grank != nil {
		if i, ok := s.sg.keys[s.prover.key()]; ok {
			s.rank = s.hrank[i]
			switch r := s.grank[i]; {
			case s.draw && r >= 0:
				return pnEntry{pn: 0, dn: pnInf, dep: noDep}, true
			case !s.draw && r < 0:
				return pnEntry{pn: pnInf, dn: 0, dep: noDep}, true
			}
		}
	}
	return pnEntry{}, false
}

// lookup returns the numbers of the node at the game's position: settled,
// from the table, or 1 and 1 for a leaf not searched yet.
func (s *pnSearch) lookup() pnEntry {
	if e, ok := s.settled(); ok {
		return e
	}
	if s.st != nil {
		k := s.prover.key()
		if _, ok := s.st[k]; ok {
			return s.drawn()
		}
		// A settled entry of this line first, then a window's draw (settled
		// too), then the entry's numbers.
		e, ok := s.tt[s.key()]
		if ok && (e.pn == 0 || e.dn == 0) {
			return e
		}
		if s.ws != nil {
			if dep, won := s.windowDraw(k); won {
				d := s.drawn()
				d.dep = dep
				return d
			}
		}
		if s.sw != nil {
			if r := s.sharedWin(k); r != nil {
				return s.winning(r)
			}
		}
		if ok {
			return e
		}
	} else if e, ok := s.tt[s.key()]; ok {
		return e
	}
	if s.rank >= 0 {
		// In a win attractor of the graph, the plies to the win it forces
		// there: the nearer, the likelier the win holds in the game too.
		h := 1 + 2*uint32(s.rank)
		if s.draw {
			return pnEntry{pn: 1, dn: h}
		}
		return pnEntry{pn: h, dn: 1}
	}
	return pnEntry{pn: 1, dn: 1}
}

func (s *pnSearch) store(e pnEntry) {
	if len(s.tt) >= s.ttMax {
		s.collect()
	}
	s.tt[s.key()] = e
}

// collect makes room in a full table: it drops the entries whose search
// took least work, at least half of them (by the bit length of the
// work), so that what a large subtree established stays (a dropped entry
// is searched again when it is needed; the certificate records from what
// stays).
func (s *pnSearch) collect() {
	var count [33]int // entries by the bit length of their work
	for _, e := range s.tt {
		count[bits.Len32(e.work)]++
	}
	below, cut := 0, 0
	for below < len(s.tt)/2 {
		below += count[cut]
		cut++
	}
	for k, e := range s.tt {
		if bits.Len32(e.work) < cut {
			delete(s.tt, k)
		}
	}
}

// kidsAt returns the children's numbers buffer of depth d, n long, kept
// for that depth as the move lists are (a node's search returns before
// another node of its depth is searched).
func (s *pnSearch) kidsAt(d, n int) []pnEntry {
	for len(s.kids) <= d {
		s.kids = append(s.kids, nil)
	}
	if cap(s.kids[d]) < n {
		s.kids[d] = make([]pnEntry, n)
	}
	return s.kids[d][:n]
}

// epsilon is the threshold a child gets against the second best sibling's
// number n: n+1 in df-pn, here n + n/4 + 1, which lets the search stay
// longer in one child before it turns to another (the "1+ε trick" of
// Pawlewicz and Lew, 2007) and comes back far less often.
// Measured on Traditional Alak with the graph: White's draw on 8 points
// takes 49,637 positions against 80,143 with n+1, Black's draw after 3 on
// 7 points 3,318 against 6,675.
func epsilon(n uint32) uint32 { return satAdd(satAdd(n, n/4), 1) }

func satAdd(a, b uint32) uint32 {
	if c := uint64(a) + uint64(b); c < pnInf {
		return uint32(c)
	}
	return pnInf
}

// mid searches the node at the game's position until its proof number
// reaches thpn or its disproof number thdn, and returns its numbers; the
// work it stores adds its own to prior, the node's from earlier visits.
func (s *pnSearch) mid(thpn, thdn, prior uint32) pnEntry {
	start := s.nodes
	s.nodes++
	if s.nodes >= s.check && s.err == nil {
		// A checkpoint every checkEvery positions, reached however many
		// the near wins add at once.
		s.check = s.nodes + s.checkEvery
		s.err = s.ctx.Err()
		if s.nodes >= s.report && s.searched != nil {
			s.report = s.nodes + s.reportEvery
			s.searched(s.nodes, len(s.tt))
		}
	}
	if s.err != nil {
		return pnEntry{pn: pnInf, dn: pnInf}
	}
	if e, ok := s.settled(); ok {
		return e
	}
	if prior == 0 && !s.draw && s.rank >= 0 && s.rank <= gwR {
		if ok, r := s.nearWinReach(); ok {
			e := pnEntry{pn: 0, dn: pnInf, work: uint32(s.nodes - start), dep: noDep, r: r}
			s.store(e)
			s.storeWin(r)
			return e
		}
	}
	ms := s.moves(len(s.path)) // a buffer per depth (prove.go)
	attack := s.g.Position().ToMove() == s.w
	kids := s.kidsAt(len(s.path), len(ms))
	for i, m := range ms {
		if err := s.play(m); err != nil {
			s.err = fmt.Errorf("the kernel refused its own legal move %v: %w", m, err)
			return pnEntry{pn: pnInf, dn: pnInf}
		}
		kids[i] = s.lookup()
		s.undo()
	}
	// At w's nodes one child proves and every child must be disproved; at
	// the other player's, the other way round. In "or" and "and" numbers
	// (a node's own, its children's, its thresholds) both are one rule.
	orAnd := func(e pnEntry) (uint32, uint32) {
		if attack {
			return e.pn, e.dn
		}
		return e.dn, e.pn
	}
	entry := func(or, and uint32) pnEntry {
		if attack {
			return pnEntry{pn: or, dn: and}
		}
		return pnEntry{pn: and, dn: or}
	}
	thOr, thAnd := orAnd(pnEntry{pn: thpn, dn: thdn})
	for {
		best, second, sum := -1, uint32(pnInf), uint32(0)
		var least uint32
		for i, k := range kids {
			or, and := orAnd(k)
			sum = satAdd(sum, and)
			switch {
			case best < 0 || or < least:
				if best >= 0 {
					second = least
				}
				best, least = i, or
			case or < second:
				second = or
			}
		}
		e := entry(least, sum)
		if least >= thOr || sum >= thAnd || e.pn == 0 || e.dn == 0 {
			e.work = uint32(min(s.nodes-start+int64(prior), math.MaxUint32))
			e.dep = noDep
			if s.st != nil && s.robust(e) {
				e.dep = s.depOf(kids, attack)
				if e.dep >= int32(s.g.Len()) && len(s.st) < s.stMax {
					s.st[s.prover.key()] = struct{}{}
				} else if s.ws != nil {
					s.storeWindow(e.dep)
				}
			}
			if s.rx != nil && s.won(e) {
				e.r = s.reachOf(kids, attack)
				s.storeWin(e.r)
			}
			s.store(e)
			return e
		}
		_, kAnd := orAnd(kids[best])
		c := entry(min(thOr, epsilon(second)), thAnd-sum+kAnd)
		if err := s.play(ms[best]); err != nil {
			s.err = err
			return pnEntry{pn: pnInf, dn: pnInf}
		}
		kids[best] = s.mid(c.pn, c.dn, kids[best].work)
		s.undo()
		if s.err != nil {
			return pnEntry{pn: pnInf, dn: pnInf}
		}
	}
}

// A win the graph forces within gwR plies is tried on the game (graphWin)
// before a node of a win goal is searched, at most gwB positions played
// out. Measured on 8 points after 3 (White's win, docs/solver-proof-search.md): 17.1 s
// against 35.9 s without, one run after the other, and no better with
// other bounds (10 and 1,000: 17.6 s; 14 and 2,000: 19.1 s; 16 and
// 20,000: 101 s).
const (
	gwR = 12
	gwB = 500
)

// graphWin reports whether the graph's win strategy from the game's
// position holds on the game (no line of it meets a repetition draw),
// played out within gwB positions, and the positions it played; occ, when
// not nil, gets the most occurrences of each position it met
// (expander.occ).
func (s *pnSearch) graphWin(occ map[uint64]uint8) (bool, int64) {
	x := &expander{prover: prover{ctx: s.ctx, g: s.g, w: s.w}, sg: s.sg, rank: s.grank, limit: gwB, occ: occ}
	ok := x.expand(false)
	s.nodes += x.nodes
	if x.err != nil && s.err == nil {
		s.err = x.err
	}
	return ok && x.err == nil, x.nodes
}

func (s *pnSearch) nearWin() bool {
	ok, _ := s.graphWin(nil)
	return ok
}

// depOf returns the dependence of a result the side seeking a draw
// obtained at a node with children kids: at that side's nodes, one child
// it obtained there suffices (the one reaching back least); at the other
// side's, every child counts.
func (s *pnSearch) depOf(kids []pnEntry, attack bool) int32 {
	if attack == s.draw {
		dep := int32(-1)
		for _, k := range kids {
			if s.robust(k) {
				dep = max(dep, k.dep)
			}
		}
		return dep
	}
	dep := int32(noDep)
	for _, k := range kids {
		dep = min(dep, k.dep)
	}
	return dep
}

// prove settles the goal at the game's position: 1 proved, -1 disproved.
func (s *pnSearch) prove() int {
	e := s.mid(pnInf, pnInf, 0)
	switch {
	case s.err != nil:
		return 0
	case e.pn == 0:
		return 1
	case e.dn == 0:
		return -1
	}
	s.err = fmt.Errorf("the proof-number search stopped with proof number %d and disproof number %d", e.pn, e.dn)
	return 0
}

// record writes the proof of the node at the game's position, which the
// search proved, as a certificate tree (certificate.go): at w's nodes a
// child the table knows as proved, at the other player's every child;
// a child whose entry was lost is searched again. It returns the plies
// of the longest line written (the graph's strategies count as the ranks
// say) and whether the proof held.
func (s *pnSearch) record() (int, bool) {
	inLine := s.inLine
	s.inLine = false
	if o := s.g.Outcome(); o.Over() {
		if s.recMax > 0 {
			s.recordEnd(o)
		}
		return 0, o.Winner == s.w || s.draw && o.Winner == rules.None
	}
	s.countReach()
	if s.grank != nil && s.draw {
		if i, ok := s.sg.keys[s.prover.key()]; ok && s.grank[i] >= 0 {
			return int(s.grank[i]), s.writeStrategy()
		}
	}
	if s.grank != nil && !s.draw && s.recMax > 0 {
		if i, ok := s.sg.keys[s.prover.key()]; ok && s.grank[i] >= 0 && s.grank[i] <= gwR && s.nearWin() {
			if len(s.accs) == 0 {
				return int(s.grank[i]), s.writeStrategy()
			}
			occ := map[uint64]uint8{}
			ok := s.writeStrategyOcc(occ)
			s.accOcc(occ)
			return int(s.grank[i]), ok
		}
	}
	if !inLine && s.sh != nil && !s.draw && s.rx != nil {
		if h, ok, done := s.recordSharedWin(); done {
			return h, ok
		}
	}
	if s.st != nil && s.sh != nil && s.draw {
		if k := s.prover.key(); !s.open[k] {
			if _, ok := s.st[k]; ok {
				return s.recordShared(k)
			}
		}
	}
	ms := s.g.LegalMoves(nil)
	attack := s.g.Position().ToMove() == s.w
	proved := func() bool {
		e := s.lookup()
		if e.pn == 0 {
			return true
		}
		return s.mid(pnInf, pnInf, e.work).pn == 0
	}
	if attack {
		// A move to a shared subtree of a win written already that holds
		// here (a reference, nothing more to write); failing that, a move
		// the table knows as proved; failing that (its entry was lost), one
		// the search proves again.
		wins := s.sh != nil && !s.draw && s.rx != nil
		for pass := range 3 {
			if pass == 0 && !wins {
				continue
			}
			for _, m := range ms {
				if err := s.play(m); err != nil {
					s.err = err
					return 0, false
				}
				var ok bool
				switch pass {
				case 0:
					_, ok = s.holdingWin()
					ok = ok && !s.g.Outcome().Over()
				case 1:
					ok = s.lookup().pn == 0
				default:
					ok = proved()
				}
				if ok {
					s.recordNode(true, 1)
					s.recordMove(true, m)
					h, ok := s.record()
					s.undo()
					return h + 1, ok
				}
				s.undo()
			}
		}
		if s.err == nil {
			s.err = fmt.Errorf("the proof-number search proved %v, but none of its moves is proved again", s.g.Moves())
		}
		return 0, false
	}
	s.recordNode(false, len(ms))
	most := 0
	for _, m := range ms {
		s.recordMove(false, m)
		if err := s.play(m); err != nil {
			s.err = err
			return 0, false
		}
		if !proved() {
			s.undo()
			if s.err == nil {
				s.err = fmt.Errorf("the proof-number search proved %v, but not the reply %v again", s.g.Moves(), m)
			}
			return 0, false
		}
		h, ok := s.record()
		s.undo()
		if !ok {
			return 0, false
		}
		most = max(most, h+1)
	}
	return most, true
}

func newPNSearch(p *prover, tt map[pathKey]pnEntry, ttMax int, st map[tableKey]struct{}) *pnSearch {
	s := &pnSearch{prover: p, tt: tt, ttMax: ttMax, path: []uint64{pathSeed}, st: st, stMax: ttMax,
		report: 1 << 22, checkEvery: 1 << 16, reportEvery: 1 << 22,
		open: map[tableKey]bool{}, heights: map[tableKey]int{}}
	if p.sg != nil {
		s.hrank = p.grank
		if p.draw {
			s.hrank = p.sg.attract(p.w.Opp(), false)
		}
	}
	return s
}

// recordShared records, at a state of the table by state, a reference to
// its shared subtree or the subtree itself: the proof recorded again from
// the state with no history (searched again where the table has nothing
// for that path), as the checker checks it.
func (s *pnSearch) recordShared(k tableKey) (int, bool) {
	sk := shareKey{k: k}
	if s.refer(sk) {
		return s.heights[k], true
	}
	s.define(sk)
	s.open[k] = true
	g, path, psum := s.g, s.path, s.psum
	s.g = rules.NewGameFrom(g.Position())
	s.path = []uint64{extendPath(pathSeed, rules.Move(len(s.sh.defs)))} // a root of its own
	if s.ws != nil {
		s.psum = nil
		s.initWindows()
	}
	if s.rx != nil {
		s.rx.reset(s.g)
	}
	h, ok := s.record()
	s.g, s.path, s.psum = g, path, psum
	if s.rx != nil {
		s.rx.reset(s.g)
	}
	delete(s.open, k)
	s.heights[k] = h
	if !ok && s.err == nil {
		s.err = fmt.Errorf("the table's draw at %v did not hold from the state alone", g.Moves())
	}
	return h, ok
}

// proveNumbers is Prove by proof-number search.
func (p *prover) proveNumbers(opt ProveOptions) (Proof, error) {
	res := Proof{Winner: p.w, Draw: p.draw}
	ttMax := opt.TableEntries
	if ttMax <= 0 {
		ttMax = defaultTableEntries
	}
	s := newPNSearch(p, map[pathKey]pnEntry{}, ttMax, nil)
	if opt.Table && tableRules(p.g.Rules()) {
		s.useTable()
		if opt.NoSharedWins || p.g.Rules().PassEnd != rules.PassEndScore {
			// A reach counts the positions where the game goes on; under
			// passend=draw the occurrences of a position two passes end at
			// count too, which reach.go does not follow.
			s.rx, s.sw = nil, nil
		}
	}
	s.searched = opt.Searched
	r := s.prove()
	res.Nodes = p.nodes
	res.WindowHits, res.WinHits, res.WinMisses = s.windowHits, s.winHits, s.winMisses
	if p.err != nil {
		return res, fmt.Errorf("prove cut off after %d positions: %w", p.nodes, p.err)
	}
	res.Disproved = r < 0
	if r < 0 && opt.Counter {
		// A disproof is the opponent's proof of the other goal: its
		// certificate records from the same table, numbers swapped.
		c := &prover{ctx: p.ctx, g: p.g, w: p.w.Opp(), draw: !p.draw, cut: p.cut}
		if p.sg != nil {
			c.sg, c.grank = p.sg, p.sg.attract(c.w, c.draw)
		}
		for k, e := range s.tt {
			s.tt[k] = pnEntry{pn: e.dn, dn: e.pn, work: e.work, dep: e.dep, r: e.r}
		}
		cs := newPNSearch(c, s.tt, ttMax, s.st)
		if s.ws != nil {
			cs.ws, cs.wl = s.ws, s.wl // a draw of the one is the other's disproof, as in tt
			cs.initWindows()
		}
		cs.rx, cs.sw = s.rx, s.sw // a win of the one is the other's, with its reach
		tree, h, err := cs.certificate(opt)
		res.Nodes += c.nodes
		res.WinSubtrees, res.WinSubtreesAgain, res.WinReferences, res.WinSubtreesInLine = cs.subtrees, cs.again, cs.refs, cs.inLineAfter
		if err != nil {
			return res, fmt.Errorf("disproved, but the opponent's certificate was not recorded: %w", err)
		}
		res.Counter, res.CounterPlies = tree, h
		return res, nil
	}
	if r < 0 || !opt.Certificate {
		res.Proved = r > 0
		return res, nil
	}
	tree, h, err := s.certificate(opt)
	res.Nodes = p.nodes
	res.WinSubtrees, res.WinSubtreesAgain, res.WinReferences, res.WinSubtreesInLine = s.subtrees, s.again, s.refs, s.inLineAfter
	if err != nil {
		return res, fmt.Errorf("proved, but the certificate was not recorded: %w", err)
	}
	res.Proved, res.Plies, res.Tree = true, h, tree
	return res, nil
}

// certificate records the proof the search found (record) and returns
// its tree and longest line.
func (s *pnSearch) certificate(opt ProveOptions) ([]byte, int, error) {
	s.startRecording(opt.CertificateMB, !opt.Plain)
	if !opt.Plain && s.sh == nil && (s.draw && s.st != nil || !s.draw && s.rx != nil) {
		s.sh = newShares()
	}
	h, ok := s.record()
	if s.err == nil && !ok {
		s.err = fmt.Errorf("the recorded proof does not hold")
	}
	if s.err != nil {
		return nil, 0, s.err
	}
	if !s.draw && s.sh != nil && s.rx != nil {
		s.rec, s.subtrees, s.again, s.inLineAfter = s.sh.compactWins(s.rec)
		s.refs = int64(len(s.sh.refs))
	}
	return s.rec, h, nil
}
