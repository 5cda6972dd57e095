package pgstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// channel is the LISTEN/NOTIFY channel of game changes.
const channel = "alak_games"

// Notifier is server.Notifier on PostgreSQL's LISTEN/NOTIFY: a
// notification carries only "GAME PLY VERSION"; the listeners read the
// game from the database.
type Notifier struct {
	db  *sql.DB
	dsn string
}

// NewNotifier returns a notifier that sends through db and listens on a
// connection of its own to dsn.
func NewNotifier(db *sql.DB, dsn string) *Notifier { return &Notifier{db: db, dsn: dsn} }

// Notify tells every listening process that the game changed.
func (n *Notifier) Notify(ctx context.Context, game string, ply, version int) error {
	_, err := n.db.ExecContext(ctx, `SELECT pg_notify($1, $2)`, channel, fmt.Sprintf("%s %d %d", game, ply, version))
	return err
}

// Listen calls changed for every notification until ctx ends or the
// connection fails; it calls resync once listening, since changes made
// while it was not may have been missed.
func (n *Notifier) Listen(ctx context.Context, changed func(game string, ply, version int), resync func()) error {
	conn, err := pgx.Connect(ctx, n.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	resync()
	for {
		note, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		f := strings.Fields(note.Payload)
		if len(f) != 3 {
			continue
		}
		ply, err1 := strconv.Atoi(f[1])
		version, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil {
			continue
		}
		changed(f[0], ply, version)
	}
}
