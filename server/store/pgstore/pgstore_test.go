package pgstore

import (
	"context"
	"sync"
	"testing"

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
