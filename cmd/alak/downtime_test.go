package main

import (
	"net/http"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"alak/server/store/pgstore/pgtest"
	"alak/wire"
)

// TestServeDowntime stops alak serve (SIGTERM) in the middle of a live
// game, waits, starts it again on the same database, and checks that the
// player to move lost only the time the server served: the downtime is
// nobody's (a restart 22 s later once took 22 s off the clock). On PostgreSQL a second process serves beside the first; its
// restart while the other serves moves no clock.
func TestServeDowntime(t *testing.T) {
	t.Parallel() // an alak serve process of its own: its waits overlap the other tests
	bin := buildServe(t)
	t.Run("sqlite", func(t *testing.T) {
		serveDowntime(t, bin, filepath.Join(t.TempDir(), "alak.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		pgtest.Admin(t)
		db := pgtest.Database(t)
		serveDowntime(t, bin, db)

		// Two processes; one restarts while the other serves: the game
		// is served all along, its clock is not moved.
		a, b := startServe(t, bin, db), startServe(t, bin, db)
		hc := &http.Client{Timeout: 30 * time.Second}
		x, o := serveAccount(t, a.url, "cy", hc), serveAccount(t, a.url, "di", hc)
		g := serveGame(t, x, o, "di", "alak size=9", "live:5m")
		if _, err := x.call("POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": "5", "ply": 0}, nil); err != nil {
			t.Fatal(err)
		}
		var before wire.Game
		if _, err := o.call("POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": "4", "ply": 1}, &before); err != nil {
			t.Fatal(err)
		}
		if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		b.wait(t)
		time.Sleep(time.Second)
		b = startServe(t, bin, db)
		x.url = b.url
		var after wire.Game
		if _, err := x.call("GET", "/api/games/"+g.ID, nil, &after); err != nil {
			t.Fatal(err)
		}
		if after.Clock != before.Clock || after.Version != before.Version {
			t.Errorf("a restart beside a serving process moved the clock: %+v version %d, before %+v version %d",
				after.Clock, after.Version, before.Clock, before.Version)
		}
	})
}

// serveDowntime plays the first moves of a live game on a server on db,
// stops it for 2 s, starts it again and has Black move.
func serveDowntime(t *testing.T, bin, db string) {
	t.Helper()
	p := startServe(t, bin, db)
	hc := &http.Client{Timeout: 30 * time.Second}
	x, o := serveAccount(t, p.url, "ada", hc), serveAccount(t, p.url, "bo", hc)
	g := serveGame(t, x, o, "bo", "alak size=9", "live:5m")
	if _, err := x.call("POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": "5", "ply": 0}, nil); err != nil {
		t.Fatal(err)
	}
	var v wire.Game
	if _, err := o.call("POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": "4", "ply": 1}, &v); err != nil {
		t.Fatal(err)
	}
	// Black's clock runs from v.Clock.TurnStart (this machine's clock,
	// as the server's).
	left := v.Clock.XMillis
	time.Sleep(300 * time.Millisecond)
	stop := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(t); code != 0 {
		t.Fatalf("alak serve stopped with %d\n%s", code, p.stderr)
	}
	const down = 2 * time.Second
	time.Sleep(down)
	restart := time.Now()
	q := startServe(t, bin, db)
	x.url = q.url
	var after wire.Game
	if _, err := x.call("POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": "7", "ply": 2}, &after); err != nil {
		t.Fatal(err)
	}
	moved := time.Now()
	lost := time.Duration(left-after.Clock.XMillis) * time.Millisecond
	// Served: from the turn's start to the stop, and from the restart to
	// the move's answer (both bounds from above); the 2 s between are not.
	served := stop.Sub(time.UnixMilli(v.Clock.TurnStart)) + moved.Sub(restart)
	t.Logf("Black's clock lost %v; the server served %v of the turn at most, and was down %v at least", lost, served, down)
	if lost > served+100*time.Millisecond || lost <= 0 {
		t.Errorf("Black's clock lost %v over a turn the server served at most %v of (down %v)", lost, served, down)
	}
}
