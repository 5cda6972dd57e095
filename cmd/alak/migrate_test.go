package main

import (
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"alak/internal/testlong"
	"alak/server/store/pgstore/pgtest"
)

// TestMigrationsRace starts four alak serve processes at once on a fresh
// database, three times over (ten with ALAK_LONG=1), and wants every one
// of them serving: the migrations of the first must not trip the others
// (before they took a lock, about one start in two
// failed on PostgreSQL with "duplicate key value violates unique
// constraint pg_type_typname_nsp_index", so three rounds of four starts
// would still meet it).
func TestMigrationsRace(t *testing.T) {
	t.Parallel() // an alak serve process of its own: its waits overlap the other tests
	bin := buildServe(t)
	const procs = 4
	rounds := testlong.Size(t, 3, 10)
	t.Run("postgres", func(t *testing.T) {
		pgtest.Admin(t)
		for round := range rounds {
			startAtOnce(t, bin, pgtest.Database(t), procs, round)
		}
	})
	t.Run("sqlite", func(t *testing.T) {
		for round := range rounds {
			startAtOnce(t, bin, filepath.Join(t.TempDir(), "alak.db"), procs, round)
		}
	})
}

// startAtOnce starts n processes on db together and fails unless every
// one answers /healthz; it kills them all before returning.
func startAtOnce(t *testing.T, bin, db string, n, round int) {
	t.Helper()
	type proc struct {
		cmd    *exec.Cmd
		url    string
		stderr *syncBuffer
		exited chan struct{}
	}
	var ps []*proc
	for range n {
		addr := "127.0.0.1:" + strconv.Itoa(freePort(t))
		p := &proc{url: "http://" + addr, stderr: &syncBuffer{}, exited: make(chan struct{})}
		p.cmd = exec.Command(bin, "serve", "--addr", addr, "--db", db, "--log-level", "warn")
		p.cmd.Stdout, p.cmd.Stderr = io.Discard, p.stderr
		ps = append(ps, p)
	}
	for _, p := range ps {
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			p.cmd.Wait()
			close(p.exited)
		}()
	}
	defer func() {
		for _, p := range ps {
			p.cmd.Process.Kill()
			<-p.exited
		}
	}()
	hc := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(90 * time.Second)
	for i, p := range ps {
		for {
			resp, err := hc.Get(p.url + "/healthz")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
			select {
			case <-p.exited:
				t.Fatalf("round %d: process %d of %d started at once exited: %s\n%s", round, i+1, n, p.cmd.ProcessState, p.stderr)
			case <-time.After(50 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: process %d did not answer /healthz within 90 s: %v\n%s", round, i+1, err, p.stderr)
			}
		}
	}
}
