// Package sqlitestore opens the play server's store on an embedded SQLite
// file (the pure-Go driver modernc.org/sqlite: no cgo), applying the
// embedded migrations first.
//
// Durability: the database is in write-ahead-log mode with synchronous=FULL,
// so a transaction that has committed (a move the server acknowledged)
// survives a crash of the process and a loss of power; busy_timeout lets
// concurrent writers wait for each other, and every transaction takes the
// write lock at its start (_txlock=immediate) so that two never deadlock
// upgrading a read.
package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"alak/server/store/migrations"
	"alak/server/store/sqlstore"
)

// Dialect is SQLite's, for sqlstore.
var Dialect = sqlstore.Dialect{
	Name: "sqlite",
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

// Open opens (creating it if needed) the database file at path and brings
// its schema up to date.
func Open(ctx context.Context, path string) (*sqlstore.Store, error) {
	db, err := sql.Open("sqlite", DSN(path))
	if err != nil {
		return nil, err
	}
	if err := Migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return sqlstore.New(db, Dialect, path), nil
}

// Migrate applies the embedded migrations that db lacks.
func Migrate(ctx context.Context, db *sql.DB) error {
	sub, err := fs.Sub(migrations.SQLite, "sqlite")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, sub)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrating the database: %w", err)
	}
	return nil
}
