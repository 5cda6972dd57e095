package player

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"alak/rules"
)

// MCTS is a Monte Carlo tree search player: UCT selection, one node added
// per iteration, a random playout (see playout) from it, and proven results
// backed up through the tree in the manner of MCTS-Solver: a node whose
// player to move has a move to a proven win is a proven win, and one whose
// moves are all proven is worth the best of them (a loss, a draw or a win).
// The tree follows the game's repetition draw and superko exactly, so proofs
// hold for the game as it stands.
//
// Spec: "mcts" with options time=DURATION (per move, default 1s),
// playouts=N (an iteration budget, which makes play deterministic for a
// seed), c=X (the exploration constant, default 0.7).
type MCTS struct {
	spec     string
	movetime time.Duration
	playouts int
	c        float64
	rng      fastRand

	iterations int
}

// Proof states of a node, from the point of view of the player who moved
// into it.
const (
	unproven int8 = iota
	provenWin
	provenDraw
	provenLoss
)

type mctsNode struct {
	move     rules.Move
	pos      rules.Position
	children []*mctsNode
	untried  []rules.Move
	visits   float64
	reward   float64 // for the player who moved into the node: 1 a win, 0.5 a draw
	proof    int8
	margin   float64 // Black's margin when the node ends the game
	terminal bool
}

// NewMCTS returns an MCTS player. With playouts > 0 it runs that many
// iterations per move (and stops early at movetime if movetime > 0);
// otherwise it runs until movetime.
func NewMCTS(spec string, playouts int, movetime time.Duration, c float64, seed uint64) *MCTS {
	return &MCTS{spec: spec, playouts: playouts, movetime: movetime, c: c, rng: fastRand{seed ^ 0x6d637473}}
}

func newMCTSSpec(args string, seed uint64) (Player, error) {
	o, err := parseOptions("mcts", args, "time", "playouts", "c")
	if err != nil {
		return nil, err
	}
	n, err := o.int("mcts", "playouts", 0, 1, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	def := time.Duration(0)
	if n == 0 {
		def = time.Second
	}
	t, err := o.duration("mcts", "time", def)
	if err != nil {
		return nil, err
	}
	c := 0.7
	if v, ok := o["c"]; ok {
		if c, err = strconv.ParseFloat(v, 64); err != nil || !(c >= 0 && c <= 10) {
			return nil, fmt.Errorf("player mcts: c=%q: a number from 0 to 10 such as 0.7 is accepted", v)
		}
	}
	return NewMCTS(specName("mcts", args), n, t, c, seed), nil
}

// Name returns the player's spec.
func (p *MCTS) Name() string { return p.spec }

// Close releases nothing: the player holds no process or file open.
func (p *MCTS) Close() error { return nil }

// Iterations returns the number of iterations the last Move ran.
func (p *MCTS) Iterations() int { return p.iterations }

// Move runs the search from the game's position and returns the most
// visited move, or a proven win when there is one.
func (p *MCTS) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	if err := ctx.Err(); err != nil {
		return rules.NoMove, err
	}
	root, hist, err := p.newRoot(g)
	if err != nil {
		return rules.NoMove, err
	}
	if len(root.untried) == 1 {
		return root.untried[0], nil
	}
	var end time.Time
	if p.movetime > 0 {
		end = time.Now().Add(p.movetime)
	}
	if dl, ok := ctx.Deadline(); ok && (end.IsZero() || dl.Before(end)) {
		end = dl
	}
	play := newPlayouter(g.Rules())
	path := make([]*mctsNode, 0, 64)
	p.iterations = 0
	for root.proof == unproven {
		if p.playouts > 0 && p.iterations >= p.playouts {
			break
		}
		if p.iterations&63 == 0 && p.iterations > 0 {
			if ctx.Err() != nil || (!end.IsZero() && time.Now().After(end)) {
				break
			}
		}
		path = p.iterate(root, hist, path[:0], play)
		p.iterations++
	}
	return p.choose(root), nil
}

// newRoot builds the root node of the search over g.
func (p *MCTS) newRoot(g *rules.Game) (*mctsNode, *history, error) {
	hist := newHistory(g)
	root := &mctsNode{move: rules.NoMove, pos: g.Position()}
	p.expand(root, hist)
	if root.terminal || len(root.untried) == 0 {
		return nil, nil, ErrNoMove
	}
	return root, hist, nil
}

// expand lists the moves of n (whose position is pushed on hist) in a
// random order, or marks n as the end of the game.
func (p *MCTS) expand(n *mctsNode, hist *history) {
	moves := hist.Moves(n.pos, nil)
	if over, margin := hist.Outcome(n.pos, len(moves)); over {
		n.terminal, n.margin = true, margin
		// The player who moved into n is the opponent of the player to move.
		switch v := margin * sideSign(n.pos.ToMove().Opp()); {
		case v > 0:
			n.proof = provenWin
		case v < 0:
			n.proof = provenLoss
		default:
			n.proof = provenDraw
		}
		return
	}
	for i := len(moves) - 1; i > 0; i-- {
		j := p.rng.n(i + 1)
		moves[i], moves[j] = moves[j], moves[i]
	}
	n.untried = moves
}

// iterate runs one selection, expansion, playout and back-up.
func (p *MCTS) iterate(root *mctsNode, hist *history, path []*mctsNode, play *playouter) []*mctsNode {
	n := root
	path = append(path, n)
	for n.proof == unproven && len(n.untried) == 0 {
		c := p.selectChild(n)
		if c == nil {
			break
		}
		n = c
		hist.Push(n.pos)
		path = append(path, n)
	}
	if n.proof == unproven && len(n.untried) > 0 {
		m := n.untried[len(n.untried)-1]
		n.untried = n.untried[:len(n.untried)-1]
		q, err := n.pos.Play(m)
		if err == nil {
			child := &mctsNode{move: m, pos: q}
			hist.Push(q)
			p.expand(child, hist)
			n.children = append(n.children, child)
			n = child
			path = append(path, n)
		}
	}
	// Black's reward of this iteration.
	var black float64
	switch {
	case n.proof != unproven:
		v := 0.5
		switch n.proof {
		case provenWin:
			v = 1
		case provenLoss:
			v = 0
		}
		if n.pos.ToMove().Opp() == rules.Black {
			black = v
		} else {
			black = 1 - v
		}
	default:
		res := play.run(n.pos, &p.rng)
		switch {
		case res.margin > 0:
			black = 1
		case res.margin < 0:
			black = 0
		default:
			black = 0.5
		}
	}
	for i := len(path) - 1; i >= 0; i-- {
		nd := path[i]
		nd.visits++
		if nd.pos.ToMove().Opp() == rules.Black {
			nd.reward += black
		} else {
			nd.reward += 1 - black
		}
		if i > 0 {
			hist.Pop(nd.pos)
			if nd.proof != unproven {
				p.prove(path[i-1])
			}
		}
	}
	return path
}

// prove updates n's proof from its children's: a child that is a proven win
// for n's player to move makes n a proven loss for the player who moved
// into it; when every move is expanded and proven, n is worth the best.
func (p *MCTS) prove(n *mctsNode) {
	if n.proof != unproven {
		return
	}
	best := provenLoss // of the children, for n's player to move
	for _, c := range n.children {
		switch c.proof {
		case provenWin:
			n.proof = provenLoss
			return
		case unproven:
			best = unproven
		case provenDraw:
			if best == provenLoss {
				best = provenDraw
			}
		}
	}
	if best == unproven || len(n.untried) > 0 {
		return
	}
	if best == provenDraw {
		n.proof = provenDraw
	} else {
		n.proof = provenWin
	}
}

// selectChild returns the child of n with the best UCT value; proven
// losses for the mover are avoided and a proven win is taken at once.
func (p *MCTS) selectChild(n *mctsNode) *mctsNode {
	logN := math.Log(n.visits + 1)
	var best *mctsNode
	bestV := math.Inf(-1)
	for _, c := range n.children {
		var v float64
		switch c.proof {
		case provenWin:
			return c
		case provenLoss:
			v = -1
		case provenDraw:
			v = 0.5
		default:
			v = c.reward/c.visits + p.c*math.Sqrt(logN/c.visits)
		}
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// choose returns the move to play: a proven win, otherwise the most
// visited move that is not a proven loss (a proven draw when the others look
// worse than a draw).
func (p *MCTS) choose(root *mctsNode) rules.Move {
	var best, draw *mctsNode
	for _, c := range root.children {
		switch c.proof {
		case provenWin:
			return c.move
		case provenLoss:
			continue
		case provenDraw:
			if draw == nil || c.visits > draw.visits {
				draw = c
			}
			continue
		}
		if best == nil || c.visits > best.visits {
			best = c
		}
	}
	switch {
	case best == nil && draw == nil:
		// Every move loses: play the one that held out longest.
		for _, c := range root.children {
			if best == nil || c.visits > best.visits {
				best = c
			}
		}
		if best == nil {
			return root.untried[0]
		}
	case best == nil || (draw != nil && best.reward/best.visits < 0.5):
		best = draw
	}
	return best.move
}
