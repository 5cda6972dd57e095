package solve

import (
	"context"
	"fmt"
	"sync"

	"alak/rules"
)

// The state graph of a small line, shared. The perfect player needs the
// state graph (Graph) where the history has used positions up, where no
// table answers, and for the depths among best moves. Made per game from
// the game's position within the player's memory bound, it does not fit
// on the longer small lines (64 MB holds about 100,000 positions: alak on
// 10 points, not 11), so a Tables makes the graph of a small line's
// positions reachable from the rules' start position once, within its
// own bound (GraphMB), and answers every caller's Depths from it.
//
// Measured (cmd: a throwaway program calling NewGraph from the start of
// alak on n points and Depths once, without -race, on this project's
// 2-core machine; RSS is the process's peak):
//
//	alak 10:    76,313 positions,  0.2 s,  22 MB heap,   47 MB RSS
//	alak 11:   236,935 positions,  0.9 s,  60 MB heap,  111 MB RSS
//	alak 12:   727,899 positions,  3.2 s, 204 MB heap,  400 MB RSS
//	alak 13: 2,227,435 positions, 11.7 s, 699 MB heap, 1.2 GB RSS
//
// The bound counts NewGraph's estimate of a position (retroBytes,
// unfoldedBytes and depthBytes: 666 bytes), more than the heap the graph
// keeps (about 300 bytes a position), so DefaultGraphMB (1536: 2.4 million
// positions) takes every alak line up to 13 points.

// DefaultGraphMB is the memory, in MB of NewGraph's estimate, of the
// state graphs a Tables keeps (Tables.GraphMB 0).
const DefaultGraphMB = 1536

// keptGraphs are the shared state graphs of a Tables, by rule set.
type keptGraphs struct {
	mu    sync.Mutex
	by    map[string]*sharedGraph
	clock uint64 // counts the look-ups, for the least recently used
	// build is held while a graph is made: one at a time, so that the
	// graphs of several rule sets asked for at once (a play server's
	// games of different variants) never take more than the one being
	// made on top of those kept.
	build sync.Mutex
}

// sharedGraph is the state graph of one rule set from its start: made
// once, in the background (done is closed when gr or err is set), then
// answered under mu, since a Graph is not safe for concurrent use.
type sharedGraph struct {
	done chan struct{}
	gr   *Graph
	err  error
	mu   sync.Mutex
	used uint64 // keptGraphs.clock at the last look-up
}

// graphBytes is NewGraph's estimate of a position.
const graphBytes = retroBytes + unfoldedBytes + depthBytes

// Depths is Depths for g on a small line (Small), answered from the state
// graph of the positions reachable from the start position of g's rules:
// made once for ts, whoever asks first (a caller that comes while it is
// made waits for the same build; when ctx ends first, Depths returns
// ctx's error and the build goes on, so that a later call finds the
// graph), within GraphMB and without a limit of time or nodes (the line
// bounds it), and shared by every caller, one Depths at a time. Its values
// are exact under any history of a game from that start.
//
// It fails with ErrNotInGraph for a position the graph does not hold (a
// game from a set-up position), with ErrMemory (wrapped) when the line's
// graph does not fit GraphMB, with ErrNoDepth (wrapped) for rules Depths
// does not take, and with ErrUnsupported (wrapped) for a line that is not
// small; the caller then makes its own graph, or searches.
func (ts *Tables) Depths(ctx context.Context, g *rules.Game) (map[rules.Move]MoveDepth, error) {
	r := g.Rules()
	if !ts.Small(r) {
		return nil, fmt.Errorf("shared depths: %s is not a small line: %w", r, ErrUnsupported)
	}
	sg := ts.sharedGraph(r)
	select {
	case <-sg.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if sg.err != nil {
		return nil, sg.err
	}
	sg.mu.Lock()
	defer sg.mu.Unlock()
	if !sg.gr.Contains(g.Position()) && !g.Position().Over() {
		return nil, ErrNotInGraph
	}
	return sg.gr.Depths(ctx, g)
}

// sharedGraph returns the shared graph of r, starting its build when
// there is none.
func (ts *Tables) sharedGraph(r rules.Rules) *sharedGraph {
	k := &ts.graphs
	key := r.String()
	k.mu.Lock()
	defer k.mu.Unlock()
	k.clock++
	if sg, ok := k.by[key]; ok {
		sg.used = k.clock
		return sg
	}
	if k.by == nil {
		k.by = map[string]*sharedGraph{}
	}
	sg := &sharedGraph{done: make(chan struct{}), used: k.clock}
	k.by[key] = sg
	limit := ts.GraphMB
	if limit <= 0 {
		limit = DefaultGraphMB
	}
	go func() {
		k.build.Lock()
		defer k.build.Unlock()
		g, err := rules.NewGame(r)
		if err == nil {
			sg.gr, err = NewGraph(context.Background(), r, g.Position(), Options{MemoryMB: limit})
		}
		sg.err = err
		close(sg.done)
		ts.dropGraphs(key, limit)
	}()
	return sg
}

// dropGraphs drops the least recently used graphs other than key's until
// the estimate of those kept is within limit MB: a graph is made within
// the limit, one at a time (keptGraphs.build), so the graphs of a process
// stay within it but while one is made (twice the limit at most). A
// caller answering from a dropped graph finishes with it; a later one
// makes it again.
func (ts *Tables) dropGraphs(key string, limit int) {
	k := &ts.graphs
	k.mu.Lock()
	defer k.mu.Unlock()
	for {
		total, oldest := 0, ""
		for kk, sg := range k.by {
			select {
			case <-sg.done:
			default:
				continue // being made: counted when done
			}
			if sg.gr != nil {
				total += sg.gr.Len() * graphBytes
			}
			if kk != key && (oldest == "" || sg.used < k.by[oldest].used) {
				oldest = kk
			}
		}
		if total <= limit<<20 || oldest == "" {
			return
		}
		delete(k.by, oldest)
	}
}
