package proofcheck

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"alak/rules"
)

// treeMap says what copyTree changes: each move through move, each
// result (E, Black's margin doubled) through end, the number of each
// reference to a shared subtree (R) through ref, each unchanged when nil;
// a node P is refused unless parts.
type treeMap struct {
	move  func(rules.Move) rules.Move
	end   func(int64) int64
	ref   func(uint64) (uint64, error)
	parts bool
}

// copyTree copies the tree of one part from rd to w in preorder, changed
// as tm says. It returns
// the number of shared subtrees (S) copied. An explicit stack of frames (a
// node to read, or moves each followed by a node) keeps deep lines off the
// call stack; every step reads at least a byte.
func copyTree(rd *reader, w io.Writer, format int, tm treeMap) (uint64, error) {
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
			if tm.move != nil {
				m = tm.move(m)
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
				if tm.end != nil {
					v = tm.end(v)
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
				if !tm.parts {
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
				if tm.ref != nil {
					if k, err = tm.ref(k); err != nil {
						return shared, err
					}
				}
				b = binary.AppendUvarint(b, k)
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
