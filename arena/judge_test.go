package arena

import (
	"context"
	"strings"
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

// TestJudgeMoves: perfect against random on alak 7 from random openings.
// Every move is judged a second way here: the plain search (solve.Solve,
// no table) values the position before it and the move, under the game's
// history; a move of Black's that lowers Black's margin (or of White's
// that raises it) is a value loss. JudgeMoves (the small line's dense
// table) must find the same moves, and the perfect player none (its moves
// are the table's best). A game ended by a resignation from a position
// that is not lost counts the resignation as a loss.
func TestJudgeMoves(t *testing.T) {
	ctx := context.Background()
	r, err := rules.Parse("alak size=7")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Match(ctx, Config{Rules: r, Players: [2]string{"perfect:time=2s", "random"}, Games: 6, Openings: "random:2", Seed: 3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	// A seventh game: Black resigns the empty board of alak on 7 points,
	// which is not lost for Black (the search says so below).
	res.Played = append(res.Played, Game{Index: 6, P1Black: true, Moves: []rules.Move{rules.Resign}})
	j, err := JudgeMoves(ctx, r, res.Played, &solve.Tables{}, solve.Options{MemoryMB: 64})
	if err != nil || len(j.Why) > 0 {
		t.Fatalf("%v %v", err, j.Why)
	}
	want := map[[2]int]bool{} // game, ply
	var judged, losses [2]int
	for _, pg := range res.Played {
		g, _ := rules.NewGame(r)
		for i, m := range pg.Moves {
			v, err := solve.Solve(ctx, g, solve.Options{MemoryMB: 64})
			if err != nil || !v.Complete {
				t.Fatalf("game %d, ply %d: %v %+v", pg.Index+1, i+1, err, v)
			}
			mover := g.Position().ToMove()
			p := 1
			if (mover == rules.Black) == pg.P1Black {
				p = 0
			}
			var lost bool
			if m == rules.Resign {
				lost = mover == rules.Black && v.Value >= 0 || mover == rules.White && v.Value <= 0
			} else {
				after := v.Moves[m]
				lost = mover == rules.Black && after < v.Value || mover == rules.White && after > v.Value
			}
			if i >= pg.Opening {
				judged[p]++
				if lost {
					losses[p]++
					want[[2]int{pg.Index, i + 1}] = true
				}
			}
			if m == rules.Resign {
				break
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if j.Judged != judged || j.Losses != losses {
		t.Errorf("judged %v, losses %v; the search: %v, %v", j.Judged, j.Losses, judged, losses)
	}
	for _, l := range j.Moves {
		if !want[[2]int{l.Game, l.Ply}] {
			t.Errorf("game %d, ply %d (%s): a loss the search does not find", l.Game+1, l.Ply, r.MoveText(l.Move))
		}
	}
	if j.Losses[0] != 1 || losses[1] == 0 {
		t.Errorf("losses %v: want P1's resignation alone, and random's moves", j.Losses)
	}
	if c := j.Comments[6][1]; !strings.Contains(c, "a value loss by P1") {
		t.Errorf("the resignation's comment: %q", c)
	}
}
