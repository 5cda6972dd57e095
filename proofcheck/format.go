package proofcheck

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"alak/rules"
)

// The file of a certificate part (docs/solver-proofs.md, "Proof certificates"):
//
//	magic   10 bytes  "ALAKPROOF\n"
//	format  uvarint   Format
//	kernel  uvarint   rules.KernelVersion of the writer
//	hash    32 bytes  RulesHash of the rules
//	rules   string    the rules as rules.Rules.String writes them
//	start   string    the game's start position as rules.Position.MarshalText writes it
//	line    moves     the moves from the start to the proof's root
//	for     byte      'x' or 'o': the player the proof is for
//	goal    byte      'w' (a win) or 'd' (a win or a draw)
//	part    uvarint   0 for the main part, k for part k
//	at      moves     the moves from the proof's root to this part's root (none in part 0)
//	writer  string    the alak build that wrote it (informative)
//	tree    node      the proof tree, in preorder, to the end of the file
//
// A string is a uvarint length then the bytes; moves are a uvarint count
// then each move; a move is a varint (zigzag) of the kernel's rules.Move:
// 0, 2, 4 ... the points 1, 2, 3 ..., 3 a pass, the declarations of safe
// points (rules.Declare) below -2^20. A node is a tag byte and:
//
//	'E' varint    the game is over here; Black's margin in half points
//	'M' move node the proving player's move and the node after it
//	'A' uvarint n, then n times: move node   every legal reply and the node after each
//	'P' uvarint k the subtree from here is part k
//	'S' node      a shared subtree (format 2 for draw goals, 3 for wins too):
//	              the node is checked from its position alone, with no
//	              history, and may be referred to from anywhere after this
//	              tag
//	'R' uvarint i the shared subtree i (the i-th 'S' of the part, from 0)
//	              proves this node, whose position is the same state
//	              (rules.Position.SameState)
//
// Format 1 has no 'S' or 'R'; format 2 has them in proofs of a draw only;
// format 3 in proofs of a win too, where each use of a shared subtree (its
// 'S' and every 'R') must leave every line of it free of repetition draws
// (checker.use); format 4 under positional superko too, where a shared
// subtree is checked in place, on its line, and a reference holds where
// the line has the boards its lines assumed (superko.go). A checker of
// format 4 reads all four; a writer gives the lowest format its tree
// needs (Write).
const (
	Magic  = "ALAKPROOF\n"
	Format = 4
)

// Node tags.
const (
	tagEnd     = 'E'
	tagMove    = 'M'
	tagAll     = 'A'
	tagPart    = 'P'
	tagShared  = 'S'
	tagRef     = 'R'
	maxString  = 4096   // the longest rules, start or writer text read
	maxLine    = 100000 // the most moves in a line (rules.MaxGameMoves)
	maxReplies = 1 << 16
	maxShared  = 1 << 26 // the most shared subtrees in a part (a position each in the checker's memory)
)

// ErrFormat is wrapped by the errors about a file that is not a readable
// certificate (bad magic, truncated, a count out of range, a tag unknown).
var ErrFormat = errors.New("not a readable proof certificate")

// ErrRefuted is wrapped by the errors about a certificate that reads but
// does not prove its claim (an illegal move, a missing reply, a wrong
// result, a line that does not reach the end).
var ErrRefuted = errors.New("the certificate does not prove its claim")

// ErrMismatch is wrapped when the certificate was made for other rules or
// by another kernel version than this program's.
var ErrMismatch = errors.New("the certificate was made under other rules or another kernel")

// Header is what a part says before its tree.
type Header struct {
	Format    int
	Kernel    int // rules.KernelVersion of the writer
	RulesHash [32]byte
	Rules     string       // rules.Rules.String
	Start     string       // rules.Position.MarshalText of the game's start
	Line      []rules.Move // from the start to the proof's root
	For       rules.Color  // the player the proof is for
	Draw      bool         // the goal is a win or a draw, not a win only
	Part      int          // 0: the main part
	At        []rules.Move // from the proof's root to this part's root
	Writer    string
}

// RulesHash returns the SHA-256 of RulesText(r). It changes when a
// preset's meaning does, where r.String (which names only what differs
// from the preset) would not.
func RulesHash(r rules.Rules) [32]byte { return sha256.Sum256([]byte(RulesText(r))) }

// RulesText is the text the rules hash is taken of: every option of r, one
// "name=value\n" line each in the order of rules.Options, with the value
// rules.Rules.Get gives (for the options that do not apply, such as min
// under placement rules, the value the rules hold: "min=0", "start="),
// except an option added after certificates were first made
// (rules.Unset), named only where it has another value than that.
func RulesText(r rules.Rules) string {
	var b strings.Builder
	for _, o := range rules.Options() {
		v, _ := r.Get(o.Name)
		if unset, late := rules.Unset(o.Name); late && v == unset {
			continue
		}
		b.WriteString(o.Name + "=" + v + "\n")
	}
	return b.String()
}

// NewHeader returns the header of the main part of a proof, for player w
// (with draw: of a win or a draw), of the position g has reached, under g's
// rules, written by the build writer. It says format 3, which reads every
// tree but one with shared subtrees under superko; Write raises it to 4
// for such a tree.
func NewHeader(g *rules.Game, w rules.Color, draw bool, writer string) (Header, error) {
	start, err := g.Start().MarshalText()
	if err != nil {
		return Header{}, err
	}
	r := g.Rules()
	return Header{Format: 3, Kernel: rules.KernelVersion, RulesHash: RulesHash(r), Rules: r.String(),
		Start: string(start), Line: g.Moves(), For: w, Draw: draw, Writer: writer}, nil
}

// Claim writes what the part proves: "x can force a draw or better after 2
// 5 (traditional size=6)".
func (h Header) Claim() string {
	goal := "a win"
	if h.Draw {
		goal = "a draw or better"
	}
	r, err := rules.Parse(h.Rules)
	where := "from the start"
	if line := append(append([]rules.Move(nil), h.Line...), h.At...); len(line) > 0 {
		var ms []string
		for _, m := range line {
			if err == nil {
				ms = append(ms, r.MoveText(m))
			} else {
				ms = append(ms, m.String())
			}
		}
		where = "after " + strings.Join(ms, " ")
	}
	return fmt.Sprintf("%c can force %s %s (%s)", h.For.Symbol(), goal, where, h.Rules)
}

// AppendMove appends the encoding of m.
func AppendMove(b []byte, m rules.Move) []byte { return binary.AppendVarint(b, int64(m)) }

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendMoves(b []byte, ms []rules.Move) []byte {
	b = binary.AppendUvarint(b, uint64(len(ms)))
	for _, m := range ms {
		b = AppendMove(b, m)
	}
	return b
}

// Append appends the encoding of h.
func (h Header) Append(b []byte) []byte {
	b = append(b, Magic...)
	b = binary.AppendUvarint(b, uint64(h.Format))
	b = binary.AppendUvarint(b, uint64(h.Kernel))
	b = append(b, h.RulesHash[:]...)
	b = appendString(b, h.Rules)
	b = appendString(b, h.Start)
	b = appendMoves(b, h.Line)
	b = append(b, h.For.Symbol())
	if h.Draw {
		b = append(b, 'd')
	} else {
		b = append(b, 'w')
	}
	b = binary.AppendUvarint(b, uint64(h.Part))
	b = appendMoves(b, h.At)
	return appendString(b, h.Writer)
}

// reader reads a part, counting what it read and failing with ErrFormat.
type reader struct {
	r   *bufio.Reader
	off int64
}

func (r *reader) bad(what string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: the file ends at byte %d, in the middle of %s (truncated?)", ErrFormat, r.off, what)
	}
	if err != nil {
		return fmt.Errorf("%w: reading %s at byte %d: %v", ErrFormat, what, r.off, err)
	}
	return fmt.Errorf("%w: byte %d: %s", ErrFormat, r.off, what)
}

func (r *reader) byte(what string) (byte, error) {
	c, err := r.r.ReadByte()
	if err != nil {
		return 0, r.bad(what, err)
	}
	r.off++
	return c, nil
}

func (r *reader) uvarint(what string, max uint64) (uint64, error) {
	v, err := binary.ReadUvarint(byteCounter{r})
	if err != nil {
		return 0, r.bad(what, err)
	}
	if v > max {
		return 0, r.bad(fmt.Sprintf("%s is %d, at most %d is accepted", what, v, max), nil)
	}
	return v, nil
}

func (r *reader) varint(what string) (int64, error) {
	v, err := binary.ReadVarint(byteCounter{r})
	if err != nil {
		return 0, r.bad(what, err)
	}
	return v, nil
}

func (r *reader) move(what string) (rules.Move, error) {
	v, err := r.varint(what)
	if err != nil {
		return 0, err
	}
	if (v < -3 || v >= 1<<21) && !rules.Move(v).IsDeclare() {
		return 0, r.bad(fmt.Sprintf("%s: %d is no move (a move is -3 to 2097151, or a declaration of a safe point, -1048576 down to -1114111)", what, v), nil)
	}
	return rules.Move(v), nil
}

func (r *reader) string(what string) (string, error) {
	n, err := r.uvarint(what+"'s length", maxString)
	if err != nil {
		return "", err
	}
	b := make([]byte, n)
	k, err := io.ReadFull(r.r, b)
	r.off += int64(k)
	if err != nil {
		return "", r.bad(what, err)
	}
	return string(b), nil
}

func (r *reader) moves(what string) ([]rules.Move, error) {
	n, err := r.uvarint(what+"'s length", maxLine)
	if err != nil {
		return nil, err
	}
	var ms []rules.Move
	for range n {
		m, err := r.move(what)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// byteCounter lets binary.ReadUvarint count the bytes it reads.
type byteCounter struct{ r *reader }

func (c byteCounter) ReadByte() (byte, error) {
	b, err := c.r.r.ReadByte()
	if err == nil {
		c.r.off++
	} else if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return b, err
}

// header reads a part's header.
func (r *reader) header() (Header, error) {
	var h Header
	magic := make([]byte, len(Magic))
	k, err := io.ReadFull(r.r, magic)
	r.off += int64(k)
	if err != nil || string(magic) != Magic {
		return h, fmt.Errorf("%w: it does not start with %q", ErrFormat, strings.TrimSpace(Magic))
	}
	f, err := r.uvarint("the format", 1<<20)
	if err != nil {
		return h, err
	}
	if f < 1 || f > Format {
		return h, fmt.Errorf("%w: format %d; this program reads formats 1 to %d", ErrFormat, f, Format)
	}
	kv, err := r.uvarint("the kernel version", 1<<20)
	if err != nil {
		return h, err
	}
	h.Format, h.Kernel = int(f), int(kv)
	for i := range h.RulesHash {
		if h.RulesHash[i], err = r.byte("the rules' hash"); err != nil {
			return h, err
		}
	}
	if h.Rules, err = r.string("the rules"); err != nil {
		return h, err
	}
	if h.Start, err = r.string("the start position"); err != nil {
		return h, err
	}
	if h.Line, err = r.moves("the line"); err != nil {
		return h, err
	}
	c, err := r.byte("the player")
	if err != nil {
		return h, err
	}
	switch c {
	case 'x':
		h.For = rules.Black
	case 'o':
		h.For = rules.White
	default:
		return h, r.bad(fmt.Sprintf("the player is %q, not x or o", c), nil)
	}
	c, err = r.byte("the goal")
	if err != nil {
		return h, err
	}
	switch c {
	case 'w':
	case 'd':
		h.Draw = true
	default:
		return h, r.bad(fmt.Sprintf("the goal is %q, not w (a win) or d (a draw or better)", c), nil)
	}
	p, err := r.uvarint("the part number", 1<<31)
	if err != nil {
		return h, err
	}
	h.Part = int(p)
	if h.At, err = r.moves("the part's line"); err != nil {
		return h, err
	}
	if h.Part == 0 && len(h.At) > 0 {
		return h, r.bad("the main part has a line from the proof's root", nil)
	}
	h.Writer, err = r.string("the writer")
	return h, err
}
