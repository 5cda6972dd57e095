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

// Strong plays past the tables: it never reads or makes a table of the
// board it plays on (no solve.Tables, no dense solver), so it plays the
// same on a line whose table exists as on one whose table cannot be made
// (alak on 20 points and more). Each move is either proved or searched,
// and it says which (Report, Explain):
//
//  1. Proved. It enumerates the state graph of the positions reachable
//     from the game's position (solve.NewGraph: retrograde analysis over
//     exactly those positions, with the game's history for the
//     repetition draw) within the memory bound and half the move time.
//     When the graph is complete every move's value is exact, and the
//     player chooses among the moves of the best value as Perfect does
//     (the quickest win, the slowest loss, the draw that leaves the
//     opponent the most losing replies). The graph is kept for the rest
//     of the game: every later position is in it, so every later move is
//     proved at once, under any history.
//  2. Searched. Where the graph does not fit, iterative-deepening
//     alpha-beta (AlphaBeta: transposition table, history ordering,
//     quiescence over captures, the game's repetition draw along every
//     line) with the rest of the move time. Its finished lines count
//     exact results, the rest the count difference.
//
// Why this design. Under alak's rules a capture empties points again, so
// the positions with few empty points are not closed under play: a table
// of them would need the values of positions outside it, and the line
// does not split into sub-segments whose values add up (a chain touching
// a segment's end is captured or not depending on the other side). What
// is exact and bounded is the reachable graph of one position: where it
// fits it is the whole truth. It fits on short lines and at the very end
// of long ones; on 18 points it seldom does, since a big chain can still
// be captured late in a game and the board reopened (docs/strength.md
// measures it). Elsewhere the search, which looks at captures to their
// end and never confuses a repetition draw with a count, is the best
// guess, and the player says it is one. A failed proof costs its time,
// so after a graph that did not fit it waits for the board to hold fewer
// empty points (or eight moves) before trying again.
//
// Memory: the proof's graph takes at most mem MB (about 700 bytes a
// position: solve.Depths), the search's transposition table 6 MB
// (2^18 entries of 24 bytes) and its history tables 35 KB; nothing else
// grows with the game. Time: the proof gets at most half the move time
// (ending sooner when the memory bound stops it), the search the rest;
// a move returns within the move time plus the search's last node
// check (1,024 nodes).
//
// Spec: "strong" with options time=DURATION (per move, default 1s),
// mem=MB (the proof's graph, default 256), nodes=N (the search's node
// budget: with it and proof=off the player is deterministic), proof=on|off
// (off: search only; on by default).
type Strong struct {
	spec     string
	movetime time.Duration
	memMB    int
	nodes    int64
	prove    bool
	rng      fastRand
	seed     uint64

	graph     *solve.Graph // the proof of an earlier move, kept for the game
	noDepths  bool         // the rules have no state graph (solve.ErrNoDepth)
	failedAt  int          // empty points at the last failed proof (-1: none)
	sinceFail int          // moves since then
	search    *AlphaBeta
	report    Report
	explain   string
}

// Kinds of moves in the strong player's Report.
const (
	// StrongProved is a move of the best value by a complete proof.
	StrongProved = "proved"
	// StrongSearched prefixes a move of the alpha-beta search, not
	// proved; why the proof was not made follows.
	StrongSearched = "searched"
)

// strongRetry is how many moves the player waits after a failed proof
// before trying again on a board with as many empty points.
const strongRetry = 8

func newStrongSpec(args string, seed uint64) (Player, error) {
	o, err := parseOptions("strong", args, "time", "mem", "nodes", "proof")
	if err != nil {
		return nil, err
	}
	t, err := o.duration("strong", "time", time.Second)
	if err != nil {
		return nil, err
	}
	mem, err := o.int("strong", "mem", 256, 1, 1<<16)
	if err != nil {
		return nil, err
	}
	nodes, err := o.int("strong", "nodes", 0, 1, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	prove := true
	switch v := o["proof"]; v {
	case "", "on":
	case "off":
		prove = false
	default:
		return nil, fmt.Errorf("player strong: proof=%q: on or off is accepted", v)
	}
	return NewStrong(specName("strong", args), t, mem, int64(nodes), prove, seed), nil
}

// NewStrong returns a strong player (see Strong): movetime per move, the
// proof's graph within memMB, the search within nodes (0: no node budget),
// proofs tried when prove is set.
func NewStrong(spec string, movetime time.Duration, memMB int, nodes int64, prove bool, seed uint64) *Strong {
	return &Strong{spec: spec, movetime: movetime, memMB: memMB, nodes: nodes, prove: prove,
		rng: fastRand{seed ^ 0x7374726f}, seed: seed, failedAt: -1}
}

// Name returns the player's spec.
func (p *Strong) Name() string { return p.spec }

// Close releases nothing: the player holds no process or file open.
func (p *Strong) Close() error { return nil }

// Report counts the player's moves since it was made: proved, or searched
// (and why no proof).
func (p *Strong) Report() Report { return p.report.Add(Report{}) }

// Explain says in a sentence how the last move was chosen: proved, with
// its value, or searched, and why no proof.
func (p *Strong) Explain() string { return p.explain }

// Move returns a proved best move, or the search's move.
func (p *Strong) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	if err := ctx.Err(); err != nil {
		return rules.NoMove, err
	}
	moves := g.LegalMoves(nil)
	if len(moves) == 0 {
		return rules.NoMove, ErrNoMove
	}
	start := time.Now()
	m, why, err := p.proved(ctx, g, start)
	if ctx.Err() != nil {
		return rules.NoMove, ctx.Err()
	}
	if err == nil {
		return m, nil
	}
	return p.searched(ctx, g, start, why)
}

// proved answers from the kept graph, or makes the graph of the position
// within half the move time and the memory; it returns why not when it
// cannot.
func (p *Strong) proved(ctx context.Context, g *rules.Game, start time.Time) (rules.Move, string, error) {
	r := g.Rules()
	switch {
	case !p.prove:
		return rules.NoMove, "proofs off", errNoProof
	case p.noDepths || r.Points() > 64:
		return rules.NoMove, "no state graph for these rules", errNoProof
	}
	pos := g.Position()
	if p.graph == nil || !p.graph.Contains(pos) {
		empty := emptyPoints(pos)
		if p.failedAt >= 0 && empty >= p.failedAt && p.sinceFail < strongRetry {
			p.sinceFail++
			return rules.NoMove, "the graph did not fit before", errNoProof
		}
		gctx, cancel := context.WithDeadline(ctx, start.Add(p.movetime/2))
		gr, err := solve.NewGraph(gctx, r, pos, solve.Options{MemoryMB: p.memMB})
		cancel()
		if err != nil {
			if errors.Is(err, solve.ErrNoDepth) {
				p.noDepths = true
			}
			p.failedAt, p.sinceFail = empty, 0
			return rules.NoMove, reason(err), err
		}
		p.graph, p.failedAt = gr, -1
	}
	dctx, cancel := context.WithDeadline(ctx, start.Add(p.movetime*9/10))
	defer cancel()
	ds, err := p.graph.Depths(dctx, g)
	if err != nil {
		return rules.NoMove, reason(err), err
	}
	m := bestByDepth(g, ds, &p.rng)
	p.report.add(StrongProved)
	p.explain = fmt.Sprintf("proved: Black's margin %s under perfect play (the %d positions reachable from here)",
		marginText(ds[m].Value), p.graph.Len())
	return m, "", nil
}

// errNoProof marks a move for which no proof was tried.
var errNoProof = errors.New("no proof tried")

// searched plays the alpha-beta search's move with the time left (at
// least a fifth of the move time).
func (p *Strong) searched(ctx context.Context, g *rules.Game, start time.Time, why string) (rules.Move, error) {
	if p.search == nil {
		p.search = NewAlphaBeta("alphabeta", 0, p.nodes, 0, p.seed)
	}
	p.search.movetime = 0
	if p.nodes == 0 || p.prove {
		p.search.movetime = max(p.movetime-time.Since(start), p.movetime/5)
	}
	m, err := p.search.Move(ctx, g)
	if err != nil {
		return m, err
	}
	p.report.add(StrongSearched + ": " + why)
	p.explain = fmt.Sprintf("searched, not proved (%s): alpha-beta to depth %d, %d positions", why, p.search.reached, p.search.nodes)
	return m, nil
}

// emptyPoints counts the empty points of pos.
func emptyPoints(pos rules.Position) int {
	n := 0
	for i := range pos.Rules().Points() {
		if pos.At(i) == rules.None {
			n++
		}
	}
	return n
}

// marginText writes Black's margin with its sign.
func marginText(v float64) string {
	if v > 0 {
		return fmt.Sprintf("+%g", v)
	}
	return fmt.Sprintf("%g", v)
}
