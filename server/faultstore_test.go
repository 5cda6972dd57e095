package server

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"alak/server/store"
)

// faultStore is a store whose game writes and pings a test can fail,
// hold, or watch: the hooks get the inner call as next.
type faultStore struct {
	store.Store
	mu     sync.Mutex
	update func(ctx context.Context, g store.Game, next func(context.Context) error) error
	ping   func(ctx context.Context, next func(context.Context) error) error
	// conditionals counts the reads of conditional moves.
	conditionals atomic.Int64
}

func (f *faultStore) Conditional(ctx context.Context, gameID, color string) (store.Conditional, error) {
	f.conditionals.Add(1)
	return f.Store.Conditional(ctx, gameID, color)
}

func (f *faultStore) setUpdate(h func(ctx context.Context, g store.Game, next func(context.Context) error) error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.update = h
}

func (f *faultStore) setPing(h func(ctx context.Context, next func(context.Context) error) error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ping = h
}

func (f *faultStore) Update(ctx context.Context, g store.Game, prev store.Game, entries []store.Entry) error {
	f.mu.Lock()
	h := f.update
	f.mu.Unlock()
	next := func(ctx context.Context) error { return f.Store.Update(ctx, g, prev, entries) }
	if h == nil {
		return next(ctx)
	}
	return h(ctx, g, next)
}

func (f *faultStore) Ping(ctx context.Context) error {
	f.mu.Lock()
	h := f.ping
	f.mu.Unlock()
	if h == nil {
		return f.Store.Ping(ctx)
	}
	return h(ctx, f.Store.Ping)
}

// CountGames passes the live-games count through, when the inner store
// counts.
func (f *faultStore) CountGames(ctx context.Context, state string) (int, error) {
	return f.Store.(gameCounter).CountGames(ctx, state)
}

// faultHarness is a harness whose server works through a faultStore.
func faultHarness(t *testing.T, cfg Config) (*harness, *faultStore) {
	t.Helper()
	var fs *faultStore
	h := sharedHarnessOn(t, cfg, func(st store.Store) store.Store {
		fs = &faultStore{Store: st}
		return fs
	})
	return h.with(t), fs
}
