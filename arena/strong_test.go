package arena

import (
	"context"
	"testing"

	"alak/player"
	"alak/rules"
	"alak/solve"
)

// TestStrongKeepsTheValue plays the strong player, which reads no table,
// against perfect, which answers from the line's dense table, from random
// openings, and judges every move after the opening by that table
// (JudgeMoves): the strong player must lose no value, and every game must
// be judged whole. The short form: alak on 8 points, where the strong
// player's proof (the state graph: at most the 7,518 positions reachable
// from the empty board, docs/results.md) fits its time and memory from
// its first move. (A form on alak 12 points, where the graph does not fit
// until late in a game, is not run: there the opponent, perfect at 1 s a
// move, once took over the arena's minute for a move under the race
// detector, docs/strength.md.)
func TestStrongKeepsTheValue(t *testing.T) {
	cases := []struct {
		rules, strong string
		games         int
	}{
		{"alak size=8", "strong:time=4s", 2},
	}
	for _, tc := range cases {
		t.Run(tc.rules, func(t *testing.T) {
			ctx := context.Background()
			r, err := rules.Parse(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Match(ctx, Config{Rules: r, Players: [2]string{tc.strong, "perfect:time=1s"}, Games: tc.games,
				Openings: "random:4", Seed: 4, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			j, err := JudgeMoves(ctx, r, res.Played, &solve.Tables{}, solve.Options{MemoryMB: 256})
			if err != nil || len(j.Why) > 0 {
				t.Fatalf("%v %v", err, j.Why)
			}
			if j.Judged[0] < 10*tc.games {
				t.Fatalf("%d moves of strong judged in %d games: too few", j.Judged[0], tc.games)
			}
			if j.Losses != [2]int{} {
				for _, l := range j.Moves {
					t.Errorf("game %d ply %d: P%d played %s, Black's margin %v before, %v after (best %s)",
						l.Game+1, l.Ply, l.P+1, r.MoveText(l.Move), l.Before, l.After, MoveList(r, l.Best))
				}
			}
			// The positions where strong moved and some move would have
			// lost value: without them the test would prove nothing.
			traps := 0
			ts := &solve.Tables{}
			for _, pg := range res.Played {
				g, _ := rules.NewGame(r)
				for i, m := range pg.Moves {
					strongMoves := (g.Position().ToMove() == rules.Black) == pg.P1Black
					if i >= pg.Opening && strongMoves && m != rules.Resign {
						v, err := ts.Solve(ctx, g, solve.Options{MemoryMB: 256})
						if err != nil {
							t.Fatal(err)
						}
						if len(v.Best) < len(v.Moves) {
							traps++
						}
					}
					if err := g.Play(m); err != nil {
						t.Fatal(err)
					}
				}
			}
			if traps < 5 {
				t.Errorf("strong moved where a move lost value %d times: too few to tell", traps)
			}
			rep := res.Reports[0]
			if rep.Moves != j.Judged[0] {
				t.Errorf("strong reports %d moves, %d were judged", rep.Moves, j.Judged[0])
			}
			t.Logf("strong: %v; %d of its moves judged (%d where a move lost value), %d value losses", rep, j.Judged[0], traps, j.Losses[0])
			if tc.rules == "alak size=8" && rep.Count(player.StrongProved) != rep.Moves {
				t.Errorf("alak 9: %v, want every move proved", rep)
			}
		})
	}
}
