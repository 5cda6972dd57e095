// Package sqlitestore opens the play server's store on an embedded SQLite
// file (the pure-Go driver modernc.org/sqlite: no cgo), applying the
// embedded migrations first.
//
// Durability: the database is in write-ahead-log mode with synchronous=FULL,
// so a transaction that has committed (a move the server acknowledged)
// survives a crash of the process and a loss of power. SQLite takes one
// writer at a time: the store's writes go through sqlstore's group commit
// (one goroutine, the writes waiting together committed in one
// transaction, one fsync), and readers run beside it on connections of
// their own. Every writing transaction takes the write lock at its start
// (_txlock=immediate) so that two never deadlock upgrading a read, and
// busy_timeout lets another process on the same file take turns.
package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"runtime"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"alak/server/store/migrations"
	"alak/server/store/sqlstore"
)

// Dialect is SQLite's, for sqlstore.
var Dialect = sqlstore.Dialect{
	Name:         "sqlite",
	SingleWriter: true,
	Unique: func(err error) bool {
		var e *sqlite.Error
		return errors.As(err, &e) && (e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || e.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
	},
}

// DSN returns the connection string of the database file at path.
func DSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Set("_txlock", "immediate")
	return "file:" + path + "?" + q.Encode()
}

// Connections bounds the readers' connections; the group commit's writer
// has one more, of its own. Each connection keeps its own prepared
// statements and page cache, so they are kept open (as many idle as open)
// rather than opened again.
var Connections = max(4, 2*runtime.NumCPU())

// Open opens (creating it if needed) the database file at path and brings
// its schema up to date, with the default group commit.
func Open(ctx context.Context, path string) (*sqlstore.Store, error) {
	return OpenGroupCommit(ctx, path, sqlstore.DefaultGroupCommit)
}

// OpenGroupCommit is Open with the group commit's bounds.
func OpenGroupCommit(ctx context.Context, path string, gc sqlstore.GroupCommit) (*sqlstore.Store, error) {
	db, err := sql.Open("sqlite", DSN(path))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(Connections + 1)
	db.SetMaxIdleConns(Connections + 1)
	if err := Migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return sqlstore.NewGroupCommit(db, Dialect, path, gc), nil
}

// Migrate applies the embedded migrations that db lacks. Another process
// migrating the same file at the same time makes one of them fail a
// migration's transaction; it then finds the work done (sqlstore.Migrate).
func Migrate(ctx context.Context, db *sql.DB) error {
	return sqlstore.Migrate(ctx, db, goose.DialectSQLite3, migrations.SQLite, "sqlite", nil)
}
