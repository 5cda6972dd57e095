package proofcheck

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

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
				return first, fmt.Errorf("%s is not a legal move after the line; the legal moves are %s", r.MoveText(m), movesText(r, legal))
			}
		}
		var missing []rules.Move
		for _, m := range legal {
			if !seen[m] {
				missing = append(missing, m)
			}
		}
		if len(missing) > 0 {
			return first, fmt.Errorf("the other player is to move after the line, so the proof must answer every legal move: no certificate after %s", movesText(r, missing))
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
		sh := shift
		n, err := copyTree(rd, bw, hs[i].Format, treeMap{ref: func(k uint64) (uint64, error) { return k + sh, nil }})
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

// Extract writes to out the certificate of the subtree of in after the
// moves from its root (as rules.Rules.MoveText writes them): its header names the longer line, its tree is
// the node there, copied byte for byte but for the numbers of its
// references (R), less the shared subtrees written before it. Every node
// of the subtree is checked on the same line as in the whole, so it proves
// there what it proved; a subtree that refers to a shared subtree written
// outside it cannot stand alone and is refused, as are a path the proof
// does not follow to its end (a move its player does not play, a reply it
// does not answer, a reference or an end on the way) and a certificate in
// parts. At the other player's nodes the certificate of a reply is a bound
// after that reply; at the proof's player's, after the move it plays.
// Extract does not check the result (Check does).
func Extract(out io.Writer, in io.Reader, moves []string, writer string) (Header, error) {
	rd := &reader{r: bufio.NewReaderSize(in, 1<<16)}
	h, err := rd.header()
	if err != nil {
		return h, err
	}
	if h.Part != 0 || len(h.At) > 0 {
		return h, fmt.Errorf("this is part %d of a certificate in parts: take a subtree out of a certificate written as one part", h.Part)
	}
	r, err := rules.Parse(h.Rules)
	if err != nil {
		return h, fmt.Errorf("%w: the rules %q: %v", ErrFormat, h.Rules, err)
	}
	var path []rules.Move
	for _, s := range moves {
		m, err := r.ParseMoveText(s)
		if err != nil {
			return h, fmt.Errorf("the move %q: %v", s, err)
		}
		path = append(path, m)
	}
	text := func(ms []rules.Move) string {
		if len(ms) == 0 {
			return "the proof's root"
		}
		return movesText(r, ms)
	}
	type frame struct {
		node  bool
		moves uint64
		depth int
	}
	stack := []frame{{node: true}}
	var line []rules.Move
	var base uint64 // the shared subtrees read so far
	reached := 0    // the longest start of path met
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if !f.node {
			m, err := rd.move("a move")
			if err != nil {
				return h, err
			}
			d := f.depth
			if f.moves--; f.moves == 0 {
				stack = stack[:len(stack)-1]
			}
			line = append(line[:d], m)
			stack = append(stack, frame{node: true, depth: d + 1})
			continue
		}
		d := f.depth
		stack = stack[:len(stack)-1]
		onPath := d <= len(path) && slices.Equal(line[:d], path[:d])
		if onPath {
			reached = max(reached, d)
		}
		if onPath && d == len(path) {
			mh := h
			mh.Line, mh.Writer = append(slices.Clone(h.Line), path...), writer
			bw := bufio.NewWriterSize(out, 1<<16)
			if _, err := bw.Write(mh.Append(nil)); err != nil {
				return mh, err
			}
			_, err := copyTree(rd, bw, h.Format, treeMap{ref: func(k uint64) (uint64, error) {
				if k < base {
					return 0, fmt.Errorf("the subtree after %s refers to shared subtree %d, written before it: it cannot stand alone (take out a subtree that encloses both)", text(path), k)
				}
				return k - base, nil
			}})
			if err != nil {
				return mh, err
			}
			return mh, bw.Flush()
		}
		tag, err := rd.byte("a node's tag")
		if err != nil {
			return h, err
		}
		switch tag {
		case tagEnd:
			if _, err := rd.varint("a margin"); err != nil {
				return h, err
			}
			if onPath {
				return h, fmt.Errorf("the game is over after %s: the proof goes no further", text(path[:d]))
			}
		case tagMove:
			stack = append(stack, frame{moves: 1, depth: d})
		case tagAll:
			n, err := rd.uvarint("the number of replies", maxReplies)
			if err != nil {
				return h, err
			}
			if n > 0 {
				stack = append(stack, frame{moves: n, depth: d})
			}
		case tagShared:
			if h.Format < 2 {
				return h, rd.bad("a shared subtree in a format 1 file", nil)
			}
			base++
			stack = append(stack, frame{node: true, depth: d})
		case tagRef:
			if _, err := rd.uvarint("a shared subtree number", 1<<31); err != nil {
				return h, err
			}
			if onPath {
				return h, fmt.Errorf("the proof refers to a shared subtree written elsewhere after %s: take out the subtree where it is written", text(path[:d]))
			}
		case tagPart:
			return h, rd.bad("a reference to another part (node P): take a subtree out of a certificate written as one part", nil)
		default:
			return h, rd.bad(fmt.Sprintf("the tag %q is not a node's", tag), nil)
		}
	}
	return h, fmt.Errorf("the proof does not reach the position after %s: after %s it plays or answers other moves", text(path), text(path[:reached]))
}

// movesText writes moves as rules.Rules.MoveText does, a space between.
func movesText(r rules.Rules, ms []rules.Move) string {
	t := make([]string, len(ms))
	for i, m := range ms {
		t[i] = r.MoveText(m)
	}
	return strings.Join(t, " ")
}
