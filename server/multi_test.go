package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"alak/server/store"
	"alak/server/store/pgstore"
	"alak/server/store/pgstore/pgtest"
)

// pgProcesses starts n servers on one PostgreSQL database, as n processes
// would run behind a proxy: each with its own store connection pool, its
// own notifier and its own HTTP listener on loopback.
func pgProcesses(t *testing.T, n int, clock *testClock) []*harness {
	t.Helper()
	return pgProcessesWith(t, n, clock, func(*Config) {})
}

// pgProcessesWith is pgProcesses with each process's Config changed by
// set first.
func pgProcessesWith(t *testing.T, n int, clock *testClock, set func(*Config)) []*harness {
	t.Helper()
	url := pgtest.Database(t)
	var hs []*harness
	for range n {
		st, err := pgstore.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Now: clock.Now, SweepEvery: time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Notifier: pgstore.NewNotifier(st.DB(), url)}
		set(&cfg)
		srv, err := New(cfg, st)
		if err != nil {
			t.Fatal(err)
		}
		h := &harness{t: t, clock: clock, cfg: cfg, st: st, srv: srv, http: serveHTTP(srv)}
		srv.cfg.BaseURL = h.http.URL
		t.Cleanup(h.stop)
		hs = append(hs, h)
	}
	return hs
}

func TestSeveralProcesses(t *testing.T) {
	t.Parallel()
	clock := &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	ps := pgProcesses(t, 2, clock)
	a, b := ps[0], ps[1]
	ada := a.client().signUp("ada")
	bo := a.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "days:1", "opponent": "bo"})
	bo.on(b).do("POST", "/api/games/"+g.ID+"/join", nil, nil)

	// A spectator on process b sees a move made through process a.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := stream(t, ctx, b.http.URL+"/api/games/"+g.ID+"/events", "")
	<-events // the current state
	if code, _, e := ada.move(g.ID, "1", 0); code != http.StatusOK {
		t.Fatalf("a move on a: %d %+v", code, e)
	}
	select {
	case ev := <-events:
		if ev.view.Ply != 1 || ev.view.Diagram != "X-----" {
			t.Errorf("b's spectator saw ply %d %s", ev.view.Ply, ev.view.Diagram)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the move made on a never reached b's spectator")
	}

	// The same next move sent to both processes at once: exactly one is
	// applied, the other answered 409.
	boA, boB := bo, bo.on(b)
	var wg sync.WaitGroup
	codes := make([]int, 2)
	for i, c := range []*client{boA, boB} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _, _ = c.move(g.ID, "4", 1)
		}()
	}
	wg.Wait()
	if !(codes[0] == 200 && codes[1] == 409 || codes[0] == 409 && codes[1] == 200) {
		t.Errorf("two processes, one move: %v", codes)
	}
	_, log, err := a.st.Game(context.Background(), g.ID)
	if err != nil || len(log) != 2 {
		t.Fatalf("log after the race: %d entries, %v", len(log), err)
	}

	// A correspondence timeout seen by both processes is settled once.
	clock.Add(25 * time.Hour)
	var sw sync.WaitGroup
	for _, p := range ps {
		sw.Add(1)
		go func() {
			defer sw.Done()
			p.srv.sweepOnce(false)
		}()
	}
	sw.Wait()
	got, log, err := a.st.Game(context.Background(), g.ID)
	if err != nil || got.State != store.StateFinished || got.Result != "W+T" { // x, to move, ran out of time
		t.Fatalf("after the deadline: %+v %v", got, err)
	}
	// The version counts the changes: created 1, joined 2, two moves, one
	// timeout = 5. A second settlement would have made it 6.
	if got.Version != 5 || len(log) != 2 {
		t.Errorf("settled more than once: version %d, %d entries", got.Version, len(log))
	}
	adj := a.srv.metrics.Adjudications.Load() + b.srv.metrics.Adjudications.Load()
	if adj != 1 {
		t.Errorf("%d adjudications, want 1", adj)
	}
}

// TestSignInLimitsShared: the sign-in limits are the processes'
// together, kept in the database. Two processes on one PostgreSQL
// database judge the guesses one process would: from one address on one
// name, 10 (Config.LoginRate's default burst), taken in turn through
// either process, not 10 each; on 22 names, 20 (the address's limit); and
// the owner, from another address, still signs in through both (the
// name's limit holds back only the addresses that guessed wrong).
func TestSignInLimitsShared(t *testing.T) {
	t.Parallel()
	clock := &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	ps := pgProcesses(t, 2, clock)
	for _, name := range []string{"ada", "bo"} {
		ps[0].client().signUp(name)
	}
	guess := func(h *harness, name, password string) int {
		t.Helper()
		return h.client().do("POST", "/api/login", map[string]string{"name": name, "password": password}, nil)
	}
	judged := 0
	for i := range 30 {
		switch code := guess(ps[i%2], "ada", fmt.Sprintf("guess %d", i)); code {
		case http.StatusUnauthorized:
			judged++
		case http.StatusTooManyRequests:
		default:
			t.Fatalf("guess %d: %d", i, code)
		}
	}
	if judged != 10 {
		t.Errorf("30 guesses on one name from one address through two processes: %d judged, want 10 (one process's burst)", judged)
	}
	if code := guess(ps[1], "ada", "correct horse"); code != http.StatusTooManyRequests {
		t.Errorf("the right password from the guessing address: %d, want 429", code)
	}
	for i, h := range ps {
		owner := loopbackClient(t, h, "127.0.0.2")
		if code := owner.do("POST", "/api/login", map[string]string{"name": "ada", "password": "correct horse"}, nil); code != http.StatusOK {
			t.Errorf("the owner from another address through process %d: %d, want 200", i, code)
		}
	}

	// Ten minutes on (every bucket full again), the address's burst of
	// 20 over many names.
	clock.Add(10 * time.Minute)
	judged = 0
	for i := range 30 {
		if code := guess(ps[i%2], fmt.Sprintf("name%d", i), "a guess"); code == http.StatusUnauthorized {
			judged++
		}
	}
	if judged != 20 {
		t.Errorf("30 names from one address through two processes: %d judged, want 20", judged)
	}
}
