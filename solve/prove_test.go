package solve

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"alak/rules"
)

// provable reports whether the goal holds given Black's exact margin v.
func provable(v float64, w rules.Color, draw bool) bool {
	if w == rules.White {
		v = -v
	}
	return v > 0 || (draw && v == 0)
}

// TestProveAgainstBruteForce checks Prove against the independent brute
// force of brute_test.go on small boards, from the start and after every
// first move: a goal Prove proves must hold, and a goal that holds must be
// proved once the depth suffices (these games all end within 20 plies of
// best play by the winner).
func TestProveAgainstBruteForce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		preset string
		sizes  []int
	}{
		{"alak", []int{1, 2, 3, 4, 5}},
		{"traditional", []int{1, 2}}, // 3 points: brute force takes 30 s; see below
		{"tromp-taylor", []int{1, 2, 3}},
		{"alterigo", []int{1, 2, 3}},
	}
	for _, c := range cases {
		for _, n := range c.sizes {
			t.Run(fmt.Sprintf("%s/%d", c.preset, n), func(t *testing.T) {
				games := rootAndReplies(t, c.preset, n)
				for _, g := range games {
					nodes := 0
					v := brute(g.Clone(), &nodes, 5e7, map[string]float64{})
					for _, w := range []rules.Color{rules.Black, rules.White} {
						for _, draw := range []bool{false, true} {
							want := provable(v, w, draw)
							pr, err := Prove(context.Background(), g, w, ProveOptions{Draw: draw, Depth: 20})
							if err != nil {
								t.Fatal(err)
							}
							if pr.Proved != want {
								t.Errorf("after %v: value %v; Prove(%v, draw %v) = %v", g.Moves(), v, w, draw, pr.Proved)
								continue
							}
							if pr.Proved {
								checkProofLine(t, g, pr)
							}
						}
					}
				}
			})
		}
	}
}

// checkProofLine replays a proof's principal variation: it must be legal,
// end the game within the proof's plies, and end it as the goal says.
func checkProofLine(t *testing.T, g *rules.Game, pr Proof) {
	t.Helper()
	c := g.Clone()
	for i, m := range pr.PV {
		if err := c.Play(m); err != nil {
			t.Fatalf("after %v: PV %v move %d: %v", g.Moves(), pr.PV, i+1, err)
		}
	}
	o := c.Outcome()
	if len(pr.PV) > pr.Plies || !o.Over() || !(o.Winner == pr.Winner || pr.Draw && o.Winner == rules.None) {
		t.Errorf("after %v: PV %v (%d plies, proof in %d) ends %v, not a %v goal (draw %v)", g.Moves(), pr.PV, len(pr.PV), pr.Plies, o, pr.Winner, pr.Draw)
	}
}

// On 3 points under the seed's Traditional Alak, by hand: Black on the
// centre leaves White no legal placement (either end would have no
// liberty), so White passes, Black passes, and Black owns the board 3-0.
func TestProveTraditional3(t *testing.T) {
	t.Parallel()
	g := newGame(t, "traditional", 3)
	pr, err := Prove(context.Background(), g, rules.Black, ProveOptions{Depth: 20})
	if err != nil {
		t.Fatal(err)
	}
	if !pr.Proved || pr.Plies != 3 || len(pr.PV) != 3 || pr.PV[0] != rules.Place(1) {
		t.Fatalf("Black to win: %+v, want proved in 3 plies opening on point 2", pr)
	}
	checkProofLine(t, g, pr)
	for _, draw := range []bool{false, true} {
		if pr, err := Prove(context.Background(), g, rules.White, ProveOptions{Draw: draw, Depth: 12}); err != nil || pr.Proved {
			t.Errorf("White (draw %v): %+v, %v; Black wins, so nothing can be proved for White", draw, pr, err)
		}
	}
}

// Seed 000 (Sensei's Library, "Alak", Example: 6-Alak) claims that on 6
// points under Traditional Alak "Black can ensure a win by opening on point
// 2; White can win if Black opens on point 3". Under the traditional
// preset (simple ko, two passes end the game, the third occurrence of a
// position draws, score = stones + territory + prisoners) the search
// proves instead that 6 points is a draw:
//   - Black holds a draw or better from the start (opening on 2);
//   - White holds a draw or better after every first move of Black's
//     (after 2 within 27 plies), so Black cannot ensure a win;
//   - after 3, Black holds a draw or better (within 34 plies), so White
//     cannot win there.
//
// The plies are those the search found (docs/results-traditional.md). A proof is exact:
// every line of it is played on a Game, which applies the repetition rule
// and counts the prisoners itself.
func TestProveTraditional6(t *testing.T) {
	t.Parallel()
	if raceEnabled {
		t.Skip("minutes under the race detector; .ci/run runs it without")
	}
	hold := func(g *rules.Game, w rules.Color, plies int) {
		t.Helper()
		pr, err := Prove(context.Background(), g, w, ProveOptions{Draw: true, Depth: plies})
		if err != nil {
			t.Fatal(err)
		}
		if !pr.Proved {
			t.Errorf("after %v: %v cannot be shown to hold a draw within %d plies", g.Moves(), w, plies)
			return
		}
		checkProofLine(t, g, pr)
		t.Logf("after %v: %v holds a draw or better within %d plies (%d positions); longest defence %v", g.Moves(), w, pr.Plies, pr.Nodes, pr.PV)
	}
	root := newGame(t, "traditional", 6)
	hold(root, rules.Black, 15)
	for _, m := range root.LegalMoves(nil) {
		g := root.Clone()
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		hold(g, rules.White, 27)
		if m == rules.Place(2) {
			hold(g, rules.Black, 34)
		}
	}
}

// Progress is told every depth searched without a proof, in order, with
// the positions searched so far.
func TestProveProgress(t *testing.T) {
	t.Parallel()
	g := newGame(t, "traditional", 3)
	var depths []int
	var last int64
	pr, err := Prove(context.Background(), g, rules.White, ProveOptions{Depth: 5, Progress: func(d int, nodes int64) {
		if nodes < last {
			t.Errorf("depth %d: %d positions after %d", d, nodes, last)
		}
		depths, last = append(depths, d), nodes
	}})
	if err != nil || pr.Proved {
		t.Fatalf("%+v, %v: White cannot win on 3 points (Black takes the centre)", pr, err)
	}
	if want := []int{0, 1, 2, 3, 4, 5}; !slices.Equal(depths, want) {
		t.Errorf("progress at depths %v, want %v", depths, want)
	}
	if last != pr.Nodes {
		t.Errorf("last progress %d positions, result %d", last, pr.Nodes)
	}
}

// rootAndReplies returns the preset's empty board of size n and the game
// after each of its legal first moves.
func rootAndReplies(t *testing.T, preset string, n int) []*rules.Game {
	t.Helper()
	root := newGame(t, preset, n)
	games := []*rules.Game{root}
	for _, m := range root.LegalMoves(nil) {
		g := root.Clone()
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	return games
}
