package server

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"alak/server/store/sqlitestore"
)

// migrated is a SQLite file that the embedded migrations made once for
// the whole test process. Each test's database starts as a copy of it:
// running the eleven migrations for each of the package's hundreds of
// servers took a sixth of the package's CPU under the race detector
// (goose parses every migration with a 4 MiB buffer from a sync.Pool,
// which the race detector keeps emptying). The migrations themselves are
// tested where they are the subject (the store packages, TestMigrationsRace,
// the restarts here reopen these files, which migrates them again).
var migrated struct {
	once sync.Once
	data []byte
	err  error
}

// freshDB makes path a new, migrated SQLite database (if nothing is there
// yet) and returns path.
func freshDB(t testing.TB, path string) string {
	t.Helper()
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return path // an existing database is opened as it is
	}
	migrated.once.Do(func() {
		dir, err := os.MkdirTemp("", "alak-migrated-")
		if err != nil {
			migrated.err = err
			return
		}
		defer os.RemoveAll(dir)
		p := filepath.Join(dir, "alak.db")
		st, err := sqlitestore.Open(context.Background(), p)
		if err != nil {
			migrated.err = err
			return
		}
		// Closing the last connection checkpoints the write-ahead log
		// into the file and removes it: the file alone is the database.
		if err := st.Close(); err != nil {
			migrated.err = err
			return
		}
		if _, err := os.Stat(p + "-wal"); err == nil {
			migrated.err = errors.New("the migrated database kept its write-ahead log after closing")
			return
		}
		migrated.data, migrated.err = os.ReadFile(p)
	})
	if migrated.err != nil {
		t.Fatalf("making the migrated database: %v", migrated.err)
	}
	if err := os.WriteFile(path, migrated.data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
