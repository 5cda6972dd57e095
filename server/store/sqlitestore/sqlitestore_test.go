package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/pressly/goose/v3"

	"alak/server/store"
	"alak/server/store/migrations"
	"alak/server/store/storetest"
)

// TestConformance runs the store suite on a real SQLite file per test.
// Each file starts as a copy of one that Open migrated once (migrated):
// running the migrations for each of the suite's tests was two thirds of
// its CPU under the race detector. Open still runs on every copy (finding
// nothing to apply), and the migrations from an empty file are tested by
// TestOpenAtOnce, TestRatingChainMigration and the making of the copy.
func TestConformance(t *testing.T) {
	open := func(t *testing.T, path string) store.Store {
		s, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	storetest.Run(t, storetest.Open{
		New: func(t *testing.T) store.Store { return open(t, migrated(t)) },
		Reopen: func(t *testing.T, s store.Store) store.Store {
			path := s.(interface{ Path() string }).Path()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return open(t, path)
		},
	})
}

// template is a database file that Open made from nothing and closed
// once for the test process (migrated).
var template struct {
	once sync.Once
	data []byte
	err  error
}

// migrated returns the path of a new database file in t's temporary
// directory: a copy of template.
func migrated(t *testing.T) string {
	t.Helper()
	template.once.Do(func() {
		dir, err := os.MkdirTemp("", "alak-migrated-")
		if err != nil {
			template.err = err
			return
		}
		defer os.RemoveAll(dir)
		p := filepath.Join(dir, "alak.db")
		s, err := Open(context.Background(), p)
		if err != nil {
			template.err = err
			return
		}
		// Closing the last connection checkpoints the write-ahead log
		// into the file and removes it: the file alone is the database.
		if err := s.Close(); err != nil {
			template.err = err
			return
		}
		if _, err := os.Stat(p + "-wal"); err == nil {
			template.err = errors.New("the migrated database kept its write-ahead log after closing")
			return
		}
		template.data, template.err = os.ReadFile(p)
	})
	if template.err != nil {
		t.Fatalf("making the migrated database: %v", template.err)
	}
	path := filepath.Join(t.TempDir(), "alak.db")
	if err := os.WriteFile(path, template.data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
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
