package pgstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// channel is the LISTEN/NOTIFY channel of game changes.
const channel = "alak_games"

// Notifier is server.Notifier on PostgreSQL's LISTEN/NOTIFY: a
// notification carries only "GAME PLY VERSION"; the listeners read the
// game from the database.
//
// Notify does not wait for the notification to be sent: one goroutine
// sends what is waiting in one statement (while it is out, the next ones
// gather; of one game only the latest is sent), so that a move costs no
// round trip for it and holds no lock while it goes. A notification is a
// hint, as server.Notifier says: one that fails costs a late update; the
// error is returned by the next Notify, for the log.
type Notifier struct {
	db  *sql.DB
	dsn string

	mu      sync.Mutex
	pending map[string][2]int // game → ply, version: the latest waiting
	sending bool              // a goroutine is sending
	err     error             // the last send's failure, not yet reported
}

// NewNotifier returns a notifier that sends through db and listens on a
// connection of its own to dsn.
func NewNotifier(db *sql.DB, dsn string) *Notifier {
	return &Notifier{db: db, dsn: dsn, pending: map[string][2]int{}}
}

// Notify tells every listening process that the game changed, soon.
func (n *Notifier) Notify(ctx context.Context, game string, ply, version int) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if p, ok := n.pending[game]; !ok || version > p[1] {
		n.pending[game] = [2]int{ply, version}
	}
	if !n.sending {
		n.sending = true
		go n.send()
	}
	err := n.err
	n.err = nil
	return err
}

// send sends what waits, in one statement at a time, until nothing does.
func (n *Notifier) send() {
	var payloads []string
	for {
		n.mu.Lock()
		if len(n.pending) == 0 {
			n.sending = false
			n.mu.Unlock()
			return
		}
		payloads = payloads[:0]
		for game, p := range n.pending {
			payloads = append(payloads, fmt.Sprintf("%s %d %d", game, p[0], p[1]))
		}
		clear(n.pending)
		n.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := n.db.ExecContext(ctx, `SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p`, channel, payloads)
		cancel()
		if err != nil {
			n.mu.Lock()
			n.err = fmt.Errorf("%d notifications not sent: %w", len(payloads), err)
			n.mu.Unlock()
		}
	}
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
