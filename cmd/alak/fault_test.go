package main

import (
	"context"
	"net/http"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"alak/internal/testlong"
	"alak/loadtest"
	"alak/wire"
)

// attempt is a move request the load tool made: answered 200 (acked), or
// left without an answer (it may have been stored).
type attempt struct {
	ply   int
	move  string
	acked bool
}

// checkAgainst compares a game's stored moves with the requests made: every
// acknowledged move is stored at its ply, every stored move is one that
// was acknowledged or left without an answer at that ply, and no ply was
// acknowledged twice. It returns the stored moves that were not
// acknowledged.
func checkAgainst(t *testing.T, id string, stored []string, tries []attempt) (unacked int) {
	t.Helper()
	at := map[int][]attempt{}
	for _, a := range tries {
		at[a.ply] = append(at[a.ply], a)
	}
	for ply, as := range at {
		acks := 0
		for _, a := range as {
			if !a.acked {
				continue
			}
			acks++
			if ply >= len(stored) || stored[ply] != a.move {
				t.Errorf("game %s: %s acknowledged at ply %d is lost: stored %v", id, a.move, ply, stored)
			}
		}
		if acks > 1 {
			t.Errorf("game %s: ply %d acknowledged %d times", id, ply, acks)
		}
	}
	for ply, m := range stored {
		ok, acked := false, false
		for _, a := range at[ply] {
			if a.move == m {
				ok, acked = true, acked || a.acked
			}
		}
		if !ok {
			t.Errorf("game %s: %s stored at ply %d, which no request made there (%v)", id, m, ply, at[ply])
		}
		if !acked {
			unacked++
		}
	}
	return unacked
}

// TestServeKill9UnderLoad: alak serve is killed (SIGKILL) in the middle of
// a run of alak loadtest (20 games at once, players following the event
// streams), after 150 acknowledged moves (500 with ALAK_LONG=1), and
// started again on the same file. Every game read back holds
// every move the load tool saw acknowledged, at its ply, once; any other
// stored move is one whose request got no answer; the log on disk holds
// each game's moves once, numbered from 0; and the restarted server takes
// a new load run with nothing lost or doubled.
func TestServeKill9UnderLoad(t *testing.T) {
	t.Parallel() // an alak serve process of its own: its waits overlap the other tests
	bin := buildServe(t)
	db := filepath.Join(t.TempDir(), "alak.db")
	p := startServe(t, bin, db, "--signup-rate", "100000", "--game-rate", "100000")
	killAfter := testlong.Size(t, 150, 500)
	var mu sync.Mutex
	tries := map[string][]attempt{}
	var acked atomic.Int64
	var kill sync.Once
	killed := make(chan struct{})
	cfg := loadtest.Config{URLs: []string{p.url}, Games: 20, Accounts: 10, Rate: 1000, Duration: 2 * time.Minute, Rules: "alak size=21", Seed: 7,
		Record: func(game string, ply int, move string, ok bool) {
			mu.Lock()
			tries[game] = append(tries[game], attempt{ply, move, ok})
			mu.Unlock()
			if ok && acked.Add(1) == int64(killAfter) {
				kill.Do(func() {
					p.cmd.Process.Signal(syscall.SIGKILL)
					close(killed)
				})
			}
		}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		rep loadtest.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := loadtest.Run(ctx, cfg)
		done <- result{rep, err}
	}()
	var first result
	select {
	case <-killed:
		p.wait(t)
		cancel() // the load run stops; its reading back fails: the server is dead
		first = <-done
	case first = <-done:
		t.Fatalf("the load run ended before %d moves were acknowledged: %+v %v", killAfter, first.rep, first.err)
	}
	if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("alak serve was not killed: %s", p.cmd.ProcessState)
	}

	q := startServe(t, bin, db, "--signup-rate", "100000", "--game-rate", "100000")
	hc := &http.Client{Timeout: 30 * time.Second}
	c := &apiClient{url: q.url, hc: hc}
	mu.Lock()
	defer mu.Unlock()
	ids := make([]string, 0, len(tries))
	for id := range tries {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	stored := map[string][]string{}
	var ackedMoves, unanswered, unackedStored int
	for _, id := range ids {
		var v wire.Game
		if _, err := c.call("GET", "/api/games/"+id, nil, &v); err != nil {
			t.Fatalf("game %s after the restart: %v", id, err)
		}
		for _, a := range tries[id] {
			if a.acked {
				ackedMoves++
			} else {
				unanswered++
			}
		}
		unackedStored += checkAgainst(t, id, v.Moves, tries[id])
		stored[id] = v.Moves
	}
	t.Logf("killed after %d acknowledged moves; %d games, %d moves acknowledged, %d requests unanswered, %d stored without an answer; the run said %d moves, %d errors by kind",
		killAfter, len(ids), ackedMoves, unanswered, unackedStored, first.rep.Moves, len(first.rep.Errors))
	if ackedMoves < killAfter {
		t.Errorf("only %d acknowledged moves recorded", ackedMoves)
	}

	// The restarted server takes load again, nothing lost or doubled: half
	// a second of it (about 100 moves at this rate) by default, two with
	// ALAK_LONG=1.
	again := time.Duration(testlong.Size(t, 500, 2000)) * time.Millisecond
	rep, err := loadtest.Run(context.Background(), loadtest.Config{URLs: []string{q.url}, Games: 5, Accounts: 4, Rate: 200, Duration: again, Seed: 8})
	if err != nil || rep.Moves == 0 || rep.Lost != 0 || rep.Doubled != 0 {
		t.Errorf("a load run after the restart: %v %+v", err, rep)
	}
	if err := q.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := q.wait(t); code != 0 {
		t.Errorf("alak serve exited %d after SIGTERM\n%s", code, q.stderr)
	}
	checkLogs(t, db, stored)
}
