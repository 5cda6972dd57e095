package player

import (
	"context"
	"testing"

	"alak/rules"
	"alak/solve"
)

// gamePositions collects positions from seeded games between the given
// players (random and greedy mix openings with purposeful moves), skipping
// finished ones.
func gamePositions(t testing.TB, r rules.Rules, games int, seed uint64) []*rules.Game {
	t.Helper()
	var out []*rules.Game
	for i := range games {
		a, b := Player(NewRandom(seed+uint64(i))), Player(NewGreedy(seed+uint64(i)+1))
		if i%2 == 1 {
			a, b = b, a
		}
		g, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		ps := [2]Player{a, b}
		for !g.Over() && g.Len() < 200 {
			out = append(out, g.Clone())
			m, err := ps[g.Position().ToMove()].Move(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// TestPerfectKeepsTheValue checks the perfect player's move in thousands
// of positions from games on small boards against solve.Solve: the value
// after its move (for the mover) equals the value of the position, so a won
// position stays won, a drawn one drawn, and no margin is given away.
func TestPerfectKeepsTheValue(t *testing.T) {
	total := 0
	for _, tc := range []struct {
		rules string
		games int
	}{
		// Superko makes the exact solves slow (docs/solver.md), so those
		// boards get fewer games.
		{"alak size=5", 60}, {"alak size=6", 60}, {"alak size=7", 60}, {"traditional size=4", 60},
		{"tromp-taylor size=4", 10}, {"alak size=5 own=illegal ko=superko", 10},
	} {
		rs := tc.rules
		t.Run(rs, func(t *testing.T) {
			r := mustRules(t, rs)
			positions := gamePositions(t, r, tc.games, 5)
			p, err := New("perfect:time=20s,mem=4", 3)
			if err != nil {
				t.Fatal(err)
			}
			for i, g := range positions {
				before, err := solve.Solve(context.Background(), g, solve.Options{MemoryMB: 4})
				if err != nil {
					t.Fatal(err)
				}
				m, err := p.Move(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				if !p.(*Perfect).Solved() {
					t.Fatalf("%v: the perfect player fell back to search on %s", g.Position(), rs)
				}
				sign := sideSign(g.Position().ToMove())
				after, ok := before.Moves[m]
				if !ok {
					t.Fatalf("%v: perfect plays %v, which the solver does not list", g.Position(), m)
				}
				if i%5 == 0 {
					// Solve the position after the move afresh, history included.
					h := g.Clone()
					if err := h.Play(m); err != nil {
						t.Fatal(err)
					}
					res, err := solve.Solve(context.Background(), h, solve.Options{MemoryMB: 4})
					if err != nil {
						t.Fatal(err)
					}
					if res.Value != after {
						t.Errorf("%v: after %v the solver gives %v, the root solve %v", g.Position(), m, res.Value, after)
					}
				}
				if after != before.Value || solve.Sign(sign*after) < solve.Sign(sign*before.Value) {
					t.Errorf("%v %c: perfect plays %v, value %v for Black before and %v after", g.Position(), g.Position().ToMove().Symbol(), m, before.Value, after)
				}
				total++
			}
		})
	}
	t.Logf("%d positions checked", total)
	if total < 2000 {
		t.Errorf("only %d positions checked; the issue asks for thousands", total)
	}
}

// TestPerfectAgainstBruteForce checks the perfect player on small boards
// against the test's own brute force, which shares no code with the solver.
func TestPerfectAgainstBruteForce(t *testing.T) {
	for _, rs := range []string{"alak size=5", "alak size=6", "tromp-taylor size=3"} {
		t.Run(rs, func(t *testing.T) {
			r := mustRules(t, rs)
			games, values := endgamePositions(t, r, 30, 5000)
			p, _ := New("perfect:mem=4", 1)
			for i, g := range games {
				m, err := p.Move(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				if got, best := values[i][m], bestOf(values[i]); got != best {
					t.Errorf("%v: perfect plays %v worth %v; the brute force values the moves %v", g.Position(), m, got, values[i])
				}
			}
		})
	}
}

// TestPerfectFallsBack checks the fallback to alpha-beta: on a grid, which
// the solver does not handle, and on a line too long to solve in the time.
func TestPerfectFallsBack(t *testing.T) {
	for _, rs := range []string{"alterigo size=5x5", "alak size=40"} {
		r := mustRules(t, rs)
		g, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := New("perfect:time=100ms", 1)
		m, err := p.Move(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Legal(m); err != nil {
			t.Errorf("%s: %v is not legal: %v", rs, m, err)
		}
		if p.(*Perfect).Solved() {
			t.Errorf("%s: reported solved", rs)
		}
	}
}
