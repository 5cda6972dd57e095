package proofcheck

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"alak/rules"
)

// superko7 is the certificate alak prove wrote for "o holds Black's margin
// on 1×7 to at most 2" (alak prove --rules tromp-taylor --size 7 --komi 2.5
// --for o --superko --certificate ...): format 4, with shared subtrees
// and references under positional superko.
func superko7(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/tromp-taylor-7-o-win-komi-2.5.alakproof")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCheckSuperkoShared: the committed certificate checks, and read as
// format 3 it is refused (a shared subtree under superko needs format 4);
// its cuts are refused as unreadable (every cut of the header and the first
// nodes, then every 13th byte).
func TestCheckSuperkoShared(t *testing.T) {
	data := superko7(t)
	rep, err := check(data)
	if err != nil {
		t.Fatal(err)
	}
	if want := "o can force a win from the start (tromp-taylor size=7 komi=2.5)"; rep.Claim() != want || rep.Format != 4 || rep.Shared < 10 || rep.References < 10 {
		t.Errorf("claim %q, format %d, %d shared subtrees, %d references; want %q, format 4, with both", rep.Claim(), rep.Format, rep.Shared, rep.References, want)
	}
	h, tree := split(t, data)
	h.Format = 3
	if _, err := check(file(h, tree)); !errors.Is(err, ErrRefuted) || !strings.Contains(err.Error(), "superko") {
		t.Errorf("as format 3: %v, want a refusal of the shared subtree under superko", err)
	}
	for n := 0; n < len(data); n += 1 + n/256*12 {
		if _, err := check(data[:n]); !errors.Is(err, ErrFormat) {
			t.Fatalf("cut to %d of %d bytes: %v, want ErrFormat", n, len(data), err)
		}
	}
}

// scripted returns the tree of a proof for w of a claim every strategy of
// w's meets: at w's nodes the move script gives for the line (a pass
// where it gives none), at the other player's every legal move, down to
// the end; the node of each line of shared is written as a shared subtree
// ('S', numbered in the order written), that of each line of refer as a
// reference to the shared subtree it names.
func scripted(t *testing.T, g *rules.Game, w rules.Color, script map[string]rules.Move, shared map[string]bool, refer map[string]uint64) []byte {
	t.Helper()
	var b []byte
	var walk func()
	walk = func() {
		key := fmt.Sprint(g.Moves())
		if i, ok := refer[key]; ok {
			b = binary.AppendUvarint(append(b, tagRef), i)
			return
		}
		if shared[key] {
			b = append(b, tagShared)
		}
		if o := g.Outcome(); o.Over() {
			b = binary.AppendVarint(append(b, tagEnd), int64(2*o.Margin))
			return
		}
		play := func(m rules.Move) {
			if err := g.Play(m); err != nil {
				t.Fatalf("after %v: %v", g.Moves(), err)
			}
			walk()
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
		if g.Position().ToMove() == w {
			m, ok := script[key]
			if !ok {
				m = rules.Pass
			}
			b = AppendMove(append(b, tagMove), m)
			play(m)
			return
		}
		moves := g.LegalMoves(nil)
		b = binary.AppendUvarint(append(b, tagAll), uint64(len(moves)))
		for _, m := range moves {
			b = AppendMove(b, m)
			play(m)
		}
	}
	walk()
	return b
}

// TestCheckSuperkoConditions builds certificates of a claim every strategy
// meets, "o wins on 1×4 with komi 4.5" (Black's margin is at most 4), with
// one shared subtree and one reference to it, and checks each condition
// of a reference under superko. Written in full instead (no reference),
// each certificate checks, so the refusals come from the conditions
// alone.
//
//   - D. After 1 2 3 4 (Black's 3 captured by White's 4: -o-o, Black to
//     move), Black's 3 would make -ox-, the board after 1 2 3: superko
//     forbids it, so the subtree there leaves it out. After pass 2 pass 4,
//     the same state, -ox- was never on the line and Black's 3 is legal:
//     the subtree does not answer it, and a reference there is refused.
//   - P. Found by a search of the lines of up to 7 plies: two nodes of the
//     same state, White to move, where a placement of White's legal at
//     the first makes a board that is on the line of the second. White
//     plays it in the subtree of the first; at the second superko forbids
//     it, and a reference there is refused.
func TestCheckSuperkoConditions(t *testing.T) {
	h := startHeader(t, "tromp-taylor size=4 komi=4.5", rules.White, false)
	h.Format = 4
	r, _ := rules.Parse(h.Rules)
	newGame := func() *rules.Game {
		g, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	line := func(ms ...string) string {
		var out []rules.Move
		for _, s := range ms {
			m, err := r.ParseMoveText(s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
		}
		return fmt.Sprint(out)
	}
	x, y, m := findPlayed(t, newGame())
	script := map[string]rules.Move{fmt.Sprint(x): m}
	for _, l := range [][]rules.Move{x, y} {
		g := newGame()
		for _, mv := range l {
			if g.Position().ToMove() == rules.White {
				script[fmt.Sprint(g.Moves())] = mv
			}
			if err := g.Play(mv); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("P: White's %v after %v; the reference after %v", m, x, y)
	for _, tc := range []struct {
		name          string
		script        map[string]rules.Move
		shared, refer string
		msg           string
	}{
		{
			name: "D: a placement the subtree leaves out is legal at the reference",
			script: map[string]rules.Move{
				line("1"): rules.Place(1), line("1", "2", "3"): rules.Place(3),
				line("pass"): rules.Place(1), line("pass", "2", "pass"): rules.Place(3),
			},
			shared: line("1", "2", "3", "4"), refer: line("pass", "2", "pass", "4"),
			msg: "is not on this line",
		},
		{
			name:   "P: a placement of the subtree's is forbidden at the reference",
			script: script,
			shared: fmt.Sprint(x), refer: fmt.Sprint(y),
			msg: "which superko forbids",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			full := scripted(t, newGame(), rules.White, tc.script, nil, nil)
			if _, err := check(file(h, full)); err != nil {
				t.Fatalf("written in full: %v", err)
			}
			same := scripted(t, newGame(), rules.White, tc.script, map[string]bool{tc.shared: true}, nil)
			if _, err := check(file(h, same)); err != nil {
				t.Fatalf("with the shared subtree and no reference: %v", err)
			}
			shared := scripted(t, newGame(), rules.White, tc.script, map[string]bool{tc.shared: true}, map[string]uint64{tc.refer: 0})
			if _, err := check(file(h, shared)); !errors.Is(err, ErrRefuted) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("with the reference: %v, want a refusal saying %q", err, tc.msg)
			}
		})
	}
}

// findPlayed returns two lines x and y of g's game (g at its start) that
// reach the same state with White to move, x before y in the order a
// certificate writes them (the first move where they part is Black's, x's
// first among the legal moves) and White's moves on them never at odds,
// and a placement m of White's legal after x whose board is on y's line.
func findPlayed(t *testing.T, g *rules.Game) (x, y []rules.Move, m rules.Move) {
	t.Helper()
	type node struct {
		moves  []rules.Move
		pos    rules.Position
		boards map[uint64]bool
	}
	var nodes []node
	var walk func(d int)
	walk = func(d int) {
		if g.Over() {
			return
		}
		if g.Position().ToMove() == rules.White {
			boards := map[uint64]bool{}
			for i := 0; i <= g.Len(); i++ {
				boards[g.PositionAt(i).BoardHash()] = true
			}
			nodes = append(nodes, node{g.Moves(), g.Position(), boards})
		}
		if d == 7 {
			return
		}
		for _, mv := range g.LegalMoves(nil) {
			if err := g.Play(mv); err != nil {
				t.Fatal(err)
			}
			walk(d + 1)
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
	}
	walk(0)
	// before reports whether a comes before b in preorder with no White
	// move at odds (the nodes are listed in preorder already, so a's index
	// is smaller): at the first move where they part, Black is to move.
	apart := func(a, b []rules.Move) bool {
		for i := 0; i < len(a) && i < len(b); i++ {
			if a[i] != b[i] {
				return i%2 == 0 // Black moves at the even plies from the start
			}
		}
		return false // one is a prefix of the other
	}
	for i, a := range nodes {
		ga := rules.NewGameFrom(g.Start())
		for _, mv := range a.moves {
			if err := ga.Play(mv); err != nil {
				t.Fatal(err)
			}
		}
		for _, mv := range ga.LegalMoves(nil) {
			if !mv.IsPlace() {
				continue
			}
			next, err := a.pos.Play(mv)
			if err != nil {
				continue
			}
			for _, b := range nodes[i+1:] {
				if b.pos.SameState(a.pos) && b.boards[next.BoardHash()] && apart(a.moves, b.moves) {
					return a.moves, b.moves, mv
				}
			}
		}
	}
	t.Fatal("no two such nodes within 7 plies")
	return nil, nil, 0
}

// TestCheckSharedWinPassEnd: under passend=draw the end by passes counts
// in a shared win's reach. Under Traditional Alak on 4 points with the
// second occurrence a draw, after 1 4 3 (Black's 3 captures White's 4:
// x-x-, White to move, no ko point) and White's pass, Black's pass ends
// the game on x-x- with White to move: by the count a Black win by 5
// (four points and a prisoner), but the position after 1 4 3 again, its
// second occurrence, which passend=draw makes a draw. From its position
// alone the subtree "pass" is a win; shared there, it must be refused
// under passend=draw (the reach names the position two passes end at,
// which occurred before) and accepted under passend=score.
func TestCheckSharedWinPassEnd(t *testing.T) {
	for _, tc := range []struct {
		rules  string
		plain  bool // the tree in line checks
		shared bool // the same tree as a shared subtree checks
	}{
		{"traditional size=4 repetition=2", true, true},
		{"traditional size=4 repetition=2 passend=draw", false, false},
	} {
		r, err := rules.Parse(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []rules.Move{rules.Place(0), rules.Place(3), rules.Place(2), rules.Pass} {
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		h, err := NewHeader(g, rules.Black, false, "test")
		if err != nil {
			t.Fatal(err)
		}
		line := []byte{tagMove, 3, tagEnd, 20} // pass; Black wins by 5 (10 half points, zigzag 20)
		if _, err := check(file(h, line)); (err == nil) != tc.plain {
			t.Errorf("%s: in line: %v, want it to check: %v", tc.rules, err, tc.plain)
		}
		_, err = check(file(h, append([]byte{tagShared}, line...)))
		if (err == nil) != tc.shared {
			t.Errorf("%s: shared: %v, want it to check: %v", tc.rules, err, tc.shared)
		}
		if !tc.shared && (!errors.Is(err, ErrRefuted) || !strings.Contains(err.Error(), "does not hold here")) {
			t.Errorf("%s: shared: %v, want the reach refused", tc.rules, err)
		}
	}
}
