// Package migrations holds the play server's database schema as numbered
// migrations, embedded in the binary and applied at start (with goose):
// one folder per database, the same tables in each.
package migrations

import "embed"

// SQLite is the schema for SQLite, in sqlite/.
//
//go:embed sqlite/*.sql
var SQLite embed.FS

// Postgres is the schema for PostgreSQL, in postgres/.
//
//go:embed postgres/*.sql
var Postgres embed.FS
