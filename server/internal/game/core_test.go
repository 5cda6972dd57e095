package game

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"alak/rules"
	"alak/server/store"
	"alak/server/store/sqlitestore"
	"alak/server/store/sqlstore"
	"alak/wire"
)

// TestHooksOrder: the core calls the features' hooks at their places in a
// change, in the order of its work, on a real SQLite store: the loaded
// game's tournament, the move played (before the commit), the change
// stored, the view's parts, the change published, then the turn of the
// player now to move (once committed). A game's end runs the end's hooks
// and no turn. The second change works on the cached state: the game is
// not loaded again.
func TestHooksOrder(t *testing.T) {
	ctx := context.Background()
	st, ids, now := activeGame(t, "6")

	var ran []string
	note := func(what string) { ran = append(ran, what) }
	c := New(Config{Store: st, Now: func() time.Time { return now }})
	c.Hooks.Tournament = func(context.Context, store.Game) (*wire.TournamentRef, error) { note("load"); return nil, nil }
	c.Hooks.Played = func(*State, rules.Color, rules.Move, time.Time, *Change) { note("played") }
	c.Hooks.Turn = func(*State) { note("turn") }
	c.Hooks.Stored.OnChange(func(context.Context, *State) { note("stored") })
	c.Hooks.Published.OnChange(func(context.Context, *State) { note("published") })
	c.Hooks.Published.OnEnd(func(context.Context, *State) { note("ended") })
	c.Parts.Ratings = func(context.Context, store.Game) wire.GameRatings { note("view"); return wire.GameRatings{} }
	c.Parts.Private = func(context.Context, *Event, *State) { note("private") }

	move := func(st *State, now time.Time) (*Change, error) {
		m, err := st.Rules.ParseMoveText("3")
		if err != nil {
			return nil, err
		}
		return c.PlayMove(st, rules.Black, m, ids[0], now)
	}
	ev, err := c.Act(ctx, "g1", move)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"load", "played", "stored", "view", "private", "published", "turn"}; !slices.Equal(ran, want) {
		t.Errorf("a move ran %v, want %v", ran, want)
	}
	if ev.Version != 2 || ev.ID != "1.2" {
		t.Errorf("the move's event is %s (version %d), want 1.2", ev.ID, ev.Version)
	}
	if got, _, err := st.Game(ctx, "g1"); err != nil || got.Ply != 1 || got.Version != 2 {
		t.Fatalf("stored: ply %d version %d (%v), want ply 1 version 2", got.Ply, got.Version, err)
	}

	ran = nil
	_, err = c.Act(ctx, "g1", func(st *State, now time.Time) (*Change, error) {
		return &Change{}, st.Sess.Resign(rules.White)
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"stored", "view", "private", "published", "ended"}; !slices.Equal(ran, want) {
		t.Errorf("a resignation ran %v, want %v", ran, want)
	}
	if got, _, err := st.Game(ctx, "g1"); err != nil || got.State != store.StateFinished || got.Winner != "x" {
		t.Fatalf("stored: %s won by %q (%v), want finished, won by x", got.State, got.Winner, err)
	}
	if n := c.Reruns.Load(); n != 0 {
		t.Errorf("%d actions run again on a cache nobody else changed", n)
	}
}

// activeGame stores, on a real SQLite store, game g1 of alak of the given
// size without a clock between ada (x) and bo (o), active, no move
// played; it returns the store, the players' accounts and the time of
// the game's creation.
func activeGame(tb testing.TB, size string) (*sqlstore.Store, [2]int64, time.Time) {
	tb.Helper()
	ctx := context.Background()
	st, err := sqlitestore.Open(ctx, filepath.Join(tb.TempDir(), "core.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	var ids [2]int64
	for i, name := range []string{"ada", "bo"} {
		a, err := st.CreateAccount(ctx, store.Account{Name: name, Created: now})
		if err != nil {
			tb.Fatal(err)
		}
		ids[i] = a.ID
	}
	row := store.Game{ID: "g1", Rules: "alak size=" + size, Preset: "alak", Size: size, Color: "x", Clock: "none", Kind: store.KindNamed,
		State: store.StateActive, Version: 1, WarnedEntry: -1, Created: now, Updated: now,
		Black: store.Seat{AccountID: ids[0]}, White: store.Seat{AccountID: ids[1]}}
	if err := st.CreateGame(ctx, row); err != nil {
		tb.Fatal(err)
	}
	return st, ids, now
}
