package solve

import (
	"encoding/binary"
	"fmt"

	"alak/rules"
)

// Shared subtrees in a certificate (format 2 of package proofcheck;
// docs/solver-proofs.md, "Shared subtrees"). With a draw goal, a proof of a state that
// holds from the state with no history holds on every path to it: a longer
// history only ends lines earlier in repetition draws, which meet the goal.
// Such a proof is written once, as a shared subtree ('S'), and every other
// node of the same state refers to it ('R' and its number), so that a
// strategy that reaches a state by many paths is written once per state,
// not once per path. Two kinds of node qualify: the positions where the
// graph's strategy takes over (written out from the state, each state of
// the strategy shared in turn), and the positions the table settled as
// proved (searched again from the state with no history). The checker
// checks each shared subtree from its position alone.

// shareKey is a state of the table with what the writer did there: the
// graph's strategy passing out beyond the prisoner range is another
// subtree than the attractor's.
type shareKey struct {
	k       tableKey
	passOut bool
}

// shares numbers the shared subtrees written so far, the i-th 'S' of the
// tree having number i; defs remembers where each starts, so that a
// recording that drops bytes (recordDrop) forgets the shared subtrees
// they held.
type shares struct {
	ids  map[shareKey]uint32
	defs []shareDef
	// wins, in a proof of a win, lists the shared subtrees of each state
	// in the order written: one whose reach does not hold on a line is
	// written again there, as another subtree (reach.go).
	wins map[tableKey][]uint32
	// refs holds where each reference starts in the recording, and to
	// which subtree, for compactWins.
	refs []refAt
}

type refAt struct {
	off int
	id  uint32
}

type shareDef struct {
	key shareKey
	off int
	// r, in a proof of a win, is the reach of the subtree as written
	// (reach.go): where it holds on the line, a reference does too; nil
	// while it is written. h is its longest line.
	r *reach
	h int
}

func newShares() *shares {
	return &shares{ids: map[shareKey]uint32{}, wins: map[tableKey][]uint32{}}
}

// drop forgets the shared subtrees from byte mark of the recording on.
func (s *shares) drop(mark int) {
	for len(s.defs) > 0 && s.defs[len(s.defs)-1].off >= mark {
		k := s.defs[len(s.defs)-1].key
		delete(s.ids, k)
		if w := s.wins[k.k]; len(w) > 0 && int(w[len(w)-1]) == len(s.defs)-1 {
			if len(w) == 1 {
				delete(s.wins, k.k)
			} else {
				s.wins[k.k] = w[:len(w)-1]
			}
		}
		s.defs = s.defs[:len(s.defs)-1]
	}
	for len(s.refs) > 0 && s.refs[len(s.refs)-1].off >= mark {
		s.refs = s.refs[:len(s.refs)-1]
	}
}

// refer reports whether k has a shared subtree and, while recording,
// writes a reference to it.
func (p *prover) refer(k shareKey) bool {
	id, ok := p.sh.ids[k]
	if ok {
		p.referTo(id)
	}
	return ok
}

// referTo writes a reference to shared subtree id.
func (p *prover) referTo(id uint32) {
	if p.recMax > 0 {
		p.sh.refs = append(p.sh.refs, refAt{off: len(p.rec), id: id})
		p.rec = append(p.rec, 'R')
		p.rec = binary.AppendUvarint(p.rec, uint64(id))
		p.checkRec()
	}
}

// define starts the shared subtree of k at the end of the recording.
func (p *prover) define(k shareKey) {
	p.sh.ids[k] = uint32(len(p.sh.defs))
	p.sh.defs = append(p.sh.defs, shareDef{key: k, off: len(p.rec)})
	if p.recMax > 0 {
		p.rec = append(p.rec, 'S')
		p.checkRec()
	}
}

// sharedProof records, at a state the table holds a draw proof of height
// e for, a reference to its shared subtree, or the subtree itself: the
// search again to depth e from the state with no history (a proof of that
// height exists there, as on every path). It reports what search does.
func (p *prover) sharedProof(e int32) (ok bool, h, dep int32) {
	pos := p.g.Position()
	k := shareKey{k: keyOf(pos)}
	if p.refer(k) {
		return true, e, noDep
	}
	p.define(k)
	sub := *p
	sub.g, sub.bufs, sub.line = rules.NewGameFrom(pos), nil, []uint64{pos.Hash()}
	ok, h, _ = sub.search(int(e), false)
	p.rec, p.nodes, p.err, p.hits, p.stored = sub.rec, sub.nodes, sub.err, sub.hits, sub.stored
	if !ok && p.err == nil {
		p.err = fmt.Errorf("the table's proof at %v did not hold from the state alone", p.g.Moves())
	}
	return ok, h, noDep
}

// compactWins rewrites rec, the recording of a proof of a win, with its
// shared subtrees that no reference names written in line (the tag 'S'
// taken out, the references numbered again), and returns it with the
// subtrees kept, those of them at a state that had one before, and those
// put in line. A subtree of a win is written on the line where it stands
// (reach.go), so in line it holds there as it did as a subtree; the
// checker then keeps no reach for it.
func (s *shares) compactWins(rec []byte) (out []byte, kept, again, inLine int64) {
	used := make([]bool, len(s.defs))
	for _, r := range s.refs {
		used[r.id] = true
	}
	newID := make([]uint32, len(s.defs))
	seen := map[tableKey]bool{}
	for i, d := range s.defs {
		if !used[i] {
			inLine++
			continue
		}
		newID[i] = uint32(kept)
		kept++
		if seen[d.key.k] {
			again++
		}
		seen[d.key.k] = true
	}
	out = make([]byte, 0, len(rec))
	from, j := 0, 0
	for i, d := range s.defs {
		for ; j < len(s.refs) && s.refs[j].off < d.off; j++ {
			out, from = s.renumber(out, rec, from, s.refs[j], newID)
		}
		if !used[i] {
			out = append(out, rec[from:d.off]...)
			from = d.off + 1 // the tag 'S'
		}
	}
	for ; j < len(s.refs); j++ {
		out, from = s.renumber(out, rec, from, s.refs[j], newID)
	}
	return append(out, rec[from:]...), kept, again, inLine
}

// renumber copies rec from from up to the reference r, and r with its
// new number; it returns where the copy goes on.
func (s *shares) renumber(out, rec []byte, from int, r refAt, newID []uint32) ([]byte, int) {
	out = append(out, rec[from:r.off]...)
	_, n := binary.Uvarint(rec[r.off+1:])
	out = append(out, 'R')
	out = binary.AppendUvarint(out, uint64(newID[r.id]))
	return out, r.off + 1 + n
}
