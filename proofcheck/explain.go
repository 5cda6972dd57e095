package proofcheck

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"alak/rules"
)

// Field is one field of a certificate part as Explain reads it: where it
// starts, its bytes, what it is and what it says.
type Field struct {
	Off   int64
	Bytes []byte
	Name  string
	Value string
}

// Explain reads a certificate part and tells each of its fields in turn,
// header and tree, as docs/proofs.md describes them: the decoding a
// checker written from the document must arrive at. It checks the syntax
// only (the limits of the reader, a tag it knows, the tree ending with
// the file), not the proof: Check does that. It stops at the first field
// each refuses, or at a file that does not read (ErrFormat).
func Explain(in io.Reader, each func(Field) error) error {
	x := &explainer{each: each}
	x.rd = &reader{r: bufio.NewReaderSize(recorder{x, in}, 1<<16)}
	return x.run()
}

type explainer struct {
	rd   *reader
	each func(Field) error
	r    rules.Rules
	ok   bool // r is the certificate's rules
	h    Header
	// data holds the bytes read from the file from offset base on (the
	// reader reads ahead of what it has decoded, rd.off); start is where
	// the field being read starts.
	data  []byte
	base  int64
	start int64
}

// recorder keeps what the reader's buffer reads from the file.
type recorder struct {
	x  *explainer
	in io.Reader
}

func (c recorder) Read(p []byte) (int, error) {
	n, err := c.in.Read(p)
	c.x.data = append(c.x.data, p[:n]...)
	return n, err
}

// field ends the field being read, at the reader's offset, and tells it.
func (x *explainer) field(name, value string) error {
	f := Field{Off: x.start, Bytes: append([]byte(nil), x.data[x.start-x.base:x.rd.off-x.base]...), Name: name, Value: value}
	x.start = x.rd.off
	if k := x.start - x.base; k > 1<<16 {
		x.data = append(x.data[:0], x.data[k:]...)
		x.base = x.start
	}
	return x.each(f)
}

func (x *explainer) run() error {
	// The header, field by field, as reader.header reads it (the same
	// limits), told as each ends.
	magic := make([]byte, len(Magic))
	k, err := io.ReadFull(x.rd.r, magic)
	x.rd.off += int64(k)
	if err != nil || string(magic) != Magic {
		return fmt.Errorf("%w: it does not start with %q", ErrFormat, strings.TrimSpace(Magic))
	}
	if err := x.field("magic", `"ALAKPROOF\n"`); err != nil {
		return err
	}
	f, err := x.rd.uvarint("the format", 1<<20)
	if err != nil {
		return err
	}
	if f < 1 || f > Format {
		return fmt.Errorf("%w: format %d; this program reads formats 1 to %d", ErrFormat, f, Format)
	}
	x.h.Format = int(f)
	if err := x.field("format", fmt.Sprint(f)); err != nil {
		return err
	}
	kv, err := x.rd.uvarint("the kernel version", 1<<20)
	if err != nil {
		return err
	}
	if err := x.field("kernel", fmt.Sprint(kv)); err != nil {
		return err
	}
	for i := range x.h.RulesHash {
		if x.h.RulesHash[i], err = x.rd.byte("the rules' hash"); err != nil {
			return err
		}
	}
	if err := x.field("rules hash", hex.EncodeToString(x.h.RulesHash[:])); err != nil {
		return err
	}
	text := func(name, what string) (string, error) {
		n, err := x.rd.uvarint(what+"'s length", maxString)
		if err != nil {
			return "", err
		}
		if err := x.field(name+" length", fmt.Sprint(n)); err != nil {
			return "", err
		}
		b := make([]byte, n)
		k, err := io.ReadFull(x.rd.r, b)
		x.rd.off += int64(k)
		if err != nil {
			return "", x.rd.bad(what, err)
		}
		return string(b), x.field(name, fmt.Sprintf("%q", b))
	}
	if x.h.Rules, err = text("rules", "the rules"); err != nil {
		return err
	}
	if x.r, err = rules.Parse(x.h.Rules); err == nil {
		x.ok = true
	}
	if x.h.Start, err = text("start", "the start position"); err != nil {
		return err
	}
	if err := x.moves("line"); err != nil {
		return err
	}
	c, err := x.rd.byte("the player")
	if err != nil {
		return err
	}
	if c != 'x' && c != 'o' {
		return x.rd.bad(fmt.Sprintf("the player is %q, not x or o", c), nil)
	}
	x.h.For = rules.Black
	if c == 'o' {
		x.h.For = rules.White
	}
	if err := x.field("for", string(c)); err != nil {
		return err
	}
	c, err = x.rd.byte("the goal")
	if err != nil {
		return err
	}
	switch c {
	case 'w':
		err = x.field("goal", "w (a win)")
	case 'd':
		x.h.Draw = true
		err = x.field("goal", "d (a win or a draw)")
	default:
		return x.rd.bad(fmt.Sprintf("the goal is %q, not w (a win) or d (a draw or better)", c), nil)
	}
	if err != nil {
		return err
	}
	p, err := x.rd.uvarint("the part number", 1<<31)
	if err != nil {
		return err
	}
	if err := x.field("part", fmt.Sprint(p)); err != nil {
		return err
	}
	if err := x.moves("at"); err != nil {
		return err
	}
	if _, err := text("writer", "the writer"); err != nil {
		return err
	}
	// The tree, in preorder, with an explicit stack of the moves still
	// to read at each level (so that no line is too deep for it).
	type frame struct {
		replies uint64 // 'A': replies still to read, each a move then a node
		node    bool   // a node to read ('M': after its move)
		depth   int
	}
	stack := []frame{{node: true}}
	for len(stack) > 0 {
		t := &stack[len(stack)-1]
		if !t.node {
			if t.replies == 0 {
				stack = stack[:len(stack)-1]
				continue
			}
			t.replies--
			d := t.depth
			if err := x.move(d, "reply"); err != nil {
				return err
			}
			stack = append(stack, frame{node: true, depth: d + 1})
			continue
		}
		d := t.depth
		stack = stack[:len(stack)-1]
		tag, err := x.rd.byte("a node's tag")
		if err != nil {
			return err
		}
		in := strings.Repeat(". ", d)
		switch tag {
		case tagEnd:
			if err := x.field("tag", in+"E: the game is over"); err != nil {
				return err
			}
			v, err := x.rd.varint("a result")
			if err != nil {
				return err
			}
			if err := x.field("result", fmt.Sprintf("%s%d half points: Black's margin %v", in, v, float64(v)/2)); err != nil {
				return err
			}
		case tagMove:
			if err := x.field("tag", in+"M: the proving player's move"); err != nil {
				return err
			}
			if err := x.move(d, "move"); err != nil {
				return err
			}
			stack = append(stack, frame{node: true, depth: d + 1})
		case tagAll:
			if err := x.field("tag", in+"A: every legal reply"); err != nil {
				return err
			}
			n, err := x.rd.uvarint("the number of replies", maxReplies)
			if err != nil {
				return err
			}
			if err := x.field("count", fmt.Sprintf("%s%d replies", in, n)); err != nil {
				return err
			}
			stack = append(stack, frame{replies: n, depth: d})
		case tagPart:
			if err := x.field("tag", in+"P: the subtree is another part"); err != nil {
				return err
			}
			k, err := x.rd.uvarint("a part number", 1<<31)
			if err != nil {
				return err
			}
			if err := x.field("part", fmt.Sprintf("%spart %d", in, k)); err != nil {
				return err
			}
		case tagShared:
			if err := x.field("tag", in+"S: a shared subtree, the node after it"); err != nil {
				return err
			}
			stack = append(stack, frame{node: true, depth: d})
		case tagRef:
			if err := x.field("tag", in+"R: a reference to a shared subtree"); err != nil {
				return err
			}
			i, err := x.rd.uvarint("the number of a shared subtree", maxShared)
			if err != nil {
				return err
			}
			if err := x.field("subtree", fmt.Sprintf("%ssubtree %d", in, i)); err != nil {
				return err
			}
		default:
			return x.rd.bad(fmt.Sprintf("the tag %q is not E, M, A, P, S or R", tag), nil)
		}
	}
	if _, err := x.rd.r.ReadByte(); err == nil {
		return fmt.Errorf("%w: bytes after the tree's end at byte %d", ErrFormat, x.rd.off)
	} else if err != io.EOF {
		return fmt.Errorf("%w: after the tree: %v", ErrFormat, err)
	}
	return nil
}

// moves reads and tells a list of moves (the line, the part's line).
func (x *explainer) moves(name string) error {
	n, err := x.rd.uvarint("the "+name+"'s length", maxLine)
	if err != nil {
		return err
	}
	if err := x.field(name+" length", fmt.Sprintf("%d moves", n)); err != nil {
		return err
	}
	for range n {
		if err := x.move(-1, name+" move"); err != nil {
			return err
		}
	}
	return nil
}

// move reads and tells a move, indented by depth in the tree (-1: in the
// header).
func (x *explainer) move(depth int, name string) error {
	m, err := x.rd.move("a move")
	if err != nil {
		return err
	}
	text := m.String()
	if x.ok {
		text = x.r.MoveText(m)
	}
	in := ""
	if depth >= 0 {
		in = strings.Repeat(". ", depth)
	}
	return x.field(name, fmt.Sprintf("%s%s (rules.Move %d)", in, text, m))
}

// AppendExplained appends to b the fields of a certificate part as the
// rows of a Markdown table: offset, bytes in hexadecimal, field, value.
func AppendExplained(b []byte, f Field) []byte {
	return fmt.Appendf(b, "| %d | %s | %s | %s |\n", f.Off, spaced(f.Bytes), f.Name, strings.ReplaceAll(f.Value, "|", `\|`))
}

// spaced writes bytes as hexadecimal pairs separated by spaces.
func spaced(b []byte) string {
	var s strings.Builder
	for i, c := range b {
		if i > 0 {
			s.WriteByte(' ')
		}
		s.WriteString(hex.EncodeToString([]byte{c}))
	}
	return s.String()
}
