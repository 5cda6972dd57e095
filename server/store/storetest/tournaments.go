package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"alak/server/store"
)

// Tournaments.

func testTournaments(t *testing.T, s store.Store) {
	defer s.Close()
	var ids []int64
	for _, name := range []string{"Ann", "Bob", "Cy"} {
		a, err := s.CreateAccount(ctx, store.Account{Name: name, PassHash: "h", Created: at})
		must(t, err)
		ids = append(ids, a.ID)
	}
	tr := store.Tournament{ID: "t1", Name: "Autumn cup", Organiser: ids[0], Rules: "alak size=6", Clock: "days:3",
		Format: "round-robin", Rated: true, MaxPlayers: 8, Starts: at.Add(time.Hour), State: store.TournamentOpen, Version: 1, Created: at}
	must(t, s.CreateTournament(ctx, tr))
	if err := s.CreateTournament(ctx, tr); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("the same id again: %v, want ErrDuplicate", err)
	}
	got, players, games, err := s.Tournament(ctx, "t1")
	must(t, err)
	if got != tr || len(players) != 0 || len(games) != 0 {
		t.Fatalf("read back: %+v %v %v, want %+v and nothing else", got, players, games, tr)
	}
	if _, _, _, err := s.Tournament(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown tournament: %v", err)
	}

	// Joins: each a change of one version.
	next := func(t store.Tournament) store.Tournament { t.Version++; return t }
	for i, id := range ids {
		ch := store.TournamentChange{T: next(tr), Expect: tr.Version, Join: []store.TournamentPlayer{{AccountID: id, Rating: 1500 + float64(i), Joined: at.Add(time.Duration(i) * time.Second)}}}
		must(t, s.UpdateTournament(ctx, ch))
		tr = ch.T
	}
	// A stale version changes nothing.
	stale := store.TournamentChange{T: tr, Expect: tr.Version - 1, Leave: []int64{ids[2]}}
	if err := s.UpdateTournament(ctx, stale); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a change at a stale version: %v, want ErrConflict", err)
	}
	// Joining twice is a duplicate, and rolls back the version too.
	dup := store.TournamentChange{T: next(tr), Expect: tr.Version, Join: []store.TournamentPlayer{{AccountID: ids[0], Joined: at}}}
	if err := s.UpdateTournament(ctx, dup); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("a second join: %v, want ErrDuplicate", err)
	}
	_, players, _, err = s.Tournament(ctx, "t1")
	must(t, err)
	if len(players) != 3 || players[0].Name != "Ann" || players[2].Name != "Cy" || players[1].Rating != 1501 || !players[2].Joined.Equal(at.Add(2*time.Second)) {
		t.Fatalf("players: %+v", players)
	}
	if cur, _, _, _ := s.Tournament(ctx, "t1"); cur.Version != tr.Version {
		t.Fatalf("version %d after a failed change, want %d", cur.Version, tr.Version)
	}

	// The start: Cy leaves, the round is paired with its game.
	g := newGame("tg1", ids[0], ids[1])
	g.Kind = store.KindTournament
	start := next(tr)
	start.State, start.Round, start.Started = store.TournamentRunning, 1, at.Add(time.Hour)
	ch := store.TournamentChange{T: start, Expect: tr.Version, Leave: []int64{ids[2]},
		Players: []store.TournamentPlayer{{AccountID: ids[0], Rating: 1600}},
		Games:   []store.Game{g},
		Pair:    []store.TournamentGame{{Round: 1, Slot: 0, X: ids[0], O: ids[1], GameID: "tg1", Tries: 1}}}
	must(t, s.UpdateTournament(ctx, ch))
	tr = start
	got, players, games, err = s.Tournament(ctx, "t1")
	must(t, err)
	if got != tr || len(players) != 2 || players[0].Rating != 1600 {
		t.Errorf("after the start: %+v %+v", got, players)
	}
	want := store.TournamentGame{TournamentID: "t1", Round: 1, Slot: 0, X: ids[0], O: ids[1], GameID: "tg1", Tries: 1, State: store.StateActive}
	if len(games) != 1 || games[0] != want {
		t.Fatalf("slots: %+v, want %+v", games, want)
	}
	// The same slot paired again (by another process that read the same
	// version and lost the race, or at a later version): refused on the
	// key, and the game of the failed change is not stored.
	again := next(tr)
	g2 := newGame("tg2", ids[1], ids[0])
	err = s.UpdateTournament(ctx, store.TournamentChange{T: again, Expect: tr.Version, Games: []store.Game{g2},
		Pair: []store.TournamentGame{{Round: 1, Slot: 0, X: ids[1], O: ids[0], GameID: "tg2", Tries: 1}}})
	if !errors.Is(err, store.ErrConflict) {
		t.Errorf("a slot paired twice: %v, want ErrConflict", err)
	}
	if _, _, err := s.Game(ctx, "tg2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the game of a refused pairing: %v, want ErrNotFound", err)
	}
	// The game ends; a replayed slot gets a new game.
	end := g
	end.Version, end.State, end.Winner, end.Ply, end.Result, end.Reason = 2, store.StateFinished, "o", 0, "W+R", "resigned"
	must(t, s.Update(ctx, end, g, nil))
	slots, err := s.TournamentGames(ctx, []string{"tg1", "other"})
	must(t, err)
	want.State, want.Winner = store.StateFinished, "o"
	if len(slots) != 1 || slots[0] != want {
		t.Errorf("the slot of game tg1: %+v, want %+v", slots, want)
	}
	set := next(tr)
	must(t, s.UpdateTournament(ctx, store.TournamentChange{T: set, Expect: tr.Version, Games: []store.Game{g2},
		Set: []store.TournamentGame{{Round: 1, Slot: 0, GameID: "tg2", Tries: 2, Forfeit: "x"}}}))
	tr = set
	_, _, games, err = s.Tournament(ctx, "t1")
	must(t, err)
	if len(games) != 1 || games[0].GameID != "tg2" || games[0].Tries != 2 || games[0].Forfeit != "x" || games[0].X != ids[0] || games[0].State != store.StateActive {
		t.Errorf("the slot set: %+v", games)
	}

	// Lists by state, the newest first.
	t2 := store.Tournament{ID: "t2", Name: "Winter", Organiser: ids[1], Rules: "alak", Clock: "live:5m+3s", Format: "swiss", Rounds: 3,
		State: store.TournamentOpen, Version: 1, Created: at.Add(time.Minute)}
	must(t, s.CreateTournament(ctx, t2))
	for _, c := range []struct {
		state string
		want  []string
	}{{"", []string{"t2:0", "t1:2"}}, {store.TournamentOpen, []string{"t2:0"}}, {store.TournamentRunning, []string{"t1:2"}}, {store.TournamentFinished, nil}} {
		list, err := s.Tournaments(ctx, c.state, 10)
		must(t, err)
		var names []string
		for _, x := range list {
			names = append(names, fmt.Sprintf("%s:%d", x.ID, x.Players))
		}
		if fmt.Sprint(names) != fmt.Sprint(c.want) {
			t.Errorf("tournaments %q: %v, want %v", c.state, names, c.want)
		}
	}

	// Round 2 paired by eight writers at once, each as if it had read the
	// tournament at the same version: one pairs it, the others are
	// refused, and one game is stored for the slot.
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r2 := next(tr)
			r2.Round = 2
			id := fmt.Sprintf("r2-%d", i)
			errs[i] = s.UpdateTournament(ctx, store.TournamentChange{T: r2, Expect: tr.Version, Games: []store.Game{newGame(id, ids[1], ids[0])},
				Pair: []store.TournamentGame{{Round: 2, Slot: 0, X: ids[1], O: ids[0], GameID: id, Tries: 1}}})
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("writer %d: %v, want nil or ErrConflict", i, err)
		}
	}
	_, _, games, err = s.Tournament(ctx, "t1")
	must(t, err)
	if won != 1 || len(games) != 2 {
		t.Fatalf("round 2 paired by %d writers, %d slots stored, want 1 and 2", won, len(games))
	}
	for i := range errs {
		id := fmt.Sprintf("r2-%d", i)
		_, _, err := s.Game(ctx, id)
		if (id == games[1].GameID) != (err == nil) {
			t.Errorf("game %s: %v (the slot's game is %s)", id, err, games[1].GameID)
		}
	}
}
