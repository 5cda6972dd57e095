package solve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"alak/rules"
)

// MoveDepth is what Depths finds about one legal move: enough to choose
// among moves of the same value.
type MoveDepth struct {
	// Value is Black's margin after the move under perfect play, as in
	// Result.Moves.
	Value float64
	// Plies is the length of the rest of the game after the move when both
	// players keep the value and, among the moves that keep it, the winner
	// ends the game as early as it can and the loser as late as it can. It
	// is -1 when the value is a draw (0): a drawn game need not end.
	Plies int
	// Losing counts the replies to the move whose value is worse than a
	// draw for the player who makes them.
	Losing int
}

// ErrNoDepth is wrapped by Depths for rules whose values are not those of
// a state graph (passes, prisoners, superko, no repetition rule).
var ErrNoDepth = fmt.Errorf("depths are computed for rules whose value is a property of the position (a repetition rule, no passes, no prisoners, no superko): %w", ErrUnsupported)

// Depths returns, for every legal move of the game's position, its value,
// its depth to the end under best play and the number of losing replies
// it leaves the opponent, given the game's history (docs/solver.md,
// "Depth to the end"). It enumerates the state graph of the positions
// reachable from the position, as Solve's method 1 does, within
// opt.MemoryMB (about 700 bytes a position) and opt.MaxNodes, and returns
// the error (wrapped) when cut off by them or by ctx. It answers for the
// rules of method 1 (ErrNoDepth otherwise); it does not read or fill a
// table. NewGraph and Graph.Depths answer many positions of one game.
func Depths(ctx context.Context, g *rules.Game, opt Options) (map[rules.Move]MoveDepth, error) {
	gr, err := NewGraph(ctx, g.Rules(), g.Position(), opt)
	if err != nil {
		return nil, err
	}
	return gr.Depths(ctx, g)
}

// Graph is the state graph of the positions reachable from a start, with
// the values and depths of its last Depths call, kept to answer Depths for
// the positions of a game that passes through the start. Not safe for
// concurrent use.
type Graph struct {
	s     *searcher
	g     *retro
	h     *unfolded
	used  []int32 // the blocked nodes of value and depth
	value []int16
	depth []int32
}

// NewGraph enumerates the positions reachable from start under r (see
// Depths for the limits and the rules taken).
func NewGraph(ctx context.Context, r rules.Rules, start rules.Position, opt Options) (*Graph, error) {
	if r.Points() > 64 {
		return nil, fmt.Errorf("depths %s: %d points, more than 64: %w", r.SizeString(), r.Points(), ErrUnsupported)
	}
	if r.Komi*2 != math.Trunc(r.Komi*2) {
		return nil, fmt.Errorf("komi %v: the solver counts in half points: %w", r.Komi, ErrUnsupported)
	}
	s := &searcher{ctx: ctx, r: r, n: r.Points(), rep: r.Repetition, maxNodes: opt.MaxNodes, memoryMB: opt.MemoryMB}
	if s.memoryMB <= 0 {
		s.memoryMB = 256
	}
	s.graph = r.Repetition > 0 && r.Ko != rules.KoPositional && r.Ko != rules.KoSituational
	s.prisoner = r.Scoring == rules.ScoreTerritory || r.Scoring == rules.ScoreAreaPrisoners
	if !s.retroEligible() {
		// Alter Igo (UnchangedLoses) is taken: retro.go keys the finished
		// position after a placement that changes nothing apart from the
		// live one (docs/solver-dense.md, "What the Alter Igo checks found in
		// method 1, fixed"); TestDepthsAgainstBruteForce checks its depths
		// on the boards a brute force finishes, TestDepthsAlterIgoValues
		// its values on longer lines against the dense solver.
		return nil, fmt.Errorf("depths %s: %w", r, ErrNoDepth)
	}
	gr, err := s.enumerate(start, s.memoryMB<<20/(retroBytes+unfoldedBytes+depthBytes))
	if err != nil {
		return nil, fmt.Errorf("depths: %w", err)
	}
	return &Graph{s: s, g: gr, h: gr.unfold()}, nil
}

// Len returns the number of positions in the graph (one of each mirror
// pair).
func (gr *Graph) Len() int { return len(gr.g.pos) }

// Contains reports whether pos is in the graph.
func (gr *Graph) Contains(pos rules.Position) bool {
	_, ok := gr.g.node(pos)
	return ok
}

// ErrNotInGraph is returned by Graph.Depths for a position the graph does
// not hold (not reachable from its start).
var ErrNotInGraph = errors.New("the position is not reachable from the graph's start")

// solve sets the values and depths for the blocked nodes used.
func (gr *Graph) solve(used []int32) []int16 {
	if gr.value == nil || !slices.Equal(used, gr.used) {
		gr.value = gr.h.solve(used)
		gr.depth = gr.h.depths(gr.value)
		gr.used = used
	}
	return gr.value
}

// Depths is Depths for a game whose position is in the graph, under the
// game's rules (those of NewGraph). Values are recomputed (one attractor
// pass over the graph) only when the positions the history used up
// change.
func (gr *Graph) Depths(ctx context.Context, g *rules.Game) (map[rules.Move]MoveDepth, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if g.Rules().String() != gr.s.r.String() {
		return nil, fmt.Errorf("depths: a graph of %s asked about %s: %w", gr.s.r, g.Rules(), ErrUnsupported)
	}
	out := map[rules.Move]MoveDepth{}
	pos := g.Position()
	if pos.Over() {
		return out, nil
	}
	if !gr.Contains(pos) {
		return nil, ErrNotInGraph
	}
	s := gr.s
	hist := make([]rules.Position, 0, g.Len()+2)
	for i := 0; i <= g.Len(); i++ {
		hist = append(hist, g.PositionAt(i))
	}
	used := s.usedUp(gr.g, hist)
	value := gr.solve(used)
	plies := gr.depth
	for _, m := range pos.LegalMoves(nil) {
		c, err := pos.Play(m)
		if err != nil {
			return nil, fmt.Errorf("depths: the kernel refused its own legal move %v: %w", m, err)
		}
		u, ok := gr.g.node(c)
		if !ok {
			return nil, fmt.Errorf("depths: move %v leads out of the graph", m)
		}
		d := MoveDepth{Value: float64(value[u]) / 2, Plies: -1}
		if value[u] != 0 {
			d.Plies = int(plies[u])
		}
		out[m] = d
	}
	// The replies' values: the history now ends with the move's position,
	// which can use up one more position (that one) than hist does.
	for _, m := range pos.LegalMoves(nil) {
		c, _ := pos.Play(m)
		if u, _ := gr.g.node(c); c.Over() || slices.Contains(used, u) {
			continue // the game ends with the move (a used-up position: a repetition draw)
		}
		vals := gr.solve(s.usedUp(gr.g, append(hist, c)))
		d := out[m]
		for _, rm := range c.LegalMoves(nil) {
			gc, err := c.Play(rm)
			if err != nil {
				return nil, fmt.Errorf("depths: the kernel refused its own legal move %v: %w", rm, err)
			}
			u, ok := gr.g.node(gc)
			if !ok {
				return nil, fmt.Errorf("depths: reply %v leads out of the graph", rm)
			}
			if v := vals[u]; v > 0 && pos.ToMove() == rules.Black || v < 0 && pos.ToMove() == rules.White {
				d.Losing++
			}
		}
		out[m] = d
	}
	return out, ctx.Err()
}

// depthBytes is the cost of one position of the unfolded graph in the
// depth pass (two nodes, a depth and a counter each).
const depthBytes = 16

// usedUp returns the nodes of the unfolded graph of gr (sorted) whose
// positions hist has used up: one more occurrence would be the repetition
// draw. They are the blocked nodes of Claim 3 for a position whose history
// is hist (its last position included).
func (s *searcher) usedUp(gr *retro, hist []rules.Position) []int32 {
	counts := map[uint64]int{}
	for _, p := range hist {
		counts[s.keys(p).rep]++
	}
	var out []int32
	for _, p := range hist {
		if counts[s.keys(p).rep]+1 < s.rep {
			continue
		}
		if u, ok := gr.node(p); ok {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// depths returns the depth to the end of every node of the unfolded graph
// whose value (value, Black's margin in half points, from solve) is not a
// draw: 0 at a finished node; at a live node one more than the least depth
// of its children of the same value when the player to move wins there,
// the greatest when it loses. Children of the same value are the moves
// that keep the value. Nodes of value 0 (draws, blocked nodes) get -1.
//
// It is one retrograde pass, breadth first from the finished nodes: a node
// whose mover wins takes its depth from the first child of its value to
// get one, a node whose mover loses from the last (a counter of its moves
// that keep the value reaches 0). Every node of a value v ≠ 0 gets a depth
// (docs/solver.md, "Depth to the end").
func (h *unfolded) depths(value []int16) []int32 {
	n := len(h.term)
	depth := make([]int32, n)
	cnt := make([]int32, n)
	queue := make([]int32, 0, 1024)
	for c := range n {
		depth[c] = -1
		if h.blocked[c] || value[c] == 0 {
			continue
		}
		if h.term[c] != noTerm {
			depth[c] = 0
			queue = append(queue, int32(c))
		}
		for _, p := range h.pred[h.pstart[c]:h.pstart[c+1]] {
			if value[p] == value[c] {
				cnt[p]++
			}
		}
	}
	for q := 0; q < len(queue); q++ {
		c := queue[q]
		for _, p := range h.pred[h.pstart[c]:h.pstart[c+1]] {
			if depth[p] >= 0 || h.blocked[p] || value[p] != value[c] {
				continue
			}
			if wins := (value[p] > 0) == h.black[p]; !wins {
				if cnt[p]--; cnt[p] > 0 {
					continue
				}
			}
			depth[p] = depth[c] + 1
			queue = append(queue, p)
		}
	}
	return depth
}
