package sqlstore

import (
	"context"
	"database/sql"
)

// Write makes one write through the store's write path (the group commit
// of a single-writer database), for the tests of package sqlstore_test.
func (s *Store) Write(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	return s.write(ctx, true, fn)
}

// Waiting returns how many writes wait for the writer: those that wait
// first, and the idle ones (store.Idle).
func (s *Store) Waiting() (jobs, idle int) { return len(s.w.jobs), len(s.w.idle) }
