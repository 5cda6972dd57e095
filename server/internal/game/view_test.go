package game

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"alak/rules"
)

// playedState is a game of alak size=11 between two accounts, no clock
// (the load tool's games, activeGame), after six moves.
func playedState(b testing.TB) (*Core, *State) {
	b.Helper()
	ctx := context.Background()
	st, ids, now := activeGame(b, "11")
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
