package storetest

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"alak/glicko2"
	"alak/server/store"
)

// newPuzzle is a stored puzzle of alak size=7 with the rating and themes
// given; the store keeps its body as it is, without reading it.
func newPuzzle(id string, rating float64, themes ...string) store.Puzzle {
	return store.Puzzle{ID: id, Rules: "alak size=7", Preset: "alak", Body: []byte(`{"id":"` + id + `"}`), Themes: themes,
		Source: "selfplay", Rating: glicko2.Rating{Rating: rating, RD: glicko2.StartRD, Volatility: glicko2.StartVolatility}, Created: at}
}

func ids(ps []store.Puzzle) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

// testPuzzles: puzzles stored once, found by pool, theme and nearest
// rating, without those the account tried; personal puzzles listed with
// the account's attempts.
func testPuzzles(t *testing.T, s store.Store) {
	defer s.Close()
	for _, p := range []store.Puzzle{newPuzzle("p1500", 1500, "win"), newPuzzle("p1700", 1700, "win", "capture"),
		newPuzzle("p1200", 1200, "draw", "edge-capture"), newPuzzle("p2000", 2000, "win", "capture", "end-in-3")} {
		added, err := s.AddPuzzle(ctx, p)
		if err != nil || !added {
			t.Fatalf("AddPuzzle %s: %v, %v", p.ID, added, err)
		}
	}
	other := newPuzzle("tt", 1500, "win")
	other.Rules, other.Preset = "tromp-taylor size=5", "tromp-taylor"
	_, err := s.AddPuzzle(ctx, other)
	must(t, err)
	late := newPuzzle("late", 3000, "win")
	late.Rules, late.Preset, late.Created = "dewdney size=9", "dewdney", at.Add(time.Hour)
	_, err = s.AddPuzzle(ctx, late)
	must(t, err)
	variant := newPuzzle("edge-off", 1500, "win")
	variant.Rules, variant.Preset = "alak size=7 edge=off", ""
	_, err = s.AddPuzzle(ctx, variant)
	must(t, err)
	again := newPuzzle("p1500", 900, "draw")
	if added, err := s.AddPuzzle(ctx, again); err != nil || added {
		t.Errorf("a puzzle stored twice: added %v, %v", added, err)
	}
	got, err := s.Puzzle(ctx, "p1700")
	if err != nil || got.Rules != "alak size=7" || got.Preset != "alak" || string(got.Body) != `{"id":"p1700"}` ||
		!slices.Equal(got.Themes, []string{"win", "capture"}) || got.Rating.Rating != 1700 || got.Plays != 0 || !got.Created.Equal(at) {
		t.Errorf("Puzzle: %+v, %v", got, err)
	}
	if p, _ := s.Puzzle(ctx, "p1500"); p.Rating.Rating != 1500 {
		t.Errorf("the second AddPuzzle changed the first: %+v", p)
	}
	if _, err := s.Puzzle(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown puzzle: %v", err)
	}
	if _, err := s.AddPuzzle(ctx, store.Puzzle{ID: "x", Body: []byte("{}"), Themes: []string{"two words"}}); err == nil {
		t.Error("a theme with a space was stored")
	}

	for _, c := range []struct {
		q    store.PuzzleQuery
		want []string
	}{
		{store.PuzzleQuery{Pool: "alak", Rating: 1650, Limit: 10}, []string{"p1700", "p1500", "p2000", "p1200"}},
		{store.PuzzleQuery{Pool: "alak size=7", Rating: 1000, Limit: 2}, []string{"p1200", "p1500"}},
		{store.PuzzleQuery{Pool: "alak", Theme: "capture", Rating: 1900, Limit: 10}, []string{"p2000", "p1700"}},
		{store.PuzzleQuery{Pool: "alak", Theme: "edge", Rating: 1900, Limit: 10}, nil}, // a theme is a whole word
		{store.PuzzleQuery{Pool: "tromp-taylor", Rating: 1500, Limit: 10}, []string{"tt"}},
		{store.PuzzleQuery{Theme: "end-in", Rating: 1500, Limit: 10}, []string{"p2000"}},
		{store.PuzzleQuery{Theme: "end-in-3", Rating: 1500, Limit: 10}, []string{"p2000"}},
		{store.PuzzleQuery{Theme: "end-in-1", Rating: 1500, Limit: 10}, nil},
		{store.PuzzleQuery{Rating: 1500, Limit: 2}, []string{"p1500", "tt"}},
		// A puzzle of rules that are no preset's own is in no preset's pool.
		{store.PuzzleQuery{Rating: 1500, Limit: 10}, []string{"p1500", "tt", "p1700", "p1200", "p2000", "late"}},
		{store.PuzzleQuery{Pool: "alak size=7 edge=off", Rating: 1500, Limit: 10}, []string{"edge-off"}},
		{store.PuzzleQuery{Pool: "dewdney", Rating: 1500, Limit: 10}, []string{"late"}},
		{store.PuzzleQuery{Pool: "dewdney", Rating: 1500, Limit: 10, Before: at.Add(time.Hour)}, nil},
		{store.PuzzleQuery{Pool: "alak", Rating: 1500, Limit: 10, Before: at}, nil},
		{store.PuzzleQuery{Pool: "alak", Rating: 1500, Limit: 10, Before: at.Add(time.Millisecond)}, []string{"p1500", "p1700", "p1200", "p2000"}},
	} {
		ps, err := s.Puzzles(ctx, c.q)
		if err != nil || !slices.Equal(ids(ps), c.want) {
			t.Errorf("Puzzles(%+v) = %v, %v; want %v", c.q, ids(ps), err, c.want)
		}
	}
	for pool, want := range map[string]int{"": 6, "alak": 4, "alak size=7": 4, "tromp-taylor": 1, "golf": 0, "alak size=7 edge=off": 1} {
		if n, err := s.CountPuzzles(ctx, pool); err != nil || n != want {
			t.Errorf("CountPuzzles(%q) = %d, %v; want %d", pool, n, err, want)
		}
	}

	acc := accounts(t, s, 1)[0]
	_, err = s.RecordAttempt(ctx, store.PuzzleAttempt{AccountID: acc, PuzzleID: "p1700", Correct: false, Rated: true, At: at})
	must(t, err)
	ps, err := s.Puzzles(ctx, store.PuzzleQuery{Pool: "alak", Account: acc, Rating: 1650, Limit: 10})
	if err != nil || !slices.Equal(ids(ps), []string{"p1500", "p2000", "p1200"}) {
		t.Errorf("the puzzles an account has not tried: %v, %v", ids(ps), err)
	}

	must(t, s.AddPersonalPuzzle(ctx, store.PersonalPuzzle{AccountID: acc, PuzzleID: "p1700", GameID: "g1", Ply: 3, Played: "5", Created: at}))
	must(t, s.AddPersonalPuzzle(ctx, store.PersonalPuzzle{AccountID: acc, PuzzleID: "p1200", GameID: "g2", Ply: 1, Played: "2", Created: at.Add(time.Hour)}))
	must(t, s.AddPersonalPuzzle(ctx, store.PersonalPuzzle{AccountID: acc, PuzzleID: "p1200", GameID: "g2", Ply: 1, Played: "2", Created: at.Add(time.Hour)}))
	mine, err := s.PersonalPuzzles(ctx, acc, "", 10)
	if err != nil || len(mine) != 2 {
		t.Fatalf("PersonalPuzzles: %+v, %v", mine, err)
	}
	if m := mine[0]; m.PuzzleID != "p1200" || m.GameID != "g2" || m.Ply != 1 || m.Played != "2" || m.Tries != 0 || m.Puzzle.Rating.Rating != 1200 {
		t.Errorf("the latest personal puzzle: %+v", m)
	}
	if m := mine[1]; m.PuzzleID != "p1700" || m.Tries != 1 || m.FirstCorrect || !m.Rated || !m.First.Equal(at) {
		t.Errorf("a personal puzzle missed once: %+v", m)
	}
	if one, err := s.PersonalPuzzles(ctx, acc, "g1", 10); err != nil || len(one) != 1 || one[0].PuzzleID != "p1700" {
		t.Errorf("PersonalPuzzles of game g1: %+v, %v", one, err)
	}
}

// testPuzzleAttempts: an account's first attempt at a puzzle moves its
// puzzle rating and the puzzle's, each the other's opponent (the expected
// values are package glicko2's, tested against Glickman's example); later
// attempts, and a guest's, only count.
func testPuzzleAttempts(t *testing.T, s store.Store) {
	defer s.Close()
	for _, p := range []store.Puzzle{newPuzzle("a", 1800, "win"), newPuzzle("b", 1400, "draw")} {
		_, err := s.AddPuzzle(ctx, p)
		must(t, err)
	}
	players := accounts(t, s, 2)
	acc, guest := players[0], players[1]
	if r, err := s.PuzzleRating(ctx, acc); err != nil || r.Rating != glicko2.StartRating || r.Games != 0 {
		t.Errorf("a new puzzle rating: %+v, %v", r, err)
	}
	if _, err := s.RecordAttempt(ctx, store.PuzzleAttempt{AccountID: acc, PuzzleID: "none", Correct: true, Rated: true, At: at}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an attempt at no puzzle: %v", err)
	}

	puzzleA := glicko2.Rating{Rating: 1800, RD: glicko2.StartRD, Volatility: glicko2.StartVolatility}
	wantMe := glicko2.Default().Update([]glicko2.Result{{Opponent: puzzleA, Score: glicko2.Win}}, glicko2.Tau)
	wantA := puzzleA.Update([]glicko2.Result{{Opponent: glicko2.Default(), Score: glicko2.Loss}}, glicko2.Tau)
	res, err := s.RecordAttempt(ctx, store.PuzzleAttempt{AccountID: acc, PuzzleID: "a", Correct: true, Rated: true, At: at})
	if err != nil || !res.First || !res.Rated || !near(res.PlayerAfter, wantMe) || !near(res.PuzzleAfter, wantA) ||
		!near(res.PlayerBefore, glicko2.Default()) || !near(res.PuzzleBefore, puzzleA) {
		t.Fatalf("the first attempt: %+v, %v; want the player at %+v, the puzzle at %+v", res, err, wantMe, wantA)
	}
	if wantMe.Rating <= 1500 || wantA.Rating >= 1800 {
		t.Fatalf("solving a harder puzzle: the player %v, the puzzle %v", wantMe, wantA)
	}
	res, err = s.RecordAttempt(ctx, store.PuzzleAttempt{AccountID: acc, PuzzleID: "a", Correct: false, Rated: true, At: at.Add(time.Minute)})
	if err != nil || res.First || res.Rated {
		t.Errorf("the second attempt: %+v, %v; want neither first nor rated", res, err)
	}
	r, err := s.PuzzleRating(ctx, acc)
	if err != nil || !near(r.Glicko(), wantMe) || r.Games != 1 || !r.Last.Equal(at) || r.Pool != store.PuzzlePool {
		t.Errorf("the puzzle rating after two attempts: %+v, %v; want %+v after one", r, err, wantMe)
	}
	p, err := s.Puzzle(ctx, "a")
	if err != nil || !near(p.Rating, wantA) || p.Plays != 1 || p.Solved != 1 {
		t.Errorf("the puzzle after two attempts of one account: %+v, %v", p, err)
	}
	tries, err := s.PuzzleTries(ctx, acc, false, 10)
	if err != nil || len(tries) != 1 {
		t.Fatalf("PuzzleTries: %+v, %v", tries, err)
	}
	if tr := tries[0]; tr.PuzzleID != "a" || !tr.FirstCorrect || tr.LastCorrect || tr.Tries != 2 || !tr.Rated ||
		tr.PlayerBefore != 1500 || tr.PlayerAfter != wantMe.Rating || !tr.First.Equal(at) || !tr.Last.Equal(at.Add(time.Minute)) ||
		!slices.Equal(tr.Themes, []string{"win"}) {
		t.Errorf("the attempts at a: %+v", tr)
	}
	if missed, err := s.PuzzleTries(ctx, acc, true, 10); err != nil || len(missed) != 1 {
		t.Errorf("the puzzles last missed: %+v, %v", missed, err)
	}

	// A guest's first attempt counts as a play and moves no rating; a
	// rated attempt after it is not the first.
	res, err = s.RecordAttempt(ctx, store.PuzzleAttempt{AccountID: guest, PuzzleID: "b", Correct: true, Rated: false, At: at})
	if err != nil || !res.First || res.Rated {
		t.Errorf("a guest's first attempt: %+v, %v", res, err)
	}
	res, err = s.RecordAttempt(ctx, store.PuzzleAttempt{AccountID: guest, PuzzleID: "b", Correct: true, Rated: true, At: at})
	if err != nil || res.First || res.Rated {
		t.Errorf("an attempt after an unrated first: %+v, %v", res, err)
	}
	if p, _ := s.Puzzle(ctx, "b"); p.Rating.Rating != 1400 || p.Plays != 1 || p.Solved != 1 {
		t.Errorf("the puzzle after a guest's attempts: %+v", p)
	}
	if r, _ := s.PuzzleRating(ctx, guest); r.Games != 0 || r.Rating != glicko2.StartRating {
		t.Errorf("the guest's puzzle rating: %+v", r)
	}
}

// testPuzzleAttemptsAtOnce: first attempts sent at once. One account's
// eight attempts at one puzzle count once; eight accounts' attempts at one
// puzzle count once each, and the puzzle's rating is the chain of the
// eight updates (its deviation shrinks with each: none lost).
func testPuzzleAttemptsAtOnce(t *testing.T, s store.Store) {
	defer s.Close()
	for _, p := range []store.Puzzle{newPuzzle("one", 1500, "win"), newPuzzle("many", 1500, "win")} {
		_, err := s.AddPuzzle(ctx, p)
		must(t, err)
	}
	players := accounts(t, s, 8)
	var wg sync.WaitGroup
	firsts := make(chan bool, 8)
	for range 8 {
		wg.Go(func() {
			res, err := s.RecordAttempt(ctx, store.PuzzleAttempt{AccountID: players[0], PuzzleID: "one", Correct: true, Rated: true, At: at})
			if err != nil {
				t.Error(err)
			}
			firsts <- res.First && res.Rated
		})
	}
	for i := range 8 {
		wg.Go(func() {
			if _, err := s.RecordAttempt(ctx, store.PuzzleAttempt{AccountID: players[i], PuzzleID: "many", Correct: i%2 == 0, Rated: true, At: at}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	close(firsts)
	n := 0
	for f := range firsts {
		if f {
			n++
		}
	}
	if n != 1 {
		t.Errorf("one account's 8 attempts at once: %d counted, want 1", n)
	}
	if p, _ := s.Puzzle(ctx, "one"); p.Plays != 1 {
		t.Errorf("puzzle one: %d plays, want 1", p.Plays)
	}
	p, err := s.Puzzle(ctx, "many")
	if err != nil || p.Plays != 8 || p.Solved != 4 {
		t.Errorf("puzzle many: %+v, %v; want 8 plays, 4 solved", p, err)
	}
	// Each update shrinks the deviation: after eight in a chain it is
	// below what any one update from the start leaves.
	one := newPuzzle("", 1500).Rating.Update([]glicko2.Result{{Opponent: glicko2.Default(), Score: glicko2.Win}}, glicko2.Tau)
	if p.Rating.RD >= one.RD {
		t.Errorf("puzzle many's deviation %v after 8 attempts at once; one update leaves %v: updates were lost", p.Rating.RD, one.RD)
	}
	for i, id := range players {
		r, err := s.PuzzleRating(ctx, id)
		if err != nil || r.Games != map[bool]int{true: 2, false: 1}[i == 0] {
			t.Errorf("player %d: %+v, %v", i, r, err)
		}
	}
}
