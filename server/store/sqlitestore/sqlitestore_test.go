package sqlitestore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"

	"alak/server/store"
	"alak/server/store/migrations"
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

// TestOpenAtOnce opens four stores at the same time (as the server's
// parallel tests do, and a process holding several databases may):
// under the race detector, New once wrote its statements' list into the
// shared array behind sqlstore's txQueries, which had room beyond its
// length, and the opens raced there.
func TestOpenAtOnce(t *testing.T) {
	dir := t.TempDir()
	errs := make(chan error, 4)
	for i := range 4 {
		go func() {
			s, err := Open(context.Background(), filepath.Join(dir, fmt.Sprintf("alak%d.db", i)))
			if err == nil {
				err = s.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestRatingChainMigration: the rating updates stored before migration 12
// are numbered in the order they were written (storetest).
func TestRatingChainMigration(t *testing.T) {
	db, err := sql.Open("sqlite", DSN(filepath.Join(t.TempDir(), "alak.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sub, err := fs.Sub(migrations.SQLite, "sqlite")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, sub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(context.Background(), 11); err != nil {
		t.Fatal(err)
	}
	storetest.RatingChainMigration(t, db, func() error { return Migrate(context.Background(), db) })
}
