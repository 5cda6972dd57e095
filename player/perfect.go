package player

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"alak/rules"
	"alak/solve"
)

// Perfect plays a best move of the exact solver (package solve, through
// solve.Tables: the fastest exact method that answers): a move
// that keeps the game-theoretic value of the position, Black's margin under
// perfect play. Among the moves of that value it chooses by depth
// (solve.Depths): in a lost position the move whose loss comes latest when
// the winner hurries and the loser resists, in a won position the quickest
// win, and in a drawn position the drawing move that leaves the opponent
// the most losing replies; remaining ties at random with the seeded
// source. The state graph made for the depths (solve.Graph, the positions
// reachable from the position where it was made) is kept for the rest of
// the game: every later position is in it, and its values are exact under
// any history, so from then on no solve is needed. With repetitions in the
// history, where no table answers, it makes that graph first. Where
// neither the solve nor the graph finishes within the budget (time, nodes
// or memory), or the board is a grid of more than 64 points, it plays the
// alpha-beta player's move instead with the time that is left (with
// beyond=strong, the strong player's: UseStrong). It never
// does so silently: Report counts the moves by how they were made, and the
// arena and `alak match` print it.
//
// On a small line (solve.Tables.Small: alak on up to 13 points, alterigo,
// dewdney and golf on up to 13) no budget of time applies to what the
// line bounds: the dense table of the rules is made at the first move
// (solve.Tables.Make; milliseconds on 9 points, tenths of a second on 13)
// and kept, shared by every perfect player of the process that names no
// table directory, so that every later move of every game is a lookup; and
// the state graph, where the history has repeated a position or the
// depths choose among best moves, is the line's, of the positions
// reachable from the rules' start: made once a process by the same
// Tables, whatever the move time and whatever the player's mem= (the
// Tables' own bound, solve.Tables.GraphMB, default solve.DefaultGraphMB:
// 1536 MB of the solver's estimate, which holds alak up to 13 points),
// and shared by every perfect player of the Tables, one Depths at a time
// (solve.Tables.Depths; on alak 12, 727,899 positions, 3.2 s and about
// 400 MB once; on 13, 2.2 million, 12 s and 1.2 GB). A position that graph
// does not hold (a game from a set-up position), or a line whose graph
// does not fit that bound, gets a graph of its own, made once a game
// within mem=. So the player is perfect at any time control there, however
// busy the machine. The replies of a drawn position's best moves are
// looked up in the dense table whatever the time; where the history after
// a best move repeats a position, no table answers them, and the line's
// graph counts them (with the depths); a solve that would search for them
// gets the move's time, so no search inside a move goes unbounded.
//
// Spec: "perfect" with options time=DURATION (per move, default 2s; the
// solver gets up to 80% of it, the choice among the best moves up to 95%),
// nodes=N (the solver's node limit), mem=MB (the solver's transposition
// table and the depth pass's graph, and the dense solver's bitmaps,
// default 64), table=DIR (answer from the solver's table files of the
// rules in DIR, solve.Tables with ReadOnly: added to in memory, never
// written; "default" is solve.DefaultDir()), graph=DURATION (the most one move of a
// game may spend making the state graph, once; default 80% of time: a
// longer one lets the graph that then answers every later move be made
// even when the move time is short, at the cost of that one move),
// beyond=alphabeta|strong (the player of the moves no solve answers:
// the alpha-beta player, the default, or the strong player, UseStrong).
type Perfect struct {
	spec     string
	movetime time.Duration
	// graphTime is the most one move may spend making the state graph
	// (once a game: later positions are in it); graphTried that a move
	// has spent it and failed, after which graphs get the move's time.
	graphTime  time.Duration
	graphTried bool
	nodes      int64
	memMB      int
	tableDir   string        // the spec's table= directory ("": none)
	tables     *solve.Tables // the solver: the spec's table=, or its caller's
	table      *solve.Table  // the table of the last solve's rules, if any
	rng        fastRand
	seed       uint64

	solved   bool         // the last move came from a complete solve
	graph    *solve.Graph // the state graph made for an earlier move, if any
	fallback *AlphaBeta
	// strong, when set, plays the moves no solve answers in place of
	// the alpha-beta fallback (UseStrong, beyond=strong).
	strong *Strong
	report Report
}

// Kinds of moves in the perfect player's Report.
const (
	// PerfectExact is a move of the best value chosen as the spec says.
	PerfectExact = "exact"
	// PerfectUntied prefixes a move of the best value chosen at random
	// among the best because the depths or the replies could not be
	// computed; the reason follows.
	PerfectUntied = "exact, tie broken at random"
	// PerfectFallback prefixes a move of the alpha-beta fallback; the
	// reason follows.
	PerfectFallback = "alpha-beta fallback"
	// PerfectStrongProved prefixes a move the strong player proved where
	// no solve answered (UseStrong); the reason the solve did not
	// follows. It is exact (it begins with PerfectExact).
	PerfectStrongProved = PerfectExact + " (strong's proof)"
	// PerfectStrongSearched prefixes a move of the strong player's
	// alpha-beta search where no solve answered and no proof fitted
	// (UseStrong); the reason follows. It is a fallback (it begins with
	// PerfectFallback), so what counts fallbacks counts it.
	PerfectStrongSearched = PerfectFallback + " (strong)"
)

func newPerfectSpec(args string, seed uint64) (Player, error) {
	o, err := parseOptions("perfect", args, "time", "nodes", "mem", "table", "graph", "beyond")
	if err != nil {
		return nil, err
	}
	t, err := o.duration("perfect", "time", 2*time.Second)
	if err != nil {
		return nil, err
	}
	gt, err := o.duration("perfect", "graph", t*4/5)
	if err != nil {
		return nil, err
	}
	nodes, err := o.int("perfect", "nodes", 0, 1, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	mem, err := o.int("perfect", "mem", 64, 1, 1<<16)
	if err != nil {
		return nil, err
	}
	dir := o["table"]
	if dir == "default" {
		if dir, err = solve.DefaultDir(); err != nil {
			return nil, err
		}
	}
	ts := defaultTables
	if dir != "" {
		ts = &solve.Tables{Dir: dir, ReadOnly: true}
	}
	p := &Perfect{spec: specName("perfect", args), movetime: t, graphTime: gt, nodes: int64(nodes), memMB: mem,
		tableDir: dir, tables: ts, rng: fastRand{seed ^ 0x70657266}, seed: seed}
	switch v := o["beyond"]; v {
	case "", "alphabeta":
	case "strong":
		p.UseStrong()
	default:
		return nil, fmt.Errorf("player perfect: beyond=%q: alphabeta or strong is accepted", v)
	}
	return p, nil
}

// UseStrong makes the player play the strong player's move (Strong, with
// the player's memory bound and the time left) where no solve answers, in
// place of the alpha-beta player's: the strong player proves the move
// where the positions reachable from the position fit, and searches
// otherwise. The play server's computer seats use it.
func (p *Perfect) UseStrong() {
	p.strong = NewStrong("strong", p.movetime, max(p.memMB, 1), 0, true, p.seed)
}

// defaultTables is the solver of the perfect players that name no table
// directory: one for the process, so that the dense table of a small line
// is made once (solve.Tables.Make) and answers every game's moves; it
// keeps such tables in memory within its bound (solve.DefaultKeepMB) and
// adds nothing else to any table.
var defaultTables = &solve.Tables{ReadOnly: true}

// Name returns the player's spec.
func (p *Perfect) Name() string { return p.spec }

// UseTable makes the player answer from t, a table its caller loaded
// (solve.LoadTable; frozen with Table.Freeze when several players share
// it), in place of the spec's table= directory; a table of other rules
// than the game's is not used. The play server gives its computer seats
// the tables of its table directory this way: a spec from outside may not
// name a directory (NewUntrusted refuses table=), the server's operator
// may.
func (p *Perfect) UseTable(t *solve.Table) {
	p.tables, p.tableDir = &solve.Tables{ReadOnly: true}, ""
	p.tables.Use(t)
}

// UseTables makes the player solve through ts (the tables it reads, the
// method), in place of its spec's: the play server gives its computer
// seats its own, frozen and shared.
func (p *Perfect) UseTables(ts *solve.Tables) { p.tables, p.tableDir = ts, "" }

// Close releases nothing: the player holds no process or file open.
func (p *Perfect) Close() error { return nil }

// Solved reports whether the last move came from a complete solve (rather
// than from the alpha-beta fallback).
func (p *Perfect) Solved() bool { return p.solved }

// Report counts the player's moves since it was made: exact, exact with a
// tie broken at random (and why), or from the alpha-beta fallback (and
// why).
func (p *Perfect) Report() Report { return p.report.Add(Report{}) }

// Move returns a best move of the solver, or the fallback's move.
func (p *Perfect) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	if err := ctx.Err(); err != nil {
		return rules.NoMove, err
	}
	p.solved = false
	moves := g.LegalMoves(nil)
	if len(moves) == 0 {
		return rules.NoMove, ErrNoMove
	}
	start := time.Now()
	r := g.Rules()
	small := r.Points() <= 64 && p.tables.Small(r)
	if small {
		// A small line: its dense table is made once, whatever the move
		// time (the line bounds the work), and answers every move after.
		_, err := p.tables.Make(ctx, r, solve.Options{MaxNodes: p.nodes, MemoryMB: p.memMB})
		if ctx.Err() != nil {
			return rules.NoMove, ctx.Err()
		}
		if err != nil && !errors.Is(err, solve.ErrMemory) {
			return rules.NoMove, fmt.Errorf("%w: %w", errTable, err)
		}
	}
	if p.graph != nil && p.graph.Contains(g.Position()) {
		// The graph of an earlier move holds the position: its values
		// are exact under any history, so no solve is needed.
		ds, err := p.graph.Depths(ctx, g)
		if ctx.Err() != nil {
			return rules.NoMove, ctx.Err()
		}
		if err == nil {
			p.solved = true
			p.report.add(PerfectExact)
			return p.best(g, ds), nil
		}
	}
	why := "more than 64 points"
	if repeats(g) && g.Rules().Points() <= 64 {
		// The history has repeated a position: no table answers, and the
		// solve would enumerate the graph anyway (solve/history.go). Make
		// it here, once, and keep it.
		ds, err := p.depths(ctx, g, start, p.deadline(start, p.movetime*4/5, small), small)
		if ctx.Err() != nil {
			return rules.NoMove, ctx.Err()
		}
		if err == nil {
			p.solved = true
			p.report.add(PerfectExact)
			return p.best(g, ds), nil
		}
		if !errors.Is(err, solve.ErrNoDepth) {
			return p.fallBack(ctx, g, start, reason(err)+" (repetitions in the history)")
		}
	}
	if g.Rules().Points() <= 64 {
		res, err := p.solve(ctx, g)
		if ctx.Err() != nil {
			return rules.NoMove, ctx.Err()
		}
		if err == nil {
			p.solved = true
			m, kind := p.choose(ctx, g, res, start, small)
			if ctx.Err() != nil {
				return rules.NoMove, ctx.Err()
			}
			p.report.add(kind)
			return m, nil
		}
		if errors.Is(err, errTable) {
			return rules.NoMove, err
		}
		why = reason(err)
		if repeats(g) {
			why += " (repetitions in the history)"
		}
	}
	return p.fallBack(ctx, g, start, why)
}

// fallBack plays the alpha-beta player's move with the time left (at least
// a fifth of the move time) and counts it in the report with its reason.
func (p *Perfect) fallBack(ctx context.Context, g *rules.Game, start time.Time, why string) (rules.Move, error) {
	if p.strong != nil {
		p.strong.movetime = max(p.movetime-time.Since(start), p.movetime/5)
		before := p.strong.report.Kinds[StrongProved]
		m, err := p.strong.Move(ctx, g)
		if err != nil {
			return m, err
		}
		kind := PerfectStrongSearched
		if p.strong.report.Kinds[StrongProved] > before {
			kind = PerfectStrongProved
		}
		p.report.add(kind + ": " + why)
		return m, nil
	}
	p.report.add(PerfectFallback + ": " + why)
	if p.fallback == nil {
		p.fallback = NewAlphaBeta("alphabeta", 0, 0, 0, p.seed)
	}
	p.fallback.movetime = max(p.movetime-time.Since(start), p.movetime/5)
	return p.fallback.Move(ctx, g)
}

// errTable marks an error reading the table, which ends the game rather
// than falling back.
var errTable = errors.New("perfect: the table")

// solve runs the solver within 80% of the move time; it returns the error
// that kept it from a complete result.
func (p *Perfect) solve(ctx context.Context, g *rules.Game) (solve.Result, error) {
	t, err := p.tables.For(g.Rules())
	if err != nil {
		return solve.Result{}, fmt.Errorf("%w: %w", errTable, err)
	}
	p.table = t
	sctx, cancel := context.WithTimeout(ctx, p.movetime*4/5)
	defer cancel()
	res, err := p.tables.Solve(sctx, g, solve.Options{MaxNodes: p.nodes, MemoryMB: p.memMB})
	switch {
	case err != nil:
		return res, err
	case !res.Complete || len(res.Best) == 0:
		return res, errors.New("the solve found no best move")
	}
	return res, nil
}

// choose picks among the best moves of res (see Perfect) within 95% of the
// move time from start (on a small line, whatever the time: the replies
// are looked up in the table, the depths in the state graph), and says
// how it chose (a Report kind).
func (p *Perfect) choose(ctx context.Context, g *rules.Game, res solve.Result, start time.Time, small bool) (rules.Move, string) {
	best := res.Best
	if len(best) == 1 {
		return best[0], PerfectExact
	}
	deadline := p.deadline(start, p.movetime*19/20, small)
	mover := g.Position().ToMove()
	if solve.Sign(sideSign(mover)*res.Value) == 0 && p.table != nil && p.graph == nil && !(small && repeatsAfter(g, best)) {
		// Drawn, with a table: each best move's replies from the table.
		// (On a small line where a best move repeats a position, no
		// table answers its replies: the line's graph does, below.)
		losing := map[rules.Move]int{}
		for _, m := range best {
			n, err := p.losingReplies(ctx, g, m, mover, deadline, start.Add(p.movetime*19/20))
			if err != nil {
				return best[p.rng.n(len(best))], PerfectUntied + ": " + reason(err)
			}
			losing[m] = n
		}
		return p.pick(best, func(m rules.Move) int { return losing[m] }), PerfectExact
	}
	ds, err := p.depths(ctx, g, start, deadline, small)
	if err != nil {
		return best[p.rng.n(len(best))], PerfectUntied + ": " + reason(err)
	}
	for _, m := range best {
		if d, ok := ds[m]; !ok || d.Value != res.Moves[m] {
			// The two solvers disagree: a bug, not a budget. Say so.
			return best[p.rng.n(len(best))], PerfectUntied + ": depths disagree with the solve"
		}
	}
	return p.best(g, ds), PerfectExact
}

// deadline is start plus d, the move's own limit, or none (the zero time)
// on a small line, where the graph is bounded by the line.
func (p *Perfect) deadline(start time.Time, d time.Duration, small bool) time.Time {
	if small {
		return time.Time{}
	}
	return start.Add(d)
}

// depths answers, on a small line, from the state graph of the line that
// the player's Tables makes once and shares (solve.Tables.Depths: every
// perfect player of the process, every game, within the Tables' bound,
// not the player's memory option); else, or for a position that graph
// does not hold, from the player's graph when it holds the position, else
// it makes the graph of the positions reachable from the position and
// keeps it for the rest of the game.
//
// deadline is the move's own limit (none when zero); the graph may take up
// to graphTime from start instead, once, when that is longer.
func (p *Perfect) depths(ctx context.Context, g *rules.Game, start, deadline time.Time, small bool) (map[rules.Move]solve.MoveDepth, error) {
	if small && p.graph == nil {
		ds, err := p.tables.Depths(ctx, g)
		if err == nil || ctx.Err() != nil {
			return ds, err
		}
	}
	if p.graph == nil || !p.graph.Contains(g.Position()) {
		gctx, cancel := ctx, context.CancelFunc(func() {})
		if !deadline.IsZero() {
			if long := start.Add(p.graphTime); !p.graphTried && long.After(deadline) {
				deadline = long
				p.graphTried = true
			}
			gctx, cancel = context.WithDeadline(ctx, deadline)
		}
		gr, err := solve.NewGraph(gctx, g.Rules(), g.Position(), solve.Options{MaxNodes: p.nodes, MemoryMB: p.memMB})
		cancel()
		if err != nil {
			return nil, err
		}
		p.graph, p.graphTried = gr, false
	}
	if deadline.IsZero() {
		return p.graph.Depths(ctx, g)
	}
	dctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	return p.graph.Depths(dctx, g)
}

// best returns the move the spec asks for among the moves of ds (see
// bestByDepth).
func (p *Perfect) best(g *rules.Game, ds map[rules.Move]solve.MoveDepth) rules.Move {
	return bestByDepth(g, ds, &p.rng)
}

// pick returns a move of moves with the highest score, at random among
// equals.
func (p *Perfect) pick(moves []rules.Move, score func(rules.Move) int) rules.Move {
	return pickBy(moves, score, &p.rng)
}

// bestByDepth returns, among the legal moves of g, one of the best value
// for the mover in ds, then the quickest win, the slowest loss, or the
// draw with the most losing replies; ties at random with rng.
func bestByDepth(g *rules.Game, ds map[rules.Move]solve.MoveDepth, rng *fastRand) rules.Move {
	sign := sideSign(g.Position().ToMove())
	var best []rules.Move
	bestV := math.Inf(-1)
	for _, m := range g.LegalMoves(nil) {
		switch v := sign * ds[m].Value; {
		case v > bestV:
			best, bestV = append(best[:0], m), v
		case v == bestV:
			best = append(best, m)
		}
	}
	switch {
	case bestV > 0:
		return pickBy(best, func(m rules.Move) int { return -ds[m].Plies }, rng)
	case bestV < 0:
		return pickBy(best, func(m rules.Move) int { return ds[m].Plies }, rng)
	}
	return pickBy(best, func(m rules.Move) int { return ds[m].Losing }, rng)
}

// pickBy returns a move of moves with the highest score, at random among
// equals.
func pickBy(moves []rules.Move, score func(rules.Move) int, rng *fastRand) rules.Move {
	var top []rules.Move
	for _, m := range moves {
		switch {
		case len(top) == 0 || score(m) > score(top[0]):
			top = append(top[:0], m)
		case score(m) == score(top[0]):
			top = append(top, m)
		}
	}
	return top[rng.n(len(top))]
}

// losingReplies counts the replies to m whose value is worse than a draw
// for the player who makes them (the mover of g wins after them), within
// deadline (none when zero, on a small line: the dense table answers).
// Where the history after m repeats a position, no table answers and the
// solve would search: it then gets moveEnd, the move's own limit, even on
// a small line, so that no search inside a move goes unbounded.
func (p *Perfect) losingReplies(ctx context.Context, g *rules.Game, m rules.Move, mover rules.Color, deadline, moveEnd time.Time) (int, error) {
	h := g.Clone()
	if err := h.Play(m); err != nil {
		return 0, err
	}
	if h.Over() {
		return 0, nil
	}
	if deadline.IsZero() && repeats(h) {
		deadline = moveEnd
	}
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	res, err := p.tables.Solve(ctx, h, solve.Options{MaxNodes: p.nodes, MemoryMB: p.memMB})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, v := range res.Moves {
		if solve.Sign(sideSign(mover)*v) > 0 {
			n++
		}
	}
	return n, nil
}

// repeatsAfter reports whether the history of g after one of moves
// repeats a position.
func repeatsAfter(g *rules.Game, moves []rules.Move) bool {
	for _, m := range moves {
		h := g.Clone()
		if h.Play(m) == nil && repeats(h) {
			return true
		}
	}
	return false
}

// reason says in a few words why the solver could not answer.
func reason(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "out of time"
	case errors.Is(err, solve.ErrNodeLimit):
		return "node limit"
	case errors.Is(err, solve.ErrMemory):
		return "memory limit"
	case errors.Is(err, solve.ErrNoDepth):
		return "no depths for these rules"
	case errors.Is(err, solve.ErrUnsupported):
		return "rules the solver does not take"
	case errors.Is(err, solve.ErrEndless):
		return "endless game"
	}
	return err.Error()
}

// repeats reports whether a position of the game occurred more than once:
// the solver's values then depend on the history, and no table answers
// them.
func repeats(g *rules.Game) bool {
	seen := map[uint64]bool{}
	for i := 0; i <= g.Len(); i++ {
		h := g.PositionAt(i).Hash()
		if seen[h] {
			return true
		}
		seen[h] = true
	}
	return false
}
