package proofcheck

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"alak/rules"
)

// Ref is a subtree a part leaves to another part.
type Ref struct {
	Part int
	At   []rules.Move // from the proof's root
}

// Report is what Check found in one part.
type Report struct {
	Header
	Nodes int64 // positions checked
	Ends  int64 // finished games among them
	Refs  []Ref // the subtrees left to other parts
	// Shared and References count the shared subtrees ('S') and the
	// references to them ('R') checked.
	Shared, References int64
}

// Check reads one part of a certificate from in and verifies it with the
// rules kernel alone: it sets up the game from the start position, replays
// the line to the part's root, then follows the tree, playing every move on
// a rules.Game, so that the repetition counts, the ko and the prisoners
// are those of the real game. At each node where the proving player is to
// move the tree must give one legal move; where the other player is, every
// legal move, each once; at each finished game the result the kernel
// counts, which must meet the goal. The part proves its claim given the
// parts it refers to (Report.Refs); CheckAll follows them.
//
// A file that does not read wraps ErrFormat, a tree that does not prove
// the claim ErrRefuted, a certificate of other rules or another kernel
// ErrMismatch; every message says where (byte offset, line of moves).
func Check(ctx context.Context, in io.Reader) (Report, error) {
	rd := &reader{r: bufio.NewReaderSize(in, 1<<16)}
	h, err := rd.header()
	rep := Report{Header: h}
	if err != nil {
		return rep, err
	}
	if h.Kernel != rules.KernelVersion {
		return rep, fmt.Errorf("%w: made by kernel version %d; this program's kernel is version %d (check it with the alak that wrote it, or make it again)", ErrMismatch, h.Kernel, rules.KernelVersion)
	}
	r, err := rules.Parse(h.Rules)
	if err != nil {
		return rep, fmt.Errorf("%w: the rules %q: %v", ErrFormat, h.Rules, err)
	}
	if RulesHash(r) != h.RulesHash {
		return rep, fmt.Errorf("%w: the rules' hash does not match: %q means other rules to this program than to the one that wrote the certificate", ErrMismatch, h.Rules)
	}
	start, err := rules.ParsePosition(r, h.Start)
	if err != nil {
		return rep, fmt.Errorf("%w: the start position %q: %v", ErrFormat, h.Start, err)
	}
	g := rules.NewGameFrom(start)
	for i, m := range append(slices.Clone(h.Line), h.At...) {
		if err := g.Play(m); err != nil {
			return rep, fmt.Errorf("%w: move %d of the line to the part's root, %s: %v", ErrRefuted, i+1, r.MoveText(m), err)
		}
	}
	c := &checker{ctx: ctx, rd: rd, g: g, r: r, h: h}
	if superkoShares(r) {
		c.latest = map[uint64]int32{}
		for i := 0; i <= g.Len(); i++ {
			c.latest[g.PositionAt(i).BoardHash()] = int32(i) + 1
		}
	}
	err = c.node()
	rep.Nodes, rep.Ends, rep.Refs = c.nodes, c.ends, c.refs
	rep.Shared, rep.References = int64(len(c.defs)), c.uses
	if err != nil {
		return rep, err
	}
	if _, err := rd.r.ReadByte(); err == nil {
		return rep, fmt.Errorf("%w: bytes after the tree's end at byte %d", ErrFormat, rd.off)
	} else if err != io.EOF {
		return rep, fmt.Errorf("%w: after the tree: %v", ErrFormat, err)
	}
	return rep, nil
}

type checker struct {
	ctx   context.Context
	rd    *reader
	g     *rules.Game
	r     rules.Rules
	h     Header
	path  []rules.Move // from the part's root
	nodes int64
	ends  int64
	refs  []Ref
	buf   []rules.Move
	// defs holds the position of each shared subtree ('S') read so far,
	// open whether its check is still going on; shared counts the shared
	// subtrees the current node is inside.
	defs   []rules.Position
	open   []bool
	shared int
	// In a proof of a win, reaches holds the reach of each shared subtree
	// (its positions, each with the most occurrences on one of its lines),
	// and acc, for each shared subtree being checked, innermost last, the
	// reach so far; positions are numbered in the order met (ids, hashes),
	// as the reaches of a large certificate name hundreds of millions.
	reaches []reachSet
	acc     []map[uint32]uint8
	ids     map[uint64]uint32
	hashes  []uint64
	uses    int64 // references checked
	// Under positional superko (superkoShares), latest holds for every
	// board on the line one more than the index of its latest position (0
	// the start), olds what play replaced, frames the conditions of each
	// shared subtree being checked, innermost last, and conds those of
	// each shared subtree checked (skShared).
	latest map[uint64]int32
	olds   []int32
	frames []*skFrame
	conds  []skConds
}

// where writes the line from the proof's root to the current node.
func (c *checker) where() string {
	var ms []string
	for _, m := range append(slices.Clone(c.h.At), c.path...) {
		ms = append(ms, c.r.MoveText(m))
	}
	if len(ms) == 0 {
		return "at the proof's root"
	}
	return "after " + strings.Join(ms, " ") + " (from the proof's root)"
}

func (c *checker) refuted(format string, a ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrRefuted, c.where(), fmt.Sprintf(format, a...))
}

func (c *checker) meets(o rules.Outcome) bool {
	return o.Winner == c.h.For || c.h.Draw && o.Winner == rules.None
}

// node checks the node at the game's position and the subtree below it.
func (c *checker) node() error {
	c.nodes++
	if c.nodes&(1<<14-1) == 0 {
		if err := c.ctx.Err(); err != nil {
			return err
		}
	}
	if len(c.path) > maxLine {
		return c.refuted("the line is longer than %d moves", maxLine)
	}
	tag, err := c.rd.byte("a node's tag")
	if err != nil {
		return err
	}
	o := c.g.Outcome()
	toMove := c.g.Position().ToMove()
	if len(c.acc) > 0 && (!o.Over() || o.Reason == rules.Passes && c.r.PassEnd == rules.PassEndDraw) {
		// The reach of a shared subtree of a win: the positions where the
		// game goes on, and under passend=draw those the passes end at,
		// whose occurrences decide between the count and a draw.
		if len(c.hashes) >= maxReachIDs {
			return c.rd.bad(fmt.Sprintf("the shared subtrees of a win meet more than %d positions", maxReachIDs), nil)
		}
		acc := c.acc[len(c.acc)-1]
		i := c.id(c.g.Position().Hash())
		acc[i] = max(acc[i], uint8(min(c.g.Occurrences(), 255)))
	}
	switch tag {
	case tagEnd:
		v, err := c.rd.varint("a result")
		if err != nil {
			return err
		}
		if !o.Over() {
			return c.refuted("the certificate says the game is over with Black's margin %v, but it goes on (%c to move)", float64(v)/2, toMove.Symbol())
		}
		if int64(2*o.Margin) != v {
			return c.refuted("the certificate says the game ends with Black's margin %v; the kernel counts %v (%s)", float64(v)/2, o.Margin, o)
		}
		if !c.meets(o) {
			return c.refuted("the game ends %s, which is not %s for %c", o, c.goal(), c.h.For.Symbol())
		}
		c.ends++
		return nil
	case tagPart:
		k, err := c.rd.uvarint("a part number", 1<<31)
		if err != nil {
			return err
		}
		if c.shared > 0 {
			return c.refuted("the certificate leaves part of a shared subtree to part %d: a part is checked with its line's history, which a shared subtree cannot assume", k)
		}
		if k == 0 || int(k) == c.h.Part {
			return c.refuted("the certificate leaves the rest to part %d, which cannot be (the main part or this one)", k)
		}
		c.refs = append(c.refs, Ref{Part: int(k), At: append(slices.Clone(c.h.At), c.path...)})
		return nil
	case tagShared:
		if c.latest != nil && c.h.Format >= 4 {
			return c.skShared()
		}
		return c.sharedNode()
	case tagRef:
		if c.latest != nil && c.h.Format >= 4 {
			return c.skRef()
		}
		return c.ref()
	case tagMove, tagAll:
	default:
		return c.rd.bad(fmt.Sprintf("the tag %q is not E, M, A, P, S or R", tag), nil)
	}
	if o.Over() {
		return c.refuted("the game is over here (%s), but the certificate plays on", o)
	}
	if tag == tagMove {
		if toMove != c.h.For {
			return c.refuted("it is %c's move, and the certificate gives one move where every reply is needed", toMove.Symbol())
		}
		m, err := c.rd.move("a move")
		if err != nil {
			return err
		}
		if len(c.frames) > 0 && m.IsPlace() {
			if next, err := c.g.Position().Play(m); err == nil {
				c.frames[len(c.frames)-1].played(c.id(next.BoardHash()))
			}
		}
		return c.play(m)
	}
	if toMove == c.h.For {
		return c.refuted("it is %c's move, the player the proof is for, and the certificate gives every reply instead of one move", toMove.Symbol())
	}
	c.buf = c.g.LegalMoves(c.buf[:0])
	legal := slices.Clone(c.buf)
	n, err := c.rd.uvarint("the number of replies", maxReplies)
	if err != nil {
		return err
	}
	if len(c.frames) > 0 {
		c.excluded(legal)
	}
	if int(n) != len(legal) {
		return c.refuted("the certificate gives %d replies, but %c has %d legal moves (%s): a reply is missing or one is too many", n, toMove.Symbol(), len(legal), c.moveList(legal))
	}
	seen := make([]bool, len(legal))
	for range n {
		m, err := c.rd.move("a reply")
		if err != nil {
			return err
		}
		i := slices.Index(legal, m)
		if i < 0 {
			return c.refuted("the reply %s is not a legal move of %c's (the legal moves are %s)", c.r.MoveText(m), toMove.Symbol(), c.moveList(legal))
		}
		if seen[i] {
			return c.refuted("the reply %s is given twice", c.r.MoveText(m))
		}
		seen[i] = true
		if err := c.play(m); err != nil {
			return err
		}
	}
	return nil
}

// sharedNode checks a shared subtree ('S'): the node after the tag, from
// the game's position with no history. A repetition draw only ends a line
// earlier than it would end without history, and a draw meets the goal,
// so the subtree then proves the goal from this state whatever the
// history: wherever the state comes again, a reference ('R') to it holds.
// A reference from inside the subtree it refers to is refused: the
// subtree would rest on itself.
func (c *checker) sharedNode() error {
	c.nodes-- // the node after the tag is the node
	if c.h.Format < 2 {
		return c.rd.bad("a shared subtree (the tag 'S') in a format 1 file", nil)
	}
	if err := c.stateOnly(); err != nil {
		return err
	}
	if !c.h.Draw && c.h.Format < 3 {
		return c.refuted("a shared subtree holds whatever the history only when a draw meets the goal, and this certificate claims a win (format %d; format 3 allows it)", c.h.Format)
	}
	if len(c.defs) >= maxShared {
		return c.rd.bad(fmt.Sprintf("more than %d shared subtrees", maxShared), nil)
	}
	pos := c.g.Position()
	i := len(c.defs)
	c.defs = append(c.defs, pos)
	c.open = append(c.open, true)
	c.reaches = append(c.reaches, reachSet{})
	game := c.g
	c.g = rules.NewGameFrom(pos)
	c.shared++
	reach := !c.h.Draw && c.r.Repetition > 0 // else no history changes a line (use)
	if reach {
		c.acc = append(c.acc, map[uint32]uint8{})
	}
	err := c.node()
	c.shared--
	c.g = game
	c.open[i] = false
	if !reach {
		return err
	}
	c.reaches[i] = newReachSet(c.acc[len(c.acc)-1])
	c.acc = c.acc[:len(c.acc)-1]
	if err != nil {
		return err
	}
	return c.use(i)
}

// use checks, in a proof of a win, that shared subtree i holds at the
// game's position, and adds its positions to the reach of the shared
// subtree being checked, if any. The subtree was checked from its
// position with no history, where none of its lines met a repetition
// draw; here each of its positions occurs, on a line of it, as often as
// it did there (at most its reach) plus as often as on the line before
// this node. If that stays below the count that draws, every line plays
// out here as it did there, to the same finished game. (In a proof of a
// draw a repetition only ends a line early in a draw, so any history
// will do.)
func (c *checker) use(i int) error {
	n := c.r.Repetition
	if c.h.Draw || n <= 0 {
		return nil
	}
	cur := c.g.Position().Hash()
	before := func(h uint64) int {
		k := c.g.Count(h)
		if h == cur {
			k--
		}
		return k
	}
	var acc map[uint32]uint8
	if len(c.acc) > 0 {
		acc = c.acc[len(c.acc)-1]
	}
	for _, e := range c.reaches[i].ids {
		j, m := e>>reachBits, uint8(e&reachMask)
		b := before(c.hashes[j])
		if b+int(m) >= n {
			return c.refuted("shared subtree %d does not hold here: one of its lines meets a position %d times, which occurs %d times on the line before this node, so that line would end in a repetition draw (the %d-th occurrence)", i, m, b, n)
		}
		if acc != nil {
			acc[j] = max(acc[j], uint8(b)+m)
		}
	}
	return nil
}

// id returns the number of the position of hash h.
func (c *checker) id(h uint64) uint32 {
	if c.ids == nil {
		c.ids = map[uint64]uint32{}
	}
	i, ok := c.ids[h]
	if !ok {
		i = uint32(len(c.hashes))
		c.ids[h] = i
		c.hashes = append(c.hashes, h)
	}
	return i
}

// reachSet is a shared subtree's reach in a proof of a win: its positions
// (numbered by checker.id), each with the most occurrences on one of its
// lines, counted from the subtree's root with no history, in the low
// reachBits bits (a count is below the repetition count, at most 9).
type reachSet struct {
	ids []uint32
}

const (
	reachBits   = 4
	reachMask   = 1<<reachBits - 1
	maxReachIDs = 1 << (32 - reachBits) // the positions numbered
)

func newReachSet(acc map[uint32]uint8) reachSet {
	r := reachSet{ids: make([]uint32, 0, len(acc))}
	for i, m := range acc {
		r.ids = append(r.ids, i<<reachBits|uint32(m))
	}
	slices.Sort(r.ids)
	return r
}

// stateOnly refuses shared subtrees under superko, where the legal moves
// depend on the boards of the history and not on the state alone: a move
// of the subtree, legal from its position alone, could be illegal after
// the history of a reference.
func (c *checker) stateOnly() error {
	if c.r.Ko == rules.KoPositional || c.r.Ko == rules.KoSituational {
		return c.refuted("a shared subtree under superko (rules %s): the legal moves depend on the history, not on the state alone", c.r)
	}
	return nil
}

// ref checks a reference to a shared subtree ('R'): one read and checked
// before, of the same state as the game's position.
func (c *checker) ref() error {
	if c.h.Format < 2 {
		return c.rd.bad("a reference to a shared subtree (the tag 'R') in a format 1 file", nil)
	}
	i, err := c.rd.uvarint("the number of a shared subtree", maxShared)
	if err != nil {
		return err
	}
	if err := c.stateOnly(); err != nil {
		return err
	}
	if int(i) >= len(c.defs) {
		return c.refuted("the certificate refers to shared subtree %d, but only %d come before", i, len(c.defs))
	}
	if c.open[i] {
		return c.refuted("the certificate refers to shared subtree %d from inside it: a subtree that encloses its own reference proves nothing", i)
	}
	if !c.g.Position().SameState(c.defs[i]) {
		return c.refuted("the certificate refers to shared subtree %d, whose position is another state (%s) than this one (%s)", i, c.defs[i], c.g.Position())
	}
	c.uses++
	return c.use(int(i))
}

// play plays m, checks the node after it and takes m back.
func (c *checker) play(m rules.Move) error {
	if err := c.g.Play(m); err != nil {
		return c.refuted("%v", err)
	}
	if c.latest != nil {
		b := c.g.Position().BoardHash()
		c.olds = append(c.olds, c.latest[b])
		c.latest[b] = int32(c.g.Len()) + 1
	}
	c.path = append(c.path, m)
	err := c.node()
	c.path = c.path[:len(c.path)-1]
	if c.latest != nil {
		b := c.g.Position().BoardHash()
		if old := c.olds[len(c.olds)-1]; old == 0 {
			delete(c.latest, b)
		} else {
			c.latest[b] = old
		}
		c.olds = c.olds[:len(c.olds)-1]
	}
	if uerr := c.g.Undo(); err == nil && uerr != nil {
		return uerr
	}
	return err
}

func (c *checker) goal() string {
	if c.h.Draw {
		return "a win or a draw"
	}
	return "a win"
}

func (c *checker) moveList(ms []rules.Move) string {
	var s []string
	for _, m := range ms {
		s = append(s, c.r.MoveText(m))
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, " ")
}

// Summary is what CheckAll found in a whole certificate.
type Summary struct {
	Header       // the main part's
	Parts  int   // parts checked
	Nodes  int64 // positions checked, every part's
	Ends   int64
	// Shared subtrees and references to them, every part's.
	Shared, References int64
}

// CheckAll checks a whole certificate: the main part (open(0)), then every
// part it and the parts after it refer to, one at a time. Each part must be
// of the same proof (kernel, rules, start, line, claim), say the number and
// the line from the proof's root at which it was referred to, and be
// referred to once. each, when set, is told every part's report as it is
// checked.
func CheckAll(ctx context.Context, open func(part int) (io.ReadCloser, error), each func(Report)) (Summary, error) {
	var sum Summary
	queue := []Ref{{Part: 0}}
	referred := map[int]bool{0: true}
	for len(queue) > 0 {
		ref := queue[0]
		queue = queue[1:]
		f, err := open(ref.Part)
		if err != nil {
			return sum, fmt.Errorf("part %d: %w", ref.Part, err)
		}
		rep, err := Check(ctx, f)
		f.Close()
		sum.Nodes += rep.Nodes
		sum.Ends += rep.Ends
		sum.Shared += rep.Shared
		sum.References += rep.References
		if err != nil {
			return sum, fmt.Errorf("part %d: %w", ref.Part, err)
		}
		if ref.Part == 0 {
			sum.Header = rep.Header
		} else if err := samePart(sum.Header, rep.Header, ref); err != nil {
			return sum, err
		}
		sum.Parts++
		if each != nil {
			each(rep)
		}
		for _, r := range rep.Refs {
			if referred[r.Part] {
				return sum, fmt.Errorf("%w: part %d is referred to twice", ErrRefuted, r.Part)
			}
			referred[r.Part] = true
			queue = append(queue, r)
		}
	}
	return sum, nil
}

// samePart reports whether part h is the part ref of the proof main.
func samePart(main, h Header, ref Ref) error {
	switch {
	case h.Part != ref.Part:
		return fmt.Errorf("%w: the file for part %d says it is part %d", ErrRefuted, ref.Part, h.Part)
	case h.Kernel != main.Kernel || h.RulesHash != main.RulesHash || h.Rules != main.Rules || h.Start != main.Start ||
		!slices.Equal(h.Line, main.Line) || h.For != main.For || h.Draw != main.Draw:
		return fmt.Errorf("%w: part %d is of another proof (%s) than the main part (%s)", ErrRefuted, h.Part, h.Claim(), main.Claim())
	case !slices.Equal(h.At, ref.At):
		return fmt.Errorf("%w: part %d starts at %v, but it was referred to at %v", ErrRefuted, h.Part, h.At, ref.At)
	}
	return nil
}
