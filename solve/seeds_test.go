package solve

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"alak/rules"
)

// allGames lists every complete game from g's position, as move lists
// written with 1-based points, with the final score.
func allGames(g *rules.Game, prefix []int, out *[]string) {
	if o := g.Outcome(); o.Over() {
		*out = append(*out, fmt.Sprint(prefix)+" "+o.Score())
		return
	}
	for _, m := range g.LegalMoves(nil) {
		if err := g.Play(m); err != nil {
			panic(err)
		}
		allGames(g, append(prefix, m.Point()+1), out)
		g.Undo()
	}
}

// TestAlak3AllGames checks seed 002: "Here are all 3 possible Alak-3 games
// (excluding symmetry)": 1. X-- x-O xX/ 2-0; 2. X-- /O- -oX Oox 1-2;
// 3. -X- Ox- oxX 2-1. Every game is enumerated with the kernel and folded
// by mirror symmetry (point p becomes 4-p).
func TestAlak3AllGames(t *testing.T) {
	t.Parallel()
	g := newGame(t, "alak", 3)
	var games []string
	allGames(g, nil, &games)
	canon := map[string]bool{}
	for _, s := range games {
		moves, score, _ := strings.Cut(strings.Trim(s, "["), "] ")
		var a, b []string
		for _, f := range strings.Fields(moves) {
			a = append(a, f)
			b = append(b, fmt.Sprint(4-int(f[0]-'0')))
		}
		x, y := strings.Join(a, " "), strings.Join(b, " ")
		canon[min(x, y)+" "+score] = true
	}
	var got []string
	for k := range canon {
		got = append(got, k)
	}
	sort.Strings(got)
	want := []string{"1 2 3 1 1-2", "1 3 2 2-0", "2 1 3 2-1"} // the seed's three games, 1-based
	if !slices.Equal(got, want) {
		t.Errorf("games up to symmetry %q, seed 002 lists %q", got, want)
	}
}

// seedAlak6 is the annotated Alak-6 game of seed 002, 1-based points read
// off its diagrams (the capital letter of each line).
var seedAlak6 = []int{1, 4, 5, 6, 2, 3, 5, 1, 2, 6, 4, 3, 1, 5, 4}

func playSeed(t *testing.T, plies int) *rules.Game {
	t.Helper()
	g := newGame(t, "alak", 6)
	for i, p := range seedAlak6[:plies] {
		if err := g.Play(rules.Place(p - 1)); err != nil {
			t.Fatalf("seed move %d (%d): %v", i+1, p, err)
		}
	}
	return g
}

// TestAlak6Forced checks seed 002's "-x--xO (forced)": before move 10
// White has exactly one legal move, point 6, and the solver lists just it.
func TestAlak6Forced(t *testing.T) {
	t.Parallel()
	g := playSeed(t, 9)
	res, err := Solve(context.Background(), g, Options{MemoryMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Moves) != 1 || len(res.Best) != 1 || res.Best[0] != rules.Place(5) {
		t.Errorf("move 10: solver moves %v best %v; the seed says 6 was forced", res.Moves, res.Best)
	}
	if g := playSeed(t, 15); g.Outcome().Score() != "3-0" || !g.Over() {
		t.Errorf("the seed game ends %v, the seed says 3-0", g.Outcome())
	}
}

// TestAlak6Move12 checks the solver's values of White's choices at move 12
// (seed 002: "-xO//o (to do otherwise would lose 4-2)") against the brute
// force; what they say about the seed's claim is in docs/results.md.
func TestAlak6Move12(t *testing.T) {
	t.Parallel()
	g := playSeed(t, 11)
	res, err := Solve(context.Background(), g, Options{MemoryMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	for m, v := range res.Moves {
		c := g.Clone()
		if err := c.Play(m); err != nil {
			t.Fatal(err)
		}
		nodes := 0
		if want := brute(c, &nodes, 1e7, map[string]float64{}); v != want {
			t.Errorf("move 12 at %v: solver %v, brute force %v", m, v, want)
		}
	}
	t.Logf("position %s, values %v, best %v, pv %v", g.Position(), res.Moves, res.Best, res.PV)
}
