package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

func init() {
	register(command{name: "backup", summary: "copy the play server's SQLite database, safely while the server runs", run: backupRun})
}

const backupUsage = `usage: alak backup --db FILE --out FILE
Copies the play server's SQLite database (alak serve --db FILE) to a new
file with SQLite's VACUUM INTO: a consistent copy of the last committed
state, taken while the server runs (it neither stops nor waits for the
copy). The copy is written to disk (fsync) and checked (PRAGMA
integrity_check) before the command says it is done; --out must not
exist. For PostgreSQL use pg_dump (docs/deploy.md). To restore, stop the
server and put the copy in place of the database file (and remove the
file's -wal and -shm companions).`

func backupRun(e *env, args []string) int {
	fs := newFlagSet(e, "backup", backupUsage)
	db := fs.String("db", "", "the server's SQLite database file")
	out := fs.String("out", "", "the copy to write: a file that does not exist yet")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	switch {
	case len(words) > 0:
		return fail(e, "backup", fmt.Errorf("unexpected argument %q: the command takes --db and --out", words[0]))
	case *db == "" || *out == "":
		return fail(e, "backup", errors.New("--db FILE and --out FILE are both needed"))
	case isPostgres(*db):
		return fail(e, "backup", errors.New("--db is a PostgreSQL URL: back it up with pg_dump (docs/deploy.md)"))
	}
	if _, err := os.Stat(*db); err != nil {
		return fail(e, "backup", fmt.Errorf("--db %s: %w", *db, err))
	}
	if _, err := os.Lstat(*out); err == nil {
		return fail(e, "backup", fmt.Errorf("--out %s exists: name a new file (a backup never overwrites)", *out))
	}
	ctx, stop := e.searchContext()
	defer stop()
	info, err := backupSQLite(ctx, *db, *out)
	if err != nil {
		return fail(e, "backup", err)
	}
	fmt.Fprintf(e.stdout, "alak backup: %s copied to %s (%s)\n", *db, *out, info)
	return 0
}

// backupSQLite copies the database at src into the new file dst with
// VACUUM INTO, syncs it, and checks the copy; it describes the copy. A
// copy that failed is removed.
func backupSQLite(ctx context.Context, src, dst string) (info string, err error) {
	// mode=rw: an existing file only (never create an empty database);
	// no migration: the copy is of the schema as it is.
	db, err := sql.Open("sqlite", fileURI(src)+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return "", err
	}
	defer db.Close()
	defer func() {
		if err != nil {
			os.Remove(dst)
		}
	}()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		return "", fmt.Errorf("copying %s: %w", src, err)
	}
	if err := syncFile(dst); err != nil {
		return "", err
	}
	cp, err := sql.Open("sqlite", fileURI(dst)+"?mode=ro")
	if err != nil {
		return "", err
	}
	defer cp.Close()
	var check string
	if err := cp.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		return "", fmt.Errorf("the copy %s fails its integrity check (%q, %v): it was removed", dst, check, err)
	}
	var accounts, games, moves int
	err = cp.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM accounts), (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM moves)`).Scan(&accounts, &games, &moves)
	if err != nil {
		return "", fmt.Errorf("reading the copy %s: %w (is %s alak's database?)", dst, err, src)
	}
	st, err := os.Stat(dst)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d accounts, %d games, %d moves, %d bytes, integrity ok", accounts, games, moves, st.Size()), nil
}

// syncFile writes a file and its directory entry to disk.
func syncFile(path string) error {
	for _, p := range []string{path, filepath.Dir(path)} {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return fmt.Errorf("syncing %s: %w", p, err)
		}
	}
	return nil
}

// fileURI is a path as SQLite's file: URI, for its query options.
func fileURI(path string) string {
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}
