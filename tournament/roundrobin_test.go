package tournament

import (
	"math/rand/v2"
	"testing"

	"alak/internal/testlong"
)

// TestRoundRobinProperties plays many random round robins, single and
// double, all at once and round by round, without and with withdrawals,
// and checks: every pair meets exactly once (single) or twice with each
// colour once (double); nobody plays twice in a round; the rounds number
// N-1 (N the count rounded up to even) per cycle; colours balanced
// (single: X and O differ by at most 1; double: equal) and never the same
// colour three games running, across the two cycles too (the double round
// robin without FIDE's exchange of the first cycle's last two rounds gave
// p00 of 4 players OOXXXO); round by round, no game of a later round exists
// while one of an earlier round is pending; the winner is the first of the
// standings.
func TestRoundRobinProperties(t *testing.T) {
	maxN := testlong.Size(t, 10, 24)
	r := rand.New(rand.NewPCG(30, 1))
	for n := 2; n <= maxN; n++ {
		for _, f := range []Format{FormatRoundRobin, FormatDoubleRoundRobin} {
			for k, all := range []bool{true, false, true, false} {
				s := State{ID: "rr", Format: f, AllAtOnce: all, Players: randomPlayers(r, n)}
				withdraw := 0.0
				if k >= 2 {
					withdraw = 0.1 // their games are forfeited, still played once
				}
				last, st := run(t, s, r, withdraw, func(s State, st Step) {
					if all {
						return
					}
					byRound, _ := s.byRound()
					for round := 1; round < st.Round; round++ {
						if !allFinished(byRound[round]) {
							t.Fatalf("%s n=%d: round %d pending while round %d exists", f, n, round, st.Round)
						}
					}
					for round := range byRound {
						if round > st.Round {
							t.Fatalf("%s n=%d: round %d created during round %d", f, n, round, st.Round)
						}
					}
				})
				checkRoundRobin(t, last, n)
				if st.Winner != Standings(last)[0].Name {
					t.Fatalf("winner %q, standings %+v", st.Winner, Standings(last))
				}
			}
		}
	}
}

func checkRoundRobin(t *testing.T, s State, n int) {
	t.Helper()
	N := n + n%2
	cycles := 1
	if s.Format == FormatDoubleRoundRobin {
		cycles = 2
	}
	if want := cycles * n * (n - 1) / 2; len(s.Games) != want {
		t.Fatalf("%s n=%d: %d games, want %d", s.Format, n, len(s.Games), want)
	}
	type pair struct{ x, o string }
	met := make(map[pair]int)
	inRound := make(map[[2]any]bool)
	seq := make(map[string][]byte)
	top := 0
	for _, g := range sortedGames(s.Games) {
		if g.Bye() {
			t.Fatalf("round robin has a bye %+v", g)
		}
		met[pair{g.X, g.O}]++
		for _, p := range []string{g.X, g.O} {
			if inRound[[2]any{g.Round, p}] {
				t.Fatalf("%s plays twice in round %d", p, g.Round)
			}
			inRound[[2]any{g.Round, p}] = true
		}
		seq[g.X] = append(seq[g.X], 'X')
		seq[g.O] = append(seq[g.O], 'O')
		top = max(top, g.Round)
	}
	if top != cycles*(N-1) {
		t.Fatalf("%s n=%d: %d rounds, want %d", s.Format, n, top, cycles*(N-1))
	}
	for i, a := range s.Players {
		for _, b := range s.Players[i+1:] {
			ab, ba := met[pair{a.Name, b.Name}], met[pair{b.Name, a.Name}]
			if cycles == 1 && ab+ba != 1 || cycles == 2 && (ab != 1 || ba != 1) {
				t.Fatalf("%s n=%d: %s-%s %d times, %s-%s %d times", s.Format, n, a.Name, b.Name, ab, b.Name, a.Name, ba)
			}
		}
	}
	for p, cs := range seq {
		x, o := 0, 0
		for _, c := range cs {
			if c == 'X' {
				x++
			} else {
				o++
			}
		}
		if cycles == 1 && (x-o > 1 || o-x > 1) || cycles == 2 && x != o {
			t.Fatalf("%s n=%d: %s has colours %s", s.Format, n, p, cs)
		}
		for i := 2; i < len(cs); i++ {
			if cs[i] == cs[i-1] && cs[i] == cs[i-2] {
				t.Fatalf("%s n=%d: %s has the same colour three times running: %s", s.Format, n, p, cs)
			}
		}
	}
}

// TestRoundRobinBergerTable pins the schedule of 4 and 6 players to the
// Berger tables (FIDE Handbook C.05 Annex 1, players numbered by seed):
// 4 players: round 1 1-4 2-3, round 2 4-3 1-2, round 3 2-4 3-1; 6 players:
// 1-6 2-5 3-4, 6-4 5-3 1-2, 2-6 3-1 4-5, 6-5 1-4 2-3, 3-6 4-2 5-1.
func TestRoundRobinBergerTable(t *testing.T) {
	name := func(i int) string { return players(6)[i-1].Name }
	cases := []struct {
		n     int
		round int
		want  [][2]int
	}{
		{4, 1, [][2]int{{1, 4}, {2, 3}}},
		{4, 2, [][2]int{{4, 3}, {1, 2}}},
		{4, 3, [][2]int{{2, 4}, {3, 1}}},
		{6, 1, [][2]int{{1, 6}, {2, 5}, {3, 4}}},
		{6, 2, [][2]int{{6, 4}, {5, 3}, {1, 2}}},
		{6, 3, [][2]int{{2, 6}, {3, 1}, {4, 5}}},
		{6, 4, [][2]int{{6, 5}, {1, 4}, {2, 3}}},
		{6, 5, [][2]int{{3, 6}, {4, 2}, {5, 1}}},
	}
	for _, c := range cases {
		sched := roundRobinSchedule(State{Format: FormatRoundRobin, Players: players(c.n)})
		got := sched[c.round-1]
		if len(got) != len(c.want) {
			t.Fatalf("n=%d round %d: %+v", c.n, c.round, got)
		}
		for i, w := range c.want {
			if got[i].X != name(w[0]) || got[i].O != name(w[1]) {
				t.Errorf("n=%d round %d board %d: %s-%s, want %s-%s", c.n, c.round, i+1, got[i].X, got[i].O, name(w[0]), name(w[1]))
			}
		}
	}
}

// TestRoundRobinWithdrawal: a correspondence round robin's pending games
// of a withdrawn player become forfeits (their finished games stand); in
// a live one their later games are created already forfeited.
func TestRoundRobinWithdrawal(t *testing.T) {
	s := State{ID: "w", Format: FormatRoundRobin, AllAtOnce: true, Players: players(4)}
	st, _ := Next(s)
	s.Games = st.Games
	// p00's game in round 1 is played: p00 wins it.
	for i, g := range s.Games {
		if g.Round == 1 && (g.X == "p00" || g.O == "p00") {
			s.Games[i].Outcome = XWins
			if g.O == "p00" {
				s.Games[i].Outcome = OWins
			}
		}
	}
	s.Players[0].Withdrawn = true
	st, err := Next(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Forfeits) != 2 || len(st.Games) != 0 {
		t.Fatalf("step %+v: want p00's two unplayed games forfeited, nothing created", st)
	}
	for _, f := range st.Forfeits {
		if f.Round == 1 || !f.Forfeit || (f.X == "p00") != (f.Outcome == OWins) {
			t.Fatalf("forfeit %+v: want a later game, lost by p00", f)
		}
	}
	s = s.withGames(st.Forfeits)
	if got := Standings(s); scoreOf(got, "p00") != 1 {
		t.Fatalf("p00 keeps the point of the game played: %+v", got)
	}

	live := State{ID: "w", Format: FormatRoundRobin, Players: players(4)}
	live.Players[3].Withdrawn = true
	st, _ = Next(live)
	for _, g := range st.Games {
		involved := g.X == "p03" || g.O == "p03"
		if involved != g.Forfeit || involved && (g.X == "p03") != (g.Outcome == OWins) {
			t.Fatalf("live round 1 game %+v: p03's game must be a forfeit lost by p03", g)
		}
	}
}

func scoreOf(st []Standing, name string) float64 {
	for _, s := range st {
		if s.Name == name {
			return s.Score
		}
	}
	return -1
}
