package server

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/server/store"
	"alak/server/store/pgstore"
	"alak/server/store/pgstore/pgtest"
	"alak/wire"
)

// These tests break what the server stands on (the client's connection,
// the disk, the database) in the middle of games, and check the one
// promise that matters: no acknowledged move is lost and none is applied
// twice; the server says so with an error (a JSON sentence) while it
// cannot store a move, and plays on once the fault is gone.

// moveTry is a move request and its answer: the status (0: no answer) and
// the error's code.
type moveTry struct {
	ply    int
	move   string
	status int
	code   string
}

// uncertain reports whether the request may have been applied without an
// acknowledgement: no answer, or a server error.
func (m moveTry) uncertain() bool { return m.status == 0 || m.status >= 500 || m.status == 499 }

// call sends a JSON request as c to the server at base and returns the
// status (0 when there was no answer) and the body. It never fails the
// test, so goroutines may use it.
func call(c *client, base, method, path string, body any) (int, []byte) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return 0, nil
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.c.Do(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil
	}
	return resp.StatusCode, out
}

// step reads game id from the server at base and, if it goes on, plays a
// legal move for the side to move (players: "x" and "o"); it returns the
// try (ok false when the game could not be read or is over) and whether
// the game is over.
func step(players map[string]*client, base, id string) (try moveTry, ok, over bool) {
	status, body := call(players["x"], base, "GET", "/api/games/"+id, nil)
	if status != http.StatusOK {
		return try, false, false
	}
	var v wire.Game
	if json.Unmarshal(body, &v) != nil {
		return try, false, false
	}
	if v.Over || v.State != store.StateActive || len(v.Legal) == 0 {
		return try, false, true
	}
	try = moveTry{ply: v.Ply, move: legalText(v.Legal[(v.Ply*7)%len(v.Legal)])}
	try.status, body = call(players[v.ToMove], base, "POST", "/api/games/"+id+"/moves", map[string]any{"move": try.move, "ply": try.ply})
	if try.status != http.StatusOK {
		var e errBody
		json.Unmarshal(body, &e)
		try.code = e.Code
	}
	return try, true, false
}

// checkTries compares game id's stored log with the requests made: every
// acknowledged move is stored at its ply, a ply is acknowledged once at
// most, and every stored move was acknowledged or left uncertain (no
// answer, a server error) at that ply. It returns the stored moves that
// were not acknowledged.
func checkTries(t *testing.T, st store.Store, id string, tries []moveTry) (unacked int) {
	t.Helper()
	row, log, err := st.Game(context.Background(), id)
	if err != nil {
		t.Errorf("game %s: %v", id, err)
		return 0
	}
	var stored []string
	for i, e := range log {
		if e.N != i || e.Undo != 0 {
			t.Errorf("game %s: entry %d is %+v", id, i, e)
		}
		stored = append(stored, e.Move)
	}
	if row.Ply != len(stored) {
		t.Errorf("game %s: ply %d, %d moves in the log", id, row.Ply, len(stored))
	}
	at := map[int][]moveTry{}
	for _, m := range tries {
		at[m.ply] = append(at[m.ply], m)
	}
	for ply, ms := range at {
		acks := 0
		for _, m := range ms {
			if m.status != http.StatusOK {
				continue
			}
			acks++
			if ply >= len(stored) || stored[ply] != m.move {
				t.Errorf("game %s: %s acknowledged at ply %d is lost: stored %v", id, m.move, ply, stored)
			}
		}
		if acks > 1 {
			t.Errorf("game %s: ply %d acknowledged %d times", id, ply, acks)
		}
	}
	for ply, s := range stored {
		found, acked := false, false
		for _, m := range at[ply] {
			if m.move == s && (m.status == http.StatusOK || m.uncertain()) {
				found, acked = true, acked || m.status == http.StatusOK
			}
		}
		if !found {
			t.Errorf("game %s: %s stored at ply %d, where no request could have put it (%v)", id, s, ply, at[ply])
		}
		if !acked {
			unacked++
		}
	}
	return unacked
}

// checkServerError checks that a server error is a JSON sentence.
func checkServerError(t *testing.T, what string, status int, body []byte) {
	t.Helper()
	var e errBody
	if err := json.Unmarshal(body, &e); err != nil || e.Error == "" || e.Code == "" || status < 500 {
		t.Errorf("%s: %d %q, want a 5xx with a JSON sentence", what, status, body)
	}
}

// TestFaultClientGoneMidRequest: a client sends a move and disconnects
// before the answer, then sends the same request again (same ply). The
// move is applied exactly once: the retry is answered 409 stale_ply when
// the first was applied, 200 when it was not. Three moments of the
// disconnection: while the body is on its way (never applied); once the
// server is storing it (the store finds the request cancelled: not
// applied); and once it is stored, before the answer (applied, the answer
// lost).
func TestFaultClientGoneMidRequest(t *testing.T) {
	t.Parallel()
	h, fs := faultHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	token := ada.bearer("ada")
	g := ada.create(map[string]string{"rules": "alak size=15", "color": "x", "clock": "none", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	addr := strings.TrimPrefix(h.http.URL, "http://")
	ply := 0
	// moveBy plays ply's move for the side to move, as a normal client.
	next := func() string { return []string{"1", "15", "3", "13", "5", "11", "7", "9"}[ply] }
	// rawMove sends the move on a connection of its own, the body cut at
	// cut bytes, and returns the connection, open.
	rawMove := func(move string, cut int) net.Conn {
		body := fmt.Sprintf(`{"move":%q,"ply":%d}`, move, ply)
		conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST /api/games/%s/moves HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			g.ID, addr, token, len(body), body[:min(cut, len(body))])
		return conn
	}
	retry := func(name string, move string, firstApplied bool) {
		t.Helper()
		code, _, e := ada.move(g.ID, move, ply)
		switch {
		case firstApplied && (code != http.StatusConflict || e.Code != "stale_ply"):
			t.Errorf("%s: the retry after an applied move: %d %+v, want 409 stale_ply", name, code, e)
		case !firstApplied && code != http.StatusOK:
			t.Errorf("%s: the retry after a move not applied: %d %+v, want 200", name, code, e)
		}
		ply++
		_, log, err := h.st.Game(context.Background(), g.ID)
		if err != nil || len(log) != ply || log[ply-1].Move != move {
			t.Fatalf("%s: the log after the retry: %+v %v, want %d entries ending with %s", name, log, err, ply, move)
		}
		// Black moves again: White answers.
		if code, _, e := bo.move(g.ID, next(), ply); code != http.StatusOK {
			t.Fatalf("%s: White's answer: %d %+v", name, code, e)
		}
		ply++
	}

	t.Run("body cut short", func(t *testing.T) {
		fs.setUpdate(func(ctx context.Context, g store.Game, next func(context.Context) error) error {
			t.Errorf("a move with half a body reached the store")
			return next(ctx)
		})
		conn := rawMove(next(), 8)
		// The server reads what came, waits for the rest, and gives up
		// when the connection closes: its answer is never read.
		conn.Close()
		fs.setUpdate(nil)
		retry("body cut short", next(), false)
	})

	t.Run("gone while storing", func(t *testing.T) {
		entered, returned := make(chan struct{}), make(chan error, 1)
		var once sync.Once
		fs.setUpdate(func(ctx context.Context, g store.Game, next func(context.Context) error) error {
			first := false
			once.Do(func() { first = true })
			if !first {
				return next(ctx)
			}
			close(entered)
			select { // the client hangs up: the request's context ends
			case <-ctx.Done():
			case <-time.After(30 * time.Second):
			}
			err := next(ctx)
			returned <- err
			return err
		})
		defer fs.setUpdate(nil)
		move := next()
		conn := rawMove(move, 1<<20)
		<-entered
		conn.Close()
		var err error
		select {
		case err = <-returned:
		case <-time.After(time.Minute):
			t.Fatal("the store's write did not return within a minute")
		}
		if err == nil {
			t.Log("the request's context outlived the connection: the move was stored")
		}
		retry("gone while storing", move, err == nil)
	})

	t.Run("gone once stored", func(t *testing.T) {
		stored, returned := make(chan struct{}), make(chan struct{})
		var once sync.Once
		fs.setUpdate(func(ctx context.Context, g store.Game, next func(context.Context) error) error {
			first := false
			once.Do(func() { first = true })
			if !first {
				return next(ctx)
			}
			defer close(returned)
			err := next(ctx)
			close(stored)
			select { // the answer is written once the client has gone
			case <-ctx.Done():
			case <-time.After(30 * time.Second):
			}
			return err
		})
		defer fs.setUpdate(nil)
		move := next()
		conn := rawMove(move, 1<<20)
		<-stored
		conn.Close()
		select {
		case <-returned:
		case <-time.After(time.Minute):
			t.Fatal("the store's write did not return within a minute")
		}
		retry("gone once stored", move, true)
	})
}

// smallDisk mounts a tmpfs of size bytes for the test, when the test runs
// as root and may mount; it skips otherwise. It is unmounted at the end.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("mounts a file system")
	}
	if os.Geteuid() != 0 {
		t.Skip("fills a small tmpfs, which only root may mount")
	}
	dir := filepath.Join(t.TempDir(), "small")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// fill writes a file in dir until the file system is full; it returns its
// path.
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, n := range []int{64 << 10, 4 << 10, 512} {
		buf := make([]byte, n)
		for i := 0; i < 1<<20; i++ {
			if _, err := f.Write(buf); err != nil {
				break
			}
		}
	}
	return path
}

// playRound makes one move in each game (a new game where one is over,
// when the disk lets it be created) and returns the tries.
func playRound(t *testing.T, h *harness, players map[string]*client, games []string, tries map[string][]moveTry) (acks, errs int) {
	t.Helper()
	for i, id := range games {
		try, ok, over := step(players, h.http.URL, id)
		if over {
			status, body := call(players["x"], h.http.URL, "POST", "/api/games", map[string]string{"rules": "alak size=21", "color": "x", "clock": "none", "opponent": "bo"})
			var cv wire.Created
			if status == http.StatusCreated && json.Unmarshal(body, &cv) == nil {
				if status, _ := call(players["o"], h.http.URL, "POST", "/api/games/"+cv.ID+"/join", nil); status == http.StatusOK {
					games[i] = cv.ID
				}
			}
			continue
		}
		if !ok {
			continue
		}
		tries[id] = append(tries[id], try)
		switch {
		case try.status == http.StatusOK:
			acks++
		case try.status >= 500:
			errs++
		default:
			t.Errorf("game %s: %s at ply %d: %d %s", id, try.move, try.ply, try.status, try.code)
		}
	}
	return acks, errs
}

// TestFaultDiskFull: the SQLite file is on a small tmpfs, which a file
// fills in the middle of games. Moves are then answered 500 with a JSON
// sentence, never 200 for a move not stored; once the filler is removed
// the same server plays on without a restart; and after a restart every
// acknowledged move is on disk once, the file whole (integrity_check).
func TestFaultDiskFull(t *testing.T) {
	t.Parallel()
	dir := smallDisk(t, "8m")
	h := &harness{t: t, path: filepath.Join(dir, "alak.db"), clock: &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}}
	h.cfg = Config{Now: h.clock.Now, SweepEvery: time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), GameRate: 1 << 20}
	h.start()
	t.Cleanup(h.stop)
	players := map[string]*client{"x": h.client().signUp("ada"), "o": h.client().signUp("bo")}
	var games []string
	for range 6 {
		g := players["x"].create(map[string]string{"rules": "alak size=21", "color": "x", "clock": "none", "opponent": "bo"})
		players["o"].do("POST", "/api/games/"+g.ID+"/join", nil, nil)
		games = append(games, g.ID)
	}
	tries := map[string][]moveTry{}
	for range 3 {
		if acks, errs := playRound(t, h, players, games, tries); acks != len(games) || errs != 0 {
			t.Fatalf("before the disk fills: %d moves acknowledged, %d errors", acks, errs)
		}
	}

	filler := fill(t, dir)
	var acks, errs int
	for round := 0; errs < 3*len(games) && round < 500; round++ {
		a, e := playRound(t, h, players, games, tries)
		acks, errs = acks+a, errs+e
	}
	if errs == 0 {
		t.Fatalf("the full disk failed no write in 500 rounds (%d moves acknowledged)", acks)
	}
	// The error is a sentence.
	for _, id := range games {
		var v wire.Game
		if code := players["x"].do("GET", "/api/games/"+id, nil, &v); code != http.StatusOK || v.Over {
			continue
		}
		status, body := call(players[v.ToMove], h.http.URL, "POST", "/api/games/"+id+"/moves", map[string]any{"move": legalText(v.Legal[0]), "ply": v.Ply})
		tries[id] = append(tries[id], moveTry{ply: v.Ply, move: legalText(v.Legal[0]), status: status})
		if status == http.StatusOK {
			continue
		}
		checkServerError(t, "a move on a full disk", status, body)
		break
	}
	t.Logf("the disk full: %d moves acknowledged, %d refused with 5xx", acks, errs)

	// Space comes back: the same server plays on.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if a, _ := playRound(t, h, players, games, tries); a == len(games) {
			break
		} else if i == 4 {
			t.Fatalf("with space again, only %d of %d moves acknowledged in a round", a, len(games))
		}
	}

	h.restart()
	unacked := 0
	for id, ts := range tries {
		unacked += checkTries(t, h.st, id, ts)
	}
	var check string
	if err := h.st.(interface{ DB() *sql.DB }).DB().QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity of the file: %q %v", check, err)
	}
	if unacked != 0 {
		t.Errorf("%d moves stored that were answered with an error", unacked)
	}
}

// TestFaultDatabaseReadOnly: PostgreSQL is made read-only under the
// server (ALTER DATABASE ... SET default_transaction_read_only, and the
// server's connections ended). Games can still be read; moves are answered
// 500 with a JSON sentence, none acknowledged; once the database is
// writable again the server reconnects and plays on, and every
// acknowledged move is stored once.
func TestFaultDatabaseReadOnly(t *testing.T) {
	t.Parallel()
	url := pgtest.Database(t)
	name := strings.TrimPrefix(mustURL(t, url).Path, "/")
	admin, err := sql.Open("pgx", pgtest.Admin(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	st, err := pgstore.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	clock := &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	h := &harness{t: t, clock: clock, cfg: Config{Now: clock.Now, SweepEvery: time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), GameRate: 1 << 20}, st: st}
	if h.srv, err = New(h.cfg, st); err != nil {
		t.Fatal(err)
	}
	h.http = httptest.NewServer(h.srv.Handler())
	h.srv.cfg.BaseURL = h.http.URL
	t.Cleanup(h.stop)
	players := map[string]*client{"x": h.client().signUp("ada"), "o": h.client().signUp("bo")}
	var games []string
	for range 4 {
		g := players["x"].create(map[string]string{"rules": "alak size=21", "color": "x", "clock": "none", "opponent": "bo"})
		players["o"].do("POST", "/api/games/"+g.ID+"/join", nil, nil)
		games = append(games, g.ID)
	}
	tries := map[string][]moveTry{}
	playRound(t, h, players, games, tries)
	readOnly := func(on bool) {
		t.Helper()
		if _, err := admin.Exec(fmt.Sprintf("ALTER DATABASE %s SET default_transaction_read_only = %v", name, on)); err != nil {
			t.Fatal(err)
		}
		if _, err := admin.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, name); err != nil {
			t.Fatal(err)
		}
	}
	readOnly(true)
	errs := 0
	for range 3 {
		for _, id := range games {
			try, ok, _ := step(players, h.http.URL, id)
			if !ok {
				continue
			}
			tries[id] = append(tries[id], try)
			if try.status == http.StatusOK {
				t.Errorf("game %s: a move acknowledged on a read-only database", id)
			} else if try.status >= 500 {
				errs++
			}
		}
	}
	// Reads go on; a move's refusal is a sentence.
	var v wire.Game
	if code := players["x"].do("GET", "/api/games/"+games[0], nil, &v); code != http.StatusOK {
		t.Fatalf("reading a game on a read-only database: %d", code)
	}
	status, body := call(players[v.ToMove], h.http.URL, "POST", "/api/games/"+games[0]+"/moves", map[string]any{"move": legalText(v.Legal[0]), "ply": v.Ply})
	tries[games[0]] = append(tries[games[0]], moveTry{ply: v.Ply, move: legalText(v.Legal[0]), status: status})
	checkServerError(t, "a move on a read-only database", status, body)
	if errs == 0 {
		t.Error("no move was refused on the read-only database")
	}
	readOnly(false)
	for i := 0; i < 5; i++ {
		if a, _ := playRound(t, h, players, games, tries); a == len(games) {
			break
		} else if i == 4 {
			t.Fatalf("writable again, only %d of %d moves acknowledged in a round", a, len(games))
		}
	}
	for id, ts := range tries {
		if n := checkTries(t, h.st, id, ts); n != 0 {
			t.Errorf("game %s: %d moves stored that were answered with an error", id, n)
		}
	}
}

// readEvents reads a game's event stream at url into a channel of states
// until ctx ends; unlike stream, it does not fail the test from its
// goroutine.
func readEvents(ctx context.Context, url string) (<-chan wire.Game, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("events: %d", resp.StatusCode)
	}
	out := make(chan wire.Game, 64)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var v wire.Game
			if json.Unmarshal([]byte(data), &v) != nil {
				continue
			}
			select {
			case out <- v:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// waitPly waits (bounded) for a state at ply or later on events.
func waitPly(t *testing.T, events <-chan wire.Game, ply int, what string) {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case v, ok := <-events:
			if !ok {
				t.Fatalf("%s: the stream ended", what)
			}
			if v.Ply >= ply {
				return
			}
		case <-timeout:
			t.Fatalf("%s: no state at ply %d within a minute", what, ply)
		}
	}
}
