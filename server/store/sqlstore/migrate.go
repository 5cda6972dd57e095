package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
)

// Migrate applies to db the migrations of fsys's directory dir (embedded,
// one set a dialect) that it lacks.
func Migrate(ctx context.Context, db *sql.DB, dialect goose.Dialect, fsys fs.FS, dir string) error {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(dialect, db, sub)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrating the database: %w", err)
	}
	return nil
}
