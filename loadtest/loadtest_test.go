package loadtest

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"alak/server"
	"alak/server/store/pgstore"
	"alak/server/store/pgstore/pgtest"
	"alak/server/store/sqlitestore"
	"alak/server/store/sqlstore"
)

// serve starts a play server on st, on loopback, for the length of the test.
func serve(t *testing.T, st *sqlstore.Store, n server.Notifier) string {
	t.Helper()
	srv, err := server.New(server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), SignupRate: 10000, GameRate: 100000, Notifier: n}, st)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
	})
	return hs.URL
}

func check(t *testing.T, rep Report, err error, streams int) {
	t.Helper()
	t.Logf("%+v", rep)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Moves == 0 || rep.Finished == 0 || rep.Lost != 0 || rep.Doubled != 0 || len(rep.Errors) != 0 {
		t.Errorf("moves %d, finished %d, lost %d, doubled %d, errors %v", rep.Moves, rep.Finished, rep.Lost, rep.Doubled, rep.Errors)
	}
	if rep.StreamsMax < streams {
		t.Errorf("at most %d streams open, want at least %d", rep.StreamsMax, streams)
	}
	if rep.P99 <= 0 || rep.Events == 0 {
		t.Errorf("no latencies measured: %+v", rep)
	}
}

// TestRunSQLite plays a short load on one server over SQLite, with
// spectators, and finds every acknowledged move stored once.
func TestRunSQLite(t *testing.T) {
	st, err := sqlitestore.Open(context.Background(), filepath.Join(t.TempDir(), "alak.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	url := serve(t, st, nil)
	rep, err := Run(context.Background(), Config{URLs: []string{url}, Games: 8, Rate: 200, Duration: 3 * time.Second,
		Rules: "alak size=7", Streams: 6, Seed: 1})
	check(t, rep, err, 2*8+6)
}

// TestRunTwoProcesses spreads the load over two servers on one PostgreSQL
// database: players of one game on two processes see each other's moves
// through the notifications.
func TestRunTwoProcesses(t *testing.T) {
	dsn := pgtest.Database(t)
	var urls []string
	for range 2 {
		st, err := pgstore.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		urls = append(urls, serve(t, st, pgstore.NewNotifier(st.DB(), dsn)))
	}
	rep, err := Run(context.Background(), Config{URLs: urls, Games: 8, Rate: 200, Duration: 3 * time.Second,
		Rules: "alak size=7", Streams: 4, Seed: 2})
	check(t, rep, err, 2*8+4)
	if rep.URLs != 2 {
		t.Errorf("%d servers", rep.URLs)
	}
}

func TestConfigChecks(t *testing.T) {
	for _, c := range []Config{
		{},
		{URLs: []string{"http://example.org"}, Games: 1, Rate: 1, Duration: time.Second},
		{URLs: []string{"http://127.0.0.1:1", "http://10.0.0.1:2"}, Games: 1, Rate: 1, Duration: time.Second},
		{URLs: []string{"http://127.0.0.1:1"}, Games: 0, Rate: 1, Duration: time.Second},
	} {
		if err := c.check(); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}
