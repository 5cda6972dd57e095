package solve

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"alak/internal/testlong"
	"alak/proofcheck"
	"alak/rules"
)

// superkoClaim proves, or disproves, w's goal with komi under positional
// linear Go from g's position by ProveOptions.Superko, with budget
// positions a question (0: none), certificates of both outcomes checked
// by package proofcheck; it returns whether the goal holds.
func superkoClaim(t *testing.T, g *rules.Game, w rules.Color, draw bool, komi float64, budget int64) bool {
	t.Helper()
	r := g.Rules()
	r.Komi = komi
	gk := rules.NewGameFrom(withRules(t, g.Start(), r))
	for _, m := range g.Moves() {
		if err := gk.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	pr, err := Prove(context.Background(), gk, w, ProveOptions{Draw: draw, Superko: true, Certificate: true, Counter: true, Budget: budget, MemoryMB: 16})
	if err != nil {
		t.Fatalf("%s after %v, %c (draw %v): %v", r, g.Moves(), w.Symbol(), draw, err)
	}
	if pr.Proved == pr.Disproved {
		t.Fatalf("%s after %v: proved %v, disproved %v", r, g.Moves(), pr.Proved, pr.Disproved)
	}
	who, goal, tree := w, draw, pr.Tree
	if pr.Disproved {
		who, goal, tree = w.Opp(), !draw, pr.Counter
	}
	sum := checkSuperko(t, gk, who, goal, tree)
	if sum.Nodes != pr.Written || sum.References != pr.WinReferences || sum.Shared != pr.WinSubtrees {
		t.Errorf("%s after %v: written %d positions, %d subtrees, %d references; checked %d, %d, %d", r, g.Moves(), pr.Written, pr.WinSubtrees, pr.WinReferences, sum.Nodes, sum.Shared, sum.References)
	}
	return pr.Proved
}

// winClaimGame returns the empty 1×n line of positional linear Go with a
// komi that leaves w winning by half a point under perfect play, so that
// w's claim to win holds with nothing to spare.
func winClaimGame(t *testing.T, n int, w rules.Color) *rules.Game {
	t.Helper()
	g := superkoGame(t, n)
	res, err := Solve(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := g.Rules()
	r.Komi = res.Value - 0.5
	if w == rules.White {
		r.Komi = res.Value + 0.5
	}
	gk, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	return gk
}

// withRules returns the position pos under the rules r (another komi).
func withRules(t *testing.T, pos rules.Position, r rules.Rules) rules.Position {
	t.Helper()
	text, err := pos.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParsePosition(r, string(text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkSuperko writes tree as a certificate for who (with draw: of a draw
// or better) and checks it.
func checkSuperko(t *testing.T, g *rules.Game, who rules.Color, draw bool, tree []byte) proofcheck.Summary {
	t.Helper()
	h, err := proofcheck.NewHeader(g, who, draw, "test")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := proofcheck.Write(h, tree, 1<<30, func(int) (io.WriteCloser, error) { return nopWriteCloser{&buf}, nil }); err != nil {
		t.Fatal(err)
	}
	rep, err := proofcheck.Check(context.Background(), &buf)
	if err != nil {
		t.Fatalf("%s after %v: the certificate for %c (draw %v) does not check: %v", g.Rules(), g.Moves(), who.Symbol(), draw, err)
	}
	return proofcheck.Summary{Header: rep.Header, Parts: 1, Nodes: rep.Nodes, Ends: rep.Ends, Shared: rep.Shared, References: rep.References}
}

// TestProveSuperko: on 1×1 to 1×7 from the start and after every first
// move up to 1×6 (with ALAK_LONG=1, 1×9 and 1×8; under the race detector
// one size less), the certificates of ProveOptions.
// Superko settle Black's margin exactly where the solver of method 4 puts
// it: "x wins with komi v − ½" and "o wins with komi v + ½" are proved, and
// the claims a point beyond, disproved, with the opponent's certificates;
// every certificate checks. The values from the start are also those of
// docs/results-tromp-taylor.md's table (made with alak solve --table at 43b615e, the
// same as Drange's table from 1×5 to 1×11).
func TestProveSuperko(t *testing.T) {
	t.Parallel()
	table := []float64{0, 0, 3, 4, 0, 1, 2, 3, 0}
	last, openings := 7, 6
	if testlong.Enabled(t) {
		last, openings = 9, 8
	}
	if raceEnabled {
		last, openings = last-1, openings-1
	}
	for n := 1; n <= last; n++ {
		g := superkoGame(t, n)
		res, err := Solve(context.Background(), g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Value != table[n-1] {
			t.Errorf("1×%d: the solver gives %v, results-tromp-taylor.md %v", n, res.Value, table[n-1])
		}
		claims := func(g *rules.Game, v float64) {
			t.Helper()
			if !superkoClaim(t, g, rules.Black, false, v-0.5, 0) || !superkoClaim(t, g, rules.White, false, v+0.5, 0) {
				t.Errorf("1×%d after %v: the value %v is not proved both ways", n, g.Moves(), v)
			}
			if superkoClaim(t, g, rules.Black, false, v+0.5, 0) || superkoClaim(t, g, rules.White, false, v-0.5, 0) {
				t.Errorf("1×%d after %v: a bound beyond the value %v is proved", n, g.Moves(), v)
			}
		}
		claims(g, res.Value)
		if n > openings {
			continue
		}
		for m, v := range res.Moves {
			if m.IsPlace() && m.Point() > (n-1)/2 {
				continue // the mirror image of another opening
			}
			c := g.Clone()
			if err := c.Play(m); err != nil {
				t.Fatal(err)
			}
			claims(c, v)
		}
	}
}

// TestProveSuperkoBudget: with a budget far smaller than a search of the
// whole question, the writer follows the moves of the questions cut off
// and still settles each claim as without one, with certificates that
// check (a draw claim too: Black's margin at least 0 on 1×8 is "x draws or
// better with komi 0").
func TestProveSuperkoBudget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n      int
		w      rules.Color
		draw   bool
		komi   float64
		holds  bool
		budget int64
	}{
		{7, rules.White, false, 2.5, true, 100},
		{7, rules.Black, false, 2.5, false, 100},
		{8, rules.Black, true, 3, true, 1000},
		{8, rules.White, false, 2.5, false, 1000},
		{8, rules.White, false, 3.5, true, 300},
	} {
		if got := superkoClaim(t, superkoGame(t, tc.n), tc.w, tc.draw, tc.komi, tc.budget); got != tc.holds {
			t.Errorf("1×%d, %c, draw %v, komi %v, budget %d: holds %v, want %v", tc.n, tc.w.Symbol(), tc.draw, tc.komi, tc.budget, got, tc.holds)
		}
	}
}

// TestProveSuperkoConditions: the conditions that let a subtree be
// referred to are needed, and the checker enforces them. Written with a
// writer that refers to any subtree of the same state, whatever the line,
// some certificates of 1×4 to 1×7 refer to a subtree whose conditions do
// not hold, and the checker refuses them, saying which condition failed;
// with the conditions, every one checks (TestProveSuperko).
func TestProveSuperkoConditions(t *testing.T) {
	t.Parallel()
	refused := map[string]int{}
	for n := 4; n <= 7; n++ {
		for _, w := range []rules.Color{rules.Black, rules.White} {
			gk := winClaimGame(t, n, w)
			pr, err := Prove(context.Background(), gk, w, ProveOptions{Superko: true, Certificate: true, MemoryMB: 16, ignoreConds: true})
			if err != nil || !pr.Proved {
				t.Fatalf("1×%d, %c: %v, %v", n, w.Symbol(), pr.Proved, err)
			}
			h, _ := proofcheck.NewHeader(gk, w, false, "test")
			var buf bytes.Buffer
			if _, err := proofcheck.Write(h, pr.Tree, 1<<30, func(int) (io.WriteCloser, error) { return nopWriteCloser{&buf}, nil }); err != nil {
				t.Fatal(err)
			}
			_, err = proofcheck.Check(context.Background(), &buf)
			switch {
			case err == nil:
			case !errors.Is(err, proofcheck.ErrRefuted):
				t.Errorf("1×%d, %c: %v", n, w.Symbol(), err)
			case strings.Contains(err.Error(), "is not on this line"):
				refused["D"]++
			case strings.Contains(err.Error(), "which superko forbids"):
				refused["P"]++
			default:
				t.Errorf("1×%d, %c: refused for another reason: %v", n, w.Symbol(), err)
			}
		}
	}
	if refused["D"]+refused["P"] == 0 {
		t.Error("no certificate written without the conditions was refused: the test shows nothing")
	}
	t.Logf("refused for D: %d, for P: %d", refused["D"], refused["P"])
}

// A claim under other rules is refused with a sentence saying which.
func TestProveSuperkoRules(t *testing.T) {
	t.Parallel()
	_, err := Prove(context.Background(), newGame(t, "traditional", 5), rules.Black, ProveOptions{Superko: true})
	if err == nil || !strings.Contains(err.Error(), "tromp-taylor") {
		t.Errorf("%v: want a refusal naming the rules it takes", err)
	}
	g := superkoGame(t, 9)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Prove(ctx, g, rules.Black, ProveOptions{Superko: true, Certificate: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestProveSuperkoCondsBound: the writer's bound on a subtree's
// conditions (skMaxConds) decides how much is written, never whether the
// certificate holds. With a bound of 4 boards most subtrees pass it and
// are written in line, with every subtree around them; the certificates
// still check, and they hold more positions than under the default
// bound, which no subtree of these boards can pass (P and D together
// name at most twice the 3^8 boards of 1×8).
func TestProveSuperkoCondsBound(t *testing.T) {
	t.Parallel()
	last := 8
	if raceEnabled {
		last = 7
	}
	var small, full int64
	for n := 5; n <= last; n++ {
		for _, w := range []rules.Color{rules.Black, rules.White} {
			gk := winClaimGame(t, n, w)
			var nodes [2]int64
			for i, bound := range []int{4, 0} {
				pr, err := Prove(context.Background(), gk, w, ProveOptions{Superko: true, Certificate: true, MemoryMB: 16, maxConds: bound})
				if err != nil || !pr.Proved {
					t.Fatalf("1×%d, %c, bound %d: %v, %v", n, w.Symbol(), bound, pr.Proved, err)
				}
				nodes[i] = checkSuperko(t, gk, w, false, pr.Tree).Nodes
			}
			t.Logf("1×%d, %c: %d positions with the bound at 4, %d with the default", n, w.Symbol(), nodes[0], nodes[1])
			small += nodes[0]
			full += nodes[1]
		}
	}
	if small <= full {
		t.Errorf("%d positions written with the bound at 4, %d with the default: the bound made no difference, so the test shows nothing", small, full)
	}
}
