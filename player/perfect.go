package player

import (
	"context"
	"math"
	"time"

	"alak/rules"
	"alak/solve"
)

// Perfect plays a best move of the exact solver (package solve): a move
// that keeps the game-theoretic value of the position, Black's margin under
// perfect play, chosen at random among the best with the seeded source.
// Where the solve does not finish within the budget (time, nodes or
// memory), or the board is a grid (the solver handles lines), it plays the
// alpha-beta player's move instead with the time that is left.
//
// Spec: "perfect" with options time=DURATION (per move, default 2s; the
// solver gets up to 80% of it), nodes=N (the solver's node limit),
// mem=MB (the solver's transposition table, default 64), table=DIR (answer
// from and add to the solver's table file of the rules in DIR, see
// solve.LoadTable; "default" is solve.DefaultDir()).
type Perfect struct {
	spec     string
	movetime time.Duration
	nodes    int64
	memMB    int
	tableDir string
	table    *solve.Table
	rng      fastRand
	seed     uint64

	solved   bool // the last move came from a complete solve
	fallback *AlphaBeta
}

func newPerfectSpec(args string, seed uint64) (Player, error) {
	o, err := parseOptions("perfect", args, "time", "nodes", "mem", "table")
	if err != nil {
		return nil, err
	}
	t, err := o.duration("perfect", "time", 2*time.Second)
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
	return &Perfect{spec: specName("perfect", args), movetime: t, nodes: int64(nodes), memMB: mem,
		tableDir: dir, rng: fastRand{seed ^ 0x70657266}, seed: seed}, nil
}

// Name returns the player's spec.
func (p *Perfect) Name() string { return p.spec }

// Close releases nothing: the player holds no process or file open.
func (p *Perfect) Close() error { return nil }

// Solved reports whether the last move came from a complete solve (rather
// than from the alpha-beta fallback).
func (p *Perfect) Solved() bool { return p.solved }

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
	if g.Rules().Points() <= 64 {
		if m, ok, err := p.solve(ctx, g); err != nil {
			return rules.NoMove, err
		} else if ok {
			p.solved = true
			return m, nil
		}
	}
	if p.fallback == nil {
		p.fallback = NewAlphaBeta("alphabeta", 0, 0, 0, p.seed)
	}
	p.fallback.movetime = max(p.movetime-time.Since(start), p.movetime/5)
	return p.fallback.Move(ctx, g)
}

// solve runs the solver within 80% of the move time; ok is false when it
// did not finish.
func (p *Perfect) solve(ctx context.Context, g *rules.Game) (rules.Move, bool, error) {
	if p.tableDir != "" && (p.table == nil || p.table.Rules().String() != g.Rules().String()) {
		t, err := solve.LoadTable(p.tableDir, g.Rules())
		if err != nil {
			return rules.NoMove, false, err
		}
		p.table = t
	}
	sctx, cancel := context.WithTimeout(ctx, p.movetime*4/5)
	defer cancel()
	res, err := solve.Solve(sctx, g, solve.Options{MaxNodes: p.nodes, MemoryMB: p.memMB, Table: p.table})
	if err != nil || !res.Complete || len(res.Best) == 0 {
		if ctx.Err() != nil {
			return rules.NoMove, false, ctx.Err()
		}
		// Out of time, nodes or memory, or rules the solver cannot settle:
		// the fallback plays.
		return rules.NoMove, false, nil
	}
	return res.Best[p.rng.n(len(res.Best))], true, nil
}
