package player

import (
	"context"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"alak/internal/testlong"
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
// of positions (hundreds without ALAK_LONG=1, from a quarter of the games)
// from games on small boards against solve.Solve: the value after its move
// (for the mover) equals the value of the position, so a won position stays
// won, a drawn one drawn, and no margin is given away.
func TestPerfectKeepsTheValue(t *testing.T) {
	t.Parallel()
	total := 0
	for _, tc := range []struct {
		rules string
		games int
	}{
		// Superko makes the exact solves slow (docs/solver-superko.md), so those
		// boards get fewer games.
		{"alak size=5", 60}, {"alak size=6", 60}, {"alak size=7", 60}, {"traditional size=4", 60},
		{"tromp-taylor size=4", 10}, {"alak size=5 own=illegal ko=superko", 10},
	} {
		rs := tc.rules
		t.Run(rs, func(t *testing.T) {
			r := mustRules(t, rs)
			positions := gamePositions(t, r, testlong.Size(t, max(tc.games/4, 3), tc.games), 5)
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
	// A quarter of the games without ALAK_LONG=1: 521 positions (seed 5).
	if want := testlong.Size(t, 500, 2000); total < want {
		t.Errorf("only %d positions checked, want %d; the issue asks for thousands (ALAK_LONG=1)", total, want)
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

// TestPerfectBeyondStrong: with beyond=strong (UseStrong) the moves no
// solve answers are the strong player's, counted as such: on alak 40,
// whose start no solve finishes in 100 ms, the move is the strong
// player's, searched; late in a game
// on alak 24, where the dense solver needs more than the player's 4 MB,
// the strong player proves the move from the few positions reachable.
func TestPerfectBeyondStrong(t *testing.T) {
	p, err := New("perfect:time=100ms,mem=4,beyond=strong", 1)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(mustRules(t, "alak size=40"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Move(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	if rep := p.(*Perfect).Report(); rep.Count(PerfectStrongSearched+": ") != 1 || rep.Count(PerfectFallback) != 1 {
		t.Errorf("alak 40: report %v, want one move searched by the strong player", rep)
	}
	if _, err := New("perfect:beyond=mcts", 1); err == nil || !strings.Contains(err.Error(), "alphabeta or strong is accepted") {
		t.Errorf("beyond=mcts: error %v", err)
	}

	// x and o alternate on 22 of 24 points, the last two empty: a
	// handful of positions are reachable.
	r := mustRules(t, "alak size=24")
	end, err := rules.ParsePosition(r, strings.Repeat("xo", 11)+"-- x")
	if err != nil {
		t.Fatal(err)
	}
	g = rules.NewGameFrom(end)
	p, err = New("perfect:time=2s,mem=4,beyond=strong", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Move(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	if rep := p.(*Perfect).Report(); rep.Moves != 1 || rep.Count(PerfectStrongProved+": ") != 1 || rep.Count(PerfectExact) != 1 {
		t.Errorf("alak 24 endgame: report %v, want one move proved by the strong player", rep)
	}
}

// bruteEnd is an independent evaluation for the perfect player's choice
// among equal moves: plain negamax over rules.Game (repetition applied by
// Game) with lexicographic preferences, the mover's margin first, then for
// a winner the shortest game and for a loser the longest. It returns the
// mover's margin and the plies to the end (-1 for a draw), and gives up
// (ok false) after budget nodes.
func bruteEnd(g *rules.Game, budget *int) (v float64, plies int, ok bool) {
	*budget--
	if *budget < 0 {
		return 0, 0, false
	}
	if o := g.Outcome(); o.Over() {
		v = o.Margin * sideSign(g.Position().ToMove())
		if v == 0 {
			return 0, -1, true
		}
		return v, 0, true
	}
	first := true
	for _, m := range g.LegalMoves(nil) {
		if err := g.Play(m); err != nil {
			panic(err)
		}
		cv, cp, cok := bruteEnd(g, budget)
		if err := g.Undo(); err != nil {
			panic(err)
		}
		if !cok {
			return 0, 0, false
		}
		cv = -cv
		if cv != 0 {
			cp++
		}
		if first || cv > v || cv == v && (cv > 0 && cp < plies || cv < 0 && cp > plies) {
			v, plies, first = cv, cp, false
		}
	}
	return v, plies, true
}

// TestPerfectResistsLongest checks the perfect player's choice among the
// moves of the best value against bruteEnd, in positions of seeded random
// games on small boards (150 a board, 50 without ALAK_LONG=1) where that
// choice matters: in a lost position it plays a move whose loss comes
// latest, in a won one a quickest win, and in a drawn one a drawing move
// that leaves the opponent the most replies that lose (counted by the brute
// force too).
func TestPerfectResistsLongest(t *testing.T) {
	t.Parallel()
	counts := map[string]int{}
	for _, rs := range []string{"alak size=6", "alak size=7", "alak size=6 edge=off", "alak size=5 ko=none", "alterigo size=3", "alterigo size=4", "alterigo size=5 edge=off"} {
		t.Run(rs, func(t *testing.T) {
			r := mustRules(t, rs)
			p, err := New("perfect:time=20s,mem=16", 9)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[uint64]bool{}
			randomGames(t, r, testlong.Size(t, 50, 150), 40, 21, func(g *rules.Game) {
				// Early positions cost the brute force too much: from the
				// fourth ply on.
				if g.Over() || g.Len() < 3 || seen[g.Position().Hash()] {
					return
				}
				seen[g.Position().Hash()] = true
				type end struct {
					v      float64
					plies  int
					losing int
				}
				ends := map[rules.Move]end{}
				// The brute force's budget for the position: the positions
				// it cannot finish are left out, and with ALAK_LONG=1 a larger
				// one leaves fewer out (the short form's 4,000 checked as many
				// positions as 20,000 in the run that set it: 7 lost and 2 won
				// on alak 7, 3 won on alak 5 ko=none, in a sixth of the time).
				budget := testlong.Size(t, 4000, 20000)
				bestV := math.Inf(-1)
				for _, m := range g.LegalMoves(nil) {
					h := g.Clone()
					if err := h.Play(m); err != nil {
						t.Fatal(err)
					}
					v, plies, ok := bruteEnd(h, &budget)
					if !ok {
						return
					}
					e := end{v: -v, plies: plies}
					if !h.Over() {
						for _, rm := range h.LegalMoves(nil) {
							k := h.Clone()
							if err := k.Play(rm); err != nil {
								t.Fatal(err)
							}
							if rv, ok := bruteValue(k, &budget); !ok {
								return
							} else if rv > 0 {
								e.losing++
							}
						}
					}
					ends[m] = e
					bestV = max(bestV, e.v)
				}
				// What the player must achieve among the best moves: the
				// fewest plies when winning, the most when losing, the most
				// losing replies when drawn.
				kind := "drawn"
				key := func(e end) int { return e.losing }
				switch {
				case bestV > 0:
					kind, key = "won", func(e end) int { return -e.plies }
				case bestV < 0:
					kind, key = "lost", func(e end) int { return e.plies }
				}
				lo, hi := math.MaxInt, math.MinInt
				for _, e := range ends {
					if e.v == bestV {
						lo, hi = min(lo, key(e)), max(hi, key(e))
					}
				}
				if lo == hi {
					return // the best moves are alike: nothing to choose
				}
				m, err := p.Move(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				counts[kind]++
				if r.UnchangedLoses {
					counts["alterigo"]++
				}
				if got := ends[m]; got.v != bestV || key(got) != hi {
					t.Errorf("%v %c (%s, history %v): perfect plays %v (%+v); the brute force gives %v", g.Position(), g.Position().ToMove().Symbol(), kind, g.Moves(), m, got, ends)
				}
				if rep := p.(*Perfect).Report(); rep.Moves != rep.Kinds[PerfectExact] {
					t.Fatalf("perfect did not choose exactly: %v", rep)
				}
			})
		})
	}
	t.Logf("positions where the choice matters: %v", counts)
	// The first run of this test (seed 21) found 19 lost, 17 won and 34
	// drawn positions on the alak boards; with the Alter Igo boards (their
	// depths offered since) 25, 25 and 45, 25 of them Alter Igo's; with 50
	// games a board (without ALAK_LONG=1) 13, 12 and 30, 22 Alter Igo's.
	// The bounds guard against a change that leaves the test checking
	// nothing.
	low := testlong.Size(t, 10, 20)
	if counts["lost"] < low || counts["won"] < low || counts["drawn"] < testlong.Size(t, 25, 35) || counts["alterigo"] < 15 {
		t.Errorf("too few positions checked: %v", counts)
	}
}

// TestPerfectNeverLetsGo plays the perfect player against random and greedy
// from random openings (both colours) on small boards and solves every
// position where it is to move: its value for the perfect player never
// falls (a won position stays won, a drawn one at least drawn, no margin
// given away), and the game ends with that value: a won game is won, not
// drawn by repetition or left at the move limit.
func TestPerfectNeverLetsGo(t *testing.T) {
	games := 0
	for _, rs := range []string{"alak size=7", "dewdney size=6", "golf size=6"} {
		t.Run(rs, func(t *testing.T) {
			r := mustRules(t, rs)
			for i := range 8 {
				seed := uint64(100 + i)
				var opp Player = NewRandom(seed)
				if i%4 >= 2 {
					opp = NewGreedy(seed)
				}
				p, _ := New("perfect:time=20s,mem=16", seed)
				g, err := rules.NewGame(r)
				if err != nil {
					t.Fatal(err)
				}
				open := NewRandom(seed + 50)
				for g.Len() < 3 && !g.Over() {
					m, _ := open.Move(context.Background(), g)
					if err := g.Play(m); err != nil {
						t.Fatal(err)
					}
				}
				me := rules.Color(i % 2) // the perfect player's colour
				last := math.Inf(-1)     // its value at its last move
				for !g.Over() && g.Len() < 1000 {
					if g.Position().ToMove() != me {
						m, err := opp.Move(context.Background(), g)
						if err != nil {
							t.Fatal(err)
						}
						if err := g.Play(m); err != nil {
							t.Fatal(err)
						}
						continue
					}
					res, err := solve.Solve(context.Background(), g, solve.Options{MemoryMB: 16})
					if err != nil {
						t.Fatal(err)
					}
					v := res.Value * sideSign(me)
					if v < last {
						t.Errorf("game %d, %v: the perfect player's value fell from %v to %v (history %v)", i, g.Position(), last, v, g.Moves())
					}
					last = v
					m, err := p.Move(context.Background(), g)
					if err != nil {
						t.Fatal(err)
					}
					if err := g.Play(m); err != nil {
						t.Fatal(err)
					}
				}
				if !g.Over() {
					t.Fatalf("game %d did not end in 1000 plies: %v", i, g.Moves())
				}
				if got := g.Outcome().Margin * sideSign(me); solve.Sign(got) < solve.Sign(last) || last > 0 && got < last {
					t.Errorf("game %d: the perfect player's value was %v at its last move, the game ended %v for it (history %v)", i, last, got, g.Moves())
				}
				if rep := p.(*Perfect).Report(); rep.Moves == 0 || rep.Count(PerfectExact) != rep.Moves {
					t.Errorf("game %d: report %v, want every move exact", i, rep)
				}
				games++
			}
		})
	}
	if games != 24 {
		t.Errorf("%d games played, want 24", games)
	}
}

// TestPerfectReportsFallback checks that a fallback is counted with its
// reason, and exact moves as exact.
func TestPerfectReportsFallback(t *testing.T) {
	for _, tc := range []struct {
		rules, spec, kind string
	}{
		{"alterigo size=9x9", "perfect:time=50ms", PerfectFallback + ": more than 64 points"},
		{"alak size=40", "perfect:time=50ms", PerfectFallback + ": out of time"},
		{"alak size=40", "perfect:time=1s,mem=1", PerfectFallback + ": memory limit"},
		{"alak size=7", "perfect", PerfectExact},
	} {
		t.Run(tc.rules+" "+tc.spec, func(t *testing.T) {
			g, err := rules.NewGame(mustRules(t, tc.rules))
			if err != nil {
				t.Fatal(err)
			}
			p, _ := New(tc.spec, 1)
			for range 2 {
				m, err := p.Move(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			rep := p.(Reporter).Report()
			if rep.Moves != 2 || rep.Kinds[tc.kind] != 2 {
				t.Errorf("report %v, want 2 moves of kind %q", rep, tc.kind)
			}
			if tc.kind != PerfectExact && rep.Count(PerfectFallback) != 2 {
				t.Errorf("report %v: Count(%q) = %d, want 2", rep, PerfectFallback, rep.Count(PerfectFallback))
			}
		})
	}
}

// TestPerfectUseTable: with a budget of one position a solve, perfect
// cannot solve alak on 10 points and falls back to alpha-beta; given the
// dense table of those rules (made here by solve.DenseSolve, as alak solve
// --dense makes it) with UseTable, its moves are exact and keep the value
// the table gives, and a table of other rules is not used.
func TestPerfectUseTable(t *testing.T) {
	r := mustRules(t, "alak size=10")
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, dt, err := solve.DenseSolve(context.Background(), g, solve.DenseOptions{Margins: true, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dt.Save(dir); err != nil {
		t.Fatal(err)
	}
	tab, err := solve.LoadTable(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	tab.Freeze()
	other, err := solve.LoadTable(dir, mustRules(t, "alak size=11"))
	if err != nil {
		t.Fatal(err)
	}
	const spec = "perfect:time=200ms,nodes=1"
	play := func(use *solve.Table) Report {
		p, err := New(spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		if use != nil {
			p.(*Perfect).UseTable(use)
		}
		h := g.Clone()
		for range 4 {
			before, err := solve.Solve(context.Background(), h, solve.Options{Table: tab})
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.Move(context.Background(), h)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Play(m); err != nil {
				t.Fatal(err)
			}
			if use == tab {
				after, err := solve.Solve(context.Background(), h, solve.Options{Table: tab})
				if err != nil {
					t.Fatal(err)
				}
				if after.Value != before.Value {
					t.Errorf("%v changed the value from %v to %v", m, before.Value, after.Value)
				}
			}
		}
		return p.(Reporter).Report()
	}
	if rep := play(nil); rep.Count(PerfectFallback) != 4 {
		t.Errorf("without the table: %v; want 4 fallbacks (the budget is one position)", rep)
	}
	if rep := play(other); rep.Count(PerfectFallback) != 4 {
		t.Errorf("with a table of 11 points: %v; want 4 fallbacks", rep)
	}
	if rep := play(tab); rep.Count(PerfectFallback) != 0 || rep.Moves != 4 {
		t.Errorf("with the table: %v; want 4 moves, none a fallback", rep)
	}
}

// TestReportString checks the sum of reports and its one-line form.
func TestReportString(t *testing.T) {
	var a, b Report
	a.add("exact")
	a.add("exact")
	b.add("alpha-beta fallback: out of time")
	b.add("exact")
	b.add("alpha-beta fallback: memory limit")
	b.add("alpha-beta fallback: out of time")
	s := a.Add(b)
	if want := "6 moves: 3 exact, 2 alpha-beta fallback: out of time, 1 alpha-beta fallback: memory limit"; s.String() != want {
		t.Errorf("got %q, want %q", s.String(), want)
	}
	if s.Count("alpha-beta fallback") != 3 || a.Moves != 2 {
		t.Errorf("count %d, a %v: adding changed a", s.Count("alpha-beta fallback"), a)
	}
	if (Report{}).String() != "no moves" {
		t.Errorf("empty report: %q", Report{}.String())
	}
}

// TestPerfectBusyMachine: on alak on 9 points, with a move time of one
// millisecond and the machine kept busy by goroutines that spin (one a
// core; two with ALAK_LONG=1), the perfect player keeps the value of every
// start, won, drawn or lost, against random and greedy opponents from
// random openings (3; 8 with ALAK_LONG=1), and in games whose history has
// repeated a position (1; 4); every move is exact (no fallback, no tie
// broken at random). The value is the dense
// table's (made here by solve.DenseSolve), with the history applied by
// solve.Solve over it (docs/solver.md, Claim 3).
func TestPerfectBusyMachine(t *testing.T) {
	r := mustRules(t, "alak size=9")
	start, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	_, dt, err := solve.DenseSolve(context.Background(), start, solve.DenseOptions{Margins: true, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := solve.LoadTable(t.TempDir(), r)
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.SetDense(dt); err != nil {
		t.Fatal(err)
	}
	ref.Freeze()
	// value is Black's margin: from the table with a fresh history, else
	// from gr, the state graph of the positions reachable from the game's
	// start, with the positions the history used up drawn (Claim 3).
	value := func(g *rules.Game, gr *solve.Graph) float64 {
		t.Helper()
		if !repeats(g) {
			res, err := solve.Solve(context.Background(), g, solve.Options{Table: ref, MemoryMB: 64})
			if err != nil {
				t.Fatal(err)
			}
			return res.Value
		}
		ds, err := gr.Depths(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		sign, best := sideSign(g.Position().ToMove()), math.Inf(-1)
		for _, d := range ds {
			best = max(best, sign*d.Value)
		}
		return sign * best
	}

	// Starts: random openings, and positions of games between random and
	// greedy whose history repeated a position.
	var starts []*rules.Game
	for i := range testlong.Size(t, 3, 8) {
		g := start.Clone()
		open := NewRandom(uint64(300 + i))
		for g.Len() < 2+i%3 && !g.Over() {
			m, _ := open.Move(context.Background(), g)
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		starts = append(starts, g)
	}
	reps := repeatedStarts(t, start, testlong.Size(t, 1, 4))
	starts = append(starts, reps...)
	repeated := len(reps)

	var stop atomic.Bool
	var spin sync.WaitGroup
	for range testlong.Size(t, 1, 2) * runtime.GOMAXPROCS(0) {
		spin.Go(func() {
			for n := 0; !stop.Load(); n++ {
			}
		})
	}
	defer func() {
		stop.Store(true)
		spin.Wait()
	}()

	moves := 0
	for i, g := range starts {
		var opp Player = NewRandom(uint64(i))
		if i%2 == 1 {
			opp = NewGreedy(uint64(i))
		}
		p, err := New("perfect:time=1ms", uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		var gr *solve.Graph
		if repeats(g) {
			if gr, err = solve.NewGraph(context.Background(), r, g.Position(), solve.Options{MemoryMB: 64}); err != nil {
				t.Fatal(err)
			}
		}
		holdsValue(t, i, g, p, opp, func(g *rules.Game) float64 { return value(g, gr) })
		rep := p.(*Perfect).Report()
		if rep.Count(PerfectExact) != rep.Moves || rep.Moves == 0 {
			t.Errorf("start %d: %v, want every move exact", i, rep)
		}
		moves += rep.Moves
	}
	t.Logf("%d starts (%d with a repeated position), %d moves of the perfect player", len(starts), repeated, moves)
}

// TestPerfectSharedGraph checks that on a small line the perfect player
// stays exact after a repetition when the state graph of the positions
// reachable from the game's position does not fit its memory option: the
// graph it answers from is the line's, made once by its solve.Tables
// within the Tables' bound (solve.Tables.Depths) and shared by every
// player of that Tables. Alak on 9 points with mem=1 (1 MB: about 1,500
// positions of a graph, where the line has 24,325) stands for the longer
// lines where the default 64 MB does not hold the graph (alak on 11 points
// and more, docs/strength.md), at a fraction of their cost under -race.
// From games between random and greedy whose history repeated a position,
// against random and greedy, every move of two players sharing one Tables
// is exact (before, each fell back to alpha-beta: "memory limit
// (repetitions in the history)") and keeps the value of the position with
// the history applied (from a state graph made here without the player's
// bound, as TestPerfectBusyMachine does).
func TestPerfectSharedGraph(t *testing.T) {
	r := mustRules(t, "alak size=9")
	start, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	starts := repeatedStarts(t, start, 4)
	ts := &solve.Tables{ReadOnly: true}
	var players [2]*Perfect
	for i := range players {
		p, err := New("perfect:time=1s,mem=1", uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		players[i] = p.(*Perfect)
		players[i].UseTables(ts)
	}
	for i, g := range starts {
		// The values of the positions from here with the history applied
		// (docs/solver.md, Claim 3), from the graph of the positions
		// reachable from the repeated position.
		gr, err := solve.NewGraph(context.Background(), r, g.Position(), solve.Options{MemoryMB: 64})
		if err != nil {
			t.Fatal(err)
		}
		if gr.Len() < 2000 {
			t.Fatalf("start %d: %d positions reachable, which 1 MB holds: not the case this test is for", i, gr.Len())
		}
		value := func(g *rules.Game) float64 {
			t.Helper()
			ds, err := gr.Depths(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			sign, best := sideSign(g.Position().ToMove()), math.Inf(-1)
			for _, d := range ds {
				best = max(best, sign*d.Value)
			}
			return sign * best
		}
		p := players[i%2]
		before := p.Report()
		var opp Player = NewRandom(uint64(i))
		if i%2 == 1 {
			opp = NewGreedy(uint64(i))
		}
		holdsValue(t, i, g, p, opp, value)
		rep := p.Report()
		if n := rep.Moves - before.Moves; rep.Kinds[PerfectExact]-before.Kinds[PerfectExact] != n || n == 0 {
			t.Errorf("start %d: %v, want every move exact", i, rep)
		}
	}
}

// repeatedStarts plays games between random and greedy from start (seeds 0
// to 399) and returns the first want positions where a game's history
// repeated a position before it ended.
func repeatedStarts(t *testing.T, start *rules.Game, want int) []*rules.Game {
	t.Helper()
	var starts []*rules.Game
	for seed := uint64(0); len(starts) < want && seed < 400; seed++ {
		g := start.Clone()
		ps := [2]Player{NewRandom(seed), NewGreedy(seed + 7)}
		for !g.Over() && g.Len() < 200 {
			m, _ := ps[g.Position().ToMove()].Move(context.Background(), g)
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
			if repeats(g) && !g.Over() {
				starts = append(starts, g)
				break
			}
		}
	}
	if len(starts) < want {
		t.Fatalf("%d games of 400 repeated a position, want %d", len(starts), want)
	}
	return starts
}

// holdsValue plays the game of start i on to its end (300 plies at most),
// p for the player to move now and opp for the other, and checks that the
// value of Black's margin value gives the position never falls for p at
// its turns and that the game ends with p's value at the start or better.
func holdsValue(t *testing.T, i int, g *rules.Game, p, opp Player, value func(*rules.Game) float64) {
	t.Helper()
	me := g.Position().ToMove()
	first := value(g) * sideSign(me)
	last := first
	for !g.Over() && g.Len() < 300 {
		mover := opp
		if g.Position().ToMove() == me {
			v := value(g) * sideSign(me)
			if v < last {
				t.Errorf("start %d: the perfect player's value fell from %v to %v (history %v)", i, last, v, g.Moves())
			}
			last, mover = v, p
		}
		m, err := mover.Move(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if !g.Over() {
		t.Fatalf("start %d did not end in 300 plies: %v", i, g.Moves())
	}
	if got := g.Outcome().Margin * sideSign(me); solve.Sign(got) < solve.Sign(first) || first > 0 && got < first {
		t.Errorf("start %d: worth %v to the perfect player, the game ended %v for it (history %v)", i, first, got, g.Moves())
	}
}
