package proofcheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"alak/rules"
)

// node is a proof tree decoded, so that tests can break it on purpose.
type node struct {
	tag    byte
	result int64        // 'E': Black's margin in half points
	part   uint64       // 'P'
	ref    uint64       // 'R'
	moves  []rules.Move // 'M': one; 'A': every reply, in order
	kids   []*node
	count  int // 'A': the count written (len(moves) unless broken)
}

func decode(t *testing.T, tree []byte) *node {
	t.Helper()
	rd := &reader{r: bufio.NewReader(bytes.NewReader(tree))}
	var read func() *node
	read = func() *node {
		tag, err := rd.byte("tag")
		if err != nil {
			t.Fatal(err)
		}
		n := &node{tag: tag}
		switch tag {
		case tagEnd:
			n.result, err = rd.varint("result")
		case tagPart:
			n.part, err = rd.uvarint("part", 1<<31)
		case tagRef:
			n.ref, err = rd.uvarint("ref", maxShared)
		case tagShared:
			n.kids = []*node{read()}
		case tagMove:
			var m rules.Move
			m, err = rd.move("move")
			n.moves, n.kids = []rules.Move{m}, []*node{read()}
		case tagAll:
			var k uint64
			k, err = rd.uvarint("count", maxReplies)
			n.count = int(k)
			for range k {
				m, err := rd.move("reply")
				if err != nil {
					t.Fatal(err)
				}
				n.moves, n.kids = append(n.moves, m), append(n.kids, read())
			}
		default:
			t.Fatalf("tag %q", tag)
		}
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return read()
}

func (n *node) encode(b []byte) []byte {
	b = append(b, n.tag)
	switch n.tag {
	case tagEnd:
		return binary.AppendVarint(b, n.result)
	case tagPart:
		return binary.AppendUvarint(b, n.part)
	case tagRef:
		return binary.AppendUvarint(b, n.ref)
	case tagShared:
		return n.kids[0].encode(b)
	case tagAll:
		b = binary.AppendUvarint(b, uint64(n.count))
	}
	for i, m := range n.moves {
		b = AppendMove(b, m)
		b = n.kids[i].encode(b)
	}
	return b
}

// find returns the first node in preorder for which f is true.
func (n *node) find(f func(*node) bool) *node {
	if f(n) {
		return n
	}
	for _, k := range n.kids {
		if m := k.find(f); m != nil {
			return m
		}
	}
	return nil
}

// split returns a certificate file's header and tree.
func split(t *testing.T, file []byte) (Header, []byte) {
	t.Helper()
	rd := &reader{r: bufio.NewReader(bytes.NewReader(file))}
	h, err := rd.header()
	if err != nil {
		t.Fatal(err)
	}
	return h, file[rd.off:]
}

func file(h Header, tree []byte) []byte { return append(h.Append(nil), tree...) }

func check(data []byte) (Report, error) {
	return Check(context.Background(), bytes.NewReader(data))
}

// startHeader returns the header of a proof from the start of the rules
// text for w (with draw: of a draw or better).
func startHeader(t *testing.T, text string, w rules.Color, draw bool) Header {
	t.Helper()
	r, err := rules.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHeader(g, w, draw, "test")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// traditional3 is the proof, written by hand, that Black wins Traditional
// Alak on 3 points (solve/prove_test.go, TestProveTraditional3): Black on
// the centre leaves White no legal placement (either end would have no
// liberty), White passes, Black passes: 3-0, Black's margin 3 (6 half
// points).
func traditional3(t *testing.T) (Header, []byte) {
	t.Helper()
	h := startHeader(t, "traditional size=3", rules.Black, false)
	tree := &node{tag: tagMove, moves: []rules.Move{rules.Place(1)}, kids: []*node{
		{tag: tagAll, count: 1, moves: []rules.Move{rules.Pass}, kids: []*node{
			{tag: tagMove, moves: []rules.Move{rules.Pass}, kids: []*node{{tag: tagEnd, result: 6}}},
		}},
	}}
	return h, tree.encode(nil)
}

func TestCheckTraditional3(t *testing.T) {
	h, tree := traditional3(t)
	rep, err := check(file(h, tree))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Nodes != 4 || rep.Ends != 1 || len(rep.Refs) != 0 {
		t.Errorf("%d nodes, %d ends, refs %v; want the 4 nodes of the line 2 pass pass, 1 end", rep.Nodes, rep.Ends, rep.Refs)
	}
	if want := "x can force a win from the start (traditional size=3)"; rep.Claim() != want {
		t.Errorf("claim %q, want %q", rep.Claim(), want)
	}
}

// golden5 is the certificate alak prove wrote for "o holds a draw on 5
// points" (docs/results-traditional.md: alak prove --rules traditional --size 5 --for o
// --draw --certificate ...): a tree with replies to check at every level.
func golden5(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/traditional-5-o-draw.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheckGolden(t *testing.T) {
	rep, err := check(golden5(t))
	if err != nil {
		t.Fatal(err)
	}
	if want := "o can force a draw or better from the start (traditional size=5)"; rep.Claim() != want || rep.Nodes < 100 {
		t.Errorf("claim %q, %d nodes; want %q", rep.Claim(), rep.Nodes, want)
	}
}

// On 1 point under Traditional Alak neither player can place (the stone
// would have no liberty): pass, pass, and the game is drawn 0-0. The same
// tree proves Black's draw and does not prove Black's win.
func TestCheckGoal(t *testing.T) {
	tree := (&node{tag: tagMove, moves: []rules.Move{rules.Pass}, kids: []*node{
		{tag: tagAll, count: 1, moves: []rules.Move{rules.Pass}, kids: []*node{{tag: tagEnd, result: 0}}},
	}}).encode(nil)
	for _, draw := range []bool{true, false} {
		h := startHeader(t, "traditional size=1", rules.Black, draw)
		_, err := check(file(h, tree))
		switch {
		case draw && err != nil:
			t.Errorf("Black's draw: %v", err)
		case !draw && (!errors.Is(err, ErrRefuted) || !strings.Contains(err.Error(), "which is not a win for x")):
			t.Errorf("Black's win: %v, want it refuted: the game ends drawn", err)
		}
	}
}

// TestCheckRejects breaks certificates on purpose, one fault each, and
// checks that each is rejected with the right kind of error.
func TestCheckRejects(t *testing.T) {
	h3, tree3 := traditional3(t)
	h5, tree5 := split(t, golden5(t))
	mutate := func(h Header, tree []byte, f func(root *node)) []byte {
		root := decode(t, tree)
		f(root)
		return file(h, root.encode(nil))
	}
	isAll := func(n *node) bool { return n.tag == tagAll && len(n.moves) > 1 }
	cases := []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"wrong move: an end point, after which White may play", mutate(h3, tree3, func(r *node) { r.moves[0] = rules.Place(0) }), ErrRefuted, "replies"},
		{"illegal move: an occupied point", mutate(h5, tree5, func(r *node) {
			n := r.find(func(n *node) bool { return n.tag == tagMove && n.moves[0] != rules.Pass })
			n.moves[0] = rules.Place(99)
		}), ErrRefuted, "after"},
		{"a move where every reply is due", mutate(h3, tree3, func(r *node) {
			r.kids[0] = &node{tag: tagMove, moves: []rules.Move{rules.Pass}, kids: r.kids[0].kids[:1]}
		}), ErrRefuted, "every reply is needed"},
		{"missing reply", mutate(h5, tree5, func(r *node) {
			n := r.find(isAll)
			n.moves, n.kids, n.count = n.moves[1:], n.kids[1:], n.count-1
		}), ErrRefuted, "a reply is missing"},
		{"missing reply, count kept", mutate(h5, tree5, func(r *node) {
			n := r.find(isAll)
			n.moves, n.kids = n.moves[1:], n.kids[1:]
		}), ErrFormat, ""},
		{"a reply that is not legal", mutate(h5, tree5, func(r *node) { r.find(isAll).moves[0] = rules.Place(99) }), ErrRefuted, "is not a legal move"},
		{"a move after the end", mutate(h3, tree3, func(r *node) {
			*r.find(func(n *node) bool { return n.tag == tagEnd }) = node{tag: tagMove, moves: []rules.Move{rules.Pass}, kids: []*node{{tag: tagEnd, result: 6}}}
		}), ErrRefuted, "the game is over here"},
		{"reply given twice", mutate(h5, tree5, func(r *node) {
			n := r.find(isAll)
			n.moves[1], n.kids[1] = n.moves[0], n.kids[0]
		}), ErrRefuted, "given twice"},
		{"wrong final result", mutate(h3, tree3, func(r *node) { r.find(func(n *node) bool { return n.tag == tagEnd }).result = 4 }), ErrRefuted, "the kernel counts 3"},
		{"wrong final result in the golden proof", mutate(h5, tree5, func(r *node) {
			r.find(func(n *node) bool { return n.tag == tagEnd }).result += 2
		}), ErrRefuted, "the kernel counts"},
		{"an end before the end", mutate(h3, tree3, func(r *node) { r.kids[0] = &node{tag: tagEnd, result: 0} }), ErrRefuted, "it goes on"},
		{"a claim the tree does not meet", file(Header{Format: h3.Format, Kernel: h3.Kernel, RulesHash: h3.RulesHash,
			Rules: h3.Rules, Start: h3.Start, For: rules.White, Draw: true}, tree3), ErrRefuted, ""},
		{"a part that is not there (in the main part)", mutate(h3, tree3, func(r *node) { *r = node{tag: tagPart, part: 0} }), ErrRefuted, "cannot be"},
		{"wrong rules hash", func() []byte { h := h3; h.RulesHash[0] ^= 1; return file(h, tree3) }(), ErrMismatch, "hash"},
		{"rules changed under the same hash", func() []byte { h := h3; h.Rules = "traditional size=3 ko=none"; return file(h, tree3) }(), ErrMismatch, "hash"},
		{"another kernel", func() []byte { h := h3; h.Kernel++; return file(h, tree3) }(), ErrMismatch, "kernel version"},
		{"another format", func() []byte { h := h3; h.Format = Format + 1; return file(h, tree3) }(), ErrFormat, "format"},
		{"bytes after the tree", append(file(h3, tree3), 'E', 0), ErrFormat, "after the tree"},
		{"an unknown tag", mutate(h3, tree3, func(r *node) { r.kids[0].tag = 'Q' }), ErrFormat, "not E, M, A, P, S or R"},
		{"not a certificate", []byte("(;GM[1]SZ[3])"), ErrFormat, "ALAKPROOF"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := check(c.data)
			if !errors.Is(err, c.want) || !strings.Contains(fmt.Sprint(err), c.msg) {
				t.Errorf("got %v, want an error wrapping %q that says %q", err, c.want, c.msg)
			}
		})
	}
	for _, f := range [][]byte{file(h3, tree3), golden5(t)} {
		if _, err := check(f); err != nil {
			t.Fatalf("the unbroken certificate: %v", err)
		}
		// Every cut of the file short of its end is refused.
		for n := range len(f) {
			if _, err := check(f[:n]); !errors.Is(err, ErrFormat) {
				t.Fatalf("cut to %d of %d bytes: %v, want ErrFormat", n, len(f), err)
			}
		}
	}
}

// TestWriteParts splits the golden proof into parts of at most 64 bytes of
// tree, checks each part alone and the whole, and breaks the set.
func TestWriteParts(t *testing.T) {
	h, tree := split(t, golden5(t))
	whole, err := check(golden5(t))
	if err != nil {
		t.Fatal(err)
	}
	parts := map[int][]byte{}
	n, err := Write(h, tree, 64, func(k int) (io.WriteCloser, error) {
		if _, ok := parts[k]; ok {
			t.Fatalf("part %d written twice", k)
		}
		return nopCloser{k, parts}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 || n != len(parts) {
		t.Fatalf("%d parts written, %d kept; want several for %d bytes in parts of 64", n, len(parts), len(tree))
	}
	for k, b := range parts {
		ph, pt := split(t, b)
		if len(pt) > 64+3*16 || ph.Part != k {
			t.Errorf("part %d: %d bytes of tree, says part %d", k, len(pt), ph.Part)
		}
		if _, err := check(b); err != nil {
			t.Errorf("part %d alone: %v", k, err)
		}
	}
	open := func(parts map[int][]byte) func(int) (io.ReadCloser, error) {
		return func(k int) (io.ReadCloser, error) {
			b, ok := parts[k]
			if !ok {
				return nil, os.ErrNotExist
			}
			return io.NopCloser(bytes.NewReader(b)), nil
		}
	}
	seen := 0
	sum, err := CheckAll(context.Background(), open(parts), func(Report) { seen++ })
	if err != nil {
		t.Fatal(err)
	}
	// Each part's root is a node of the whole tree checked twice: as the
	// reference in its parent and as the root of its part.
	if sum.Parts != n || seen != n || sum.Nodes != whole.Nodes+int64(n-1) || sum.Ends != whole.Ends {
		t.Errorf("%d parts (%d reported), %d nodes, %d ends; the whole: %d parts, %d nodes, %d ends", sum.Parts, seen, sum.Nodes, sum.Ends, n, whole.Nodes, whole.Ends)
	}
	without := func(k int) map[int][]byte {
		m := map[int][]byte{}
		for j, b := range parts {
			if j != k {
				m[j] = b
			}
		}
		return m
	}
	if _, err := CheckAll(context.Background(), open(without(n-1)), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("without the last part: %v", err)
	}
	swapped := without(-1)
	swapped[1], swapped[2] = parts[2], parts[1]
	if _, err := CheckAll(context.Background(), open(swapped), nil); !errors.Is(err, ErrRefuted) {
		t.Errorf("parts 1 and 2 swapped: %v", err)
	}
	if _, err := Write(h, tree[:len(tree)-1], 64, nil); err == nil {
		t.Error("a cut tree was written")
	}
}

type nopCloser struct {
	k     int
	parts map[int][]byte
}

func (w nopCloser) Write(b []byte) (int, error) {
	w.parts[w.k] = append(w.parts[w.k], b...)
	return len(b), nil
}

func (w nopCloser) Close() error { return nil }

// FuzzCheck: whatever the bytes, Check answers (an error or a report)
// without panicking, and a report it accepts is of a claim that reads.
func FuzzCheck(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := check(data)
		if err == nil && rep.Nodes == 0 {
			t.Errorf("accepted with no node: %q", data)
		}
	})
}

// addSeeds adds the fuzz seeds of the certificate readers: the golden
// certificate, the shared ones (a draw's, format 2, and a win's, format
// 3), and a small hand-made tree.
func addSeeds(f *testing.F) {
	f.Add(golden5Bytes(f))
	for _, name := range []string{"traditional-6-o-draw-shared", "traditional-8-o-win-after-1-shared"} {
		if b, err := os.ReadFile("testdata/" + name + ".alakproof"); err == nil {
			f.Add(b)
		}
	}
	r, _ := rules.Parse("traditional size=3")
	g, _ := rules.NewGame(r)
	h, _ := NewHeader(g, rules.Black, false, "fuzz")
	f.Add(append(h.Append(nil), 'M', 2, 'A', 1, 3, 'M', 3, 'E', 12))
}

func golden5Bytes(f *testing.F) []byte {
	b, err := os.ReadFile("testdata/traditional-5-o-draw.alakproof")
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// shared6 is the certificate alak prove wrote for "o holds a draw on 6
// points" with shared subtrees (docs/results-traditional.md: alak prove --rules
// traditional --size 6 --for o --draw --graph --table --certificate ...).
func shared6(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/traditional-6-o-draw-shared.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// walk calls f at every node of a tree without shared subtrees, with the
// game at its position.
func walk(t *testing.T, n *node, g *rules.Game, f func(*node, *rules.Game)) {
	t.Helper()
	f(n, g)
	for i, m := range n.moves {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		walk(t, n.kids[i], g, f)
		_ = g.Undo()
	}
}

// gameOf sets up the game at the proof's root of header h.
func gameOf(t *testing.T, h Header) *rules.Game {
	t.Helper()
	r, err := rules.Parse(h.Rules)
	if err != nil {
		t.Fatal(err)
	}
	start, err := rules.ParsePosition(r, h.Start)
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGameFrom(start)
	for _, m := range h.Line {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestCheckShared checks a certificate with shared subtrees and breaks it
// and others on purpose: references out of place, shared subtrees where
// they are not sound, and one that holds only with the history before it.
func TestCheckShared(t *testing.T) {
	data := shared6(t)
	rep, err := check(data)
	if err != nil {
		t.Fatal(err)
	}
	if want := "o can force a draw or better from the start (traditional size=6)"; rep.Claim() != want || rep.Format != 2 {
		t.Errorf("claim %q, format %d; want %q, format 2 (the committed file's)", rep.Claim(), rep.Format, want)
	}
	h, tree := split(t, data)
	defs, refs := 0, 0
	decode(t, tree).find(func(n *node) bool {
		switch n.tag {
		case tagShared:
			defs++
		case tagRef:
			refs++
		}
		return false
	})
	if defs < 10 || refs < 10 {
		t.Fatalf("%d shared subtrees and %d references; the certificate was written with both", defs, refs)
	}

	mutate := func(h Header, tree []byte, f func(root *node)) []byte {
		root := decode(t, tree)
		f(root)
		return file(h, root.encode(nil))
	}
	firstRef := func(r *node) *node { return r.find(func(n *node) bool { return n.tag == tagRef && n.ref > 0 }) }
	h3, tree3 := traditional3(t)
	h5, tree5 := split(t, golden5(t))
	h1 := startHeader(t, "traditional size=1", rules.White, true)
	format1 := h
	format1.Format = 1
	h5f2 := h5
	h5f2.Format = 2
	h3f2 := h3
	h3f2.Format = 2
	superko := startHeader(t, "traditional size=1 ko=superko", rules.White, true)
	cases := []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"a reference to a subtree not read yet", mutate(h, tree, func(r *node) { firstRef(r).ref = 1 << 20 }), ErrRefuted, "come before"},
		{"a reference to another state", mutate(h, tree, func(r *node) { firstRef(r).ref-- }), ErrRefuted, "another state"},
		{"a shared subtree in a proof of a win, format 2", mutate(h3f2, tree3, func(r *node) { *r = node{tag: tagShared, kids: []*node{{tag: r.tag, moves: r.moves, kids: r.kids}}} }), ErrRefuted, "format 3 allows it"},
		{"a shared subtree under superko", file(superko, []byte{tagShared, tagAll, 1, 3, tagEnd, 0}), ErrRefuted, "superko"},
		{"a reference under superko", file(superko, []byte{tagRef, 0}), ErrRefuted, "superko"},
		{"shared subtrees in a format 1 file", file(format1, tree), ErrFormat, "format 1"},
		{"a part left from a shared subtree", file(h1, []byte{tagShared, tagPart, 1}), ErrRefuted, "shared subtree to part 1"},
		{"a reference from inside the subtree it refers to", file(h1, []byte{tagShared, tagAll, 1, 3, tagRef, 0}), ErrRefuted, "from inside it"},
		{"a repetition draw in a shared subtree", mutate(h5f2, tree5, func(r *node) {
			// A repetition draw of the golden proof: the game ends there
			// because of the history, so the same node is no end from its
			// position alone.
			var rep *node
			walk(t, r, gameOf(t, h5), func(n *node, g *rules.Game) {
				if o := g.Outcome(); rep == nil && n.tag == tagEnd && o.Reason == rules.Repetition {
					rep = n
				}
			})
			if rep == nil {
				t.Fatal("no repetition draw in the golden proof")
			}
			*rep = node{tag: tagShared, kids: []*node{{tag: tagEnd, result: rep.result}}}
		}), ErrRefuted, "it goes on"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := check(c.data)
			if !errors.Is(err, c.want) || !strings.Contains(fmt.Sprint(err), c.msg) {
				t.Errorf("got %v, want an error wrapping %q that says %q", err, c.want, c.msg)
			}
		})
	}
	// Cuts of the file short of its end are refused: every cut in the
	// header and the first shared subtrees, then every 13th byte.
	for n := 0; n < len(data); n += 1 + n/512*12 {
		if _, err := check(data[:n]); !errors.Is(err, ErrFormat) {
			t.Fatalf("cut to %d of %d bytes: %v, want ErrFormat", n, len(data), err)
		}
	}
}

// TestCheckSharedWin checks the use of a shared subtree in a proof of a
// win (format 3): it holds only where no line of it would meet a
// repetition draw given the history before it. Under Traditional Alak on 4
// points with the second occurrence a draw, the line 1 4 3 pass 2 4 3 2 1
// pass (found by a search of the kernel's games) brings back the position
// after 1 4 3 pass, with the player to move able to end the game by
// passing, and winning. From that position alone "pass" wins; after the
// line, the position is a repetition draw already, so the same subtree
// shared there must be refused, and is accepted at the first occurrence.
func TestCheckSharedWin(t *testing.T) {
	const text = "traditional size=4 repetition=2"
	r, err := rules.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	line := func(ms ...string) *rules.Game {
		g, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			mv, err := r.ParseMoveText(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(mv); err != nil {
				t.Fatalf("%s: %v", m, err)
			}
		}
		return g
	}
	first := line("1", "4", "3", "pass")
	again := line("1", "4", "3", "pass", "2", "4", "3", "2", "1", "pass")
	if first.Position().Hash() != again.Position().Hash() || again.Occurrences() != 2 || !again.Over() || first.Over() {
		t.Fatalf("the line does not bring the position back as the test needs: occurrences %d, over %v", again.Occurrences(), again.Over())
	}
	mover := first.Position().ToMove()
	// subtree is "pass, and the game ends" from g's position, shared.
	subtree := func(g *rules.Game) []byte {
		end, err := g.Position().Play(rules.Pass)
		if err != nil || !end.Over() || end.Outcome().Winner != mover {
			t.Fatalf("passing at %s: %v, %v; the test needs a win by passing", g.Position(), end.Outcome(), err)
		}
		return binary.AppendVarint([]byte{tagShared, tagMove, 3, tagEnd}, int64(2*end.Outcome().Margin))
	}
	cert := func(g *rules.Game, format int) []byte {
		h, err := NewHeader(g, mover, false, "test")
		if err != nil {
			t.Fatal(err)
		}
		h.Format = format
		return file(h, subtree(g))
	}
	if _, err := check(cert(first, Format)); err != nil {
		t.Errorf("at the first occurrence: %v, want it accepted", err)
	}
	if _, err := check(cert(again, Format)); !errors.Is(err, ErrRefuted) || !strings.Contains(err.Error(), "does not hold here") {
		t.Errorf("after the repetition: %v, want it refused: the game is drawn there", err)
	}
	// In line, the same subtree is refused after the repetition by the
	// kernel's own count.
	h, err := NewHeader(again, mover, false, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := check(file(h, subtree(again)[1:])); !errors.Is(err, ErrRefuted) {
		t.Errorf("in line after the repetition: %v, want it refused", err)
	}
	if _, err := check(cert(first, 2)); !errors.Is(err, ErrRefuted) || !strings.Contains(err.Error(), "format 3") {
		t.Errorf("in a format 2 file: %v, want it refused", err)
	}
	// A certificate alak prove wrote (White's win on 8 points after 1,
	// with --proof-numbers --table, no graph) shares subtrees and refers
	// to them; a reference moved to another subtree is refused.
	data, err := os.ReadFile("testdata/traditional-8-o-win-after-1-shared.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := check(data)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != 3 || rep.Draw || rep.Shared == 0 || rep.References == 0 {
		t.Errorf("format %d, draw %v, %d shared subtrees, %d references: want a win's certificate of format 3 with both", rep.Format, rep.Draw, rep.Shared, rep.References)
	}
	hw, tree := split(t, data)
	root := decode(t, tree)
	ref := root.find(func(n *node) bool { return n.tag == tagRef })
	if ref == nil {
		t.Fatal("no reference in the tree")
	}
	ref.ref = (ref.ref + 1) % uint64(rep.Shared)
	if _, err := check(file(hw, root.encode(nil))); !errors.Is(err, ErrRefuted) {
		t.Errorf("a reference moved to another subtree: %v, want it refused", err)
	}
}
