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
