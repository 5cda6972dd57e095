package proofcheck

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"alak/rules"
)

// Join writes to out one certificate made of the certificates ins, each of
// one part, whose claims are the same (kernel, rules, start, player, goal)
// but for the last move of their lines, which all extend one line L. The
// result claims the same at L. Where the proof's player is to move at L,
// ins is one certificate and the root plays its move (node M); where the
// other player is, ins hold one certificate for each of that player's
// legal moves at L, in any order, and the root answers them all (node A).
//
// Each tree is copied unchanged but for its references to shared subtrees
// (node R), numbered on past the subtrees of the trees before it. So every
// subtree is checked on the same line, with the same history, as in its
// own file, and proves there what it proved there: a proof split by the
// first moves, each part searched on its own (and the mirror images of
// some made by Mirror), becomes one certificate of the position before
// them. The format written is the highest of the inputs'. Join refuses
// inputs whose claims differ, whose moves are not those the node at L
// needs, or that are in parts; it does not check the trees (Check does).
func Join(out io.Writer, ins []io.Reader, writer string) (Header, error) {
	if len(ins) == 0 {
		return Header{}, errors.New("no certificate to join")
	}
	rds := make([]*reader, len(ins))
	hs := make([]Header, len(ins))
	for i, in := range ins {
		rds[i] = &reader{r: bufio.NewReaderSize(in, 1<<16)}
		h, err := rds[i].header()
		if err != nil {
			return h, fmt.Errorf("certificate %d: %w", i+1, err)
		}
		if h.Part != 0 || len(h.At) > 0 {
			return h, fmt.Errorf("certificate %d is part %d of a certificate in parts: join the certificates of whole trees (write them as one part, with a larger --part-size)", i+1, h.Part)
		}
		if len(h.Line) == 0 {
			return h, fmt.Errorf("certificate %d claims the start position itself: every certificate joined must claim the position after one more move than the result", i+1)
		}
		hs[i] = h
	}
	first := hs[0]
	line := first.Line[:len(first.Line)-1]
	for i, h := range hs[1:] {
		switch {
		case h.Kernel != first.Kernel:
			return h, fmt.Errorf("certificate %d was made by kernel version %d, certificate 1 by %d", i+2, h.Kernel, first.Kernel)
		case h.RulesHash != first.RulesHash || h.Rules != first.Rules:
			return h, fmt.Errorf("certificate %d is of the rules %q, certificate 1 of %q", i+2, h.Rules, first.Rules)
		case h.Start != first.Start:
			return h, fmt.Errorf("certificate %d starts from %q, certificate 1 from %q", i+2, h.Start, first.Start)
		case h.For != first.For || h.Draw != first.Draw:
			return h, fmt.Errorf("certificate %d claims %q, certificate 1 %q: the player and the goal must be the same", i+2, h.Claim(), first.Claim())
		case len(h.Line) != len(first.Line) || !slices.Equal(h.Line[:len(line)], line):
			return h, fmt.Errorf("certificate %d is after another line than certificate 1: their lines must differ in the last move only", i+2)
		}
	}
	r, err := rules.Parse(first.Rules)
	if err != nil {
		return first, fmt.Errorf("%w: the rules %q: %v", ErrFormat, first.Rules, err)
	}
	start, err := rules.ParsePosition(r, first.Start)
	if err != nil {
		return first, fmt.Errorf("%w: the start position %q: %v", ErrFormat, first.Start, err)
	}
	g := rules.NewGameFrom(start)
	for i, m := range line {
		if err := g.Play(m); err != nil {
			return first, fmt.Errorf("move %d of the line, %s: %v", i+1, r.MoveText(m), err)
		}
	}
	if g.Outcome().Over() {
		return first, errors.New("the game is over after the line the certificates share: there is no move to join")
	}
	moves := make([]rules.Move, len(hs))
	for i, h := range hs {
		moves[i] = h.Line[len(h.Line)-1]
	}
	legal := g.LegalMoves(nil)
	text := func(ms []rules.Move) string {
		s := ""
		for i, m := range ms {
			if i > 0 {
				s += " "
			}
			s += r.MoveText(m)
		}
		return s
	}
	tag := byte(tagAll)
	if g.Position().ToMove() == first.For {
		tag = tagMove
		if len(hs) != 1 {
			return first, fmt.Errorf("the proof's player is to move after the line, so one certificate makes the proof (the move it plays), not %d", len(hs))
		}
		if !slices.Contains(legal, moves[0]) {
			return first, fmt.Errorf("%s is not a legal move after the line", r.MoveText(moves[0]))
		}
	} else {
		seen := map[rules.Move]bool{}
		for _, m := range moves {
			if seen[m] {
				return first, fmt.Errorf("two certificates after %s: give one for each move", r.MoveText(m))
			}
			seen[m] = true
			if !slices.Contains(legal, m) {
				return first, fmt.Errorf("%s is not a legal move after the line; the legal moves are %s", r.MoveText(m), text(legal))
			}
		}
		var missing []rules.Move
		for _, m := range legal {
			if !seen[m] {
				missing = append(missing, m)
			}
		}
		if len(missing) > 0 {
			return first, fmt.Errorf("the other player is to move after the line, so the proof must answer every legal move: no certificate after %s", text(missing))
		}
	}
	h := first
	h.Line, h.Writer = slices.Clone(line), writer
	for _, x := range hs {
		h.Format = max(h.Format, x.Format)
	}
	bw := bufio.NewWriterSize(out, 1<<16)
	b := h.Append(nil)
	b = append(b, tag)
	if tag == tagAll {
		b = binary.AppendUvarint(b, uint64(len(hs)))
	}
	if _, err := bw.Write(b); err != nil {
		return h, err
	}
	var shift uint64
	for i, rd := range rds {
		if _, err := bw.Write(AppendMove(nil, moves[i])); err != nil {
			return h, err
		}
		n, err := copyTree(rd, bw, hs[i].Format, nil, shift, false)
		if err != nil {
			return h, fmt.Errorf("certificate %d: %w", i+1, err)
		}
		if err := atEnd(rd); err != nil {
			return h, fmt.Errorf("certificate %d: %w", i+1, err)
		}
		if shift += n; shift > maxShared {
			return h, fmt.Errorf("the certificates hold more than %d shared subtrees together, more than a part may", maxShared)
		}
	}
	return h, bw.Flush()
}

// copyTree copies the tree of one part from rd to w in preorder, each move
// through move (unchanged when nil) and each reference to a shared subtree
// (R) numbered shift higher; a node P is refused unless parts. It returns
// the number of shared subtrees (S) copied. An explicit stack of frames (a
// node to read, or moves each followed by a node) keeps deep lines off the
// call stack; every step reads at least a byte.
func copyTree(rd *reader, w io.Writer, format int, move func(rules.Move) rules.Move, shift uint64, parts bool) (uint64, error) {
	type frame struct {
		node  bool
		moves uint64
	}
	stack := []frame{{node: true}}
	var b []byte
	var shared uint64
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		b = b[:0]
		if !f.node {
			m, err := rd.move("a move")
			if err != nil {
				return shared, err
			}
			if move != nil {
				m = move(m)
			}
			b = AppendMove(b, m)
			if f.moves--; f.moves == 0 {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, frame{node: true})
		} else {
			stack = stack[:len(stack)-1]
			tag, err := rd.byte("a node's tag")
			if err != nil {
				return shared, err
			}
			b = append(b, tag)
			switch tag {
			case tagEnd:
				v, err := rd.varint("a margin")
				if err != nil {
					return shared, err
				}
				b = binary.AppendVarint(b, v)
			case tagMove:
				stack = append(stack, frame{moves: 1})
			case tagAll:
				n, err := rd.uvarint("the number of replies", maxReplies)
				if err != nil {
					return shared, err
				}
				b = binary.AppendUvarint(b, n)
				if n > 0 {
					stack = append(stack, frame{moves: n})
				}
			case tagShared:
				if format < 2 {
					return shared, rd.bad("a shared subtree in a format 1 file", nil)
				}
				shared++
				stack = append(stack, frame{node: true})
			case tagPart:
				if !parts {
					return shared, rd.bad("a reference to another part (node P): a certificate in parts cannot be joined", nil)
				}
				k, err := rd.uvarint("a part number", 1<<31)
				if err != nil {
					return shared, err
				}
				b = binary.AppendUvarint(b, k)
			case tagRef:
				k, err := rd.uvarint("a shared subtree number", 1<<31)
				if err != nil {
					return shared, err
				}
				b = binary.AppendUvarint(b, k+shift)
			default:
				return shared, rd.bad(fmt.Sprintf("the tag %q is not a node's", tag), nil)
			}
		}
		if _, err := w.Write(b); err != nil {
			return shared, err
		}
	}
	return shared, nil
}

// atEnd refuses bytes after a tree's end.
func atEnd(rd *reader) error {
	switch _, err := rd.r.ReadByte(); {
	case err == nil:
		return fmt.Errorf("%w: bytes after the tree's end at byte %d", ErrFormat, rd.off)
	case !errors.Is(err, io.EOF):
		return err
	}
	return nil
}
