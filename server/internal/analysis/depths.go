package analysis

import (
	"context"
	"sync"

	"alak/rules"
	"alak/solve"
)

// posDepthCached bounds the positions of the depths' graphs kept, all rule
// sets together (the least recently used go first): about 270 bytes a
// position measured (alak on 9 points: 24,325 positions, 6.3 MiB), so
// about 110 MB at most; posDepthRules bounds the rule sets remembered
// (those whose graph was not kept, too large or without depths, among
// them).
const (
	posDepthCached = 400_000
	posDepthRules  = 64
)

// depthGraphs keeps, for each rule set asked about, the depths' state
// graph of the positions reachable from the rules' start position
// (solve.Graph), so that the depths of an answer read from a table cost a
// look-up of the position's moves in it rather than an enumeration of the
// graph at every request. A position the graph does not hold (a diagram
// not reachable from the start) and rules whose graph passes the nodes
// bound get the graph of their own position, built for the request, as
// before.
type depthGraphs struct {
	max int // the positions kept, all graphs together (posDepthCached)

	mu    sync.Mutex
	by    map[string]*depthGraph
	order []string // keys, least recently used first
	kept  int      // positions in the graphs kept
	built int      // graphs enumerated (tests read it)
}

// depthGraph is one rule set's graph; mu serialises its use (a
// solve.Graph is not safe for concurrent use) and its enumeration.
type depthGraph struct {
	mu   sync.Mutex
	gr   *solve.Graph
	size int  // gr.Len(), set under depthGraphs.mu
	none bool // no graph from the start (too large, or rules without depths): not tried again
}

func newDepthGraphs(max int) *depthGraphs {
	return &depthGraphs{max: max, by: map[string]*depthGraph{}}
}

// entry returns the graph of the rules named key, made (empty) on the
// first call, and marks it the most recently used.
func (d *depthGraphs) entry(key string) *depthGraph {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.by[key]
	if !ok {
		e = &depthGraph{}
		d.by[key] = e
	} else {
		for i, k := range d.order {
			if k == key {
				d.order = append(d.order[:i], d.order[i+1:]...)
				break
			}
		}
	}
	d.order = append(d.order, key)
	d.trim(key)
	return e
}

// added keeps e, key's entry, with its graph of n positions.
func (d *depthGraphs) added(key string, e *depthGraph, n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.built++
	if d.by[key] != e {
		return // forgotten while it was built
	}
	e.size = n
	d.kept += n
	d.trim(key)
}

// trim forgets the least recently used rule sets but key's while more
// than d.max positions or posDepthRules rule sets are kept. A graph in
// use when forgotten stays with its user until the call ends.
func (d *depthGraphs) trim(key string) {
	for i := 0; (d.kept > d.max || len(d.order) > posDepthRules) && i < len(d.order); {
		k := d.order[i]
		if k == key {
			i++
			continue
		}
		d.kept -= d.by[k].size
		delete(d.by, k)
		d.order = append(d.order[:i], d.order[i+1:]...)
	}
}

// depths returns solve.Depths of g's position: from the kept graph of g's
// rules (the positions reachable from the rules' start, within nodes
// positions) when it holds the position, else from the position's own
// graph within own positions. A graph's values and depths at a node
// depend only on the positions reachable from it and on the history's
// used-up positions among them, so both give the same answer
// (TestDepthGraphsMatchDepths). Without start the rules' graph is not
// tried (one that would pass nodes: enumerating it to fail would take as
// long as the answer may).
func (d *depthGraphs) depths(ctx context.Context, g *rules.Game, nodes, own int64, memMB int, start bool) (map[rules.Move]solve.MoveDepth, error) {
	r := g.Rules()
	if !start {
		return solve.Depths(ctx, g, solve.Options{MaxNodes: own, MemoryMB: memMB})
	}
	opt := solve.Options{MaxNodes: nodes, MemoryMB: memMB}
	key := r.String()
	e := d.entry(key)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.gr == nil && !e.none {
		start, err := rules.NewGame(r)
		if err != nil {
			return nil, err
		}
		gr, err := solve.NewGraph(ctx, r, start.Position(), opt)
		switch {
		case err == nil:
			e.gr = gr
			d.added(key, e, gr.Len())
		case ctx.Err() != nil:
			return nil, err // cut off: the next request tries again
		default:
			e.none = true
		}
	}
	if e.gr != nil && e.gr.Contains(g.Position()) {
		return e.gr.Depths(ctx, g)
	}
	return solve.Depths(ctx, g, solve.Options{MaxNodes: own, MemoryMB: memMB})
}
