package storetest

import (
	"reflect"
	"testing"
	"time"

	"alak/server/store"
)

// testExplorer: the explorer counts each finished game once, under every
// prefix of its moves, with its result; the backfill counts the finished
// games from the rules' own start that were not counted (takebacks
// applied, the resignation left out), and only those.
func testExplorer(t *testing.T, s store.Store) {
	defer s.Close()
	const r = "alak size=6"
	for _, g := range []struct {
		id, winner string
		moves      []string
	}{
		{"e1", "x", []string{"3", "4", "2"}},
		{"e2", "o", []string{"3", "2"}},
		{"e3", "draw", []string{"4"}},
	} {
		added, err := s.AddExplorerGame(ctx, g.id, r, g.moves, g.winner)
		if err != nil || !added {
			t.Fatalf("%s: %v %v", g.id, added, err)
		}
	}
	if added, err := s.AddExplorerGame(ctx, "e1", r, []string{"3", "4", "2"}, "x"); err != nil || added {
		t.Errorf("e1 a second time: added %v, %v; want it counted once", added, err)
	}
	check := func(prefix []string, want []store.ExplorerMove) {
		t.Helper()
		got, err := s.ExplorerMoves(ctx, r, prefix)
		must(t, err)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("after %v: %+v, want %+v", prefix, got, want)
		}
	}
	check(nil, []store.ExplorerMove{{Move: "3", Games: 2, XWins: 1, OWins: 1}, {Move: "4", Games: 1, Draws: 1}})
	check([]string{"3"}, []store.ExplorerMove{{Move: "2", Games: 1, OWins: 1}, {Move: "4", Games: 1, XWins: 1}})
	check([]string{"3", "4"}, []store.ExplorerMove{{Move: "2", Games: 1, XWins: 1}})
	check([]string{"5"}, nil)
	if got, err := s.ExplorerMoves(ctx, "alak size=7", nil); err != nil || len(got) != 0 {
		t.Errorf("other rules: %+v %v", got, err)
	}

	// Three finished games stored as the server stores them, one from a
	// set-up position, and one game still going: the backfill counts the
	// two from the start.
	play := func(id string, moves []string, winner, start string, finished bool) {
		g := newGame(id, 1, 2)
		g.Start = start
		must(t, s.CreateGame(ctx, g))
		created := g
		var entries []store.Entry
		for _, m := range moves {
			var e store.Entry
			g, e = move(g, m, 1)
			if m == "" {
				e.Undo = 1
				g.Ply -= 2
			}
			entries = append(entries, e)
		}
		end := g
		end.Version = 2 // one Update from version 1 with every entry
		if finished {
			end.State, end.Winner, end.Ended = store.StateFinished, winner, at.Add(time.Hour)
		}
		must(t, s.Update(ctx, end, created, entries))
	}
	play("b1", []string{"3", "5", "", "4", "resign"}, "x", "", true) // a takeback of 5, then o resigns
	play("b2", []string{"4", "3"}, "o", "", true)
	play("b3", []string{"4"}, "x", "x--oX- o", true)
	play("b4", []string{"4"}, "", "", false)
	n, err := s.ExplorerBackfill(ctx, 100)
	if err != nil || n != 2 {
		t.Fatalf("backfill: %d %v, want b1 and b2", n, err)
	}
	if n, err := s.ExplorerBackfill(ctx, 100); err != nil || n != 0 {
		t.Errorf("a second backfill: %d %v, want none", n, err)
	}
	check([]string{"3"}, []store.ExplorerMove{{Move: "4", Games: 2, XWins: 2}, {Move: "2", Games: 1, OWins: 1}})
	check([]string{"4"}, []store.ExplorerMove{{Move: "3", Games: 1, OWins: 1}})
	check([]string{"3", "4"}, []store.ExplorerMove{{Move: "2", Games: 1, XWins: 1}})
}
