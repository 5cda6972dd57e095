package proofcheck

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"alak/rules"
)

// The certificates of White's bound on 1×5 after each of Black's first
// moves (the value is 0: results-tromp-taylor.md), written by
//
//	alak prove --rules tromp-taylor --size 5 --for o --draw --superko --certificate FILE MOVE
//
// for 1, 2, 3 and the pass, and by alak mirror-proof for 4 and 5.
var joinMoves = []string{"1", "2", "3", "4", "5", "pass"}

func readJoinInputs(t testing.TB) [][]byte {
	t.Helper()
	var out [][]byte
	for _, m := range joinMoves {
		b, err := os.ReadFile("testdata/tromp-taylor-5-o-draw-after-" + m + ".alakproof")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func join(ins [][]byte) ([]byte, Header, error) {
	var rs []io.Reader
	for _, b := range ins {
		rs = append(rs, bytes.NewReader(b))
	}
	var out bytes.Buffer
	h, err := Join(&out, rs, "test")
	return out.Bytes(), h, err
}

// TestJoin: the six certificates of White's bound after each first move on
// 1×5, joined in any order, are one certificate of White's bound from the
// empty board, which checks with one position more than the six (the
// root) and their shared subtrees all kept; Black's bound after the
// opening 3 joined alone is Black's bound from the start, the root playing
// 3.
func TestJoin(t *testing.T) {
	ins := readJoinInputs(t)
	var nodes, ends, shared int64
	for i, b := range ins {
		rep, err := check(b)
		if err != nil {
			t.Fatalf("after %s: %v", joinMoves[i], err)
		}
		nodes, ends, shared = nodes+rep.Nodes, ends+rep.Ends, shared+rep.Shared
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 4 {
		if round > 0 {
			rng.Shuffle(len(ins), func(i, j int) { ins[i], ins[j] = ins[j], ins[i] })
		}
		out, h, err := join(ins)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := check(out)
		if err != nil {
			t.Fatalf("round %d: the joined certificate does not check: %v", round, err)
		}
		if len(rep.Header.Line) != 0 || rep.Header.For != rules.White || !rep.Header.Draw || h.Writer != "test" {
			t.Errorf("round %d: the joined certificate claims %q (writer %q)", round, rep.Header.Claim(), h.Writer)
		}
		if rep.Nodes != nodes+1 || rep.Ends != ends || rep.Shared != shared {
			t.Errorf("round %d: %d positions, %d finished games, %d shared subtrees checked; want %d, %d and %d", round, rep.Nodes, rep.Ends, rep.Shared, nodes+1, ends, shared)
		}
	}

	b, err := os.ReadFile("testdata/tromp-taylor-5-x-draw-after-3.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	one, err := check(b)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := join([][]byte{b})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := check(out)
	if err != nil {
		t.Fatalf("Black's bound after 3, joined: %v", err)
	}
	root := out[len(rep.Header.Append(nil)):]
	if len(rep.Header.Line) != 0 || rep.Header.For != rules.Black || rep.Nodes != one.Nodes+1 || !bytes.HasPrefix(root, AppendMove([]byte{'M'}, rules.Place(2))) {
		t.Errorf("Black's bound joined: %q, %d positions (want %d), the root % x", rep.Header.Claim(), rep.Nodes, one.Nodes+1, root[:min(len(root), 4)])
	}
}

// TestJoinRejects: a move missing, a move twice, claims that differ, two
// certificates where the proof's player moves, a certificate of the start
// position, one in parts and one cut short are each refused, with a
// message that says which.
func TestJoinRejects(t *testing.T) {
	ins := readJoinInputs(t)
	x3, err := os.ReadFile("testdata/tromp-taylor-5-x-draw-after-3.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.ReadFile("testdata/tromp-taylor-7-o-win-komi-2.5.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	// A header saying part 1, at the move 1, before the tree after 2.
	h, err := (&reader{r: bufio.NewReader(bytes.NewReader(ins[1]))}).header()
	if err != nil {
		t.Fatal(err)
	}
	inParts := h
	inParts.Part, inParts.At = 1, []rules.Move{rules.Place(0)}
	parted := append(inParts.Append(nil), 'E', 0)
	for _, c := range []struct {
		name string
		ins  [][]byte
		want string
	}{
		{"the pass missing", ins[:5], "no certificate after pass"},
		{"2 twice", append([][]byte{ins[1]}, ins...), "two certificates after 2"},
		{"Black's claim among White's", append(ins[:5:5], x3), "claims"},
		{"two of Black's", [][]byte{x3, x3}, "one certificate makes the proof"},
		{"the start position", [][]byte{root}, "claims the start position itself"},
		{"a part", [][]byte{parted}, "a certificate in parts"},
		{"none", nil, "no certificate"},
	} {
		_, _, err := join(c.ins)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	for n := 0; n < len(ins[2]); n++ {
		cut := append(ins[:2:2], ins[2][:n])
		cut = append(cut, ins[3:]...)
		if _, _, err := join(cut); !errors.Is(err, ErrFormat) {
			t.Fatalf("the certificate after 3 cut at byte %d of %d: %v, want an error of ErrFormat", n, len(ins[2]), err)
		}
	}
	if _, _, err := join(append(ins[:5:5], append(slices.Clone(ins[5]), 'E', 0))); !errors.Is(err, ErrFormat) {
		t.Errorf("bytes after a tree: %v", err)
	}
}

// FuzzJoin: whatever the bytes given in place of the certificate after 1,
// Join answers without panicking, and where it joins and every input
// checks, the joined certificate checks with one position more than they.
func FuzzJoin(f *testing.F) {
	ins := readJoinInputs(f)
	addSeeds(f)
	f.Add(ins[0])
	f.Fuzz(func(t *testing.T, data []byte) {
		all := append([][]byte{data}, ins[1:]...)
		out, _, err := join(all)
		if err != nil {
			return
		}
		var nodes int64
		for _, b := range all {
			rep, err := check(b)
			if err != nil {
				return
			}
			nodes += rep.Nodes
		}
		rep, err := check(out)
		if err != nil {
			t.Fatalf("every input checks and Join joined them, but the result does not check: %v", err)
		}
		if rep.Nodes != nodes+1 {
			t.Errorf("%d positions checked, want %d", rep.Nodes, nodes+1)
		}
	})
}

func extract(b []byte, moves ...string) ([]byte, error) {
	var out bytes.Buffer
	_, err := Extract(&out, bytes.NewReader(b), moves, "alak devel")
	return out.Bytes(), err
}

// TestExtract: the subtree of a joined certificate after each move is the
// certificate that was joined there, tree byte for byte (the references
// numbered back) and the same claim, and checks; so is Black's bound
// after 3 taken out of its join, the root's move. A path the proof does
// not follow, one through a finished game, a subtree that refers to one
// written before it (White's bound on 1×7, after 2) and a move that does
// not read are refused.
func TestExtract(t *testing.T) {
	ins := readJoinInputs(t)
	joined, _, err := join(ins)
	if err != nil {
		t.Fatal(err)
	}
	x3, err := os.ReadFile("testdata/tromp-taylor-5-x-draw-after-3.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	xJoined, _, err := join([][]byte{x3})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		from []byte
		move string
		want []byte
	}{{xJoined, "3", x3}}
	for i, m := range joinMoves {
		cases = append(cases, struct {
			from []byte
			move string
			want []byte
		}{joined, m, ins[i]})
	}
	for _, c := range cases {
		got, err := Extract(&bytes.Buffer{}, bytes.NewReader(c.from), []string{c.move}, "alak devel")
		if err != nil {
			t.Fatalf("after %s: %v", c.move, err)
		}
		out, err := extract(c.from, c.move)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := check(out)
		if err != nil {
			t.Fatalf("after %s: the subtree does not check: %v", c.move, err)
		}
		want, err := check(c.want)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Header.Claim() != want.Header.Claim() || got.Claim() != want.Header.Claim() || rep.Nodes != want.Nodes || rep.Shared != want.Shared {
			t.Errorf("after %s: %q, %d positions; want %q, %d", c.move, rep.Header.Claim(), rep.Nodes, want.Header.Claim(), want.Nodes)
		}
		if !bytes.Equal(out[len(rep.Header.Append(nil)):], c.want[len(want.Header.Append(nil)):]) {
			t.Errorf("after %s: the tree taken out is not the tree joined", c.move)
		}
	}

	t7, err := os.ReadFile("testdata/tromp-taylor-7-o-win-komi-2.5.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from  []byte
		moves []string
		want  string
	}{
		{xJoined, []string{"2"}, "does not reach the position after 2"},
		{joined, []string{"pass", "pass", "1"}, "the game is over after pass pass"},
		{t7, []string{"2"}, "written before it"},
		{joined, []string{"x"}, `the move "x"`},
	} {
		if _, err := extract(c.from, c.moves...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error saying %q", c.moves, err, c.want)
		}
	}
	for n := 0; n < len(joined); n += 1 + n/40 {
		if _, err := extract(joined[:n], "pass"); err == nil { // the last subtree: every cut is inside it or before
			t.Fatalf("cut at byte %d of %d: no error", n, len(joined))
		}
	}
}

// FuzzExtract: whatever the bytes, Extract answers without panicking, and
// the subtree it takes out of a certificate that checks checks too.
func FuzzExtract(f *testing.F) {
	addJoinedSeed(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, m := range []string{"1", "2", "pass"} {
			out, err := extract(data, m)
			if err != nil {
				continue
			}
			if _, err := check(data); err != nil {
				continue
			}
			if _, err := check(out); err != nil {
				t.Fatalf("the certificate checks, its subtree after %s does not: %v", m, err)
			}
		}
	})
}

// addJoinedSeed adds the seeds of every fuzz target of the package and
// White's bound on 1×5 joined from its six parts: a root with shared
// subtrees renumbered.
func addJoinedSeed(f *testing.F) {
	addSeeds(f)
	joined, _, err := join(readJoinInputs(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(joined)
}
