package game

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"alak/rules"
	"alak/server/store"
	"alak/server/store/sqlitestore"
)

// playedState is a game of alak size=11 between two accounts, no clock
// (the load tool's games), after six moves, on a real SQLite store.
func playedState(b testing.TB) (*Core, *State) {
	b.Helper()
	ctx := context.Background()
	st, err := sqlitestore.Open(ctx, filepath.Join(b.TempDir(), "view.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	var ids [2]int64
	for i, name := range []string{"ada", "bo"} {
		a, err := st.CreateAccount(ctx, store.Account{Name: name, Created: now})
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = a.ID
	}
	row := store.Game{ID: "g1", Rules: "alak size=11", Preset: "alak", Size: "11", Color: "x", Clock: "none", Kind: store.KindNamed,
		State: store.StateActive, Version: 1, WarnedEntry: -1, Created: now, Updated: now,
		Black: store.Seat{AccountID: ids[0]}, White: store.Seat{AccountID: ids[1]}}
	if err := st.CreateGame(ctx, row); err != nil {
		b.Fatal(err)
	}
	c := New(Config{Store: st, Now: func() time.Time { return now }})
	var last *State
	for i, p := range []string{"2", "9", "4", "7", "6", "5"} {
		color := []rules.Color{rules.Black, rules.White}[i%2]
		if _, err := c.Act(ctx, "g1", func(st *State, now time.Time) (*Change, error) {
			m, err := st.Rules.ParseMoveText(p)
			if err != nil {
				return nil, err
			}
			last = st
			return c.PlayMove(st, color, m, ids[i%2], now)
		}); err != nil {
			b.Fatal(err)
		}
	}
	return c, last
}

// TestEventOfFrame: an event's frame is the stream's head, the view as
// json.Marshal writes it, and a blank line; its data the view alone.
func TestEventOfFrame(t *testing.T) {
	c, st := playedState(t)
	ctx := context.Background()
	for _, prev := range []Event{{}, st.Event} { // without a last frame, and with one
		st.Event = prev
		view, err := json.Marshal(c.View(ctx, st))
		if err != nil {
			t.Fatal(err)
		}
		ev := c.EventOf(ctx, st)
		want := NewEvent(EventID(st.Row), st.Row.Version, view)
		if !bytes.Equal(ev.Frame, want.Frame) || !bytes.Equal(ev.Data, view) || ev.ID != want.ID || ev.Version != want.Version {
			t.Errorf("event %s (version %d):\n%q\ndata %q\nwant %s (version %d):\n%q", ev.ID, ev.Version, ev.Frame, ev.Data, want.ID, want.Version, want.Frame)
		}
	}
}

// BenchmarkEventOf is the view of a change and its JSON, built once per
// change by the request that made it (playedState's game).
func BenchmarkEventOf(b *testing.B) {
	c, last := playedState(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if ev := c.EventOf(ctx, last); ev.Data == nil {
			b.Fatal("no view")
		}
	}
}
