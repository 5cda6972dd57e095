package tournament

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// names4 are four players whose ratings would rank them a, b, c, d.
var names4 = []Player{{Name: "a", Rating: 1900}, {Name: "b", Rating: 1800}, {Name: "c", Rating: 1700}, {Name: "d", Rating: 1600}}

// rr4 is a finished 4-player round robin: a beat b, a beat c, d beat a,
// b beat c, b drew d, c drew d.
var rr4 = []Game{
	{Round: 1, Slot: 0, X: "a", O: "b", Outcome: XWins},
	{Round: 1, Slot: 1, X: "c", O: "d", Outcome: Draw},
	{Round: 2, Slot: 0, X: "d", O: "a", Outcome: XWins},
	{Round: 2, Slot: 1, X: "b", O: "c", Outcome: XWins},
	{Round: 3, Slot: 0, X: "a", O: "c", Outcome: XWins},
	{Round: 3, Slot: 1, X: "d", O: "b", Outcome: Draw},
}

// TestStandingsRoundRobin against a hand computation. Scores: a 1+1+0 = 2,
// b 0+1+½ = 1½, c 0+0+½ = ½, d 1+½+½ = 2. Sonneborn-Berger: a beat b (1½)
// and c (½) = 2; d beat a (2), drew b (½ × 1½) and c (½ × ½) = 3; b beat
// c (½), drew d (½ × 2) = 1½; c drew d = 1. So d (2, SB 3) is above a (2,
// SB 2) though a is rated higher.
func TestStandingsRoundRobin(t *testing.T) {
	s := State{ID: "rr", Format: FormatRoundRobin, Players: names4, Games: rr4}
	want := []Standing{
		{Rank: 1, Name: "d", Score: 2, Tiebreaks: []float64{3}, Played: 3},
		{Rank: 2, Name: "a", Score: 2, Tiebreaks: []float64{2}, Played: 3},
		{Rank: 3, Name: "b", Score: 1.5, Tiebreaks: []float64{1.5}, Played: 3},
		{Rank: 4, Name: "c", Score: 0.5, Tiebreaks: []float64{1}, Played: 3},
	}
	if got := Standings(s); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("standings\n%v\nwant\n%v", got, want)
	}
	st, err := Next(s)
	if err != nil || !st.Finished || st.Winner != "d" {
		t.Fatalf("Next: %+v, %v: want finished, won by d", st, err)
	}
}

// TestStandingsSwiss against a hand computation, 7 players, 2 rounds:
// round 1 a-b 1-0, c-d ½-½, e-f 0-1, g a bye; round 2 a-c 1-0, b-e 1-0,
// d-f 0-1, g having withdrawn after its bye.
// Scores: a 2, f 2, b 1, g 1 (the bye), c ½, d ½, e 0.
// Buchholz (opponents' scores; a bye adds nothing): a b+c = 1½, f e+d = ½,
// b a+e = 2, g 0, c d+a = 2½, d c+f = 2½, e f+b = 3.
// Sonneborn-Berger: a 1 + ½ = 1½, f 0 + ½ = ½, b 0, g 0, c ½×½ = ¼,
// d ½×½ = ¼, e 0.
// Order: a, f (2; Buchholz 1½ > ½); b, g (1; Buchholz 2 > 0); c and d tie
// on ½, 2½, ¼: d is rated above c in this test; e.
func TestStandingsSwiss(t *testing.T) {
	ps := []Player{
		{Name: "a", Rating: 1500}, {Name: "b", Rating: 1500}, {Name: "c", Rating: 1400},
		{Name: "d", Rating: 1450}, {Name: "e", Rating: 1500}, {Name: "f", Rating: 1500},
		{Name: "g", Rating: 1500, Withdrawn: true},
	}
	games := []Game{
		{Round: 1, Slot: 0, X: "a", O: "b", Outcome: XWins},
		{Round: 1, Slot: 1, X: "c", O: "d", Outcome: Draw},
		{Round: 1, Slot: 2, X: "e", O: "f", Outcome: OWins},
		{Round: 1, Slot: 3, X: "g", Outcome: XWins},
		{Round: 2, Slot: 0, X: "a", O: "c", Outcome: XWins},
		{Round: 2, Slot: 1, X: "b", O: "e", Outcome: XWins},
		{Round: 2, Slot: 2, X: "d", O: "f", Outcome: OWins},
	}
	s := State{ID: "sw", Format: FormatSwiss, Rounds: 2, Players: ps, Games: games}
	want := []Standing{
		{Rank: 1, Name: "a", Score: 2, Tiebreaks: []float64{1.5, 1.5}, Played: 2},
		{Rank: 2, Name: "f", Score: 2, Tiebreaks: []float64{0.5, 0.5}, Played: 2},
		{Rank: 3, Name: "b", Score: 1, Tiebreaks: []float64{2, 0}, Played: 2},
		{Rank: 4, Name: "g", Score: 1, Tiebreaks: []float64{0, 0}, Played: 0},
		{Rank: 5, Name: "d", Score: 0.5, Tiebreaks: []float64{2.5, 0.25}, Played: 2},
		{Rank: 6, Name: "c", Score: 0.5, Tiebreaks: []float64{2.5, 0.25}, Played: 2},
		{Rank: 7, Name: "e", Score: 0, Tiebreaks: []float64{3, 0}, Played: 2},
	}
	if got := Standings(s); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("standings\n%v\nwant\n%v", got, want)
	}
	st, err := Next(s)
	if err != nil || !st.Finished || st.Winner != "a" {
		t.Fatalf("Next: %+v, %v: want finished after 2 rounds, won by a", st, err)
	}
}

// TestStandingsKnockout: the champion first, the finalist second, the
// semi-finalists after, whatever their points; then by points. Four
// players: p00 beats p03 2-0, p02 beats p01 2-0, p02 beats
// p00 in the final 1½-½.
func TestStandingsKnockout(t *testing.T) {
	s := State{ID: "k", Format: FormatKnockout, AllAtOnce: true, Players: players(4)}
	s.Games = []Game{
		{Round: 1, Slot: 0, X: "p00", O: "p03", Outcome: XWins},
		{Round: 1, Slot: 1, X: "p03", O: "p00", Outcome: OWins},
		{Round: 1, Slot: 5, X: "p01", O: "p02", Outcome: OWins},
		{Round: 1, Slot: 6, X: "p02", O: "p01", Outcome: XWins},
		{Round: 2, Slot: 0, X: "p00", O: "p02", Outcome: Draw},
		{Round: 2, Slot: 1, X: "p02", O: "p00", Outcome: XWins},
	}
	got := Standings(s)
	// reached: p02 champion (2+1), p00 final (2), p01 and p03 round 1 (1),
	// both 0 points: p01 by rating.
	want := []Standing{
		{Rank: 1, Name: "p02", Score: 3.5, Tiebreaks: []float64{3}, Played: 4},
		{Rank: 2, Name: "p00", Score: 2.5, Tiebreaks: []float64{2}, Played: 4},
		{Rank: 3, Name: "p01", Score: 0, Tiebreaks: []float64{1}, Played: 2},
		{Rank: 4, Name: "p03", Score: 0, Tiebreaks: []float64{1}, Played: 2},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("standings\n%v\nwant\n%v", got, want)
	}
	st, _ := Next(s)
	if !st.Finished || st.Winner != "p02" {
		t.Fatalf("Next %+v: want p02 the winner", st)
	}
}

// TestCrosstable: the round robin of TestStandingsRoundRobin in standings
// order, and a double round robin's cell with two games.
func TestCrosstable(t *testing.T) {
	ct := Crosstable(State{ID: "rr", Format: FormatRoundRobin, Players: names4, Games: rr4})
	if fmt.Sprint(ct.Names) != "[d a b c]" || fmt.Sprint(ct.Scores) != "[2 2 1.5 0.5]" {
		t.Fatalf("names %v scores %v", ct.Names, ct.Scores)
	}
	var rows []string
	for i := range ct.Names {
		var cells []string
		for j := range ct.Names {
			c := ct.Cells[i][j].String()
			if i == j {
				c = "x"
			}
			cells = append(cells, c)
		}
		rows = append(rows, strings.Join(cells, "|"))
	}
	want := []string{
		"x|1|½|½", // d: beat a, drew b, drew c
		"0|x|1|1", // a
		"½|0|x|1", // b
		"½|0|0|x", // c
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("crosstable\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if g := ct.Cells[0][1].Games[0]; !g.AsX || g.Round != 2 || g.Points != 1 {
		t.Fatalf("d against a: %+v: want d X in round 2, 1 point", g)
	}

	double := State{ID: "d", Format: FormatDoubleRoundRobin, Players: players(2), Games: []Game{
		{Round: 1, Slot: 0, X: "p00", O: "p01", Outcome: XWins, Forfeit: true},
		{Round: 2, Slot: 0, X: "p01", O: "p00", Outcome: Draw},
	}}
	ct = Crosstable(double)
	if got := ct.Cells[0][1].String(); got != "+ ½" {
		t.Fatalf("p00 against p01: %q, want \"+ ½\" (a forfeit won, a draw)", got)
	}
	if got := ct.Cells[1][0].String(); got != "- ½" {
		t.Fatalf("p01 against p00: %q, want \"- ½\"", got)
	}
	double.Games = append(double.Games[:1], Game{Round: 2, Slot: 0, X: "p01", O: "p00"})
	if got := Crosstable(double).Cells[0][1].String(); got != "+ *" {
		t.Fatalf("with a game in progress: %q, want \"+ *\"", got)
	}
}

// TestJSON: the shapes the server encodes, with outcomes by name.
func TestJSON(t *testing.T) {
	b, err := json.Marshal(Game{Round: 2, Slot: 1, X: "a", O: "b", Outcome: Draw})
	if err != nil || string(b) != `{"round":2,"slot":1,"x":"a","o":"b","outcome":"draw"}` {
		t.Fatalf("game JSON %s, %v", b, err)
	}
	var g Game
	if err := json.Unmarshal([]byte(`{"round":1,"x":"a","o":"b","outcome":"both-lose","forfeit":true}`), &g); err != nil || g.Outcome != BothLose || !g.Forfeit {
		t.Fatalf("game from JSON %+v, %v", g, err)
	}
	if err := json.Unmarshal([]byte(`{"outcome":"win"}`), &g); err == nil {
		t.Fatal("outcome \"win\" accepted")
	}
	b, _ = json.Marshal(Standings(State{Format: FormatRoundRobin, Players: names4, Games: rr4})[0])
	if string(b) != `{"rank":1,"name":"d","score":2,"tiebreaks":[3],"played":3}` {
		t.Fatalf("standing JSON %s", b)
	}
}

// TestMaxMatching checks Edmonds' algorithm against an exhaustive search
// on random graphs of up to 12 vertices, dense and sparse (odd cycles make
// blossoms): the maximum matching, and pairOff on every edge of the graphs
// that have a perfect one.
func TestMaxMatching(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 5))
	pairOffs := map[bool]int{}
	for i := 0; i < 200; i++ {
		n := 1 + r.IntN(12)
		p := 0.1 + 0.5*r.Float64()
		adj := make([][]bool, n)
		for a := range adj {
			adj[a] = make([]bool, n)
		}
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if r.Float64() < p {
					adj[a][b], adj[b][a] = true, true
				}
			}
		}
		f := func(a, b int) bool { return adj[a][b] }
		want := bruteMatching(adj, make([]bool, n), 0)
		if got := maxMatching(n, f); got != want {
			t.Fatalf("graph %v: matching of %d, exhaustive search %d", adj, got, want)
		}
		if got := perfect(n, f); got != (2*want == n) {
			t.Fatalf("graph %v: perfect %v, maximum matching %d of %d vertices", adj, got, want, n)
		}
		if 2*want != n {
			continue
		}
		// pairOff(a, b) on a perfect matching, for every edge: the rest
		// must still have one exactly when the exhaustive search finds one
		// without a and b.
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if !adj[a][b] {
					continue
				}
				m := newMatcher(n, f)
				m.maximum()
				used := make([]bool, n)
				used[a], used[b] = true, true
				restOK := 2*bruteMatching(adj, used, 0) == n-2
				if got := m.pairOff(a, b); got != restOK || !m.perfect() || m.alive[a] == restOK {
					t.Fatalf("graph %v: pairOff(%d, %d) = %v, perfect after %v, %d alive %v; the rest pairs: %v", adj, a, b, got, m.perfect(), a, m.alive[a], restOK)
				}
				pairOffs[restOK]++
			}
		}
	}
	if pairOffs[true] < 100 || pairOffs[false] < 100 {
		t.Fatalf("pairOff tried on %d edges that leave a pairable rest and %d that do not: want 100 of each", pairOffs[true], pairOffs[false])
	}
}

func bruteMatching(adj [][]bool, used []bool, from int) int {
	for from < len(adj) && used[from] {
		from++
	}
	if from == len(adj) {
		return 0
	}
	used[from] = true
	best := bruteMatching(adj, used, from+1) // from stays single
	for j := from + 1; j < len(adj); j++ {
		if adj[from][j] && !used[j] {
			used[j] = true
			best = max(best, 1+bruteMatching(adj, used, from+1))
			used[j] = false
		}
	}
	used[from] = false
	return best
}
