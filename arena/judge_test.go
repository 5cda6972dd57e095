package arena

import (
	"context"
	"testing"

	"alak/rules"
	"alak/solve"
)

// TestJudgeOpenings: alak on 5 points is won by Black (docs/results.md, a
// value of 1 by the compact and the dense solvers), so from the empty
// board (no opening) every game P1 plays as Black starts won for it and
// every game as White lost. With random openings the two games of a pair
// start from one position with the colours swapped, so their starts are
// opposite; perfect as P1 never loses a game that starts drawn or won for
// it; and every game is counted once.
func TestJudgeOpenings(t *testing.T) {
	r, err := rules.Parse("alak size=5")
	if err != nil {
		t.Fatal(err)
	}
	opt := solve.Options{MemoryMB: 64}
	res, err := Match(context.Background(), Config{Rules: r, Players: [2]string{"perfect:time=2s", "random"}, Games: 4, Openings: "none", Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	j, err := JudgeOpenings(context.Background(), r, res.Played, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range res.Played {
		want := StartLost
		if g.P1Black {
			want = StartWon
		}
		if j.Starts[i] != want {
			t.Errorf("no opening, game %d (P1 black %v): start %v, want %v", i+1, g.P1Black, j.Starts[i], want)
		}
	}

	for _, spec := range []string{"alak size=7", "alak size=7 edge=off"} {
		r, err := rules.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Match(context.Background(), Config{Rules: r, Players: [2]string{"perfect:time=2s", "greedy"}, Games: 16, Openings: "random:3", Seed: 5, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		j, err := JudgeOpenings(context.Background(), r, res.Played, opt)
		if err != nil {
			t.Fatal(err)
		}
		total, kinds := 0, map[Start]bool{}
		for s, c := range j.Results {
			total += c.Wins + c.Draws + c.Losses
			if c.Wins+c.Draws+c.Losses > 0 {
				kinds[Start(s)] = true
			}
		}
		if total != len(res.Played) || len(j.Why) != 0 || kinds[StartUnknown] {
			t.Errorf("%s: %d games counted of %d; not judged: %v", spec, total, len(res.Played), j.Why)
		}
		for i := 0; i+1 < len(res.Played); i += 2 {
			a, b := j.Starts[i], j.Starts[i+1]
			if a == StartUnknown || a+b != StartWon+StartLost {
				t.Errorf("%s: games %d and %d share an opening but start %v and %v", spec, i+1, i+2, a, b)
			}
		}
		for _, s := range []Start{StartWon, StartDrawn} {
			if c := j.Results[s]; c.Losses != 0 {
				t.Errorf("%s: perfect lost %d games that started %v for it", spec, c.Losses, s)
			}
		}
		if c := j.Results[StartWon]; c.Draws != 0 {
			t.Errorf("%s: perfect drew %d games that started won for it", spec, c.Draws)
		}
		if len(kinds) < 2 {
			t.Errorf("%s: every start was alike (%v): the openings do not exercise the judgement", spec, kinds)
		}
	}
}
