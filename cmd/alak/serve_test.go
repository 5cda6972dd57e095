package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"alak/server/store/sqlitestore"
	"alak/wire"
)

// These tests run alak serve as a real process on a real SQLite file and
// stop it the hard way (SIGKILL) and the polite way (SIGTERM) in the
// middle of games played through the HTTP API.

// buildServe returns the alak binary, built once for the test process
// (into a temporary directory that TestMain removes at the end): each
// test that runs it starts its own processes of the same build.
func buildServe(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the alak binary")
	}
	built.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			// Not on the PATH: the toolchain that built this test binary,
			// which runs where it was built, so its GOROOT is meaningful
			// (go test does not pass GOROOT in the environment).
			//lint:ignore SA1019 the test binary is never copied to another machine
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		if built.dir, built.err = os.MkdirTemp("", "alak-test-bin-"); built.err != nil {
			return
		}
		bin := filepath.Join(built.dir, "alak")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if out, err := exec.CommandContext(ctx, goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.path = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// built is the alak binary of buildServe.
var built struct {
	once sync.Once
	dir  string // removed by TestMain
	path string
	err  error
}

// TestMain removes buildServe's binary once the tests are over.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// syncBuffer is a buffer the process writes to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serveProc is a running alak serve.
type serveProc struct {
	cmd    *exec.Cmd
	url    string
	stderr *syncBuffer
	exited chan struct{} // closed when the process has exited
}

// freePort returns a port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port
}

// startServe starts alak serve on db, with the flags extra, and waits
// (bounded) for /healthz.
func startServe(t *testing.T, bin, db string, extra ...string) *serveProc {
	t.Helper()
	addr := "127.0.0.1:" + strconv.Itoa(freePort(t))
	p := &serveProc{url: "http://" + addr, stderr: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd = exec.Command(bin, append([]string{"serve", "--addr", addr, "--db", db, "--log-level", "warn"}, extra...)...)
	p.cmd.Stdout, p.cmd.Stderr = io.Discard, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.exited
	})
	deadline := time.Now().Add(60 * time.Second)
	hc := &http.Client{Timeout: 5 * time.Second}
	for {
		resp, err := hc.Get(p.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		select {
		case <-p.exited:
			t.Fatalf("alak serve exited at start: %s\n%s", p.cmd.ProcessState, p.stderr)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("alak serve did not answer /healthz within a minute: %v\n%s", err, p.stderr)
		}
	}
}

// wait waits (bounded) for the process to exit and returns its status.
func (p *serveProc) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(60 * time.Second):
		t.Fatalf("alak serve did not exit within a minute\n%s", p.stderr)
	}
	return -1
}

// apiClient speaks to the server as one account, with a bearer token.
type apiClient struct {
	url   string
	token string
	hc    *http.Client
}

// call sends a request and decodes a 2xx answer into out; a transport
// error (no answer) is err.
func (c *apiClient) call(method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.url+path, rd)
	if err != nil {
		return 0, err
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode/100 == 2 && out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: %w: %s", method, path, err, raw)
		}
	}
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, &statusError{resp.StatusCode, string(raw)}
	}
	return resp.StatusCode, nil
}

// statusError is an answer that is not a 2xx.
type statusError struct {
	code int
	body string
}

func (e *statusError) Error() string { return fmt.Sprintf("%d %s", e.code, e.body) }

// serveAccount signs up name and returns a client with a bearer token.
func serveAccount(t *testing.T, url, name string, hc *http.Client) *apiClient {
	t.Helper()
	c := &apiClient{url: url, hc: hc}
	creds := map[string]string{"name": name, "password": "correct horse"}
	if _, err := c.call("POST", "/api/accounts", creds, nil); err != nil {
		t.Fatalf("sign-up of %s: %v", name, err)
	}
	var tok struct{ Token string }
	if _, err := c.call("POST", "/api/tokens", creds, &tok); err != nil {
		t.Fatalf("token of %s: %v", name, err)
	}
	c.token = tok.Token
	return c
}

// serveGame has x challenge o and o accept; it returns the game.
func serveGame(t *testing.T, x, o *apiClient, oName, rules, clock string) wire.Game {
	t.Helper()
	var g wire.Created
	if _, err := x.call("POST", "/api/games", map[string]string{"rules": rules, "color": "x", "clock": clock, "opponent": oName}, &g); err != nil {
		t.Fatalf("create: %v", err)
	}
	var v wire.Game
	if _, err := o.call("POST", "/api/games/"+g.ID+"/join", struct{}{}, &v); err != nil {
		t.Fatalf("join: %v", err)
	}
	return v
}

// moveText writes a snapshot's legal move as a request sends it.
func moveText(m any) string {
	if f, ok := m.(float64); ok {
		return strconv.Itoa(int(f))
	}
	return fmt.Sprint(m)
}

// gameLog is what one client learned of its game: every move the server
// acknowledged, in order, the state after the last one, and the move it
// sent without an answer, if any.
type gameLog struct {
	id      string
	acked   []string
	last    wire.Game // the answer to the last acknowledged move (or the join)
	pending string    // a move sent when the server stopped answering
	failed  error     // why the client stopped
}

// serveClient plays game g for both sides (x and o) until stop is closed or
// the server stops answering: random legal moves with the right ply. Each
// acknowledged move is recorded, and counted in acked, before the next is
// sent.
func serveClient(g *gameLog, x, o *apiClient, seed uint64, stop <-chan struct{}, acked *atomic.Int64) {
	rng := rand.New(rand.NewPCG(seed, 19))
	for {
		select {
		case <-stop:
			return
		default:
		}
		v := g.last
		if v.Over || len(v.Legal) == 0 {
			return
		}
		mover := x
		if v.ToMove == "o" {
			mover = o
		}
		m := moveText(v.Legal[rng.IntN(len(v.Legal))])
		var after wire.Game
		g.pending = m
		if _, err := mover.call("POST", "/api/games/"+g.id+"/moves", map[string]any{"move": m, "ply": v.Ply}, &after); err != nil {
			g.failed = err
			return
		}
		g.pending = ""
		g.acked = append(g.acked, m)
		g.last = after
		acked.Add(1)
	}
}

// playUntil runs a player per game until n moves are acknowledged in all
// (bounded: a minute) or every game ended, then calls interrupt while the
// players still play, and waits (bounded) for the players to stop.
func playUntil(t *testing.T, logs []*gameLog, x, o *apiClient, n int64, interrupt func()) {
	t.Helper()
	stop := make(chan struct{})
	defer close(stop)
	var acked atomic.Int64
	var wg sync.WaitGroup
	for i, g := range logs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			serveClient(g, x, o, uint64(i), stop, &acked)
		}()
	}
	allDone := make(chan struct{})
	go func() {
		wg.Wait()
		close(allDone)
	}()
	deadline := time.Now().Add(time.Minute)
wait:
	for acked.Load() < n {
		select {
		case <-allDone:
			break wait
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Errorf("only %d moves acknowledged in a minute", acked.Load())
			break
		}
	}
	interrupt()
	select {
	case <-allDone:
	case <-time.After(time.Minute):
		t.Fatal("the players did not stop within a minute of the interruption")
	}
}

// TestServeKill9: alak serve is killed (SIGKILL) while several games are
// being played through the API, and started again on the same file. Every
// acknowledged move is there, in order, once; a move sent without an
// answer is there at most once, after them; the live clocks are where the
// last acknowledged move left them; and the games go on.
func TestServeKill9(t *testing.T) {
	t.Parallel() // an alak serve process of its own: its waits overlap the other tests
	bin := buildServe(t)
	db := filepath.Join(t.TempDir(), "alak.db")
	p := startServe(t, bin, db)
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	x := serveAccount(t, p.url, "ada", hc)
	o := serveAccount(t, p.url, "bo", hc)
	clocks := []string{"live:30m+5s", "live:20m+2s", "days:3"}
	increment := map[string]int64{"live:30m+5s": 5000, "live:20m+2s": 2000, "days:3": 0}
	var logs []*gameLog
	for i := range 6 {
		v := serveGame(t, x, o, "bo", "alak size=21", clocks[i%len(clocks)])
		logs = append(logs, &gameLog{id: v.ID, last: v})
	}
	playUntil(t, logs, x, o, 80, func() {
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	})
	p.wait(t)
	if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("alak serve was not killed: %s", p.cmd.ProcessState)
	}
	inFlight, acked := 0, 0
	for _, g := range logs {
		acked += len(g.acked)
		var se *statusError
		switch {
		case errors.As(g.failed, &se):
			t.Errorf("game %s: a move refused before the kill: %v", g.id, se)
		case g.pending != "":
			inFlight++
		}
	}

	q := startServe(t, bin, db)
	x.url, o.url = q.url, q.url
	stored := map[string][]string{}
	kept := 0 // moves sent without an answer that were stored
	for _, g := range logs {
		var v wire.Game
		if _, err := x.call("GET", "/api/games/"+g.id, nil, &v); err != nil {
			t.Fatalf("game %s after the restart: %v", g.id, err)
		}
		stored[g.id] = v.Moves
		n := len(g.acked)
		if len(v.Moves) < n || !slices.Equal(v.Moves[:n], g.acked) {
			t.Errorf("game %s: stored %v, acknowledged %v", g.id, v.Moves, g.acked)
			continue
		}
		switch len(v.Moves) - n {
		case 0:
			// The clocks, the turn's start and its deadline are those of
			// the last acknowledged answer.
			if v.Clock != g.last.Clock || v.Version != g.last.Version || v.Ply != g.last.Ply {
				t.Errorf("game %s: clock %+v version %d ply %d after the restart, %+v %d %d acknowledged",
					g.id, v.Clock, v.Version, v.Ply, g.last.Clock, g.last.Version, g.last.Ply)
			}
		case 1:
			// The move in flight was stored, once: its mover's clock was
			// charged (and given the increment), the other's not.
			if g.pending == "" || v.Moves[n] != g.pending {
				t.Errorf("game %s: a move stored that was not sent: %v, acknowledged %v, in flight %q", g.id, v.Moves, g.acked, g.pending)
			}
			kept++
			mine, theirs, wasMine, wasTheirs := v.Clock.XMillis, v.Clock.OMillis, g.last.Clock.XMillis, g.last.Clock.OMillis
			if g.last.ToMove == "o" {
				mine, theirs, wasMine, wasTheirs = theirs, mine, wasTheirs, wasMine
			}
			if theirs != wasTheirs || mine > wasMine+increment[v.Clock.Spec] || mine < 0 {
				t.Errorf("game %s: clocks %+v after the move in flight, %+v before", g.id, v.Clock, g.last.Clock)
			}
			g.acked, g.last = v.Moves, v
		default:
			t.Errorf("game %s: %d moves stored, %d acknowledged and one sent", g.id, len(v.Moves), n)
		}
	}
	t.Logf("%d moves acknowledged in %d games; %d sent without an answer at the kill, of which %d were stored", acked, len(logs), inFlight, kept)
	// The games go on: two more moves each where they are not over.
	for _, g := range logs {
		var v wire.Game
		x.call("GET", "/api/games/"+g.id, nil, &v)
		for range 2 {
			if v.Over {
				break
			}
			mover := map[string]*apiClient{"x": x, "o": o}[v.ToMove]
			m := moveText(v.Legal[0])
			var after wire.Game
			if _, err := mover.call("POST", "/api/games/"+g.id+"/moves", map[string]any{"move": m, "ply": v.Ply}, &after); err != nil {
				t.Errorf("game %s: %s at ply %d after the restart: %v", g.id, m, v.Ply, err)
				break
			}
			if after.Ply != v.Ply+1 {
				t.Errorf("game %s: ply %d after a move at %d", g.id, after.Ply, v.Ply)
			}
			stored[g.id], v = after.Moves, after
		}
	}
	if err := q.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := q.wait(t); code != 0 {
		t.Errorf("alak serve exited %d after SIGTERM\n%s", code, q.stderr)
	}
	checkLogs(t, db, stored)
	checkHashCost(t, db, "ada")
}

// checkHashCost checks that the account name's password hash, made by a
// real alak serve, has the server's cost: argon2id over 64 MiB, 3 passes,
// 2 lanes (server/internal/accounts/auth.go). The server package's own
// tests hash at a lower cost (server/hashcost_test.go); this is the check
// that alak serve does not.
func checkHashCost(t *testing.T, db, name string) {
	t.Helper()
	st, err := sqlitestore.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.AccountByName(context.Background(), name)
	if err != nil {
		t.Fatalf("account %s: %v", name, err)
	}
	if want := "$argon2id$v=19$m=65536,t=3,p=2$"; !strings.HasPrefix(a.PassHash, want) {
		t.Errorf("%s's password hash %.40s...: want the prefix %s", name, a.PassHash, want)
	}
}

// checkLogs opens the database file and checks that each game's log holds
// its moves once each, numbered from 0, and nothing else.
func checkLogs(t *testing.T, db string, games map[string][]string) {
	t.Helper()
	st, err := sqlitestore.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for id, moves := range games {
		row, log, err := st.Game(context.Background(), id)
		if err != nil {
			t.Fatalf("game %s: %v", id, err)
		}
		var got []string
		for i, e := range log {
			if e.N != i || e.Undo != 0 {
				t.Errorf("game %s: entry %d is %+v", id, i, e)
			}
			got = append(got, e.Move)
		}
		if !slices.Equal(got, moves) || row.Ply != len(moves) {
			t.Errorf("game %s: the log holds %v (ply %d), the API showed %v", id, got, row.Ply, moves)
		}
	}
}

// TestServeSIGTERM: SIGTERM in the middle of games stops alak serve once
// the requests under way are answered, and it exits 0. A move whose body
// is still on its way when the signal comes (the server has asked for it:
// 100 Continue) is read, stored and answered; every move the players sent
// either was answered or is not stored.
func TestServeSIGTERM(t *testing.T) {
	t.Parallel() // an alak serve process of its own: its waits overlap the other tests
	bin := buildServe(t)
	db := filepath.Join(t.TempDir(), "alak.db")
	p := startServe(t, bin, db)
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	x := serveAccount(t, p.url, "ada", hc)
	o := serveAccount(t, p.url, "bo", hc)
	var logs []*gameLog
	for range 4 {
		v := serveGame(t, x, o, "bo", "alak size=15", "live:30m+5s")
		logs = append(logs, &gameLog{id: v.ID, last: v})
	}
	slow := serveGame(t, x, o, "bo", "alak size=15", "live:30m+5s")
	var answer *http.Response
	var answerBody []byte
	playUntil(t, logs, x, o, 40, func() {
		conn, err := net.DialTimeout("tcp", strings.TrimPrefix(p.url, "http://"), 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(time.Minute))
		body := `{"move": "8", "ply": 0}`
		fmt.Fprintf(conn, "POST /api/games/%s/moves HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
			"Content-Length: %d\r\nExpect: 100-continue\r\n\r\n", slow.ID, strings.TrimPrefix(p.url, "http://"), x.token, len(body))
		br := bufio.NewReader(conn)
		line, err := br.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "HTTP/1.1 100 ") {
			t.Fatalf("no 100 Continue: %q %v", line, err)
		}
		if blank, err := br.ReadString('\n'); err != nil || blank != "\r\n" {
			t.Fatalf("after 100 Continue: %q %v", blank, err)
		}
		// The handler waits for the body: stop the server now, and send
		// the body once it no longer takes connections.
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(time.Minute)
		for {
			c, err := net.DialTimeout("tcp", strings.TrimPrefix(p.url, "http://"), time.Second)
			if err != nil {
				break
			}
			c.Close()
			if time.Now().After(deadline) {
				t.Fatal("alak serve still took connections a minute after SIGTERM")
			}
			time.Sleep(5 * time.Millisecond)
		}
		io.WriteString(conn, body)
		answer, err = http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("no answer to the move in flight: %v", err)
		}
		answerBody, _ = io.ReadAll(answer.Body)
		answer.Body.Close()
	})
	var v wire.Game
	if answer.StatusCode != http.StatusOK || json.Unmarshal(answerBody, &v) != nil || v.Ply != 1 || !slices.Equal(v.Moves, []string{"8"}) {
		t.Errorf("the move in flight at SIGTERM: %d %s", answer.StatusCode, answerBody)
	}
	if code := p.wait(t); code != 0 {
		t.Errorf("alak serve exited %d after SIGTERM\n%s", code, p.stderr)
	}
	answered := 0
	for _, g := range logs {
		answered += len(g.acked)
		var se *statusError
		if errors.As(g.failed, &se) {
			t.Errorf("game %s: a move refused: %v", g.id, se)
		}
	}
	t.Logf("%d moves answered in %d games before the server stopped", answered, len(logs))
	// Every stored move was answered, and every answered move is stored.
	stored := map[string][]string{slow.ID: {"8"}}
	for _, g := range logs {
		stored[g.id] = g.acked
	}
	checkLogs(t, db, stored)
	// And it starts again on the file.
	q := startServe(t, bin, db)
	x.url = q.url
	if _, err := x.call("GET", "/api/games/"+slow.ID, nil, &v); err != nil || v.Ply != 1 || v.State != "active" {
		t.Errorf("after the restart: %v ply %d %s", err, v.Ply, v.State)
	}
}

// TestServeCPUProfile: --cpuprofile writes a CPU profile (pprof's gzip
// format) when the server stops on SIGTERM.
func TestServeCPUProfile(t *testing.T) {
	t.Parallel() // an alak serve process of its own: its waits overlap the other tests
	bin := buildServe(t)
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.prof")
	p := startServe(t, bin, filepath.Join(dir, "alak.db"), "--cpuprofile", prof)
	serveAccount(t, p.url, "ada", &http.Client{Timeout: 30 * time.Second})
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(t); code != 0 {
		t.Fatalf("alak serve exited %d after SIGTERM\n%s", code, p.stderr)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("the profile is %d bytes and not gzip", len(b))
	}
}
