package player

import (
	"context"
	"strings"
	"testing"

	"alak/rules"
	"alak/solve"
)

// TestStrongFindsTheBestMove: in positions of seeded random-against-greedy
// games on alak 9 and 10, whose every value the dense table knows
// (solve.Tables makes the small line's table at the first solve: the
// oracle, which the strong player never reads), the strong player's move
// keeps the position's value, it says the move was proved, and its
// explanation gives that value. At least some positions must have a move
// that loses value, or the test would prove nothing.
func TestStrongFindsTheBestMove(t *testing.T) {
	for _, rs := range []string{"alak size=9", "alak size=10"} {
		t.Run(rs, func(t *testing.T) {
			r := mustRules(t, rs)
			oracle := &solve.Tables{}
			positions := gamePositions(t, r, 4, 17)
			p := NewStrong("strong", 20e9, 256, 0, true, 1)
			tested, traps := 0, 0
			for i, g := range positions {
				if i%2 != 0 || repeats(g) {
					continue // half of them; the table answers histories without repetitions
				}
				before, err := oracle.Solve(context.Background(), g, solve.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if before.Method != solve.MethodTable && before.Method != solve.MethodDense {
					t.Fatalf("the oracle answered by %s, not the table", before.Method)
				}
				if len(before.Best) < len(before.Moves) {
					traps++
				}
				m, err := p.Move(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				if got := before.Moves[m]; got != before.Value {
					t.Errorf("%v %c: strong plays %v worth %v, the position is worth %v (best %v)",
						g.Position(), g.Position().ToMove().Symbol(), m, got, before.Value, before.Best)
				}
				want := "proved: Black's margin " + marginText(before.Value) + " "
				if !strings.HasPrefix(p.Explain(), want) {
					t.Errorf("%v: Explain() = %q, want it to start %q", g.Position(), p.Explain(), want)
				}
				tested++
			}
			rep := p.Report()
			if rep.Moves != tested || rep.Kinds[StrongProved] != tested {
				t.Errorf("report %v, want %d moves, all proved", rep, tested)
			}
			if tested < 10 || traps < 3 {
				t.Fatalf("%d positions tested, %d with a value-losing move: too few to tell", tested, traps)
			}
		})
	}
}

// TestStrongSearchInEndgames: with proofs off the strong player's search
// plays a move of the best value in the endgames of small boards, where it
// reaches every end; the values are the test's own brute force
// (bruteMoves), which shares no code with the solver or the search.
func TestStrongSearchInEndgames(t *testing.T) {
	for _, tc := range endgameCases[:2] {
		t.Run(tc.rules, func(t *testing.T) {
			r := mustRules(t, tc.rules)
			games, values := endgamePositions(t, r, endgameCount(t, tc.want), 5000)
			for i, g := range games {
				p, err := New("strong:proof=off,nodes=300000", uint64(i))
				if err != nil {
					t.Fatal(err)
				}
				m, err := p.Move(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				if got, best := values[i][m], bestOf(values[i]); got != best {
					t.Errorf("%v %c: strong plays %v worth %v; the brute force values the moves %v (best %v)",
						g.Position(), g.Position().ToMove().Symbol(), m, got, values[i], best)
				}
				s := p.(*Strong)
				if k := s.Report().Kinds[StrongSearched+": proofs off"]; k != 1 {
					t.Errorf("report %v, want one move searched with proofs off", s.Report())
				}
				if !strings.HasPrefix(s.Explain(), "searched, not proved (proofs off): alpha-beta to depth ") {
					t.Errorf("Explain() = %q", s.Explain())
				}
			}
		})
	}
}

// TestStrongKeepsTheGraph: once a proof is made, every later position of
// the game is answered from it: a game on alak 8 against random, the first
// proof given a long time, then 200 ms a move, is proved throughout, and
// from the first move's graph (no graph is made again). (The move time is
// not made tiny: answering from the graph is itself bounded by the move
// time, which a loaded machine running the race detector can pass at 1 ms.)
func TestStrongKeepsTheGraph(t *testing.T) {
	r := mustRules(t, "alak size=8")
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	p := NewStrong("strong", 20e9, 64, 0, true, 3)
	opp := NewRandom(4)
	var first *solve.Graph
	for !g.Over() {
		var m rules.Move
		if g.Position().ToMove() == rules.Black {
			m, err = p.Move(context.Background(), g)
			if first == nil {
				first = p.graph
			}
			p.movetime = 200e6
		} else {
			m, err = opp.Move(context.Background(), g)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	rep := p.Report()
	if rep.Moves < 3 || rep.Kinds[StrongProved] != rep.Moves {
		t.Errorf("report %v, want every move proved", rep)
	}
	if first == nil || p.graph != first {
		t.Errorf("the graph was made again after the first move (first %p, last %p)", first, p.graph)
	}
}

// TestStrongSpec: the spec's options and their errors.
func TestStrongSpec(t *testing.T) {
	for _, spec := range []string{"strong", "strong:time=50ms,mem=8", "strong:proof=off,nodes=100"} {
		p, err := New(spec, 1)
		if err != nil {
			t.Fatalf("New(%q): %v", spec, err)
		}
		if p.Name() != spec {
			t.Errorf("New(%q).Name() = %q", spec, p.Name())
		}
	}
	for spec, want := range map[string]string{
		"strong:proof=maybe": "on or off is accepted",
		"strong:mem=0":       "a whole number from 1",
		"strong:depth=3":     "unknown option",
		"strong:time=-1s":    "a positive duration",
	} {
		if _, err := New(spec, 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(%q): error %v, want one saying %q", spec, err, want)
		}
	}
	if got := WithBudget("strong", 100e6, 0); got != "strong:time=100ms" {
		t.Errorf("WithBudget(strong) = %q", got)
	}
}
