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
	"time"

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

// TestMoveWritesFewPages: a move of a game without a clock changes four
// of the game's columns (version, ply, entries, updated), and the store
// sets only those: every index holding a column an UPDATE sets is
// rewritten, even to the same value. The pages the move's transaction
// writes to the write-ahead log: the game's row, the four indexes of
// updated_ms (the players' lists, the archive, the kind's), and the log's
// row and key, 7 on a database of a few games, where setting every column
// wrote 10 (the indexes of the state, the deadline, the expiry and the
// opponent besides).
func TestMoveWritesFewPages(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "alak.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	var g store.Game
	for i := range 20 {
		g = store.Game{ID: fmt.Sprintf("g%d", i), Rules: "alak size=11", Preset: "alak", Size: "11", Black: store.Seat{AccountID: int64(2*i + 1)},
			White: store.Seat{AccountID: int64(2*i + 2)}, Creator: int64(2*i + 1), Color: "x", Kind: store.KindNamed, Opponent: int64(2*i + 2),
			Clock: "none", State: store.StateActive, Version: 1, WarnedEntry: -1, Created: now, Updated: now}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DB().ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	wal := func() int64 {
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := wal()
	next := g
	next.Version, next.Ply, next.Entries, next.Updated = 2, 1, 1, now.Add(time.Second)
	if err := s.Update(ctx, next, g, []store.Entry{{Move: "6", By: g.Black.AccountID, At: next.Updated}}); err != nil {
		t.Fatal(err)
	}
	// A frame is a page (4096 bytes) and its header (24); the log's own
	// header is 32 bytes.
	frames := (wal() - max(before, 32)) / (4096 + 24)
	if frames > 7 {
		t.Errorf("a move wrote %d pages to the write-ahead log, want at most 7", frames)
	}
	if got, _, err := s.Game(ctx, g.ID); err != nil || got != next {
		t.Errorf("the move read back: %+v %v, want %+v", got, err, next)
	}
}
