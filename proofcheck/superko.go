package proofcheck

import (
	"fmt"
	"maps"
	"slices"

	"alak/rules"
)

// Shared subtrees under positional superko (format 4; docs/proofs.md,
// "Shared subtrees under superko"). There the legal moves depend on the
// boards of the history, so a subtree cannot be checked from its position
// alone as those of the other rules are. It is checked in place instead,
// on the line where it stands, and the checker keeps what its lines
// assumed of the history above its root:
//
//   - P, the boards the proving player's placements in it make: each was
//     legal because that board was not on the line;
//   - D, the boards on the line above its root whose presence made a
//     placement of the other player's illegal in it (superko): the replies
//     it lists leave those placements out.
//
// A reference ('R') to it holds at a node of the same state whose line
// holds every board of D and no board of P: there the proving player's
// moves are legal, and the other player's legal moves are among those the
// subtree answers (a placement it answers that superko forbids there is
// simply not played), so every line of the game that follows it is a line
// the checker played, to the same finished game: two passes end it, and
// the area count is the board's. References inside a subtree add their
// subtree's conditions to it (P whole, D where the board is not on its
// own path).

// superkoShares reports whether the rules take format 4's shared subtrees:
// positional superko, passing (two passes end the game whatever the
// history) and no repetition rule (no end depends on the history).
func superkoShares(r rules.Rules) bool {
	return r.Ko == rules.KoPositional && r.Pass && r.Repetition == 0 && !r.UnchangedLoses
}

// skFrame gathers the conditions of a shared subtree being checked; root
// is the index on the line of its root's position.
type skFrame struct {
	root int32
	p, d map[uint32]struct{}
}

func (f *skFrame) played(id uint32) { f.p[id] = struct{}{} }

// skConds are the conditions of a shared subtree checked: the numbers
// (checker.id) of the boards of P and D, sorted.
type skConds struct {
	p, d []uint32
}

// excluded adds to the innermost frame, at a node of the other player's
// whose legal moves are legal, the boards above the frame's root that
// superko excluded.
func (c *checker) excluded(legal []rules.Move) {
	f := c.frames[len(c.frames)-1]
	pos := c.g.Position()
	for _, m := range pos.LegalMoves(nil) {
		if !m.IsPlace() || slices.Contains(legal, m) {
			continue
		}
		next, err := pos.Play(m)
		if err != nil {
			continue
		}
		b := next.BoardHash()
		if l := c.latest[b]; l > 0 && l-1 < f.root {
			f.d[c.id(b)] = struct{}{}
		}
	}
}

// skShared checks a shared subtree under superko ('S'): the node after
// the tag, in place, gathering its conditions.
func (c *checker) skShared() error {
	c.nodes-- // the node after the tag is the node
	if len(c.defs) >= maxShared {
		return c.rd.bad(fmt.Sprintf("more than %d shared subtrees", maxShared), nil)
	}
	i := len(c.defs)
	c.defs = append(c.defs, c.g.Position())
	c.open = append(c.open, true)
	c.conds = append(c.conds, skConds{})
	f := &skFrame{root: int32(c.g.Len()), p: map[uint32]struct{}{}, d: map[uint32]struct{}{}}
	c.frames = append(c.frames, f)
	c.shared++
	err := c.node()
	c.shared--
	c.frames = c.frames[:len(c.frames)-1]
	c.open[i] = false
	if err != nil {
		return err
	}
	c.conds[i] = skConds{p: slices.Sorted(maps.Keys(f.p)), d: slices.Sorted(maps.Keys(f.d))}
	c.merge(c.conds[i])
	return nil
}

// merge adds the conditions of a shared subtree used at the current node
// to the innermost frame: P whole, and the boards of D that are not on
// the frame's own path (at or after its root).
func (c *checker) merge(k skConds) {
	if len(c.frames) == 0 {
		return
	}
	f := c.frames[len(c.frames)-1]
	for _, id := range k.p {
		f.p[id] = struct{}{}
	}
	for _, id := range k.d {
		if c.latest[c.hashes[id]]-1 < f.root {
			f.d[id] = struct{}{}
		}
	}
}

// skRef checks a reference to a shared subtree under superko ('R'): one
// checked before, of the same state, whose conditions the line meets.
func (c *checker) skRef() error {
	i, err := c.rd.uvarint("the number of a shared subtree", maxShared)
	if err != nil {
		return err
	}
	switch {
	case int(i) >= len(c.defs):
		return c.refuted("the certificate refers to shared subtree %d, but only %d come before", i, len(c.defs))
	case c.open[i]:
		return c.refuted("the certificate refers to shared subtree %d from inside it: a subtree that encloses its own reference proves nothing", i)
	case !c.g.Position().SameState(c.defs[i]):
		return c.refuted("the certificate refers to shared subtree %d, whose position is another state (%s) than this one (%s)", i, c.defs[i], c.g.Position())
	}
	k := c.conds[i]
	for _, id := range k.d {
		if c.latest[c.hashes[id]] == 0 {
			return c.refuted("shared subtree %d does not hold here: it leaves out a placement of %c's that superko forbade where it was checked, but the board that placement makes is not on this line", i, c.h.For.Opp().Symbol())
		}
	}
	for _, id := range k.p {
		if c.latest[c.hashes[id]] != 0 {
			return c.refuted("shared subtree %d does not hold here: one of %c's placements in it makes a board that is on this line, which superko forbids", i, c.h.For.Symbol())
		}
	}
	c.uses++
	c.merge(k)
	return nil
}
