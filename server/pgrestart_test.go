package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"alak/server/store/pgstore"
)

// pgCluster is a throwaway PostgreSQL cluster a test starts for itself
// (initdb in a temporary directory, a socket there and 127.0.0.1 on a free
// port), to restart it under running servers. It is stopped and removed
// at the end of the test.
type pgCluster struct {
	t    *testing.T
	bin  string // the directory of initdb and pg_ctl
	dir  string
	port int
	user bool // run the tools as the postgres user (the test runs as root)
}

// pgBin finds PostgreSQL's server tools: Debian's /usr/lib/postgresql/N/bin
// (the newest), else pg_ctl on PATH; "" when there are none.
func pgBin() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi > vj
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "initdb")); err == nil {
			return filepath.Dir(p)
		}
	}
	return ""
}

// startCluster starts a cluster, or skips the test when PostgreSQL's
// server tools are missing.
func startCluster(t *testing.T) *pgCluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster")
	}
	bin := pgBin()
	if bin == "" {
		t.Skip("no PostgreSQL server tools (initdb, pg_ctl): Debian's postgresql package has them")
	}
	c := &pgCluster{t: t, bin: bin}
	var err error
	if c.dir, err = os.MkdirTemp("", "alak-pg-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(c.dir) })
	if os.Geteuid() == 0 {
		// initdb refuses to run as root: the cluster is the postgres user's.
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("running as root without a postgres user to own the cluster")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(c.dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		c.user = true
	}
	c.port = freeTCPPort(t)
	c.run("initdb", "-D", c.data(), "-A", "trust", "-U", "postgres", "--no-sync")
	c.pgctl("start")
	t.Cleanup(func() { c.tool("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop").Run() })
	return c
}

func (c *pgCluster) data() string { return filepath.Join(c.dir, "data") }

// url is the cluster's postgres database.
func (c *pgCluster) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// tool is a command of PostgreSQL's, run as the cluster's owner, in its
// directory, bounded to two minutes.
func (c *pgCluster) tool(name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	c.t.Cleanup(cancel)
	path := filepath.Join(c.bin, name)
	var cmd *exec.Cmd
	if c.user {
		cmd = exec.CommandContext(ctx, "runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, path, args...)
	}
	cmd.Dir = c.dir
	return cmd
}

func (c *pgCluster) run(name string, args ...string) {
	c.t.Helper()
	if out, err := c.tool(name, args...).CombinedOutput(); err != nil {
		c.t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// pgctl starts or restarts the cluster (restart: an immediate stop, as a
// crash, then recovery from the WAL), waiting until it takes connections.
func (c *pgCluster) pgctl(action string) {
	c.t.Helper()
	args := []string{"-D", c.data(), "-l", filepath.Join(c.dir, "log"), "-w", "-t", "60",
		"-o", fmt.Sprintf("-k %s -c listen_addresses=127.0.0.1 -p %d -c fsync=on -c max_connections=100", c.dir, c.port)}
	if action == "restart" {
		args = append(args, "-m", "immediate")
	}
	c.run("pg_ctl", append(args, action)...)
}

func freeTCPPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// pgServersOn starts n servers on the database at url, each with its own
// store, notifier and HTTP listener, as n processes behind a proxy.
func pgServersOn(t *testing.T, url string, n int, clock *testClock) []*harness {
	t.Helper()
	var hs []*harness
	for range n {
		st, err := pgstore.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Now: clock.Now, SweepEvery: time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Notifier: pgstore.NewNotifier(st.DB(), url)}
		srv, err := New(cfg, st)
		if err != nil {
			t.Fatal(err)
		}
		h := &harness{t: t, clock: clock, cfg: cfg, st: st, srv: srv, http: httptest.NewServer(srv.Handler())}
		srv.cfg.BaseURL = h.http.URL
		t.Cleanup(h.stop)
		hs = append(hs, h)
	}
	return hs
}

// TestFaultPostgresRestart: PostgreSQL is restarted the hard way (pg_ctl
// restart -m immediate: a crash and recovery) under two servers while
// games are played through both. The servers reconnect and go on: games
// keep being played; a spectator on one server, whose stream stayed open,
// sees a move made through the other after the restart (the notifier
// listens again and resynchronises); and every acknowledged move is stored
// once, every other stored move being one whose request failed.
func TestFaultPostgresRestart(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	clock := &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	ps := pgServersOn(t, c.url(), 2, clock)
	a, b := ps[0], ps[1]
	ada, bo := a.client().signUp("ada"), a.client().signUp("bo")
	on := map[*harness]map[string]*client{a: {"x": ada, "o": bo}, b: {"x": ada.on(b), "o": bo.on(b)}}
	newGame := func() string {
		g := ada.create(map[string]string{"rules": "alak size=31", "color": "x", "clock": "none", "opponent": "bo"})
		bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
		return g.ID
	}
	watched := newGame()
	var games []string
	for range 4 {
		games = append(games, newGame())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evA, err := readEvents(ctx, a.http.URL+"/api/games/"+watched+"/events")
	if err != nil {
		t.Fatal(err)
	}
	evB, err := readEvents(ctx, b.http.URL+"/api/games/"+watched+"/events")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	tries := map[string][]moveTry{}
	record := func(id string, m moveTry) {
		mu.Lock()
		tries[id] = append(tries[id], m)
		mu.Unlock()
	}
	// moveThrough plays one move in the watched game through server h,
	// trying again (bounded: a minute) while the database is away; it
	// returns the ply after the move.
	moveThrough := func(h *harness) int {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			try, ok, over := step(on[h], h.http.URL, watched)
			if over {
				t.Fatal("the watched game ended")
			}
			if ok {
				record(watched, try)
				if try.status == http.StatusOK {
					return try.ply + 1
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatal("no move acknowledged within a minute")
		return 0
	}
	waitPly(t, evB, moveThrough(a), "b's spectator, before the restart")

	// Players on the other games, through a and b in turn.
	var acks atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i, id := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				h := ps[n%2]
				try, ok, over := step(on[h], h.http.URL, id)
				if over {
					return
				}
				if !ok {
					time.Sleep(20 * time.Millisecond) // the database is away
					continue
				}
				record(id, try)
				if try.status == http.StatusOK {
					acks.Add(1)
				} else {
					time.Sleep(20 * time.Millisecond)
				}
			}
		}()
	}
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	}()
	waitAcks := func(n int64, what string) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for acks.Load() < n {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d moves acknowledged, not %d, in a minute", what, acks.Load(), n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitAcks(20, "before the restart")
	c.pgctl("restart")
	before := acks.Load()
	t.Logf("PostgreSQL restarted after %d moves", before)

	waitPly(t, evB, moveThrough(a), "b's spectator, a move through a after the restart")
	waitPly(t, evA, moveThrough(b), "a's spectator, a move through b after the restart")
	waitAcks(before+20, "after the restart")
	close(stop)
	wg.Wait()

	mu.Lock()
	defer mu.Unlock()
	var n, failed, unacked int
	for id, ts := range tries {
		n += len(ts)
		for _, m := range ts {
			if m.status != http.StatusOK {
				failed++
			}
		}
		unacked += checkTries(t, a.st, id, ts)
	}
	t.Logf("%d move requests, %d not acknowledged (%d of those stored)", n, failed, unacked)
}
