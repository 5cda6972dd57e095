package pgstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"sync"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"alak/server/store"
	"alak/server/store/migrations"
	"alak/server/store/pgstore/pgtest"
	"alak/server/store/storetest"
)

// TestConformance runs the store suite on a real PostgreSQL (pgtest: the
// server of ALAK_TEST_POSTGRES, a database of its own per test).
func TestConformance(t *testing.T) {
	pgtest.Admin(t)
	var mu sync.Mutex
	urls := map[store.Store]string{}
	open := func(t *testing.T, u string) store.Store {
		s, err := Open(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		urls[s] = u
		mu.Unlock()
		return s
	}
	storetest.Run(t, storetest.Open{
		New: func(t *testing.T) store.Store { return open(t, pgtest.Database(t)) },
		Reopen: func(t *testing.T, s store.Store) store.Store {
			mu.Lock()
			u := urls[s]
			mu.Unlock()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return open(t, u)
		},
	})
}

// TestNotifier: notifications sent in a burst, several of a game, all
// reach a listener in another connection, each game's latest version
// last.
func TestNotifier(t *testing.T) {
	dsn := pgtest.Database(t)
	st, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	listening := make(chan struct{})
	type note struct {
		game    string
		version int
	}
	notes := make(chan note, 10000)
	go NewNotifier(st.DB(), dsn).Listen(ctx, func(game string, ply, version int) {
		notes <- note{game, version}
	}, func() { close(listening) })
	<-listening
	n := NewNotifier(st.DB(), dsn)
	const games, versions = 200, 3
	for v := 1; v <= versions; v++ {
		for g := range games {
			if err := n.Notify(ctx, fmt.Sprint("g", g), v, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	latest := map[string]int{}
	for len(latest) < games || !all(latest, versions) {
		select {
		case nt := <-notes:
			if nt.version <= latest[nt.game] {
				t.Fatalf("game %s: version %d after %d", nt.game, nt.version, latest[nt.game])
			}
			latest[nt.game] = nt.version
		case <-ctx.Done():
			t.Fatalf("%d games heard of, not all at version %d", len(latest), versions)
		}
	}
}

func all(latest map[string]int, v int) bool {
	for _, got := range latest {
		if got != v {
			return false
		}
	}
	return true
}

// TestRatingChainMigration: the rating updates stored before migration 12
// are numbered in the order they were written (storetest).
func TestRatingChainMigration(t *testing.T) {
	db, err := sql.Open("pgx", pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sub, err := fs.Sub(migrations.Postgres, "postgres")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, sub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(context.Background(), 11); err != nil {
		t.Fatal(err)
	}
	storetest.RatingChainMigration(t, db, func() error { return Migrate(context.Background(), db) })
}
