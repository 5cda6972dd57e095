package solve

import (
	"context"
	"fmt"

	"alak/rules"
)

// Proof is what Prove found: whether the player can force a win, the
// fewest plies that suffice against any defence, a principal variation (the
// winning moves against the defence that lasts longest), and the positions
// searched.
type Proof struct {
	Winner rules.Color  // the player the proof is for
	Draw   bool         // the goal was a draw or better, not a win
	Proved bool         // the goal can be forced within the depth limit
	Plies  int          // with Proved: the plies the longest defence lasts
	PV     []rules.Move // with Proved: one line of best play both ways
	Nodes  int64
	// Tree, with Proved and ProveOptions.Certificate, is the proof tree in
	// the node encoding of package proofcheck (certificate.go).
	Tree []byte
}

// ProveOptions say what Prove is to show and how far to look.
type ProveOptions struct {
	Draw  bool // a draw (by score or by repetition) meets the goal, not only a win
	Depth int  // the most plies to search
	// Progress, when set, is told each depth searched without a proof and
	// the positions searched so far.
	Progress func(depth int, nodes int64)
	// Certificate asks for the proof tree (Proof.Tree), recorded by one
	// more search at the depth of the proof; it is held in memory and
	// refused beyond CertificateMB (default 4096).
	Certificate   bool
	CertificateMB int
}

// Prove searches whether player w can force a win (a game that ends with w
// ahead, not a draw) from the game's current position within opt.Depth
// plies, by iterative deepening over the game tree itself: every move is
// played on the Game, so repetition counts, superko, passes and prisoners
// follow the rules exactly and no result is shared between different
// histories. A proof found is therefore a proof for the game as it stands;
// not finding one within the depth proves nothing either way (Proved is
// false).
//
// With opt.Draw the goal is weaker: a game that ends with w ahead or drawn,
// which refutes a claim that the opponent can force a win.
//
// It answers questions of the seeds' kind ("Black can ensure a win by
// opening on point 2") where the full state graph would mix histories, as
// under the traditional preset, whose score counts prisoners and whose
// draw by repetition ignores them.
func Prove(ctx context.Context, g *rules.Game, w rules.Color, opt ProveOptions) (Proof, error) {
	p := &prover{ctx: ctx, g: g.Clone(), w: w, draw: opt.Draw, cut: map[uint64]rules.Move{}}
	res := Proof{Winner: w, Draw: opt.Draw}
	for d := 0; d <= opt.Depth; d++ {
		ok := p.win(d)
		res.Nodes = p.nodes
		if p.err != nil {
			return res, fmt.Errorf("prove cut off after %d positions: %w", p.nodes, p.err)
		}
		if ok {
			res.Proved, res.Plies = true, d
			res.PV = p.pv(d)
			res.Nodes = p.nodes
			if p.err == nil && opt.Certificate {
				res.Tree, p.err = p.certificate(d, opt.CertificateMB)
				res.Nodes = p.nodes
				if p.err != nil {
					return res, fmt.Errorf("proved within %d plies, but the certificate was not recorded: %w", d, p.err)
				}
			}
			if p.err != nil {
				// The proof stands; only the line, which searches again, was cut.
				return res, fmt.Errorf("proved within %d plies, but the principal variation was cut off after %d positions: %w", d, p.nodes, p.err)
			}
			return res, nil
		}
		if opt.Progress != nil {
			opt.Progress(d, p.nodes)
		}
	}
	return res, nil
}

type prover struct {
	ctx   context.Context
	g     *rules.Game
	w     rules.Color
	draw  bool // a draw meets the goal
	nodes int64
	err   error
	bufs  [][]rules.Move
	// rec, while a certificate is recorded, receives the proof tree of the
	// search (certificate.go); recMax bounds its length.
	rec    []byte
	recMax int
	// cut remembers, by position, the move that last decided a node there
	// (a win for the attacker, a refutation for the defender). It only
	// orders moves, so sharing it between histories cannot change a result.
	cut map[uint64]rules.Move
}

// moves returns the legal moves at ply depth d of the search in a buffer
// kept for that depth.
func (p *prover) moves(d int) []rules.Move {
	for len(p.bufs) <= d {
		p.bufs = append(p.bufs, nil)
	}
	p.bufs[d] = p.g.LegalMoves(p.bufs[d][:0])
	return p.bufs[d]
}

// win reports whether w wins from the game's position within d plies.
func (p *prover) win(d int) bool {
	p.nodes++
	if p.nodes&(1<<16-1) == 0 && p.err == nil {
		p.err = p.ctx.Err()
	}
	if p.err != nil {
		return false
	}
	if o := p.g.Outcome(); o.Over() {
		if p.recMax > 0 {
			p.recordEnd(o)
		}
		return o.Winner == p.w || (p.draw && o.Winner == rules.None)
	}
	if d == 0 {
		return false
	}
	ms := p.moves(d)
	pos := p.g.Position()
	attack := pos.ToMove() == p.w
	key := pos.Hash() ^ uint64(pos.Prisoners(rules.Black)-pos.Prisoners(rules.White))*0x9E3779B97F4A7C15 ^ uint64(pos.Passes())
	if m, ok := p.cut[key]; ok {
		for i := range ms {
			if ms[i] == m {
				ms[0], ms[i] = ms[i], ms[0]
				break
			}
		}
	}
	mark := p.recordNode(attack, len(ms))
	for _, m := range ms {
		if err := p.g.Play(m); err != nil {
			p.err = fmt.Errorf("the kernel refused its own legal move %v: %w", m, err)
			return false
		}
		child := p.recordMove(attack, m)
		ok := p.win(d - 1)
		_ = p.g.Undo()
		if ok == attack {
			p.cut[key] = m
			if !attack {
				p.recordDrop(mark) // refuted: the node is no part of a proof
			}
			return attack // a winning move, or a defence that holds
		}
		if attack {
			p.recordDrop(child) // this move does not win: try the next
		}
	}
	if attack {
		p.recordDrop(mark)
	}
	return !attack
}

// least returns the fewest plies (up to d) within which w wins after m is
// played, or -1.
func (p *prover) least(m rules.Move, d int) int {
	if err := p.g.Play(m); err != nil {
		return -1
	}
	defer func() { _ = p.g.Undo() }()
	for k := 0; k <= d; k++ {
		if p.win(k) {
			return k
		}
	}
	return -1
}

// pv follows the proof from the current position, which w wins within d
// plies: w's quickest win, the defence that lasts longest.
func (p *prover) pv(d int) []rules.Move {
	var line []rules.Move
	plays := 0
	defer func() {
		for range plays {
			_ = p.g.Undo()
		}
	}()
	for d > 0 && !p.g.Over() {
		ms := append([]rules.Move(nil), p.moves(d)...)
		best, bestK := rules.NoMove, -1
		attack := p.g.Position().ToMove() == p.w
		for _, m := range ms {
			k := p.least(m, d-1)
			switch {
			case attack && k >= 0 && (bestK < 0 || k < bestK):
				best, bestK = m, k
			case !attack && k > bestK:
				best, bestK = m, k
			}
		}
		if best == rules.NoMove || p.g.Play(best) != nil {
			break
		}
		plays++
		line = append(line, best)
		d = bestK
	}
	return line
}
