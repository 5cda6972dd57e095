package conditional

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"alak/rules"
	"alak/server/internal/game"
	"alak/server/store"
	"alak/server/store/sqlitestore"
	"alak/session"
)

// countingStore is a real SQLite store that counts the reads of
// conditional moves.
type countingStore struct {
	store.ConditionalStore
	reads int
}

func (s *countingStore) Conditional(ctx context.Context, gameID, color string) (store.Conditional, error) {
	s.reads++
	return s.ConditionalStore.Conditional(ctx, gameID, color)
}

// newCountingStore opens a fresh SQLite file for tb.
func newCountingStore(tb testing.TB) *countingStore {
	tb.Helper()
	st, err := sqlitestore.Open(context.Background(), filepath.Join(tb.TempDir(), "cond.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return &countingStore{ConditionalStore: st}
}

// keptState is a game of alak without a clock between two
// accounts, whose seats' conditional moves (none) are kept with it.
func keptState(tb testing.TB) *game.State {
	tb.Helper()
	r := rules.MustPreset("alak")
	g, err := rules.NewGame(r)
	if err != nil {
		tb.Fatal(err)
	}
	st := &game.State{Rules: r, Sess: session.New(g, session.Seat{}, session.Seat{}, session.Options{}),
		Row:   store.Game{ID: "g1", State: store.StateActive, Black: store.Seat{AccountID: 1}, White: store.Seat{AccountID: 2}},
		Clock: game.Clock{Kind: game.ClockNone}}
	st.Conds = [2]game.CondSeat{{Known: true}, {Known: true}}
	return st
}

// TestReplyKeptReadsNothing: a move of a game whose seats' conditional
// moves are kept with its state reads no row, and one whose are not
// reads the opponent's.
func TestReplyKeptReadsNothing(t *testing.T) {
	cs := newCountingStore(t)
	cm := New(Config{Store: cs, Metrics: &game.Metrics{}})
	st := keptState(t)
	cm.Reply(st, rules.Black, rules.Place(2), time.Now(), &game.Change{})
	if cs.reads != 0 {
		t.Errorf("a move with the rows kept read %d rows, want 0", cs.reads)
	}
	st.Conds = [2]game.CondSeat{}
	cm.Reply(st, rules.Black, rules.Place(2), time.Now(), &game.Change{})
	if cs.reads != 1 || !st.Conds[1].Known {
		t.Errorf("a move without the rows kept read %d rows (white's kept: %v), want 1 (true)", cs.reads, st.Conds[1].Known)
	}
}

// BenchmarkReplyKept is the conditional moves' hook on a move whose
// opponent left none, known from the state: it runs at every move of a
// game without a clock or by correspondence.
func BenchmarkReplyKept(b *testing.B) {
	cs := newCountingStore(b)
	cm := New(Config{Store: cs, Metrics: &game.Metrics{}})
	st := keptState(b)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		cm.Reply(st, rules.Black, rules.Place(2), now, &game.Change{})
	}
	if cs.reads != 0 {
		b.Fatalf("%d reads", cs.reads)
	}
}
