package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/server/internal/httpx"
	"alak/session"
	"alak/solve"
	"alak/wire"
)

// Limits of GET /api/analysis (docs/api.md, "The analysis of any
// position"). A position a dense table answers is answered at once: the
// table directory's, or, on a small line (solve.Tables.Small: alak on up
// to 13 points, alterigo, dewdney and golf on up to 13), the table the
// server makes of the line at its first question, in the background, and
// keeps (posTableWait: how long a request waits for it). Any other is
// searched in the background: first within a short budget (posQuickNodes,
// posQuickTime), which answers the small questions of any rules, then,
// when that was not enough, within the post-game analysis's budget
// (analysisNodes, MemoryMB, analysisTime), one at a time. The tables
// to make, the short searches and the long ones wait in three queues by
// address, each served in turn (fairQueue) by a worker of its own, so
// that one address's questions never hold up another's, and a cheap
// answer (a table, a small line, a short search) never waits behind an
// expensive one; answers are kept in a bounded cache.
const (
	RequestRate       = 10 // requests a second an address, refilled
	RequestBurst      = 60 // and at once
	posAnalysisQueued = 64 // positions waiting for each search, all addresses
	posAddrQueued     = 4  // of one address; as many tables to make
	// posQuickNodes and posQuickTime bound the short search every
	// position gets first.
	posQuickNodes     = 1_000_000
	posQuickTime      = 2 * time.Second
	posAnalysisCached = 4096 // answers kept (the oldest go first)
	// posTableWait is how long a request waits for a small line's table
	// being made before it is answered 202 (the table is then made all
	// the same, and answers the next request).
	posTableWait = 3 * time.Second
	// posDepthNodes bounds the state graph enumerated for the depths of
	// an answer read from a table: a depth the bound does not allow is
	// left out (null), never guessed.
	posDepthNodes = 200_000
	// posOwnDepthNodes bounds the graph of a position's own, enumerated
	// for an answer from a table when the rules' graph is not kept: about
	// 2 µs a position, so that such an answer takes milliseconds (a later
	// position, nearer the end, has a smaller graph: the depths of alak on
	// 13 points appear as the game goes on).
	posOwnDepthNodes = 4_000
	// posTableMemMB is the search's memory when a dense table answers:
	// every position is in the table, the search's own table stays small.
	posTableMemMB = 1
	// Input bounds: the rules, the position and the move list.
	posMaxRules, posMaxPosition, posMaxMoves = 200, 500, 4000
)

// Positions serves GET /api/analysis: the cache of answers, the tables
// of small lines being made and the background solver. Its budgets are
// set before the first request (tests lower them).
type Positions struct {
	cfg Config
	// quick and long hold the positions waiting for the short search and
	// for the long one, builds the small lines whose tables are waiting
	// to be made: by address, each served by one worker.
	quick, long *fairQueue[posJob]
	builds      *fairQueue[rules.Rules]
	// Nodes is the search's budget (analysisNodes).
	Nodes int64
	// QuickTime bounds the short search (posQuickTime), MemMB the
	// searches' memory (MemoryMB).
	QuickTime time.Duration
	MemMB     int
	// DepthNodes bounds the depths' graph of an answer from a table
	// (posDepthNodes; 0: no depths).
	DepthNodes int64
	// now bounds the answers from a table computed at once, all addresses
	// together (one a core): each may enumerate a depths' graph.
	now chan struct{}
	// graphs keeps the depths' graphs of the answers from a table.
	graphs *depthGraphs

	mu      sync.Mutex
	cache   map[string]posAnswer
	order   []string // cache keys, oldest first
	pending map[string]bool
	// making holds, for each small line whose table is queued or being
	// made (by rules), a channel closed when it is made or failed.
	making map[string]chan struct{}
}

// posAnswer is a cached answer: its status and body.
type posAnswer struct {
	status int
	body   []byte
}

type posJob struct {
	key, addr string
	g         *rules.Game
}

func newPositions(cfg Config) *Positions {
	return &Positions{cfg: cfg,
		quick: newFairQueue[posJob](posAddrQueued, posAnalysisQueued), long: newFairQueue[posJob](posAddrQueued, posAnalysisQueued),
		builds: newFairQueue[rules.Rules](posAddrQueued, posAnalysisQueued),
		Nodes:  analysisNodes, QuickTime: posQuickTime, MemMB: MemoryMB, DepthNodes: posDepthNodes,
		now: make(chan struct{}, runtime.GOMAXPROCS(0)), graphs: newDepthGraphs(posDepthCached),
		cache: map[string]posAnswer{}, pending: map[string]bool{}, making: map[string]chan struct{}{}}
}

func (p *Positions) cached(key string) (posAnswer, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	a, ok := p.cache[key]
	return a, ok
}

func (p *Positions) keep(key string, a posAnswer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.cache[key]; !ok {
		if len(p.order) >= posAnalysisCached {
			delete(p.cache, p.order[0])
			p.order = p.order[1:]
		}
		p.order = append(p.order, key)
	}
	p.cache[key] = a
}

// request queues j for the short search, unless it is queued already;
// false when j's address has posAddrQueued positions waiting or the queue
// is full.
func (p *Positions) request(j posJob) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending[j.key] {
		return true
	}
	if !p.quick.push(j.addr, j) {
		return false
	}
	p.pending[j.key] = true
	return true
}

// done ends j: its answer, if any, is kept, and it is no longer pending.
func (p *Positions) done(j posJob, a posAnswer, ok bool) {
	if ok {
		p.keep(j.key, a)
	}
	p.mu.Lock()
	delete(p.pending, j.key)
	p.mu.Unlock()
}

// work runs the short searches, in turn by address; a position they do
// not settle goes to the long search (or, when its address has
// posAddrQueued positions waiting there, is dropped: asked again, it is
// queued again).
func (p *Positions) work() {
	p.quick.serve(p.cfg.Stop, func(j posJob) {
		nodes := min(p.Nodes, posQuickNodes)
		jctx, cancel := context.WithTimeout(p.cfg.Stop, p.QuickTime)
		a, ok, short := p.solveShort(jctx, j.g, nodes)
		cancel()
		if short {
			if p.long.push(j.addr, j) {
				return // still pending
			}
			ok = false
		}
		p.done(j, a, ok)
	})
}

// workLong runs the long searches, in turn by address.
func (p *Positions) workLong() {
	p.long.serve(p.cfg.Stop, func(j posJob) {
		jctx, cancel := context.WithTimeout(p.cfg.Stop, analysisTime)
		a, ok := p.solve(jctx, j.g, p.Nodes, p.MemMB, searchDepths(p.Nodes, p.MemMB))
		cancel()
		p.done(j, a, ok)
	})
}

// solveShort is solve within nodes positions and ctx's time (the short
// search's); short says that this budget, not the long search's, ended
// it: the long search is to answer.
func (p *Positions) solveShort(ctx context.Context, g *rules.Game, nodes int64) (a posAnswer, ok, short bool) {
	res, err := p.cfg.Solver.Solve(ctx, g, solve.Options{MaxNodes: nodes, MemoryMB: p.MemMB})
	if errors.Is(err, solve.ErrNodeLimit) && nodes < p.Nodes || errors.Is(err, context.DeadlineExceeded) {
		return posAnswer{}, false, true
	}
	a, ok = p.answer(ctx, g, res, err, nodes, p.MemMB, searchDepths(nodes, p.MemMB))
	return a, ok, false
}

// table returns a channel closed once the table of r, a small line, is
// made (or failed), queueing it for addr unless it is queued already;
// false when addr has posAddrQueued tables waiting or the queue is full.
func (p *Positions) table(addr string, r rules.Rules) (<-chan struct{}, bool) {
	key := r.String()
	p.mu.Lock()
	defer p.mu.Unlock()
	if ch, ok := p.making[key]; ok {
		return ch, true
	}
	if !p.builds.push(addr, r) {
		return nil, false
	}
	ch := make(chan struct{})
	p.making[key] = ch
	return ch, true
}

// build makes the tables of small lines, in turn by address, one at a
// time: each takes tenths of a second at most, never behind a search.
func (p *Positions) build() {
	ctx := p.cfg.Stop
	p.builds.serve(ctx, func(r rules.Rules) {
		_, err := p.cfg.Solver.Make(ctx, r, solve.Options{MemoryMB: MemoryMB})
		if err != nil && ctx.Err() == nil {
			p.cfg.Log.Warn("a small line's table was not made: its positions are searched", "rules", r.String(), "err", err)
		}
		key := r.String()
		p.mu.Lock()
		close(p.making[key])
		delete(p.making, key)
		p.mu.Unlock()
	})
}

// depthFunc gives the depths of a position's moves (solve.Depths).
type depthFunc func(context.Context, *rules.Game) (map[rules.Move]solve.MoveDepth, error)

// searchDepths enumerates the position's own graph within nodes positions
// and memMB (nil, no depths, for 0 positions).
func searchDepths(nodes int64, memMB int) depthFunc {
	if nodes <= 0 {
		return nil
	}
	return func(ctx context.Context, g *rules.Game) (map[rules.Move]solve.MoveDepth, error) {
		return solve.Depths(ctx, g, solve.Options{MaxNodes: nodes, MemoryMB: memMB})
	}
}

// tableDepths reads the kept graph of the rules (depthGraphs) within
// p.DepthNodes positions, else the position's own within posOwnDepthNodes
// (nil, no depths, for 0). The rules' graph is tried only when their
// dense table has at most p.DepthNodes states (alak up to 10 points):
// the graph of a longer line would not fit.
func (p *Positions) tableDepths() depthFunc {
	if p.DepthNodes <= 0 {
		return nil
	}
	return func(ctx context.Context, g *rules.Game) (map[rules.Move]solve.MoveDepth, error) {
		start := true
		if tab, err := p.cfg.Solver.For(g.Rules()); err == nil && tab != nil && tab.Dense() != nil {
			start = tab.Dense().States() <= uint64(p.DepthNodes)
		}
		return p.graphs.depths(ctx, g, p.DepthNodes, min(p.DepthNodes, posOwnDepthNodes), MemoryMB, start)
	}
}

// solve answers g's position with the server's solver within nodes
// positions, with the depths of depths (none when nil); false when the
// server stops (no verdict on the position).
func (p *Positions) solve(ctx context.Context, g *rules.Game, nodes int64, memMB int, depths depthFunc) (posAnswer, bool) {
	res, err := p.cfg.Solver.Solve(ctx, g, solve.Options{MaxNodes: nodes, MemoryMB: memMB})
	return p.answer(ctx, g, res, err, nodes, memMB, depths)
}

// answer writes the answer of a solve of g (res, err) within nodes
// positions and memMB, with the depths of depths; false when the server
// stops or the request went away (no verdict on the position).
func (p *Positions) answer(ctx context.Context, g *rules.Game, res solve.Result, err error, nodes int64, memMB int, depths depthFunc) (posAnswer, bool) {
	r := g.Rules()
	select {
	case <-p.cfg.Stop.Done():
		return posAnswer{}, false
	default:
	}
	if errors.Is(err, context.Canceled) {
		return posAnswer{}, false // the request went away: no verdict to keep
	}
	out := positionAnalysis(g, res)
	switch {
	case err == nil:
	case errors.Is(err, solve.ErrUnsupported), errors.Is(err, solve.ErrEndless):
		return answerError(httpx.Errf(wire.BadInput, "unsupported", "the solver does not answer this position: %v", err)), true
	case errors.Is(err, solve.ErrNodeLimit):
		out.Message = fmt.Sprintf("not solved within %d positions: only the values of the moves listed are proved", nodes)
	case errors.Is(err, context.DeadlineExceeded):
		out.Message = fmt.Sprintf("not solved within %s: only the values of the moves listed are proved", analysisTime)
	case errors.Is(err, solve.ErrMemory):
		out.Message = fmt.Sprintf("not solved within %d MB: only the values of the moves listed are proved", memMB)
	default:
		p.cfg.Log.Warn("a position's analysis failed", "rules", r.String(), "err", err)
		out.Message = "the analysis failed: only the values of the moves listed are proved"
	}
	if err != nil {
		out.Complete, out.Value, out.Outcome, out.Depth = false, nil, "", nil
		out.Best, out.PV = []string{}, []string{}
		out.Bound = boundOf(g.Position().ToMove(), out.Moves)
		out.Budget = nodes
	} else {
		addDepths(ctx, g, &out, res, depths)
		if errors.Is(ctx.Err(), context.Canceled) {
			return posAnswer{}, false // depths cut off by a request gone away: not kept
		}
	}
	body, jerr := json.Marshal(out)
	if jerr != nil {
		return answerError(jerr), true
	}
	return posAnswer{status: http.StatusOK, body: body}, true
}

// answerError is an error's answer, as httpx.WriteError writes it.
func answerError(err error) posAnswer {
	var ae *httpx.Error
	if !errors.As(err, &ae) {
		ae = httpx.Errf(wire.Internal, "internal", "the analysis failed")
	}
	body, _ := json.Marshal(wire.Error{Code: ae.Code, Error: ae.Msg})
	return posAnswer{status: ae.Kind.Status(), body: body}
}

// positionAnalysis writes res as the API gives it (solve.Answer, the
// numbers of alak solve --json).
func positionAnalysis(g *rules.Game, res solve.Result) wire.PositionAnalysis {
	r, pos := g.Rules(), g.Position()
	text, _ := pos.MarshalText()
	a := res.Answer(r)
	out := wire.PositionAnalysis{Rules: r.String(), Position: string(text), ToMove: pos.ToMove().Letter(),
		Value: a.Value, Outcome: a.Outcome, Best: a.Best, PV: a.PV, Moves: make([]wire.MoveAnalysis, 0, len(a.Moves)),
		Source: "search", Complete: a.Complete, Nodes: a.Nodes}
	if res.Method == solve.MethodTable {
		out.Source = "table"
	}
	for _, m := range a.Moves {
		out.Moves = append(out.Moves, wire.MoveAnalysis{Move: m.Move, Value: m.Value})
	}
	return out
}

// addDepths sets the depths of out from depths (the state graph of the
// positions reachable from g's, within its bound) when it answers and its
// values are the solver's; otherwise the depths stay null.
func addDepths(ctx context.Context, g *rules.Game, out *wire.PositionAnalysis, res solve.Result, depths depthFunc) {
	if depths == nil || g.Position().Over() || len(res.Moves) == 0 {
		return
	}
	ds, err := depths(ctx, g)
	if err != nil {
		return
	}
	r := g.Rules()
	for m, d := range ds {
		if v, ok := res.Moves[m]; !ok || v != d.Value {
			return // two solvers disagree: say nothing rather than a wrong depth
		}
	}
	best := -1
	win := res.Value > 0 && g.Position().ToMove() == rules.Black || res.Value < 0 && g.Position().ToMove() == rules.White
	for i, ma := range out.Moves {
		m, err := notation.Human.Decode(r, ma.Move)
		if err != nil {
			return
		}
		d := ds[m]
		if d.Plies < 0 {
			continue
		}
		n := d.Plies
		out.Moves[i].Depth = &n
		if d.Value == res.Value && (best < 0 || win && n < best || !win && n > best) {
			best = n
		}
	}
	if best >= 0 && res.Value != 0 {
		n := best + 1
		out.Depth = &n
	}
}

// boundOf is what the proved moves say of the value: the player to move
// has at least the best of them.
func boundOf(toMove rules.Color, ms []wire.MoveAnalysis) *wire.ValueBound {
	if len(ms) == 0 {
		return nil
	}
	v := ms[0].Value
	for _, m := range ms[1:] {
		if toMove == rules.Black {
			v = max(v, m.Value)
		} else {
			v = min(v, m.Value)
		}
	}
	if toMove == rules.Black {
		return &wire.ValueBound{AtLeast: &v}
	}
	return &wire.ValueBound{AtMost: &v}
}

// analysisGame reads the position of an analysis or explorer request:
// rules, then moves (separated by commas) from the start or from
// position and to_move.
func analysisGame(q map[string][]string) (*rules.Game, error) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	spec, moves, position := get("rules"), get("moves"), get("position")
	if len(spec) > posMaxRules || len(position) > posMaxPosition || len(moves) > posMaxMoves {
		return nil, httpx.Errf(wire.BadInput, "too_long", "rules are at most %d characters, a position %d, the moves %d", posMaxRules, posMaxPosition, posMaxMoves)
	}
	if strings.TrimSpace(spec) == "" {
		spec = "alak"
	}
	rs, err := rules.Parse(spec)
	if err != nil {
		return nil, httpx.Errf(wire.BadInput, "bad_rules", "%s (the rules are a preset and its options, such as alak size=11 edge=off)", err)
	}
	setup := session.Setup{Rules: rs, SizeGiven: strings.Contains(spec, "size="), Diagram: position, ToMove: get("to_move"), Prisoners: get("prisoners")}
	if strings.TrimSpace(moves) != "" {
		setup.Moves = strings.Split(moves, ",")
	}
	g, err := setup.Game()
	if err != nil {
		return nil, httpx.Errf(wire.BadInput, "bad_position", "%s (moves are separated by commas, such as moves=2,9; a position is a diagram such as x--o- with to_move=x or o)", err)
	}
	return g, nil
}

// gameKey names g's position with its history (the value of a position
// can depend on it: repetitions, superko).
func gameKey(g *rules.Game) string {
	start, _ := g.Start().MarshalText()
	var b strings.Builder
	b.WriteString(g.Rules().String())
	b.WriteByte('\n')
	b.Write(start)
	b.WriteByte('\n')
	for _, m := range g.Moves() {
		fmt.Fprintf(&b, "%d,", m)
	}
	return b.String()
}

// handlePositionAnalysis is GET /api/analysis: the exact value of any
// position, by design (docs/api.md): from the table directory at once,
// else 202 while the solver works on it within its budget.
func (a *Analysis) handlePositionAnalysis(w http.ResponseWriter, r *http.Request) {
	p := a.Positions
	if wait, ok := a.Limits.Allow(httpx.ClientAddr(r), a.cfg.Now()); !ok {
		a.writeError(w, r, httpx.TooMany(wait, "too many analyses from this address: ask again in %d seconds", httpx.RetrySeconds(wait)))
		return
	}
	g, err := analysisGame(r.URL.Query())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := solve.Check(g.Rules()); err != nil {
		a.writeError(w, r, httpx.Errf(wire.BadInput, "unsupported", "the solver does not answer these rules: %v", err))
		return
	}
	key := gameKey(g)
	if ans, ok := p.cached(key); ok {
		writeAnswer(w, ans)
		return
	}
	addr := httpx.ClientAddr(r)
	ts := a.cfg.Solver
	tab, err := ts.For(g.Rules())
	if err == nil && (tab == nil || tab.Dense() == nil) && ts.Small(g.Rules()) {
		// A small line: its table is made at once, in the background,
		// and answers this request if it is made within posTableWait.
		made, ok := p.table(addr, g.Rules())
		if !ok {
			a.writeError(w, r, httpx.Errf(wire.Unavailable, "busy", "this address has %d tables of rules being made: ask again in a few seconds", posAddrQueued))
			return
		}
		wait := time.NewTimer(posTableWait)
		select {
		case <-made:
			wait.Stop()
			tab, err = ts.For(g.Rules())
		case <-wait.C:
			w.Header().Set("Retry-After", "1")
			httpx.WriteJSON(w, http.StatusAccepted, wire.Status{Status: "queued", Message: "the table of these rules is being made: ask again in a second"})
			return
		case <-r.Context().Done():
			wait.Stop()
			a.writeError(w, r, r.Context().Err())
			return
		}
	}
	if err == nil && tab != nil && tab.Dense() != nil {
		select {
		case p.now <- struct{}{}:
		case <-r.Context().Done():
			a.writeError(w, r, r.Context().Err())
			return
		}
		ans, ok := p.solve(r.Context(), g, p.Nodes, posTableMemMB, p.tableDepths())
		<-p.now
		if !ok {
			a.writeError(w, r, httpx.Errf(wire.Unavailable, "stopped", "the analysis was stopped (the request ended, or the server is stopping): ask again"))
			return
		}
		p.keep(key, ans)
		writeAnswer(w, ans)
		return
	}
	if !p.request(posJob{key: key, addr: addr, g: g}) {
		a.writeError(w, r, httpx.Errf(wire.Unavailable, "busy", "this address has %d positions waiting for the solver, or the analysis queue is full: ask again in a minute", posAddrQueued))
		return
	}
	w.Header().Set("Retry-After", "1")
	httpx.WriteJSON(w, http.StatusAccepted, wire.Status{Status: "queued", Message: "the position is being solved: ask again in a few seconds"})
}

func writeAnswer(w http.ResponseWriter, a posAnswer) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(a.status)
	w.Write(a.body)
}

// Waiting is the positions waiting for a search, short or long.
func (p *Positions) Waiting() int { return p.quick.len() + p.long.len() }

// Building is the small lines waiting for their table to be made.
func (p *Positions) Building() int { return p.builds.len() }

// GraphsBuilt is the depths' graphs enumerated so far (depthGraphs).
func (p *Positions) GraphsBuilt() int {
	p.graphs.mu.Lock()
	defer p.graphs.mu.Unlock()
	return p.graphs.built
}

// Forget drops the answers kept, so that the next request for each is
// answered again (a benchmark measures the answer, not the cache).
func (p *Positions) Forget() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.cache)
	p.order = p.order[:0]
}
