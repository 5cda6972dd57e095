package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"alak/server/store"
)

// window is more games than a list reads at most (Filter.Limit's cap, 200):
// a list that read a fixed window and filtered it would miss what lies
// past it.
const window = 201

// createMany stores n games made by mk, eight writers at a time (so that a
// single-writer store commits them in groups).
func createMany(t *testing.T, s store.Store, n int, mk func(i int) store.Game) {
	t.Helper()
	errs := make([]error, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range next {
				errs[i] = s.CreateGame(ctx, mk(i))
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	must(t, errors.Join(errs...))
}

// waiting is a waiting game of kind, created by creator, updated at when.
func waiting(id string, kind string, creator int64, when time.Time) store.Game {
	g := newGame(id, creator, 0)
	g.Kind, g.State, g.Opponent, g.Deadline, g.TurnStart = kind, store.StateWaiting, 0, time.Time{}, time.Time{}
	g.Created, g.Updated, g.Expires = when, when, when.Add(time.Hour)
	return g
}

// testListsPastAWindow: a challenge to an account and an open challenge
// are found by the query that selects them, however many newer waiting
// games of other kinds there are.
func testListsPastAWindow(t *testing.T, s store.Store) {
	defer s.Close()
	named := waiting("named", store.KindNamed, 1, at)
	named.Opponent = 2
	must(t, s.CreateGame(ctx, named))
	must(t, s.CreateGame(ctx, waiting("open", store.KindOpen, 1, at)))
	gone := waiting("gone", store.KindOpen, 1, at.Add(-2*time.Hour)) // expired at -1h, not yet swept
	must(t, s.CreateGame(ctx, gone))
	createMany(t, s, window, func(i int) store.Game {
		return waiting(fmt.Sprintf("link%03d", i), store.KindLink, 3, at.Add(time.Duration(i+1)*time.Second))
	})
	ids := func(f store.Filter) []string {
		t.Helper()
		gs, err := s.Games(ctx, f)
		must(t, err)
		var out []string
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	waitingOnly := []string{store.StateWaiting}
	if got := ids(store.Filter{States: waitingOnly}); len(got) != 200 || slices.Contains(got, "named") || slices.Contains(got, "open") {
		t.Fatalf("the fixture: the 200 newest waiting games should all be links, got %d games: %v", len(got), got)
	}
	cases := []struct {
		name string
		f    store.Filter
		want []string
	}{
		{"challenges to 2", store.Filter{States: waitingOnly, Kind: store.KindNamed, Opponent: 2}, []string{"named"}},
		{"challenges to 3", store.Filter{States: waitingOnly, Kind: store.KindNamed, Opponent: 3}, nil},
		{"the lobby", store.Filter{States: waitingOnly, Kind: store.KindOpen, Live: at}, []string{"open"}},
		{"open, expired too", store.Filter{States: waitingOnly, Kind: store.KindOpen}, []string{"open", "gone"}},
		{"live at +2h", store.Filter{States: waitingOnly, Kind: store.KindOpen, Live: at.Add(2 * time.Hour)}, nil},
		{"links of 3, 2 of them", store.Filter{Kind: store.KindLink, Player: 3, Limit: 2}, []string{"link200", "link199"}},
	}
	for _, c := range cases {
		if got := ids(c.f); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// testPlayerStats: the record counts every finished game, past any list's
// window. The expected counts follow from the fixture:
// of 250 finished games of account 1, game i is Black's when i is even;
// winners cycle x, o, draw.
func testPlayerStats(t *testing.T, s store.Store) {
	defer s.Close()
	const n = 250
	winners := []string{"x", "o", "draw"}
	want := store.Stats{Finished: n}
	createMany(t, s, n, func(i int) store.Game {
		black, white := int64(1), int64(2)
		if i%2 == 1 {
			black, white = 2, 1
		}
		g := newGame(fmt.Sprintf("f%03d", i), black, white)
		g.State, g.Winner, g.Updated = store.StateFinished, winners[i%3], at.Add(time.Duration(i)*time.Second)
		return g
	})
	for i := range n {
		mine := []string{"x", "o"}[i%2]
		switch w := winners[i%3]; {
		case w == "draw":
			want.Draws++
		case w == mine:
			want.Wins++
		default:
			want.Losses++
		}
	}
	// Games that do not count: active, aborted, and another pair's.
	must(t, s.CreateGame(ctx, newGame("active", 1, 2)))
	aborted := newGame("aborted", 1, 2)
	aborted.State, aborted.Winner = store.StateAborted, "none"
	must(t, s.CreateGame(ctx, aborted))
	other := newGame("other", 2, 3)
	other.State, other.Winner = store.StateFinished, "x"
	must(t, s.CreateGame(ctx, other))

	got, err := s.PlayerStats(ctx, 1)
	if err != nil || got != want {
		t.Errorf("account 1: %+v, %v; want %+v", got, err, want)
	}
	if got, err := s.PlayerStats(ctx, 4); err != nil || got != (store.Stats{}) {
		t.Errorf("an account without games: %+v, %v", got, err)
	}
}

// testClaimGames: a guest's games move to an account, one version on;
// a game the account already sits in stays the guest's; nobody else's
// game changes.
func testClaimGames(t *testing.T, s store.Store) {
	defer s.Close()
	const guest, acct, other = 10, 20, 30
	games := map[string]store.Game{}
	add := func(g store.Game) {
		must(t, s.CreateGame(ctx, g))
		games[g.ID] = g
	}
	add(newGame("asblack", guest, other)) // active, the guest Black
	add(newGame("aswhite", other, guest))
	done := newGame("done", guest, 0)
	done.White.Bot, done.State, done.Winner = "random", store.StateFinished, "x"
	add(done)
	add(waiting("link", store.KindLink, guest, at))
	add(newGame("versus", guest, acct)) // the guest against the account: kept
	add(newGame("others", other, acct))
	challenged := waiting("challenged", store.KindNamed, other, at)
	challenged.Opponent = guest
	add(challenged)
	// The guest's move in a game it keeps a log of.
	g, e := move(games["asblack"], "1", guest)
	must(t, s.Update(ctx, g, games["asblack"], []store.Entry{e}))
	games["asblack"] = g

	c, err := s.ClaimGames(ctx, guest, acct)
	must(t, err)
	if want := []string{"asblack", "aswhite", "challenged", "done", "link"}; !slices.Equal(c.Moved, want) {
		t.Errorf("moved %v, want %v", c.Moved, want)
	}
	if want := []string{"versus"}; !slices.Equal(c.Kept, want) {
		t.Errorf("kept %v, want %v", c.Kept, want)
	}
	swap := func(id int64) int64 {
		if id == guest {
			return acct
		}
		return id
	}
	for id, before := range games {
		got, log, err := s.Game(ctx, id)
		must(t, err)
		want := before
		if slices.Contains(c.Moved, id) {
			want.Version++
			want.Black.AccountID, want.White.AccountID = swap(want.Black.AccountID), swap(want.White.AccountID)
			want.Creator, want.Opponent = swap(want.Creator), swap(want.Opponent)
		}
		if got.Version != want.Version || got.Black != want.Black || got.White != want.White ||
			got.Creator != want.Creator || got.Opponent != want.Opponent || !got.Updated.Equal(want.Updated) {
			t.Errorf("%s after the claim: version %d, %+v/%+v, creator %d, opponent %d; want version %d, %+v/%+v, creator %d, opponent %d",
				id, got.Version, got.Black, got.White, got.Creator, got.Opponent,
				want.Version, want.Black, want.White, want.Creator, want.Opponent)
		}
		if id == "asblack" && (len(log) != 1 || log[0].By != guest) {
			t.Errorf("the log after the claim: %+v, want the guest's one move as made", log)
		}
	}
	// A copy read before the claim is stale: its update conflicts.
	g, e = move(games["asblack"], "2", other)
	if err := s.Update(ctx, g, games["asblack"], []store.Entry{e}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an update from before the claim: %v, want ErrConflict", err)
	}
	// Claiming again finds nothing more to move.
	if c, err := s.ClaimGames(ctx, guest, acct); err != nil || len(c.Moved) != 0 || !slices.Equal(c.Kept, []string{"versus"}) {
		t.Errorf("a second claim: %+v, %v", c, err)
	}
	if _, err := s.ClaimGames(ctx, acct, acct); err == nil {
		t.Error("claiming an account's games for itself: no error")
	}
}
