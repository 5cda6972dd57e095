package pgstore

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"alak/server/store"
	"alak/server/store/pgstore/pgtest"
	"alak/server/store/storetest"
)

// TestConformance runs the store suite on a real PostgreSQL (pgtest: the
// server of ALAK_TEST_POSTGRES, a database of its own per test).
func TestConformance(t *testing.T) {
	pgtest.Admin(t)
	var mu sync.Mutex
	urls := map[store.Store]string{}
	open := func(t *testing.T, u string) store.Store {
		s, err := Open(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		urls[s] = u
		mu.Unlock()
		return s
	}
	storetest.Run(t, storetest.Open{
		New: func(t *testing.T) store.Store { return open(t, pgtest.Database(t)) },
		Reopen: func(t *testing.T, s store.Store) store.Store {
			mu.Lock()
			u := urls[s]
			mu.Unlock()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return open(t, u)
		},
	})
}

// TestNotifier: notifications sent in a burst, several of a game, all
// reach a listener in another connection, each game's latest version
// last.
func TestNotifier(t *testing.T) {
	dsn := pgtest.Database(t)
	st, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	listening := make(chan struct{})
	type note struct {
		game    string
		version int
	}
	notes := make(chan note, 10000)
	go NewNotifier(st.DB(), dsn).Listen(ctx, func(game string, ply, version int) {
		notes <- note{game, version}
	}, func() { close(listening) })
	<-listening
	n := NewNotifier(st.DB(), dsn)
	const games, versions = 200, 3
	for v := 1; v <= versions; v++ {
		for g := range games {
			if err := n.Notify(ctx, fmt.Sprint("g", g), v, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	latest := map[string]int{}
	for len(latest) < games || !all(latest, versions) {
		select {
		case nt := <-notes:
			if nt.version <= latest[nt.game] {
				t.Fatalf("game %s: version %d after %d", nt.game, nt.version, latest[nt.game])
			}
			latest[nt.game] = nt.version
		case <-ctx.Done():
			t.Fatalf("%d games heard of, not all at version %d", len(latest), versions)
		}
	}
}

func all(latest map[string]int, v int) bool {
	for _, got := range latest {
		if got != v {
			return false
		}
	}
	return true
}
