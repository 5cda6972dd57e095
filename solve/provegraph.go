package solve

import (
	"context"
	"errors"
	"fmt"
	"math"

	"alak/rules"
)

// ProveGraph is the state-graph method for games whose value depends on
// the history through prisoners and repetition counts (docs/solver-proof-search.md, "The
// state graph with prisoners"). Its states are those of the table
// (provetable.go): stones, player to move, forbidden points, passes and the
// prisoner difference, which determine every legal move and every final
// score under the rules it accepts (graphRules). The graph ignores the
// repetition rule. A state whose prisoner difference is beyond ±Prisoners
// is not expanded: the side ahead wins it by passing to the end (its margin
// is at least the difference less twice the points less the komi), which
// makes the range exact. On the graph, retrograde analysis gives for each
// side the states from which it can force a finished game meeting a goal
// (its attractor, with the plies it takes). Three facts carry the results
// over to the game with its history (docs/solver-proof-search.md proves them):
//
//   - A win w can force in the game is a win in the graph: the game's
//     strategy tree is finite and uses only the graph's moves. So a state
//     outside w's win attractor proves that w cannot win, and that the
//     opponent holds a draw or better.
//   - A draw or better w can force in the graph holds in the game: a
//     repetition draw only ends a line early in a draw. Following the
//     attractor's ranks down gives the strategy, which is written out as a
//     certificate.
//   - A win w forces in the graph holds in the game when no line of the
//     strategy meets a repetition draw; writing the strategy out on the
//     game checks each line, so a proved win is exact.
type GraphOptions struct {
	Draw      bool // the goal: a draw or better, not only a win
	Prisoners int  // states with a prisoner difference beyond ±Prisoners are not expanded (more than twice the points plus the komi; 0: just so)
	// Certificate asks for the strategy written out as a proof tree
	// (GraphProof.Tree) when the goal is forced; refused beyond
	// CertificateMB megabytes (default 4096).
	Certificate   bool
	CertificateMB int
	// Plain writes a draw's certificate as a plain tree, every line in
	// full, not each state of the strategy once (share.go).
	Plain     bool
	MaxStates int // refuse graphs larger than this (default 50 million)
}

// GraphProof is what ProveGraph found for player Winner and its goal.
type GraphProof struct {
	Winner rules.Color
	Draw   bool
	States int // states of the graph
	Out    int // of them, beyond the prisoner range
	// Proved: the goal is forced in the game, by the strategy of the
	// attractor (its certificate in Tree when asked for); Plies is its
	// rank, the most plies a line of it lasts.
	Proved bool
	Plies  int
	Nodes  int64 // positions of the strategy written out
	Tree   []byte
	// Holds: the opponent cannot win in the game (outside its win
	// attractor), so Winner holds a draw or better (no certificate).
	Holds bool
	// CannotWin: Winner cannot win in the game (outside its own win
	// attractor).
	CannotWin bool
}

// graphRules reports whether the state graph is sound under r: the
// table's rules (tableRules), with passing allowed, no filling of one's own
// last liberty and prisoners counted in the score, which the bound beyond
// the prisoner range needs (a side that only passes loses no stone but to
// captures, and the other can place only so often before it must pass).
func graphRules(r rules.Rules) bool {
	return tableRules(r) && r.Pass && r.EndPasses >= 1 && r.Scoring == rules.ScoreAreaPrisoners && r.Own == rules.OwnIllegal
}

var errGraphRules = errors.New("the state graph needs a line of placed stones of at most 64 points without superko, unchanged-board rule or safe points, with passing, no filling of one's own last liberty, and prisoners counted in the score (traditional)")

type stateGraph struct {
	pos    []rules.Position
	keys   map[tableKey]int32
	kind   []uint8 // graphInner, graphEnd, graphOut
	margin []float64
	off    []int32 // successors of i: to[off[i]:off[i+1]]
	to     []int32
	poff   []int32 // predecessors of i: pred[poff[i]:poff[i+1]]
	pred   []int32
}

const (
	graphInner = iota
	graphEnd
	graphOut
)

func diffOf(pos rules.Position) int {
	return pos.Prisoners(rules.Black) - pos.Prisoners(rules.White)
}

// buildGraph explores every state reachable from root.
func buildGraph(ctx context.Context, root rules.Position, lim, maxStates int) (*stateGraph, error) {
	sg := &stateGraph{keys: map[tableKey]int32{}}
	add := func(pos rules.Position) int32 {
		k := keyOf(pos)
		if i, ok := sg.keys[k]; ok {
			return i
		}
		i := int32(len(sg.pos))
		sg.keys[k] = i
		sg.pos = append(sg.pos, pos)
		kind, m := uint8(graphInner), 0.0
		switch d := diffOf(pos); {
		case pos.Over():
			kind, m = graphEnd, pos.Outcome().Margin
		case d > lim || d < -lim:
			kind = graphOut
		}
		sg.kind = append(sg.kind, kind)
		sg.margin = append(sg.margin, m)
		return i
	}
	add(root)
	var buf []rules.Move
	sg.off = append(sg.off, 0)
	for i := 0; i < len(sg.pos); i++ {
		if i&(1<<14-1) == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if len(sg.pos) > maxStates {
				return nil, fmt.Errorf("the graph passed %d states; give a smaller prisoner range or a larger limit", maxStates)
			}
		}
		if sg.kind[i] == graphInner {
			pos := sg.pos[i]
			buf = pos.LegalMoves(buf[:0])
			for _, m := range buf {
				next, err := pos.Play(m)
				if err != nil {
					return nil, fmt.Errorf("the kernel refused its own legal move %v: %w", m, err)
				}
				sg.to = append(sg.to, add(next))
			}
		}
		sg.off = append(sg.off, int32(len(sg.to)))
	}
	n := len(sg.pos)
	sg.poff = make([]int32, n+1)
	for _, j := range sg.to {
		sg.poff[j+1]++
	}
	for i := range n {
		sg.poff[i+1] += sg.poff[i]
	}
	sg.pred = make([]int32, len(sg.to))
	fill := append([]int32(nil), sg.poff[:n]...)
	for i := range n {
		for _, j := range sg.to[sg.off[i]:sg.off[i+1]] {
			sg.pred[fill[j]] = int32(i)
			fill[j]++
		}
	}
	return sg, nil
}

// keyOf is prover.key for a position.
func keyOf(pos rules.Position) tableKey {
	b, w, f, _ := pos.Bits()
	meta := uint32(pos.ToMove()) | uint32(pos.Passes())<<1 | uint32(diffOf(pos)+1<<15)<<8
	return tableKey{b, w, f, meta}
}

// meets reports whether Black's margin m meets c's goal.
func meets(m float64, c rules.Color, draw bool) bool {
	if c == rules.White {
		m = -m
	}
	return m > 0 || (draw && m == 0)
}

// attract returns, for each state, the plies within which c can force a
// finished game meeting its goal in the graph, or -1. A state beyond the
// prisoner range counts as won by the side ahead, which passes to the end.
func (sg *stateGraph) attract(c rules.Color, draw bool) []int32 {
	n := len(sg.pos)
	rank := make([]int32, n)
	left := make([]int32, n)
	queue := make([]int32, 0, n/4)
	for i := range n {
		rank[i] = -1
		switch sg.kind[i] {
		case graphEnd:
			if meets(sg.margin[i], c, draw) {
				rank[i] = 0
				queue = append(queue, int32(i))
			}
		case graphOut:
			// Beyond the range the side ahead in prisoners wins by passing
			// to the end (docs/solver-proof-search.md): exact.
			if d := diffOf(sg.pos[i]); (d > 0) == (c == rules.Black) {
				rank[i] = 0
				queue = append(queue, int32(i))
			}
		default:
			left[i] = sg.off[i+1] - sg.off[i]
		}
	}
	for q := 0; q < len(queue); q++ {
		j := queue[q]
		for _, i := range sg.pred[sg.poff[j]:sg.poff[j+1]] {
			if rank[i] >= 0 {
				continue
			}
			if sg.pos[i].ToMove() != c {
				if left[i]--; left[i] > 0 {
					continue
				}
			}
			rank[i] = rank[j] + 1
			queue = append(queue, i)
		}
	}
	return rank
}

// ProveGraph answers whether w can force its goal from the game's current
// position by the state graph (GraphOptions), whatever the history.
func ProveGraph(ctx context.Context, g *rules.Game, w rules.Color, opt GraphOptions) (GraphProof, error) {
	res := GraphProof{Winner: w, Draw: opt.Draw}
	lim, err := GraphRange(g.Rules(), opt.Prisoners)
	if err != nil {
		return res, err
	}
	maxStates := opt.MaxStates
	if maxStates <= 0 {
		maxStates = 50_000_000
	}
	if g.Over() {
		return res, fmt.Errorf("the game is over")
	}
	sg, err := buildGraph(ctx, g.Position(), lim, maxStates)
	if err != nil {
		return res, err
	}
	res.States = len(sg.pos)
	for _, k := range sg.kind {
		if k == graphOut {
			res.Out++
		}
	}
	opp := w.Opp()
	res.Holds = sg.attract(opp, false)[0] < 0
	res.CannotWin = sg.attract(w, false)[0] < 0
	rank := sg.attract(w, opt.Draw)
	if rank[0] < 0 {
		return res, nil
	}
	res.Plies = int(rank[0])
	maxMB := opt.CertificateMB
	if maxMB <= 0 {
		maxMB = 4096
	}
	x := &expander{prover: prover{ctx: ctx, g: g.Clone(), w: w, draw: opt.Draw}, sg: sg, rank: rank}
	if opt.Certificate {
		x.recMax = maxMB << 20
	}
	var ok bool
	if opt.Draw && !opt.Plain {
		// A draw the graph forces holds from each state of the strategy
		// whatever the history: each is written once (share.go).
		x.sh = newShares()
		ok = x.expandShared(g.Position(), false)
	} else {
		ok = x.expand(false)
	}
	res.Nodes = x.nodes
	if x.err != nil {
		return res, x.err
	}
	res.Proved = ok
	if ok && opt.Certificate {
		res.Tree = x.rec
	}
	return res, nil
}

// expander plays the attractor's strategy out on the game itself: w's
// move of least rank at its nodes, every legal move at the opponent's,
// each line to the end the rules give it (repetition included), recording
// the proof tree when recMax is set.
type expander struct {
	prover
	sg   *stateGraph
	rank []int32
	// limit, when positive, is the most positions expand may play out:
	// beyond, it fails (with no error).
	limit int64
	// occ, when not nil, gets the most occurrences on the game of each
	// position expand meets where the game goes on (reach.go).
	occ map[uint64]uint8
}

// best returns w's move of the strategy at pos, whose legal moves are ms:
// the one to the state of least rank in the attractor (NoMove if none).
func (x *expander) best(pos rules.Position, ms []rules.Move) rules.Move {
	best, bestR := rules.NoMove, int32(-1)
	for _, m := range ms {
		next, err := pos.Play(m)
		if err != nil {
			continue
		}
		j, ok := x.sg.keys[keyOf(next)]
		if ok && x.rank[j] >= 0 && (bestR < 0 || x.rank[j] < bestR) {
			best, bestR = m, x.rank[j]
		}
	}
	return best
}

// expand reports whether every line from the game's position ends meeting
// the goal. passOut: w is passing to the end from a state beyond the
// prisoner range (the graph does not go further there).
func (x *expander) expand(passOut bool) bool {
	x.nodes++
	if x.limit > 0 && x.nodes > x.limit {
		return false
	}
	if x.nodes&(1<<16-1) == 0 && x.err == nil {
		x.err = x.ctx.Err()
	}
	if x.err != nil {
		return false
	}
	if o := x.g.Outcome(); o.Over() {
		if x.recMax > 0 {
			x.recordEnd(o)
		}
		return o.Winner == x.w || (x.draw && o.Winner == rules.None)
	}
	pos := x.g.Position()
	if x.occ != nil {
		h := pos.Hash()
		x.occ[h] = max(x.occ[h], uint8(min(x.g.Occurrences(), 255)))
	}
	attack := pos.ToMove() == x.w
	ms := x.moves(x.g.Len())
	if !passOut {
		i, ok := x.sg.keys[keyOf(pos)]
		if !ok || x.rank[i] < 0 {
			x.err = fmt.Errorf("the strategy left its attractor at %v", x.g.Moves())
			return false
		}
		// Beyond the range w is ahead (the attractor holds no other
		// state there) and passes to the end.
		passOut = x.sg.kind[i] == graphOut
	}
	switch {
	case attack && passOut:
		ms = []rules.Move{rules.Pass}
	case attack:
		best := x.best(pos, ms)
		if best == rules.NoMove {
			x.err = fmt.Errorf("no move of the strategy at %v", x.g.Moves())
			return false
		}
		ms = []rules.Move{best}
	}
	x.recordNode(attack, len(ms))
	for _, m := range ms {
		if err := x.g.Play(m); err != nil {
			x.err = fmt.Errorf("the kernel refused its own legal move %v: %w", m, err)
			return false
		}
		x.recordMove(attack, m)
		ok := x.expand(passOut)
		_ = x.g.Undo()
		if !ok {
			return false
		}
	}
	return true
}

// expandShared is expand for a draw goal, on positions rather than the
// game: a draw the graph's strategy forces from a state holds there on
// every path (a repetition draw only ends a line early in a draw), so
// each state of the strategy is written once, as a shared subtree, and
// referred to wherever the strategy meets it again. The certificate then
// has a node per state of the strategy, not per line.
func (x *expander) expandShared(pos rules.Position, passOut bool) bool {
	x.nodes++
	if x.nodes&(1<<16-1) == 0 && x.err == nil {
		x.err = x.ctx.Err()
	}
	if x.err != nil {
		return false
	}
	if pos.Over() {
		o := pos.Outcome()
		if x.recMax > 0 {
			x.recordEnd(o)
		}
		return o.Winner == x.w || o.Winner == rules.None
	}
	if !passOut {
		i, ok := x.sg.keys[keyOf(pos)]
		if !ok || x.rank[i] < 0 {
			x.err = fmt.Errorf("the strategy left its attractor at %v", pos)
			return false
		}
		passOut = x.sg.kind[i] == graphOut
	}
	k := shareKey{k: keyOf(pos), passOut: passOut}
	if x.refer(k) {
		return true
	}
	x.define(k)
	attack := pos.ToMove() == x.w
	ms := pos.LegalMoves(nil)
	switch {
	case attack && passOut:
		ms = []rules.Move{rules.Pass}
	case attack:
		best := x.best(pos, ms)
		if best == rules.NoMove {
			x.err = fmt.Errorf("no move of the strategy at %v", pos)
			return false
		}
		ms = []rules.Move{best}
	}
	x.recordNode(attack, len(ms))
	for _, m := range ms {
		next, err := pos.Play(m)
		if err != nil {
			x.err = fmt.Errorf("the kernel refused its own legal move %v: %w", m, err)
			return false
		}
		x.recordMove(attack, m)
		if !x.expandShared(next, passOut) {
			return false
		}
	}
	return true
}

// GraphRange checks that the state graph (ProveGraph, ProveOptions.Graph)
// applies to r with a prisoner range of lim (0: the default) and returns
// the range it will use.
func GraphRange(r rules.Rules, lim int) (int, error) {
	if !graphRules(r) {
		return 0, errGraphRules
	}
	// Beyond ±lim the side ahead wins by passing out: its margin is at
	// least the prisoner difference less twice the points less the komi.
	least := 2*r.Width + int(math.Ceil(math.Abs(r.Komi)))
	if lim <= 0 {
		return least + 1, nil
	}
	if lim <= least {
		return 0, fmt.Errorf("a prisoner range of %d: give more than %d (twice the points plus the komi), beyond which the side ahead wins by passing", lim, least)
	}
	return lim, nil
}

// useGraph builds the state graph of the prover's game for Prove.
func (p *prover) useGraph(lim int) error {
	lim, err := GraphRange(p.g.Rules(), lim)
	if err != nil {
		return err
	}
	sg, err := buildGraph(p.ctx, p.g.Position(), lim, 50_000_000)
	if err != nil {
		return err
	}
	p.sg, p.grank = sg, sg.attract(p.w, p.draw)
	return nil
}

// writeStrategy records, at a position of the prover's draw attractor,
// the attractor's strategy played out on the game (expander); it reports
// whether every line met the goal.
func (p *prover) writeStrategy() bool { return p.writeStrategyOcc(nil) }

// writeStrategyOcc is writeStrategy, telling occ, when not nil, the most
// occurrences of each position it writes (expander.occ).
func (p *prover) writeStrategyOcc(occ map[uint64]uint8) bool {
	x := &expander{prover: prover{ctx: p.ctx, g: p.g, w: p.w, draw: p.draw, rec: p.rec, recMax: p.recMax, sh: p.sh}, sg: p.sg, rank: p.grank, occ: occ}
	var ok bool
	if p.sh != nil && p.draw {
		ok = x.expandShared(p.g.Position(), false)
	} else {
		ok = x.expand(false)
	}
	p.rec, p.nodes = x.rec, p.nodes+x.nodes
	if x.err != nil && p.err == nil {
		p.err = x.err
	}
	return ok
}
