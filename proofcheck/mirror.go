package proofcheck

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"alak/rules"
)

// Mirror writes to out the certificate part in, reflected left to right:
// every move of its line and its tree reflected (rules.Rules.MirrorMove),
// its start position mirrored (rules.Position.Mirror), its writer replaced
// by writer. The reflection is a symmetry of every rule set, so the result
// claims the same of the mirrored line, and checks where the original
// does; Mirror does not check either (Check does). A certificate in parts
// is mirrored part by part. It returns the header written.
func Mirror(out io.Writer, in io.Reader, writer string) (Header, error) {
	rd := &reader{r: bufio.NewReaderSize(in, 1<<16)}
	h, err := rd.header()
	if err != nil {
		return h, err
	}
	r, err := rules.Parse(h.Rules)
	if err != nil {
		return h, fmt.Errorf("%w: the rules %q: %v", ErrFormat, h.Rules, err)
	}
	start, err := rules.ParsePosition(r, h.Start)
	if err != nil {
		return h, fmt.Errorf("%w: the start position %q: %v", ErrFormat, h.Start, err)
	}
	text, err := start.Mirror().MarshalText()
	if err != nil {
		return h, err
	}
	mh := h
	mh.Start, mh.Writer = string(text), writer
	mh.Line, mh.At = mirrorMoves(r, h.Line), mirrorMoves(r, h.At)
	bw := bufio.NewWriterSize(out, 1<<16)
	if _, err := bw.Write(mh.Append(nil)); err != nil {
		return mh, err
	}
	// The tree in preorder, with an explicit stack (so that no line is too
	// deep for it) of frames: a node to read, or moves each followed by a
	// node. Every step reads at least a byte.
	type frame struct {
		node  bool
		moves uint64
	}
	stack := []frame{{node: true}}
	var b []byte
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		b = b[:0]
		if !f.node {
			m, err := rd.move("a move")
			if err != nil {
				return mh, err
			}
			b = AppendMove(b, r.MirrorMove(m))
			if f.moves--; f.moves == 0 {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, frame{node: true})
		} else {
			stack = stack[:len(stack)-1]
			tag, err := rd.byte("a node's tag")
			if err != nil {
				return mh, err
			}
			b = append(b, tag)
			switch tag {
			case tagEnd:
				v, err := rd.varint("a margin")
				if err != nil {
					return mh, err
				}
				b = binary.AppendVarint(b, v)
			case tagMove:
				stack = append(stack, frame{moves: 1})
			case tagAll:
				n, err := rd.uvarint("the number of replies", maxReplies)
				if err != nil {
					return mh, err
				}
				b = binary.AppendUvarint(b, n)
				if n > 0 {
					stack = append(stack, frame{moves: n})
				}
			case tagShared:
				if h.Format < 2 {
					return mh, rd.bad("a shared subtree in a format 1 file", nil)
				}
				stack = append(stack, frame{node: true})
			case tagPart, tagRef:
				k, err := rd.uvarint("a part or shared subtree number", 1<<31)
				if err != nil {
					return mh, err
				}
				b = binary.AppendUvarint(b, k)
			default:
				return mh, rd.bad(fmt.Sprintf("the tag %q is not a node's", tag), nil)
			}
		}
		if _, err := bw.Write(b); err != nil {
			return mh, err
		}
	}
	switch _, err := rd.r.ReadByte(); {
	case err == nil:
		return mh, fmt.Errorf("%w: bytes after the tree's end at byte %d", ErrFormat, rd.off)
	case !errors.Is(err, io.EOF):
		return mh, err
	}
	return mh, bw.Flush()
}

func mirrorMoves(r rules.Rules, ms []rules.Move) []rules.Move {
	var out []rules.Move
	for _, m := range ms {
		out = append(out, r.MirrorMove(m))
	}
	return out
}
