package solve

import (
	"fmt"
	"slices"

	"alak/rules"
)

// retro solves every position reachable from a start by retrograde analysis
// of the state graph, for rules whose repetition key is the whole state
// (see docs/solver.md): a position's value is then the value of the game in
// which any cycle scores 0, computed exactly by one attractor per threshold.
type retro struct {
	s     *searcher
	index keyIndex
	pos   []rules.Position
	term  []int16 // value of a finished position (Black's margin, half points); noTerm if live
	start []int32 // successors of node i: succ[start[i]:start[i+1]]
	succ  []int32
	// flip[e] tells whether edge e, played from its node's canonical
	// (mirror-smaller) form, leads to the mirror image of its target's
	// canonical form; sym[i] that node i is its own mirror image; mir[i]
	// that pos[i] is the mirror image of its canonical form. The history
	// solve (history.go) unfolds the graph with them.
	flip   []bool
	sym    []bool
	mir    []bool
	value  []int16 // Black's margin under perfect play, half points
	budget int     // positions allowed by the memory limit
	// compact is the graph of compact.go, used instead of the fields above
	// for the rules it handles.
	compact *cgraph
	// unf holds the unfolded graph and the values of the last history
	// solve (history.go); nil until one is asked.
	unf *unfolded
}

const noTerm = -32768

// retroBytes is a rough cost of one position in the graph (measured: alak-15,
// 20.6 million positions, peaked near 10 GB).
const retroBytes = 500

// retroEligible reports whether the rules' value is a property of the
// position alone (given a fresh history), so the state graph can be solved.
func (s *searcher) retroEligible() bool {
	return s.graph && !s.r.Pass && !s.prisoner
}

func (s *searcher) key(pos rules.Position) ttKey { return s.keys(pos).tt }

// solveGraph enumerates the positions reachable from root and solves them.
func (s *searcher) solveGraph(root rules.Position) (*retro, error) {
	if s.compactEligible() {
		c, err := s.solveCompact(root)
		if err != nil {
			return nil, err
		}
		return &retro{s: s, compact: c}, nil
	}
	g, err := s.enumerate(root, s.memoryMB<<20/retroBytes)
	if err != nil {
		return nil, err
	}
	g.solve()
	return g, nil
}

// enumerate builds the graph of the positions reachable from root (one of
// each mirror pair), with at most budget positions.
func (s *searcher) enumerate(root rules.Position, budget int) (*retro, error) {
	g := &retro{s: s, budget: budget}
	g.index.init(1 << 12)
	g.add(root)
	g.start = append(g.start, 0)
	var buf []rules.Move
	for i := 0; i < len(g.pos); i++ {
		pos := g.pos[i]
		if pos.Over() {
			g.term = append(g.term, int16(half(pos.Outcome().Margin)))
		} else {
			g.term = append(g.term, noTerm)
			buf = pos.LegalMoves(buf[:0])
			for _, m := range buf {
				c, err := pos.Play(m)
				if err != nil {
					return nil, err
				}
				id, cm := g.add(c)
				g.succ = append(g.succ, id)
				g.flip = append(g.flip, cm != g.mir[i])
			}
		}
		g.start = append(g.start, int32(len(g.succ)))
		s.nodes++
		if s.nodes&1023 == 0 {
			s.poll()
			if s.abort != nil {
				return nil, s.abort
			}
		}
		if len(g.pos) > g.budget {
			return nil, fmt.Errorf("%d positions and more: %w", len(g.pos), ErrMemory)
		}
	}
	return g, nil
}

// add returns the node of pos, adding it if it is new, and whether pos is
// the mirror image of the node's canonical form.
func (g *retro) add(pos rules.Position) (int32, bool) {
	k := g.nodeKeys(pos)
	id, found := g.index.insert(k.tt, int32(len(g.pos)))
	if !found {
		g.pos = append(g.pos, pos)
		b, w, f := stateBits(pos)
		g.sym = append(g.sym, g.s.rev(b) == b && g.s.rev(w) == w && g.s.rev(f) == f)
		g.mir = append(g.mir, k.mirrored)
	}
	return id, k.mirrored
}

// finishedKey marks the key of a finished position. Under Alter Igo a
// placement that leaves the board unchanged ends the game (the mover
// loses), so the finished position has the board, forbidden points and
// player to move of a live one; keyed alike, whichever the enumeration met
// first stood for both, and live positions took wrong values (28 of the 276
// nodes from the empty line of 6 points).
const finishedKey = 1 << 62

// nodeKeys is the searcher's keys of pos, a finished position keyed apart.
func (g *retro) nodeKeys(pos rules.Position) nodeKeys {
	k := g.s.keys(pos)
	if pos.Over() {
		k.tt.x |= finishedKey
	}
	return k
}

// solve computes the value of every node (attract).
func (g *retro) solve() {
	n := len(g.pos)
	deg := make([]int32, n)
	black := make([]bool, n)
	for i, p := range g.pos {
		deg[i] = g.start[i+1] - g.start[i]
		black[i] = p.ToMove() == rules.Black
	}
	pstart, pred := predecessors(n, func(yield func(from, to int32)) {
		for i := range int32(n) {
			for _, c := range g.succ[g.start[i]:g.start[i+1]] {
				yield(i, c)
			}
		}
	})
	g.value = attract(g.thresholds(), g.term, deg, pstart, pred, black, nil)
}

// thresholds are the values a node can have: the finished positions'
// values and 0, the value of endless play, in increasing order.
func (g *retro) thresholds() []int16 {
	ts := []int16{0}
	for _, v := range g.term {
		if v != noTerm {
			ts = append(ts, v)
		}
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

// predecessors lists the edges that edges yields by their target, as
// pred[pstart[t]:pstart[t+1]] for target t of n nodes, one entry per edge.
func predecessors(n int, edges func(yield func(from, to int32))) (pstart, pred []int32) {
	pstart = make([]int32, n+1)
	edges(func(_, to int32) { pstart[to+1]++ })
	for i := range n {
		pstart[i+1] += pstart[i]
	}
	pred = make([]int32, pstart[n])
	fill := slices.Clone(pstart[:n])
	edges(func(from, to int32) {
		pred[fill[to]] = from
		fill[to]++
	})
	return pstart, pred
}

// attract returns the value of every node of a game graph (Black's margin,
// half points) where an endless play scores 0: for each threshold t of ts
// (increasing, the smallest first), the set of nodes from which Black can
// make sure of at least t. For t > 0 Black must reach a finished node worth
// at least t (Black's attractor); for t <= 0 Black only has to keep White
// from reaching one worth less than t (the complement of White's
// attractor). term is a finished node's value (noTerm if live), deg its
// number of edges, pred the edges by target (predecessors), black whether
// Black moves there. A blocked node (blocked may be nil) is a finished node
// worth 0 whatever its edges: it joins no attractor.
func attract(ts, term []int16, deg, pstart, pred []int32, black, blocked []bool) []int16 {
	n := len(term)
	value := make([]int16, n)
	for i := range value {
		value[i] = ts[0]
	}
	in := make([]bool, n)
	cnt := make([]int32, n)
	queue := make([]int32, 0, n)
	for _, t := range ts[1:] {
		// attacker reaches targets; the other player loses a node once
		// every move leads into the set.
		attacker := t > 0 // Black attacks for t > 0, White for t <= 0
		queue = queue[:0]
		for i := range in {
			in[i] = false
			cnt[i] = deg[i]
			v := term[i]
			if v != noTerm && (attacker && v >= t || !attacker && v < t) && (blocked == nil || !blocked[i]) {
				in[i] = true
				queue = append(queue, int32(i))
			}
		}
		for q := 0; q < len(queue); q++ {
			c := queue[q]
			for _, p := range pred[pstart[c]:pstart[c+1]] {
				if in[p] || blocked != nil && blocked[p] {
					continue
				}
				if black[p] == attacker {
					in[p] = true
					queue = append(queue, p)
				} else if cnt[p]--; cnt[p] == 0 {
					in[p] = true
					queue = append(queue, p)
				}
			}
		}
		for i := range in {
			if in[i] == attacker { // Black can make sure of t
				value[i] = t
			}
		}
	}
	return value
}

// valueOf returns the value of pos for its player to move (half points),
// and false if pos is not in the graph.
func (g *retro) valueOf(pos rules.Position) (int32, bool) {
	if g.compact != nil {
		return g.compact.valueOf(pos)
	}
	id, ok := g.index.get(g.nodeKeys(pos).tt)
	if !ok {
		return 0, false
	}
	v := int32(g.value[id])
	if pos.ToMove() == rules.White {
		v = -v
	}
	return v, true
}

// keyIndex maps position keys to node numbers: open addressing with linear
// probing, kept at most half full.
type keyIndex struct {
	keys []ttKey
	ids  []int32 // -1: empty
	n    int
}

func (x *keyIndex) init(size int) {
	x.keys = make([]ttKey, size)
	x.ids = make([]int32, size)
	for i := range x.ids {
		x.ids[i] = -1
	}
	x.n = 0
}

func (x *keyIndex) get(k ttKey) (int32, bool) {
	mask := uint64(len(x.ids) - 1)
	for i := k.hash() & mask; ; i = (i + 1) & mask {
		switch {
		case x.ids[i] < 0:
			return 0, false
		case x.keys[i] == k:
			return x.ids[i], true
		}
	}
}

// insert returns the number of k, adding it as id if it is new.
func (x *keyIndex) insert(k ttKey, id int32) (int32, bool) {
	if 2*(x.n+1) > len(x.ids) {
		old, oldIDs := x.keys, x.ids
		x.init(2 * len(old))
		for i, v := range oldIDs {
			if v >= 0 {
				x.insert(old[i], v)
			}
		}
	}
	mask := uint64(len(x.ids) - 1)
	for i := k.hash() & mask; ; i = (i + 1) & mask {
		switch {
		case x.ids[i] < 0:
			x.keys[i], x.ids[i] = k, id
			x.n++
			return id, false
		case x.keys[i] == k:
			return x.ids[i], true
		}
	}
}
