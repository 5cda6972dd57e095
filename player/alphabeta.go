package player

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"time"

	"alak/rules"
)

// AlphaBeta is a negamax alpha-beta searcher with iterative deepening, a
// transposition table, history-heuristic move ordering and, on lines, a
// quiescence search over captures. Its evaluation is evaluate's. It follows
// the game's repetition draw and superko along every line it searches (the
// transposition table, keyed by position, may still mix values reached by
// different histories: it is a heuristic player, not the solver).
//
// Spec: "alphabeta" with options time=DURATION (per move, default 1s),
// depth=N (the deepest iteration), nodes=N (a node budget). With depth or
// nodes and no time, the search is deterministic: the same seed plays the
// same moves.
type AlphaBeta struct {
	spec     string
	maxDepth int
	maxNodes int64
	movetime time.Duration
	rng      fastRand

	tt      []ttEntry
	hist    *history
	order   [2][]int32 // history heuristic, by side and move index
	nodes   int64
	reached int // the deepest iteration the last Move finished
	stopped bool
	ctx     context.Context
	end     time.Time
	timed   bool
}

type ttEntry struct {
	key   uint64
	value float32
	best  rules.Move
	depth int8
	bound int8 // boundExact, boundLower or boundUpper
}

const (
	boundExact = iota + 1
	boundLower
	boundUpper
)

const ttBits = 18
const maxSearchDepth = 100

// NewAlphaBeta returns an alpha-beta player. depth <= 0 means no depth
// limit; nodes <= 0 no node limit; movetime <= 0 no time limit (at least one
// limit should be set).
func NewAlphaBeta(spec string, depth int, nodes int64, movetime time.Duration, seed uint64) *AlphaBeta {
	if depth <= 0 || depth > maxSearchDepth {
		depth = maxSearchDepth
	}
	return &AlphaBeta{spec: spec, maxDepth: depth, maxNodes: nodes, movetime: movetime,
		rng: fastRand{seed ^ 0x616c7068}, tt: make([]ttEntry, 1<<ttBits)}
}

func newAlphaBetaSpec(args string, seed uint64) (Player, error) {
	o, err := parseOptions("alphabeta", args, "time", "depth", "nodes")
	if err != nil {
		return nil, err
	}
	depth, err := o.int("alphabeta", "depth", 0, 1, maxSearchDepth)
	if err != nil {
		return nil, err
	}
	nodes, err := o.int("alphabeta", "nodes", 0, 1, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	def := time.Duration(0)
	if depth == 0 && nodes == 0 {
		def = time.Second
	}
	t, err := o.duration("alphabeta", "time", def)
	if err != nil {
		return nil, err
	}
	return NewAlphaBeta(specName("alphabeta", args), depth, int64(nodes), t, seed), nil
}

// specName writes a player's name as its spec.
func specName(name, args string) string {
	if args == "" {
		return name
	}
	return name + ":" + args
}

// Name returns the player's spec.
func (p *AlphaBeta) Name() string { return p.spec }

// Close releases nothing: the player holds no process or file open.
func (p *AlphaBeta) Close() error { return nil }

// Nodes returns the number of positions the last Move searched.
func (p *AlphaBeta) Nodes() int64 { return p.nodes }

// moveIndex maps a move to a slot of the history-heuristic table.
func moveIndex(m rules.Move) int {
	if m.IsSlide() {
		return 19*19 + m.From()*64 + m.To()
	}
	if m.IsPlace() {
		return m.Point()
	}
	return 19*19 + 64*64
}

const moveSlots = 19*19 + 64*64 + 1

// Move searches the game's position and returns the best move found.
func (p *AlphaBeta) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	if err := ctx.Err(); err != nil {
		return rules.NoMove, err
	}
	root := g.Position()
	p.hist = newHistory(g)
	moves := p.hist.Moves(root, nil)
	if len(moves) == 0 {
		return rules.NoMove, ErrNoMove
	}
	if len(moves) == 1 {
		return moves[0], nil
	}
	p.ctx, p.nodes, p.stopped, p.reached = ctx, 0, false, 0
	p.timed = p.movetime > 0
	if p.timed {
		p.end = time.Now().Add(p.movetime)
	}
	if dl, ok := ctx.Deadline(); ok && (!p.timed || dl.Before(p.end)) {
		p.end, p.timed = dl, true
	}
	for s := range p.order {
		if p.order[s] == nil {
			p.order[s] = make([]int32, moveSlots)
		}
		for i := range p.order[s] {
			p.order[s][i] /= 8
		}
	}
	// Shuffle the root moves with the seeded source: equal moves are then
	// chosen at random, and the stable sorts below keep that order.
	for i := len(moves) - 1; i > 0; i-- {
		j := p.rng.n(i + 1)
		moves[i], moves[j] = moves[j], moves[i]
	}
	children := make([]rules.Position, len(moves))
	for i, m := range moves {
		children[i], _ = root.Play(m)
	}
	values := make([]float64, len(moves))
	var prev []float64
	best := moves[0]
	for depth := 1; depth <= p.maxDepth; depth++ {
		alpha := math.Inf(-1)
		iterBest, done := rules.NoMove, 0
		for i := range moves {
			q := children[i]
			p.hist.Push(q)
			v := -p.search(q, depth-1, math.Inf(-1), -alpha, 1)
			p.hist.Pop(q)
			if p.stopped {
				break
			}
			values[i] = v
			done++
			if v > alpha {
				alpha, iterBest = v, moves[i]
			}
		}
		if p.stopped {
			// The previous best is searched first: a move that beat it in
			// the unfinished iteration is better still.
			if done > 1 && iterBest != moves[0] {
				best = iterBest
			}
			break
		}
		best, p.reached = iterBest, depth
		// Order the next iteration by these values, best first.
		idx := make([]int, len(moves))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			switch {
			case values[a] > values[b]:
				return -1
			case values[a] < values[b]:
				return 1
			}
			return 0
		})
		decided := allDecided(values, prev)
		moves, children, values = permute(moves, idx), permute(children, idx), permute(values, idx)
		if decided {
			break
		}
		prev = append(prev[:0], values...)
	}
	return best, nil
}

func permute[T any](s []T, idx []int) []T {
	out := make([]T, len(s))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// allDecided reports whether deeper search cannot change the root's
// values: every move leads to a proven win or loss, with the same values
// (margins) as the iteration before.
func allDecided(values, prev []float64) bool {
	if len(prev) != len(values) {
		return false
	}
	for i, v := range values {
		if math.Abs(v) < winValue/2 || v != prev[i] {
			return false
		}
	}
	return true
}

func (p *AlphaBeta) checkStop() bool {
	if p.stopped {
		return true
	}
	if p.maxNodes > 0 && p.nodes >= p.maxNodes {
		p.stopped = true
	} else if p.nodes&1023 == 0 {
		if p.ctx.Err() != nil || (p.timed && time.Now().After(p.end)) {
			p.stopped = true
		}
	}
	return p.stopped
}

// search returns the negamax value of pos (already pushed on the history)
// for the player to move.
func (p *AlphaBeta) search(pos rules.Position, depth int, alpha, beta float64, ply int) float64 {
	p.nodes++
	if p.checkStop() {
		return 0
	}
	var buf [64]rules.Move
	moves := p.hist.Moves(pos, buf[:0])
	if over, margin := p.hist.Outcome(pos, len(moves)); over {
		return terminalValue(margin, pos.ToMove(), ply)
	}
	if depth <= 0 {
		return p.quiesce(pos, alpha, beta, ply, 4)
	}
	key := ttKey(pos)
	e := &p.tt[key&(1<<ttBits-1)]
	ttMove := rules.NoMove
	if e.key == key && e.bound != 0 {
		ttMove = e.best
		if int(e.depth) >= depth {
			v := float64(e.value)
			switch {
			case e.bound == boundExact:
				return v
			case e.bound == boundLower && v >= beta:
				return v
			case e.bound == boundUpper && v <= alpha:
				return v
			}
		}
	}
	side := pos.ToMove()
	order := p.order[side]
	slices.SortFunc(moves, func(a, b rules.Move) int {
		if a == ttMove {
			return -1
		}
		if b == ttMove {
			return 1
		}
		return int(order[moveIndex(b)]) - int(order[moveIndex(a)])
	})
	alpha0 := alpha
	best, bestMove := math.Inf(-1), rules.NoMove
	for _, m := range moves {
		q, err := pos.Play(m)
		if err != nil {
			continue
		}
		p.hist.Push(q)
		v := -p.search(q, depth-1, -beta, -alpha, ply+1)
		p.hist.Pop(q)
		if p.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			if o := &order[moveIndex(m)]; *o < 1<<24 {
				*o += int32(depth * depth)
			}
			break
		}
	}
	bound := int8(boundExact)
	switch {
	case best <= alpha0:
		bound = boundUpper
	case best >= beta:
		bound = boundLower
	}
	*e = ttEntry{key: key, value: float32(best), best: bestMove, depth: int8(depth), bound: bound}
	return best
}

// ttKey is the transposition table's key of pos: its Hash, which leaves
// out the passes that led to it (the next pass may end the game) and the
// prisoners (counted under territory scoring), with both mixed in.
func ttKey(pos rules.Position) uint64 {
	k := pos.Hash()
	if n := pos.Passes(); n > 0 {
		k ^= uint64(n) * 0x9e3779b97f4a7c15
	}
	if d := pos.Prisoners(rules.Black) - pos.Prisoners(rules.White); d != 0 {
		k ^= uint64(int64(d)) * 0xc2b2ae3d27d4eb4f
	}
	return k
}

// quiesce extends a leaf on lines by captures only, up to qdepth plies, so
// the evaluation is not taken in the middle of an exchange. The side to
// move may stand on the evaluation. Repetition and superko are not followed
// here (captures seldom return to a position within a few plies).
func (p *AlphaBeta) quiesce(pos rules.Position, alpha, beta float64, ply, qdepth int) float64 {
	stand := evaluate(pos)
	if qdepth == 0 || stand >= beta {
		return stand
	}
	black, white, _, ok := pos.Line()
	if !ok {
		return stand
	}
	if stand > alpha {
		alpha = stand
	}
	me := pos.ToMove()
	opp := white
	if me == rules.White {
		opp = black
	}
	best := stand
	var buf [64]rules.Move
	moves := buf[:0]
	if pts, ok := pos.LegalPoints(); ok {
		// Only a placement next to an enemy stone can capture.
		for near := pts & (opp<<1 | opp>>1); near != 0; near &= near - 1 {
			moves = append(moves, rules.Place(bits.TrailingZeros64(near)))
		}
	} else {
		moves = pos.LegalMoves(moves)
	}
	for _, m := range moves {
		if v := p.quiesceMove(pos, m, alpha, beta, ply, qdepth); v > best {
			best = v
			if v > alpha {
				alpha = v
			}
			if alpha >= beta {
				return best
			}
		}
	}
	return best
}

// quiesceMove returns the value of capture m for the mover, or -Inf when m
// captures nothing.
func (p *AlphaBeta) quiesceMove(pos rules.Position, m rules.Move, alpha, beta float64, ply, qdepth int) float64 {
	p.nodes++
	q, err := pos.Play(m)
	opp := pos.ToMove().Opp()
	if err != nil || q.Count(opp) >= pos.Count(opp) {
		return math.Inf(-1)
	}
	if q.Over() {
		return -terminalValue(q.Outcome().Margin, q.ToMove(), ply+1)
	}
	return -p.quiesce(q, -beta, -alpha, ply+1, qdepth-1)
}
