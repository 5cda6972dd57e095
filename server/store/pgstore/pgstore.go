// Package pgstore opens the play server's store on PostgreSQL (the pgx
// driver through database/sql), applying the embedded migrations first.
// Several server processes can share one database: every change goes
// through the store's version check, so each is applied once whichever
// process makes it.
package pgstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/pressly/goose/v3"

	"alak/server/store/migrations"
	"alak/server/store/sqlstore"
)

// Dialect is PostgreSQL's, for sqlstore.
var Dialect = sqlstore.Dialect{
	Name:        "postgres",
	Numbered:    true,
	WritingWith: true,
	Unique: func(err error) bool {
		var e *pgconn.PgError
		return errors.As(err, &e) && e.Code == "23505"
	},
}

// Open connects to the database at url (postgres://user:password@host/db,
// or a key=value connection string) and brings its schema up to date.
func Open(ctx context.Context, dsn string) (*sqlstore.Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(32)
	db.SetMaxIdleConns(16)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connecting to PostgreSQL at %s: %w", Redact(dsn), err)
	}
	if err := Migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return sqlstore.New(db, Dialect, Redact(dsn)), nil
}

// MigrationLock is the advisory lock the migrations hold, so that of
// several processes starting at once on a fresh database one migrates and
// the others wait (the number is alak's own: "alak" in ASCII).
const MigrationLock = 0x616c616b

// Migrate applies the embedded migrations that db lacks, under the
// migration lock.
func Migrate(ctx context.Context, db *sql.DB) error {
	return sqlstore.Migrate(ctx, db, goose.DialectPostgres, migrations.Postgres, "postgres", sqlstore.AdvisoryLocker{ID: MigrationLock})
}

// Redact returns the URL without its password, for messages and logs.
func Redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		return "(a connection string)"
	}
	return u.Redacted()
}
