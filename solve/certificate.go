package solve

import (
	"encoding/binary"
	"fmt"

	"alak/rules"
)

// The recording of a proof certificate (docs/solver-proofs.md, "Proof
// certificates"). Once Prove has found that w wins within d plies, one more
// search at depth d runs with p.rec set: win appends each node it enters in
// the node encoding of package proofcheck ('E' and the result at a finished
// game, 'M' and the move at w's nodes, 'A', the count and each reply at
// the other player's) and drops what it appended when the node turns out
// not to be part of the proof (a move of w's that does not win, a node of
// the other player's with a refutation). What is left when the root
// succeeds is exactly the proof: one winning move at each of w's nodes,
// every legal move at the other's, down to finished games that meet the
// goal. The same search on the same game gives the same answer at the same
// depth, so the recording search proves again what the last one did.

// certificate runs the recording search at depth d and returns the tree,
// refusing one longer than maxMB megabytes (4096 when maxMB is 0); share
// writes the states proved by the table or the graph once each.
func (p *prover) certificate(d, maxMB int, share bool) ([]byte, error) {
	p.startRecording(maxMB, share)
	defer func() { p.rec, p.recMax, p.sh = nil, 0, nil }()
	ok := p.win(d)
	if p.err != nil {
		return nil, p.err
	}
	if !ok {
		return nil, fmt.Errorf("the recording search at depth %d found no proof where the search did", d)
	}
	return p.rec, nil
}

// startRecording makes the prover record what it searches, up to maxMB
// megabytes (4096 when 0); share, for a draw under the table's or the
// graph's rules, writes each state they proved once (share.go).
func (p *prover) startRecording(maxMB int, share bool) {
	if maxMB <= 0 {
		maxMB = 4096
	}
	p.rec, p.recMax = nil, maxMB<<20
	if share && p.draw && (p.tt != nil || p.sg != nil) {
		p.sh = newShares()
	}
}

// recordEnd records a finished game: Black's margin in half points.
func (p *prover) recordEnd(o rules.Outcome) {
	p.rec = append(p.rec, 'E')
	p.rec = binary.AppendVarint(p.rec, int64(2*o.Margin))
	p.checkRec()
}

// recordNode starts a node with n legal moves; it returns where the node
// starts, for recordDrop.
func (p *prover) recordNode(attack bool, n int) int {
	if p.recMax == 0 {
		return 0
	}
	mark := len(p.rec)
	if !attack {
		p.rec = append(p.rec, 'A')
		p.rec = binary.AppendUvarint(p.rec, uint64(n))
	}
	return mark
}

// recordMove records the move m at the current node; it returns where the
// move starts, for recordDrop.
func (p *prover) recordMove(attack bool, m rules.Move) int {
	if p.recMax == 0 {
		return 0
	}
	mark := len(p.rec)
	if attack {
		p.rec = append(p.rec, 'M')
	}
	p.rec = binary.AppendVarint(p.rec, int64(m))
	p.checkRec()
	return mark
}

// recordDrop forgets what was recorded from mark on.
func (p *prover) recordDrop(mark int) {
	if p.recMax > 0 {
		p.rec = p.rec[:mark]
		if p.sh != nil {
			p.sh.drop(mark)
		}
	}
}

func (p *prover) checkRec() {
	if len(p.rec) > p.recMax && p.err == nil {
		p.err = fmt.Errorf("the certificate passed %d MB; give a larger limit (--certificate-mb)", p.recMax>>20)
	}
}
