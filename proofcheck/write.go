package proofcheck

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"alak/rules"
)

// Write writes a proof under the main part's header h: tree is the proof
// tree encoded as the format's nodes ('E', 'M', 'A', 'S' and 'R', as
// solve.Prove records it). A tree with shared subtrees ('S', 'R') is
// written in one part, and refused when longer than limit; under
// positional superko its header says format 4. The tree goes into the main part (create(0))
// while it fits limit bytes; beyond, a subtree that does not fit the room
// left goes into a part of its own (create(1), create(2) ...: each with
// its own header and the line from the proof's root), referred to by a
// 'P' node, and is split again the same way. A part holds at most about
// limit bytes of tree (a part's first node and its references always go
// in). It returns the number of parts written.
func Write(h Header, tree []byte, limit int, create func(part int) (io.WriteCloser, error)) (int, error) {
	if limit < 1 {
		return 0, fmt.Errorf("a part's limit of %d bytes: give at least 1", limit)
	}
	shared := false
	if end, err := skipShared(tree, 0, &shared); err != nil {
		return 0, err
	} else if end != len(tree) {
		return 0, fmt.Errorf("the proof tree ends at byte %d of %d", end, len(tree))
	}
	if shared {
		if r, err := rules.Parse(h.Rules); err == nil && superkoShares(r) && h.Format < 4 {
			h.Format = 4
		}
		// A shared subtree is referred to by number within its part, and
		// a part is checked with its line's history, which a shared
		// subtree cannot assume: such a tree is not split.
		if len(tree) > limit {
			return 0, fmt.Errorf("the proof tree has shared subtrees and takes %d bytes, more than a part's %d: such a tree is written in one part (give a larger part size)", len(tree), limit)
		}
		f, err := create(0)
		if err != nil {
			return 0, err
		}
		_, err = f.Write(append(h.Append(nil), tree...))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return 0, err
		}
		return 1, nil
	}
	s := &splitter{tree: tree, limit: limit}
	s.queue = []job{{off: 0, part: 0}}
	parts := 0
	for len(s.queue) > 0 {
		j := s.queue[0]
		s.queue = s.queue[1:]
		ph := h
		ph.Part, ph.At = j.part, j.at
		s.out = ph.Append(s.out[:0])
		s.head = len(s.out)
		s.at = j.at
		if _, err := s.emit(j.off, nil); err != nil {
			return parts, err
		}
		f, err := create(j.part)
		if err != nil {
			return parts, err
		}
		_, err = f.Write(s.out)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return parts, err
		}
		parts++
	}
	return parts, nil
}

type job struct {
	off  int
	part int
	at   []rules.Move
}

type splitter struct {
	tree  []byte
	limit int
	out   []byte
	head  int // the header's bytes in out
	at    []rules.Move
	queue []job
	next  int // the last part number given
}

// room returns the tree bytes the current part can still take.
func (s *splitter) room() int { return s.limit - (len(s.out) - s.head) }

// emit copies the node at off and its subtree into the current part,
// splitting children off as the room requires, and returns the node's end.
func (s *splitter) emit(off int, path []rules.Move) (int, error) {
	tag := s.tree[off]
	switch tag {
	case tagEnd:
		_, n := binary.Varint(s.tree[off+1:])
		s.out = append(s.out, s.tree[off:off+1+n]...)
		return off + 1 + n, nil
	case tagMove:
		m, n := binary.Varint(s.tree[off+1:])
		s.out = append(s.out, s.tree[off:off+1+n]...)
		return s.child(off+1+n, append(path, rules.Move(m)))
	case tagAll:
		k, n := binary.Uvarint(s.tree[off+1:])
		s.out = append(s.out, s.tree[off:off+1+n]...)
		off += 1 + n
		for range k {
			m, n := binary.Varint(s.tree[off:])
			s.out = append(s.out, s.tree[off:off+n]...)
			end, err := s.child(off+n, append(path, rules.Move(m)))
			if err != nil {
				return 0, err
			}
			off = end
		}
		return off, nil
	}
	return 0, fmt.Errorf("the proof tree has the tag %q at byte %d", tag, off)
}

// child places the subtree at off, reached by path from the part's root:
// inline when it fits the room or while the part is less than half full
// (its own children are then placed the same way), else in a new part.
func (s *splitter) child(off int, path []rules.Move) (int, error) {
	end, err := skip(s.tree, off)
	if err != nil {
		return 0, err
	}
	if end-off <= s.room() || 2*s.room() > s.limit {
		return s.emit(off, path)
	}
	s.next++
	s.out = append(s.out, tagPart)
	s.out = binary.AppendUvarint(s.out, uint64(s.next))
	at := append(slices.Clone(s.at), path...)
	s.queue = append(s.queue, job{off: off, part: s.next, at: at})
	return end, nil
}

// skip returns the end of the node at off in tree.
func skip(tree []byte, off int) (int, error) {
	var shared bool
	return skipShared(tree, off, &shared)
}

// skipShared is skip, setting *shared when the subtree has a shared
// subtree or a reference to one.
func skipShared(tree []byte, off int, shared *bool) (int, error) {
	bad := fmt.Errorf("the proof tree is cut short or malformed at byte %d", off)
	if off >= len(tree) {
		return 0, bad
	}
	rest := func(o int) []byte {
		if o > len(tree) {
			return nil
		}
		return tree[o:]
	}
	switch tree[off] {
	case tagEnd:
		if _, n := binary.Varint(rest(off + 1)); n > 0 {
			return off + 1 + n, nil
		}
	case tagMove:
		if _, n := binary.Varint(rest(off + 1)); n > 0 {
			return skipShared(tree, off+1+n, shared)
		}
	case tagShared:
		*shared = true
		return skipShared(tree, off+1, shared)
	case tagRef:
		*shared = true
		if _, n := binary.Uvarint(rest(off + 1)); n > 0 {
			return off + 1 + n, nil
		}
	case tagAll:
		k, n := binary.Uvarint(rest(off + 1))
		if n <= 0 {
			return 0, bad
		}
		off += 1 + n
		for range k {
			_, n := binary.Varint(rest(off))
			if n <= 0 {
				return 0, bad
			}
			end, err := skipShared(tree, off+n, shared)
			if err != nil {
				return 0, err
			}
			off = end
		}
		return off, nil
	}
	return 0, bad
}
