package solve

import (
	"errors"
	"slices"

	"alak/rules"
)

// Values under a history that has used up positions (docs/solver.md,
// "Histories that used positions up"). A position the history has used up
// is drawn at its next occurrence; by Claims 1 to 3 the value of a position
// is then the graph value of the state graph in which those positions are
// finished and worth 0. The graph of retro.go holds one position of each mirror pair,
// but a history need not be symmetric (it can use up a position and not its
// mirror image), so the graph is unfolded: node 2i is node i's canonical
// form and node 2i+1 its mirror image (unused when the two are the same
// position). Every edge of the unfolded graph is an edge of the game, so the
// attractors on it, with the used-up positions blocked, give the values of
// Claim 3.

// unfolded is the unfolded graph of a retro graph and the values of its last
// solve.
type unfolded struct {
	g       *retro
	pstart  []int32 // predecessors of node u: pred[pstart[u]:pstart[u+1]]
	pred    []int32
	term    []int16
	deg     []int32
	black   []bool
	blocked []bool
	last    []int32 // the blocked nodes of value, sorted
	value   []int16 // Black's margin at every node with last blocked; nil before the first solve
}

// unfoldedBytes is a rough cost of one position of the graph in the
// unfolded graph, on top of retroBytes (two nodes with their arrays, the
// predecessor lists of about ten edges each).
const unfoldedBytes = 150

// historyValue returns the value of pos (for its player to move, half
// points) at the end of hist, whose used-up positions (s.exhausted) are
// drawn, from the unfolded graph of the positions reachable from the root.
// It returns false when the graph does not fit the memory limit, and then
// the caller searches (or when the solve was stopped: s.abort is set).
func (s *searcher) historyValue(hist []rules.Position, pos rules.Position) (int32, bool) {
	if s.histTooBig {
		return 0, false
	}
	g := s.retro
	if g == nil || g.compact != nil {
		if s.histGraph == nil {
			h, err := s.enumerate(s.root, s.memoryMB<<20/(retroBytes+unfoldedBytes))
			switch {
			case errors.Is(err, ErrMemory):
				s.histTooBig = true
				return 0, false
			case err != nil:
				s.abort = err
				return 0, false
			}
			s.histGraph = h
		}
		g = s.histGraph
	}
	u, ok := g.node(pos)
	if !ok {
		return 0, false
	}
	var blocked []int32
	for _, p := range hist[:len(hist)-1] {
		if !s.exhausted[s.keys(p).rep] {
			continue
		}
		if b, ok := g.node(p); ok {
			blocked = append(blocked, b)
		}
	}
	slices.Sort(blocked)
	blocked = slices.Compact(blocked)
	v := int32(g.unfold().solve(blocked)[u])
	if pos.ToMove() == rules.White {
		v = -v
	}
	return v, true
}

// node returns the node of pos in the unfolded graph.
func (g *retro) node(pos rules.Position) (int32, bool) {
	k := g.nodeKeys(pos)
	id, ok := g.index.get(k.tt)
	if !ok {
		return 0, false
	}
	u := 2 * id
	if k.mirrored {
		u++
	}
	return u, true
}

// unfold returns the unfolded graph of g, made on the first call.
func (g *retro) unfold() *unfolded {
	if g.unf != nil {
		return g.unf
	}
	n := len(g.pos)
	h := &unfolded{g: g, term: make([]int16, 2*n), deg: make([]int32, 2*n),
		black: make([]bool, 2*n), blocked: make([]bool, 2*n)}
	for i, p := range g.pos {
		for o := range 2 {
			u := 2*i + o
			h.term[u], h.black[u] = g.term[i], p.ToMove() == rules.Black
			if o == 0 || !g.sym[i] {
				h.deg[u] = g.start[i+1] - g.start[i]
			} else {
				h.term[u] = noTerm // the same position as node 2i: no node
			}
		}
	}
	h.pstart, h.pred = predecessors(2*n, func(yield func(from, to int32)) {
		for i := range int32(n) {
			for o := range int32(2) {
				if o == 1 && g.sym[i] {
					continue
				}
				for e := g.start[i]; e < g.start[i+1]; e++ {
					c := g.succ[e]
					to := 2 * c
					if !g.sym[c] && (o == 1) != g.flip[e] {
						to++
					}
					yield(2*i+o, to)
				}
			}
		}
	})
	g.unf = h
	return h
}

// solve returns the values of every node with the nodes of blocked (sorted)
// finished and worth 0; the values of the last solve are reused.
func (h *unfolded) solve(blocked []int32) []int16 {
	if h.value != nil && slices.Equal(blocked, h.last) {
		return h.value
	}
	for _, u := range h.last {
		h.blocked[u] = false
	}
	for _, u := range blocked {
		h.blocked[u] = true
	}
	h.value = attract(h.g.thresholds(), h.term, h.deg, h.pstart, h.pred, h.black, h.blocked)
	h.last = slices.Clone(blocked)
	return h.value
}
