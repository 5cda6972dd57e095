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
	s      *searcher
	index  keyIndex
	pos    []rules.Position
	term   []int16 // value of a finished position (Black's margin, half points); noTerm if live
	start  []int32 // successors of node i: succ[start[i]:start[i+1]]
	succ   []int32
	value  []int16 // Black's margin under perfect play, half points
	budget int     // positions allowed by the memory limit
	// compact is the graph of compact.go, used instead of the fields above
	// for the rules it handles.
	compact *cgraph
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
	g := &retro{s: s, budget: s.memoryMB << 20 / retroBytes}
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
				g.succ = append(g.succ, g.add(c))
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
	g.solve()
	return g, nil
}

func (g *retro) add(pos rules.Position) int32 {
	k := g.s.key(pos)
	id, found := g.index.insert(k, int32(len(g.pos)))
	if !found {
		g.pos = append(g.pos, pos)
	}
	return id
}

// solve computes every value: for each threshold t among the finished
// positions' values (and 0, the value of endless play), the set of positions
// from which Black can make sure of at least t. For t > 0 Black must reach a
// finished position worth at least t (Black's attractor); for t <= 0 Black
// only has to keep White from reaching one worth less than t (the
// complement of White's attractor).
func (g *retro) solve() {
	n := len(g.pos)
	// Predecessors, with one entry per edge.
	pstart := make([]int32, n+1)
	for _, c := range g.succ {
		pstart[c+1]++
	}
	for i := 0; i < n; i++ {
		pstart[i+1] += pstart[i]
	}
	pred := make([]int32, len(g.succ))
	fill := slices.Clone(pstart[:n])
	for i := 0; i < n; i++ {
		for _, c := range g.succ[g.start[i]:g.start[i+1]] {
			pred[fill[c]] = int32(i)
			fill[c]++
		}
	}
	ts := []int16{0}
	for _, v := range g.term {
		if v != noTerm {
			ts = append(ts, v)
		}
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	g.value = make([]int16, n)
	for i := range g.value {
		g.value[i] = ts[0]
	}
	in := make([]bool, n)
	cnt := make([]int32, n)
	queue := make([]int32, 0, n)
	black := make([]bool, n)
	for i, p := range g.pos {
		black[i] = p.ToMove() == rules.Black
	}
	for _, t := range ts[1:] {
		// attacker reaches targets; the other player loses a node once
		// every move leads into the set.
		attacker := t > 0 // Black attacks for t > 0, White for t <= 0
		queue = queue[:0]
		for i := range in {
			in[i] = false
			cnt[i] = g.start[i+1] - g.start[i]
			v := g.term[i]
			if v != noTerm && (attacker && v >= t || !attacker && v < t) {
				in[i] = true
				queue = append(queue, int32(i))
			}
		}
		for q := 0; q < len(queue); q++ {
			c := queue[q]
			for _, p := range pred[pstart[c]:pstart[c+1]] {
				if in[p] {
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
				g.value[i] = t
			}
		}
	}
}

// valueOf returns the value of pos for its player to move (half points),
// and false if pos is not in the graph.
func (g *retro) valueOf(pos rules.Position) (int32, bool) {
	if g.compact != nil {
		return g.compact.valueOf(pos)
	}
	id, ok := g.index.get(g.s.key(pos))
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
