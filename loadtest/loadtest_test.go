package loadtest

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"alak/internal/testlong"
	"alak/server"
	"alak/server/store"
	"alak/server/store/pgstore"
	"alak/server/store/pgstore/pgtest"
	"alak/server/store/sqlitestore"
	"alak/server/store/sqlstore"
)

// serve starts a play server on st, on loopback, for the length of the test.
func serve(t *testing.T, st *sqlstore.Store, n server.Notifier) string {
	t.Helper()
	return serveCounting(t, st, n, nil)
}

// serveCounting is serve, counting in streams the game event streams
// asked for (nil: not counted).
func serveCounting(t *testing.T, st *sqlstore.Store, n server.Notifier, streams *atomic.Int64) string {
	t.Helper()
	srv, err := server.New(server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), SignupRate: 10000, GameRate: 100000, Notifier: n}, st)
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	if streams != nil {
		inner := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/api/games/") && strings.HasSuffix(r.URL.Path, "/events") {
				streams.Add(1)
			}
			inner.ServeHTTP(w, r)
		})
	}
	hs := httptest.NewUnstartedServer(h)
	hs.Config.ConnContext = server.ConnContext // as alak serve
	hs.Start()
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
	})
	return hs.URL
}

// runLength is how long the tests' runs at 200 moves a second last: a
// second by default, some 200 moves, enough for several of the 8 games on
// 7 points to end and for storedThenFailed's 4 failures (every 25th
// move); 3 s with ALAK_LONG=1.
func runLength(t *testing.T) time.Duration {
	return time.Duration(testlong.Size(t, 1000, 3000)) * time.Millisecond
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

// runToAnEnd runs the load of cfg; on a machine so loaded that no game
// reached its end in that time (44 moves over 8 games once, at a load
// average of 10) and nothing else went wrong, it runs it once more,
// four times as long, so that check's "some game finished" tests the
// server and not the machine's load.
func runToAnEnd(t *testing.T, cfg Config) (Report, error) {
	t.Helper()
	rep, err := Run(context.Background(), cfg)
	if err == nil && rep.Finished == 0 && rep.Lost == 0 && rep.Doubled == 0 && len(rep.Errors) == 0 {
		t.Logf("no game finished in %v (%d moves): once more, %v", cfg.Duration, rep.Moves, 4*cfg.Duration)
		cfg.Duration *= 4
		cfg.Seed++
		if b, ok := cfg.Latencies.(*bytes.Buffer); ok {
			b.Reset()
		}
		rep, err = Run(context.Background(), cfg)
	}
	return rep, err
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
	var lat bytes.Buffer
	rep, err := runToAnEnd(t, Config{URLs: []string{url}, Games: 8, Rate: 200, Duration: runLength(t),
		Rules: "alak size=7", Streams: 6, Seed: 1, Latencies: &lat})
	check(t, rep, err, 2*8+6)
	// The first games are under way, and every stream open, when the
	// clock starts.
	if rep.StreamsAtStart != 2*8+6 || rep.SetupS <= 0 {
		t.Errorf("%d streams open at the start, after %.3f s of setup; want %d", rep.StreamsAtStart, rep.SetupS, 2*8+6)
	}
	// The latencies written: one line a move and a timed event, each
	// sent or seen within the run.
	rows, err := csv.NewReader(&lat).ReadAll()
	if err != nil || len(rows) == 0 || strings.Join(rows[0], ",") != "kind,at_ms,ms" {
		t.Fatalf("the latencies' CSV: %v, %d rows", err, len(rows))
	}
	count := map[string]int64{}
	for _, row := range rows[1:] {
		at, err1 := strconv.ParseFloat(row[1], 64)
		ms, err2 := strconv.ParseFloat(row[2], 64)
		if err1 != nil || err2 != nil || at < 0 || at > 1000*rep.Seconds || ms < 0 {
			t.Errorf("latency row %q: at %v ms, %v ms, in a run of %.1f s", row, at, ms, rep.Seconds)
		}
		count[row[0]]++
	}
	if count["move"] != rep.Moves || count["event"] != rep.Events || len(count) != 2 {
		t.Errorf("latency rows %v, want %d moves and %d events", count, rep.Moves, rep.Events)
	}
}

// TestRunEndKeepsStreams: at the end of the moves, a player waiting for
// its turn keeps its stream open until the streams close. Here the moves
// are few a second for the games (8 games, 8 moves a second), so that
// most players to move wait for the rate's next token, which in the last
// second comes after the end. Before, each such player closed its stream
// and opened it again, and again, as fast as the server answered, until
// the run's end: hundreds of streams opened in its last second, a load
// on the last moves' answers.
func TestRunEndKeepsStreams(t *testing.T) {
	t.Parallel() // a server of its own; its run waits for the rate's tokens, a few moves a second
	st, err := sqlitestore.Open(context.Background(), filepath.Join(t.TempDir(), "alak.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var opened atomic.Int64
	url := serveCounting(t, st, nil, &opened)
	rep, err := Run(context.Background(), Config{URLs: []string{url}, Games: 8, Rate: 8, Duration: 2 * time.Second, Rules: "alak size=7", Seed: 4})
	t.Logf("%+v", rep)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) != 0 || rep.Moves == 0 {
		t.Fatalf("errors %v, %d moves", rep.Errors, rep.Moves)
	}
	// Two streams a game, no more: no stream failed (no error).
	if n := opened.Load(); n != int64(2*rep.Games) {
		t.Errorf("%d event streams opened for %d games, want %d", n, rep.Games, 2*rep.Games)
	}
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
	rep, err := runToAnEnd(t, Config{URLs: urls, Games: 8, Rate: 200, Duration: runLength(t),
		Rules: "alak size=7", Streams: 4, Seed: 2})
	check(t, rep, err, 2*8+4)
	if rep.URLs != 2 {
		t.Errorf("%d servers", rep.URLs)
	}
}

// storedThenFailed is a SQLite store whose every 25th move, up to 4, is
// stored and then reported failed, and the game's next read fails too, as
// when the connection to the database breaks after the commit: the server
// answers 500 though the move is in the database. (The read matters: on
// a failed write the server reads the game again and re-runs the move,
// which the stored move then refuses as stale, 409.)
type storedThenFailed struct {
	*sqlstore.Store
	moves, failed atomic.Int64
	mu            sync.Mutex
	unread        map[string]bool // games whose next read fails
}

func (s *storedThenFailed) Update(ctx context.Context, g store.Game, prev store.Game, entries []store.Entry) error {
	if err := s.Store.Update(ctx, g, prev, entries); err != nil {
		return err
	}
	if len(entries) == 1 && entries[0].Move != "" && s.moves.Add(1)%25 == 0 && s.failed.Add(1) <= 4 {
		s.mu.Lock()
		s.unread[g.ID] = true
		s.mu.Unlock()
		return errors.New("the move is stored, then the connection breaks")
	}
	return nil
}

func (s *storedThenFailed) Game(ctx context.Context, id string) (store.Game, []store.Entry, error) {
	s.mu.Lock()
	fail := s.unread[id]
	delete(s.unread, id)
	s.mu.Unlock()
	if fail {
		return store.Game{}, nil, errors.New("the database is away for a moment")
	}
	return s.Store.Game(ctx, id)
}

// TestRunServerErrorAfterStore: a move answered 500 may or may not be
// stored, like one left without an answer, so a 500 whose move was
// stored is not counted as doubled (nor is the run failed for it).
func TestRunServerErrorAfterStore(t *testing.T) {
	t.Parallel() // a server and store of its own
	st, err := sqlitestore.Open(context.Background(), filepath.Join(t.TempDir(), "alak.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fs := &storedThenFailed{Store: st, unread: map[string]bool{}}
	srv, err := server.New(server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), SignupRate: 10000, GameRate: 100000}, fs)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer func() {
		srv.Close()
		hs.Close()
	}()
	rep, err := Run(context.Background(), Config{URLs: []string{hs.URL}, Games: 8, Rate: 200, Duration: runLength(t),
		Rules: "alak size=7", Seed: 3})
	t.Logf("%+v", rep)
	if err != nil {
		t.Fatal(err)
	}
	failed := min(fs.failed.Load(), 4)
	if failed == 0 {
		t.Fatalf("no move failed after being stored (%d moves stored): the test proves nothing", fs.moves.Load())
	}
	// Each stored-then-failed move is answered 500 (the run's only
	// errors), and counted among those of unknown outcome.
	if rep.Errors["500 internal"] != failed || len(rep.Errors) != 1 || rep.ServerErrors != failed {
		t.Errorf("%d moves stored then answered 500; the report counts errors %v, %d server errors", failed, rep.Errors, rep.ServerErrors)
	}
	if rep.Doubled != 0 || rep.Lost != 0 || rep.Moves == 0 {
		t.Errorf("doubled %d, lost %d, moves %d; want 0, 0 and some", rep.Doubled, rep.Lost, rep.Moves)
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
