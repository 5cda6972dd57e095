package tournament

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"alak/internal/testlong"
)

// hist is a player's past as the tests read it from the games, apart from
// the pairing code.
type hist struct {
	met  map[string]bool
	cols string // X and O of the games played (not byes, not forfeits)
	byes int
}

func histories(s State) map[string]*hist {
	h := make(map[string]*hist)
	for _, p := range s.Players {
		h[p.Name] = &hist{met: map[string]bool{}}
	}
	for _, g := range sortedGames(s.Games) {
		if g.Bye() {
			h[g.X].byes++
			continue
		}
		h[g.X].met[g.O] = true
		h[g.O].met[g.X] = true
		if !g.Forfeit {
			h[g.X].cols += "X"
			h[g.O].cols += "O"
		}
	}
	return h
}

// colourRulesKept reports whether the last colour of cols keeps the colour
// rules: it is not the third same colour running, and it leaves no more than
// two more of one colour than of the other. (An earlier round that had to
// break a rule does not count against this one.)
func colourRulesKept(cols string) bool {
	d := strings.Count(cols, "X") - strings.Count(cols, "O")
	n := len(cols)
	three := n >= 3 && cols[n-1] == cols[n-2] && cols[n-1] == cols[n-3]
	return !three && d <= 2 && d >= -2
}

// pairOK reports whether a and b can meet with some colours keeping the
// rules for both.
func pairOK(a, b *hist) bool {
	return colourRulesKept(a.cols+"X") && colourRulesKept(b.cols+"O") ||
		colourRulesKept(a.cols+"O") && colourRulesKept(b.cols+"X")
}

// existsPairing searches every pairing of names (a bye among them when
// their count is odd, to a player byeOK allows) for one whose every pair
// ok allows: the brute-force oracle of the Swiss properties.
func existsPairing(names []string, ok func(a, b string) bool, byeOK func(string) bool) bool {
	if len(names)%2 == 1 {
		for i, b := range names {
			if !byeOK(b) {
				continue
			}
			rest := append(append([]string(nil), names[:i]...), names[i+1:]...)
			if existsPairing(rest, ok, byeOK) {
				return true
			}
		}
		return false
	}
	if len(names) == 0 {
		return true
	}
	for j := 1; j < len(names); j++ {
		if !ok(names[0], names[j]) {
			continue
		}
		rest := make([]string, 0, len(names)-2)
		rest = append(rest, names[1:j]...)
		rest = append(rest, names[j+1:]...)
		if existsPairing(rest, ok, byeOK) {
			return true
		}
	}
	return false
}

// checkSwissRound checks one new round against the state before it:
// every active player paired once (withdrawn ones not at all), one bye
// exactly when their count is odd, to a player without one while any
// active player has none; a repeated pairing only when no pairing without
// one exists; the colour rules broken only when no pairing keeps them (and
// no repeat, if this one has none), and then only by a pair that no
// colours could suit. With brute set, the "no pairing exists" claims are
// checked by exhaustive search.
func checkSwissRound(t *testing.T, before State, round []Game, brute bool) {
	t.Helper()
	h := histories(before)
	var active []string
	for _, p := range before.Players {
		if !p.Withdrawn {
			active = append(active, p.Name)
		}
	}
	seen := make(map[string]int)
	byes := 0
	repeat, broken := false, false
	for _, g := range round {
		seen[g.X]++
		if g.Bye() {
			byes++
			if h[g.X].byes > 0 {
				for _, a := range active {
					if h[a].byes == 0 {
						t.Fatalf("%s has a second bye while %s has had none", g.X, a)
					}
				}
			}
			continue
		}
		seen[g.O]++
		if h[g.X].met[g.O] {
			repeat = true
		}
		if !colourRulesKept(h[g.X].cols+"X") || !colourRulesKept(h[g.O].cols+"O") {
			broken = true
			if pairOK(h[g.X], h[g.O]) {
				t.Fatalf("%s (%s) X against %s (%s) O breaks a colour rule that the other colours keep", g.X, h[g.X].cols, g.O, h[g.O].cols)
			}
		}
	}
	for _, a := range active {
		if seen[a] != 1 {
			t.Fatalf("%s is paired %d times in the round %+v", a, seen[a], round)
		}
	}
	if len(seen) != len(active) {
		t.Fatalf("the round %+v pairs players who are not active (%v)", round, active)
	}
	if byes != len(active)%2 {
		t.Fatalf("%d byes for %d active players", byes, len(active))
	}
	if !brute {
		return
	}
	anyoneWithoutBye := false
	for _, a := range active {
		anyoneWithoutBye = anyoneWithoutBye || h[a].byes == 0
	}
	byeOK := func(a string) bool { return !anyoneWithoutBye || h[a].byes == 0 }
	if repeat && existsPairing(active, func(a, b string) bool { return !h[a].met[b] }, byeOK) {
		t.Fatalf("the round %+v repeats a pairing while a pairing without repeats exists", round)
	}
	if broken && existsPairing(active, func(a, b string) bool {
		return pairOK(h[a], h[b]) && (repeat || !h[a].met[b])
	}, byeOK) {
		t.Fatalf("the round %+v breaks a colour rule while a pairing keeping them (repeat %v) exists", round, repeat)
	}
}

// TestSwissProperties plays many random Swiss tournaments of 2 to 11
// players, up to their largest number of rounds, with random results,
// double forfeits and withdrawals, and checks every round against the
// brute-force oracle (checkSwissRound).
func TestSwissProperties(t *testing.T) {
	count := testlong.Size(t, 150, 3000)
	r := rand.New(rand.NewPCG(30, 2))
	rounds := 0
	for i := 0; i < count; i++ {
		n := 2 + r.IntN(10)
		s := State{ID: fmt.Sprint(i), Format: FormatSwiss, Rounds: 1 + r.IntN(maxSwissRounds(n)), Players: randomPlayers(r, n)}
		withdraw := 0.0
		if i%3 == 0 {
			withdraw = 0.15
		}
		run(t, s, r, withdraw, func(after State, st Step) {
			if len(st.Games) == 0 {
				return
			}
			before := after
			before.Games = after.Games[:len(after.Games)-len(st.Games)]
			for _, g := range st.Games {
				if g.Round != st.Round {
					t.Fatalf("step of round %d creates %+v", st.Round, g)
				}
			}
			if len(before.Games) > 0 && !allFinished(before.Games) {
				t.Fatalf("round %d paired while a game is pending", st.Round)
			}
			checkSwissRound(t, before, st.Games, true)
			rounds++
		})
	}
	t.Logf("%d tournaments, %d rounds checked", count, rounds)
}

// TestSwissLarge: 64 players over 7 rounds. After k rounds a player has
// met at most k others, so the players not yet met form a graph of
// minimum degree at least 64-1-6 > 64/2, which has a Hamiltonian cycle
// (Dirac), so a pairing without repeats always exists: none may appear.
func TestSwissLarge(t *testing.T) {
	seeds := testlong.Size(t, 2, 10)
	for seed := 0; seed < seeds; seed++ {
		r := rand.New(rand.NewPCG(30, uint64(3+seed)))
		s := State{ID: "big", Format: FormatSwiss, Rounds: 7, Players: randomPlayers(r, 64)}
		last, st := run(t, s, r, 0, func(after State, st Step) {
			if len(st.Games) == 0 {
				return
			}
			before := after
			before.Games = after.Games[:len(after.Games)-len(st.Games)]
			h := histories(before)
			for _, g := range st.Games {
				if h[g.X].met[g.O] {
					t.Fatalf("round %d repeats %s-%s", st.Round, g.X, g.O)
				}
			}
			checkSwissRound(t, before, st.Games, false)
		})
		if !st.Finished || len(last.Games) != 7*32 {
			t.Fatalf("%d games, finished %v: want 7 rounds of 32", len(last.Games), st.Finished)
		}
	}
}

// TestSwissRoundOne: round 1 by rating, top half against bottom half,
// the higher-rated player X on boards 1, 3 ... and O on boards 2, 4 ...
// (the Dutch rules' colour allocation, C.04.3 E.5, with the initial lot
// fixed to X), and the
// lowest-rated player the bye.
func TestSwissRoundOne(t *testing.T) {
	ps := players(7)
	st, err := Next(State{ID: "s", Format: FormatSwiss, Rounds: 3, Players: ps})
	if err != nil {
		t.Fatal(err)
	}
	want := []Game{
		{Round: 1, Slot: 0, X: "p00", O: "p03"},
		{Round: 1, Slot: 1, X: "p04", O: "p01"},
		{Round: 1, Slot: 2, X: "p02", O: "p05"},
		{Round: 1, Slot: 3, X: "p06", Outcome: XWins},
	}
	if fmt.Sprint(st.Games) != fmt.Sprint(want) {
		t.Fatalf("round 1: %+v, want %+v", st.Games, want)
	}
}

// TestSwissScoreGroups: after round 1 of 8 players where the four
// higher-rated won, the winners' group pairs 1-3 and 2-4 by rating
// (p00-p02, p01-p03) and the losers' group likewise, each with colours
// alternated from round 1.
func TestSwissScoreGroups(t *testing.T) {
	s := State{ID: "s", Format: FormatSwiss, Rounds: 3, Players: players(8)}
	st, _ := Next(s)
	s.Games = st.Games
	for i, g := range s.Games {
		if g.X < g.O { // the higher-rated (lower name) wins
			s.Games[i].Outcome = XWins
		} else {
			s.Games[i].Outcome = OWins
		}
	}
	st, err := Next(s)
	if err != nil {
		t.Fatal(err)
	}
	// round 1: p00-p04 p05-p01 p02-p06 p07-p03 (X first). Winners p00 (X),
	// p01 (O), p02 (X), p03 (O): p00 against p02, both want O after X, equal
	// strength, the higher-ranked p00 gets it; p01 and p03 both want X, p01
	// gets it. Losers p04 (O) p05 (X) p06 (O) p07 (X): p04-p06 both want X,
	// p04 gets it; p05-p07 both want O, p05 gets it.
	want := []Game{
		{Round: 2, Slot: 0, X: "p02", O: "p00"},
		{Round: 2, Slot: 1, X: "p01", O: "p03"},
		{Round: 2, Slot: 2, X: "p04", O: "p06"},
		{Round: 2, Slot: 3, X: "p07", O: "p05"},
	}
	if fmt.Sprint(st.Games) != fmt.Sprint(want) {
		t.Fatalf("round 2: %+v, want %+v", st.Games, want)
	}
}

// TestSwissFloater: 6 players, round 2 with three on 1 point: the lowest
// of them (p05 is lowest rated) floats down to the highest of the 0-point
// group that they have not met.
func TestSwissFloater(t *testing.T) {
	s := State{ID: "s", Format: FormatSwiss, Rounds: 3, Players: players(6)}
	// round 1 as paired: p00-p03, p04-p01, p02-p05; the lower-rated wins
	// the first two, the higher-rated the third: 1 point for p03, p04, p02.
	s.Games = []Game{
		{Round: 1, Slot: 0, X: "p00", O: "p03", Outcome: OWins},
		{Round: 1, Slot: 1, X: "p04", O: "p01", Outcome: XWins},
		{Round: 1, Slot: 2, X: "p02", O: "p05", Outcome: XWins},
	}
	st, err := Next(s)
	if err != nil {
		t.Fatal(err)
	}
	// The 1-point group in order p02, p03, p04 (by rating): Dutch S1 =
	// {p02}, S2 = {p03, p04}, so p02-p03, and p04 floats down to the top of
	// the 0-point group (p00, p01, p05), p00, whom p04 has not met. Then
	// p01-p05.
	pairs := map[[2]string]bool{}
	for _, g := range st.Games {
		a, b := g.X, g.O
		if b < a {
			a, b = b, a
		}
		pairs[[2]string{a, b}] = true
	}
	for _, w := range [][2]string{{"p02", "p03"}, {"p00", "p04"}, {"p01", "p05"}} {
		if !pairs[w] {
			t.Fatalf("round 2 %+v: want %s-%s", st.Games, w[0], w[1])
		}
	}
}

// TestSwissWithdrawnNotPaired: a withdrawn player is not paired and their
// pending game is forfeited.
func TestSwissWithdrawnNotPaired(t *testing.T) {
	s := State{ID: "s", Format: FormatSwiss, Rounds: 3, Players: players(4)}
	st, _ := Next(s)
	s.Games = st.Games
	s.Games[0].Outcome = Draw
	s.Players[3].Withdrawn = true // p03 has X against p01 in round 1, pending
	st, err := Next(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Forfeits) != 1 || st.Forfeits[0].X != "p03" || st.Forfeits[0].Outcome != OWins {
		t.Fatalf("forfeits %+v: want p03's round-1 game lost by p03", st.Forfeits)
	}
	if st.Round != 2 || len(st.Games) != 2 {
		t.Fatalf("step %+v: want round 2 with a game and a bye", st)
	}
	for _, g := range st.Games {
		if g.X == "p03" || g.O == "p03" {
			t.Fatalf("withdrawn p03 paired: %+v", g)
		}
	}
}

// TestSwissSecondByeKeepsOtherRules: once every active player has had a
// bye, a second one goes to the lowest-ranked who can take it, and the
// rest is still paired without repeats and with the colour rules. Seven
// players, p05 and p06 withdrawn after five rounds in which p00 ... p04
// each had a bye, every game drawn (all active players on 3 points, so
// ranked by rating). Round 6 by hand: the bye to p04 (lowest) leaves p00,
// p01, p02, p03, where p00 has met p02 and p04 only: p00-p03 (p00's
// colours OXOO want X, p03's XOXX want O) and p01-p02 (p01's XXOO want X).
// The first version (351e0cc) gave a second bye only at a level that also
// allowed repeats, and paired p00-p02 again.
func TestSwissSecondByeKeepsOtherRules(t *testing.T) {
	s := State{ID: "s", Format: FormatSwiss, Rounds: 7, Players: players(7)}
	s.Players[5].Withdrawn = true
	s.Players[6].Withdrawn = true
	rounds := [][][2]string{
		{{"p00", ""}, {"p01", "p05"}, {"p06", "p02"}, {"p03", "p04"}},
		{{"p01", ""}, {"p05", "p00"}, {"p02", "p03"}, {"p04", "p06"}},
		{{"p02", ""}, {"p00", "p06"}, {"p03", "p05"}, {"p01", "p04"}},
		{{"p03", ""}, {"p06", "p01"}, {"p05", "p02"}, {"p04", "p00"}},
		{{"p04", ""}, {"p03", "p01"}, {"p02", "p00"}, {"p05", "p06"}},
	}
	for r, games := range rounds {
		for slot, g := range games {
			out := Draw
			if g[1] == "" {
				out = XWins
			}
			s.Games = append(s.Games, Game{Round: r + 1, Slot: 3 - slot, X: g[0], O: g[1], Outcome: out})
		}
	}
	st, err := Next(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []Game{
		{Round: 6, Slot: 0, X: "p00", O: "p03"},
		{Round: 6, Slot: 1, X: "p01", O: "p02"},
		{Round: 6, Slot: 2, X: "p04", Outcome: XWins},
	}
	if fmt.Sprint(st.Games) != fmt.Sprint(want) {
		t.Fatalf("round 6: %+v, want %+v", st.Games, want)
	}
}

// TestSwissColoursAlternate: two players who want the same colour as
// strongly take the colours opposite to those of the last game in which
// they differed (the Dutch rules' colour allocation, C.04.3 E.3), before the
// higher rank decides. q (ranked first) has XXO, p has XOX: both one X
// ahead, both strongly want O; in their last games q had O and p X, so q
// now has X and p O, although the higher-ranked q wanted O. With the same
// histories, the higher-ranked q gets O.
func TestSwissColoursAlternate(t *testing.T) {
	mk := func(name, cols string) *swissPlayer {
		sp := &swissPlayer{Player: Player{Name: name}, colours: []byte(cols)}
		sp.xs, sp.os = strings.Count(cols, "X"), strings.Count(cols, "O")
		return sp
	}
	q, p := mk("q", "XXO"), mk("p", "XOX")
	if x, _ := colours(q, p, 0); x != q {
		t.Fatalf("XXO against XOX: %s has X, want q (colours swapped from their last games)", x.Name)
	}
	q, p = mk("q", "XOX"), mk("p", "XOX")
	if x, _ := colours(q, p, 0); x != p {
		t.Fatalf("XOX against XOX: %s has X, want p (the higher-ranked q has its O)", x.Name)
	}
}
