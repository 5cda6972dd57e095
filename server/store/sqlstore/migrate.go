package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Migrate applies to db the migrations of fsys's directory dir (embedded,
// one set a dialect) that it lacks.
//
// Several processes may start at once on a fresh database, each migrating
// it. With a locker (PostgreSQL's advisory lock, AdvisoryLocker), one
// migrates while the others wait for the lock and then find nothing left
// to do. Without one (SQLite has no lock that outlives a transaction but
// not the process), each migration is one transaction, so a process that
// loses the race has its transaction fail and rolled back ("table
// accounts already exists"): it then looks again, and when the winner
// has applied everything it is done, else it tries once more.
func Migrate(ctx context.Context, db *sql.DB, dialect goose.Dialect, fsys fs.FS, dir string, locker lock.SessionLocker) error {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		return err
	}
	var opts []goose.ProviderOption
	if locker != nil {
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	const attempts = 20
	for attempt := 1; ; attempt++ {
		// A provider creates the version table once: a new one a try.
		p, err := goose.NewProvider(dialect, db, sub, opts...)
		if err != nil {
			return err
		}
		_, err = p.Up(ctx)
		if err == nil {
			return nil
		}
		if locker == nil && attempt < attempts {
			if pending, perr := p.HasPending(ctx); perr == nil && !pending {
				return nil // another process applied them meanwhile
			}
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
				continue
			}
		}
		return fmt.Errorf("migrating the database: %w", err)
	}
}

// AdvisoryLocker is a PostgreSQL session lock for the migrations:
// pg_advisory_lock waits (as long as ctx allows) while another session
// holds the lock, and PostgreSQL releases it if the holder's connection
// dies, so a process killed while migrating leaves no stale lock.
type AdvisoryLocker struct{ ID int64 }

// SessionLock takes the lock on conn, waiting for it.
func (l AdvisoryLocker) SessionLock(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", l.ID); err != nil {
		return fmt.Errorf("waiting for the migration lock: %w", err)
	}
	return nil
}

// SessionUnlock releases the lock on conn.
func (l AdvisoryLocker) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", l.ID); err != nil {
		return fmt.Errorf("releasing the migration lock: %w", err)
	}
	return nil
}
