package sqlitestore

import (
	"context"
	"path/filepath"
	"testing"

	"alak/server/store"
	"alak/server/store/storetest"
)

// TestConformance runs the store suite on a real SQLite file per test.
func TestConformance(t *testing.T) {
	open := func(t *testing.T, path string) store.Store {
		s, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	storetest.Run(t, storetest.Open{
		New: func(t *testing.T) store.Store { return open(t, filepath.Join(t.TempDir(), "alak.db")) },
		Reopen: func(t *testing.T, s store.Store) store.Store {
			path := s.(interface{ Path() string }).Path()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return open(t, path)
		},
	})
}
