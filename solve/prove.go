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
	// TableHits counts the positions the table or the graph settled,
	// TableStored the table's entries written (ProveOptions.Table, Graph).
	TableHits, TableStored int64
	// With ProofNumbers and Table: the lookups the windows' draws and the
	// shared wins answered, and the shared wins their reach refused.
	WindowHits, WinHits, WinMisses int64
	// With a certificate of a win from ProofNumbers and Table (Tree, or
	// Counter): its shared subtrees, those of them written at a state that
	// had one already, which did not hold on the line (reach.go), the
	// references to them, and the subtrees written that no reference
	// named, put back in line.
	WinSubtrees, WinSubtreesAgain, WinReferences, WinSubtreesInLine int64
	// Tree, with Proved and ProveOptions.Certificate, is the proof tree in
	// the node encoding of package proofcheck (certificate.go).
	Tree []byte
	// Written, with ProveOptions.Superko and a certificate (Tree or
	// Counter), counts the positions written; the shared subtrees are
	// counted as for a win above (WinSubtrees, WinReferences,
	// WinSubtreesInLine).
	Written int64
	// Disproved, with ProveOptions.ProofNumbers: no strategy of the
	// player's meets the goal, however long the game (for a draw goal:
	// the opponent wins).
	Disproved bool
	// Counter, with Disproved and ProveOptions.Counter, is the certificate
	// of what the disproof shows: the opponent (Winner.Opp()) forces the
	// other goal (a draw or better where the goal was a win, a win where
	// it was a draw or better); CounterPlies is its longest line.
	Counter      []byte
	CounterPlies int
}

// ProveOptions say what Prove is to show and how far to look.
type ProveOptions struct {
	Draw  bool // a draw (by score or by repetition) meets the goal, not only a win
	Depth int  // the most plies to search
	// Progress, when set, is told each depth searched without a proof and
	// the positions searched so far.
	Progress func(depth int, nodes int64)
	// Searched, with ProofNumbers, is told every 2^22 positions the
	// positions searched so far and the entries of the table; with
	// Superko, every 10 seconds, the positions searched and the positions
	// of the certificate written so far.
	Searched func(nodes int64, entries int)
	// Certificate asks for the proof tree (Proof.Tree), recorded by one
	// more search at the depth of the proof; it is held in memory and
	// refused beyond CertificateMB (default 4096).
	Certificate   bool
	CertificateMB int
	// Plain writes the certificate as a plain tree, every line in full:
	// without it, a draw's certificate under the table's rules writes each
	// state the table or the graph proved once, as a shared subtree
	// (share.go).
	Plain bool
	// Table shares results between histories where that is sound
	// (provetable.go, docs/solver-proof-search.md "A table for the proof search"): a
	// draw proved (Draw goals) or a depth searched without a win (win
	// goals), stored by state when it relied on no repetition of a
	// position from before the node. It changes no result, only the
	// positions searched; rules it is not sound for (superko, grids,
	// sliding) search without it. With ProofNumbers it also keeps the
	// side seeking a draw's results that relied on repetitions of
	// positions from up to 64 plies before the node, keyed by those
	// plies' positions (dfpn.go, windowKey), and the side seeking a
	// win's results, each with its reach, used on every line where the
	// reach holds (reach.go; NoSharedWins turns that off, for
	// measurements). TableEntries bounds it (default 30 million); beyond,
	// nothing more is stored.
	Table        bool
	TableEntries int
	NoSharedWins bool
	// Graph settles positions by the state graph (provegraph.go): with
	// Draw, a position from which the graph's strategy forces a draw or
	// better ends the search there as proved (the certificate writes that
	// strategy out); without, a position outside the graph's win
	// attractor ends it as not won. The plies of a proof are then those of
	// the proof found, graph strategies included, not the least possible.
	// Same rules as Table; Prisoners as in GraphOptions.
	Graph     bool
	Prisoners int
	// ProofNumbers searches by depth-first proof-number search (dfpn.go)
	// instead of iterative deepening: no depth limit (Depth is ignored),
	// and the goal is settled both ways, proved or disproved (Proof.
	// Disproved); with Counter, a disproof is recorded as the opponent's
	// certificate (Proof.Counter). TableEntries bounds the table of
	// proof numbers (default 30 million; when full, the entries whose
	// search took least work, at least half, are dropped, and searched
	// again when needed). With Table, the states where the side seeking a
	// draw obtained it with no repetition from before the node are kept
	// by state too (as many again at most) and settle that side's result
	// on every path (a draw certificate writes each once, as a shared
	// subtree). Graph settles positions as above. Plies is the longest
	// line of the certificate, when one is recorded.
	ProofNumbers bool
	Counter      bool
	// Superko proves the goal under positional linear Go (the tromp-taylor
	// preset on a line of up to 14 points) by the solver of method 4
	// (superko.go) instead, with a table of MemoryMB megabytes (256 when
	// 0): the goal, a win or a draw with the rules' komi, is one of its
	// bounds. It settles the goal both ways, and the certificate follows
	// the solver's proof, each node a shared subtree of format 4 where the
	// history allows (superko_cert.go). Budget, when above 0, bounds the
	// positions of each question asked of the solver; the writer follows
	// the moves of a question cut off instead, as a split does. Depth,
	// Table, Graph and ProofNumbers are not used.
	Superko  bool
	MemoryMB int
	Budget   int64
	// ignoreConds (tests) lets the superko writer refer to a subtree
	// whatever its conditions, to show that the checker refuses it.
	ignoreConds bool
	// maxConds (tests), when above 0, is the superko writer's bound on a
	// subtree's conditions in place of skMaxConds.
	maxConds int
}

// Prove searches whether player w can force a win (a game that ends with w
// ahead, not a draw) from the game's current position within opt.Depth
// plies, by iterative deepening over the game tree itself: every move is
// played on the Game, so repetition counts, superko, passes and prisoners
// follow the rules exactly and no result is shared between different
// histories (but with opt.Table and opt.Graph, which share only results no
// history can change). A proof found is therefore a proof for the game as
// it stands; not finding one within the depth proves nothing either way
// (Proved is false).
//
// With opt.Draw the goal is weaker: a game that ends with w ahead or drawn,
// which refutes a claim that the opponent can force a win.
//
// It answers questions of the seeds' kind ("Black can ensure a win by
// opening on point 2") where the full state graph would mix histories, as
// under the traditional preset, whose score counts prisoners and whose
// draw by repetition ignores them.
func Prove(ctx context.Context, g *rules.Game, w rules.Color, opt ProveOptions) (res Proof, err error) {
	if opt.Superko {
		return proveSuperko(ctx, g, w, opt)
	}
	p := &prover{ctx: ctx, g: g.Clone(), w: w, draw: opt.Draw, cut: map[uint64]rules.Move{}}
	if opt.Table && tableRules(g.Rules()) && !opt.ProofNumbers {
		p.tt, p.ttMax = map[tableKey]int32{}, opt.TableEntries
		if p.ttMax <= 0 {
			p.ttMax = defaultTableEntries
		}
		for i := 0; i <= g.Len(); i++ {
			p.line = append(p.line, g.PositionAt(i).Hash())
		}
	}
	if opt.Graph {
		if err := p.useGraph(opt.Prisoners); err != nil {
			return Proof{Winner: w, Draw: opt.Draw}, err
		}
	}
	res = Proof{Winner: w, Draw: opt.Draw}
	defer func() { res.TableHits, res.TableStored = p.hits, p.stored }()
	if opt.ProofNumbers {
		return p.proveNumbers(opt)
	}
	for d := 0; d <= opt.Depth; d++ {
		ok, h, _ := p.search(d, true)
		res.Nodes = p.nodes
		if p.err != nil {
			return res, fmt.Errorf("prove cut off after %d positions: %w", p.nodes, p.err)
		}
		if ok {
			res.Proved, res.Plies = true, d
			if p.grank != nil {
				res.Plies = int(h)
			}
			res.PV = p.pv(d)
			res.Nodes = p.nodes
			if p.err == nil && opt.Certificate {
				res.Tree, p.err = p.certificate(d, opt.CertificateMB, !opt.Plain)
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
	// sh, while a certificate of a draw is recorded under the table's
	// rules, numbers the shared subtrees written (share.go).
	sh *shares
	// cut remembers, by position, the move that last decided a node there
	// (a win for the attacker, a refutation for the defender). It only
	// orders moves, so sharing it between histories cannot change a result.
	cut map[uint64]rules.Move
	// sg and grank, with ProveOptions.Graph, are the state graph and the
	// ranks of the prover's attractor in it (draw goals: a draw or
	// better; win goals: a win).
	sg    *stateGraph
	grank []int32
	// tt, with ProveOptions.Table under rules it is sound for, is the
	// history-free table (provetable.go), at most ttMax entries; line holds
	// Position.Hash of every position of the game from its start; hits
	// and stored count the uses of the table and the graph and the
	// entries written.
	tt           map[tableKey]int32
	ttMax        int
	line         []uint64
	hits, stored int64
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
	ok, _, _ := p.search(d, true)
	return ok
}

// search is win with what the table needs (provetable.go): the plies the
// proof found takes (h, with a success) and the earliest line index a
// repetition draw the result relied on reaches back to (dep, noDep when
// none). probe false skips the table at this node only: a recording search
// expands a stored proof through it.
func (p *prover) search(d int, probe bool) (ok bool, h, dep int32) {
	p.nodes++
	if p.nodes&(1<<16-1) == 0 && p.err == nil {
		p.err = p.ctx.Err()
	}
	if p.err != nil {
		return false, 0, noDep
	}
	if o := p.g.Outcome(); o.Over() {
		if p.recMax > 0 {
			p.recordEnd(o)
		}
		dep = noDep
		if p.tt != nil && o.Reason == rules.Repetition {
			dep = p.repDep()
		}
		return o.Winner == p.w || (p.draw && o.Winner == rules.None), 0, dep
	}
	if p.grank != nil {
		// Positions beyond a state out of the prisoner range are not in
		// the graph: the search goes on there without it.
		i, ok := p.sg.keys[p.key()]
		if r := p.grank[i]; ok && p.draw && r >= 0 {
			p.hits++
			if p.recMax > 0 {
				return p.writeStrategy(), r, noDep
			}
			return true, r, noDep
		} else if ok && !p.draw && r < 0 {
			p.hits++
			return false, int32(d), noDep
		}
	}
	if d == 0 {
		return false, 0, noDep
	}
	if p.tt != nil && probe {
		if e, hit := p.tt[p.key()]; hit {
			switch {
			case p.draw && int(e) <= d && p.recMax > 0 && p.sh != nil:
				// A draw proved within e plies on any path: the recording
				// search writes it once, as a shared subtree.
				p.hits++
				return p.sharedProof(e)
			case p.draw && int(e) <= d && p.recMax > 0:
				// The same, written out where it is met by searching it
				// again to depth e.
				p.hits++
				return p.search(int(e), false)
			case p.draw && int(e) <= d:
				p.hits++
				return true, e, noDep
			case !p.draw && d <= int(e):
				p.hits++
				return false, 0, noDep
			}
		}
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
	dep = noDep
	for _, m := range ms {
		if err := p.play(m); err != nil {
			p.err = fmt.Errorf("the kernel refused its own legal move %v: %w", m, err)
			return false, 0, noDep
		}
		child := p.recordMove(attack, m)
		cok, ch, cdep := p.search(d-1, true)
		p.undo()
		if cok == attack {
			p.cut[key] = m
			if !attack {
				p.recordDrop(mark) // refuted: the node is no part of a proof
			}
			// A winning move, or a defence that holds: this child alone
			// decides the node.
			if !attack {
				ch = int32(d - 1) // a failure is stored with the depth searched
			}
			p.store(attack, ch+1, cdep)
			return attack, ch + 1, cdep
		}
		if attack {
			p.recordDrop(child) // this move does not win: try the next
		}
		// Every child decides the node together.
		h, dep = max(h, ch+1), min(dep, cdep)
	}
	if attack {
		p.recordDrop(mark)
		h = int32(d) // a failure is stored with the depth searched
	}
	p.store(!attack, h, dep)
	return !attack, h, dep
}

// play plays m on the game and, with the table, on the line.
func (p *prover) play(m rules.Move) error {
	if err := p.g.Play(m); err != nil {
		return err
	}
	if p.tt != nil {
		p.line = append(p.line, p.g.Position().Hash())
	}
	return nil
}

// undo takes back the last move play played.
func (p *prover) undo() {
	_ = p.g.Undo()
	if p.tt != nil {
		p.line = p.line[:len(p.line)-1]
	}
}

// least returns the fewest plies (up to d) within which w wins after m is
// played, or -1.
func (p *prover) least(m rules.Move, d int) int {
	if err := p.play(m); err != nil {
		return -1
	}
	defer p.undo()
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
			p.undo()
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
		if best == rules.NoMove || p.play(best) != nil {
			break
		}
		plays++
		line = append(line, best)
		d = bestK
	}
	return line
}
