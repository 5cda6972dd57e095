package bot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"alak/player"
	"alak/rules"
	"alak/server"
	"alak/server/store"
	"alak/server/store/sqlitestore"
	"alak/server/store/sqlstore"
	"alak/wire"
)

// testServer is a real play server on a SQLite file, on loopback, which a
// test may stop and start again on the same address and file (a restart).
type testServer struct {
	t    *testing.T // the test that started it; nil for the shared server
	db   string
	addr string
	url  string
	st   *sqlstore.Store
	srv  *server.Server
	hs   *http.Server
	done chan struct{}
}

func startServer(t *testing.T, db, addr string) *testServer {
	t.Helper()
	s, err := newServer(db, addr)
	if err != nil {
		t.Fatal(err)
	}
	s.t = t
	t.Cleanup(s.stop)
	return s
}

// firstMove is the test servers' limit on each player's first move in a
// live game (the server's default is 30 s), which TestBridgeFirstMove
// needs short.
const firstMove = 5 * time.Second

func newServer(db, addr string) (*testServer, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	st, err := sqlitestore.Open(context.Background(), db)
	if err != nil {
		return nil, err
	}
	srv, err := server.New(server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		SignupRate: 1000, SweepEvery: 100 * time.Millisecond, BotWorkers: 1, FirstMove: firstMove}, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	var ln net.Listener
	for try := 0; ; try++ { // the address of a server just stopped may take a moment to be free
		if ln, err = net.Listen("tcp", addr); err == nil || try == 50 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		srv.Close()
		st.Close()
		return nil, err
	}
	s := &testServer{db: db, addr: ln.Addr().String(), st: st, srv: srv, hs: &http.Server{Handler: srv.Handler()}, done: make(chan struct{})}
	s.url = "http://" + s.addr
	go func() {
		defer close(s.done)
		s.hs.Serve(ln)
	}()
	return s, nil
}

// shared is the server the tests that do not restart it share: a server
// starts in seconds under the race detector (it hashes a password at the
// real argon2id cost when it starts). Each test has accounts of its own.
var shared struct {
	once sync.Once
	srv  *testServer
	dir  string
	err  error
}

func sharedServer(t *testing.T) *testServer {
	t.Helper()
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "alak-bot-test"); shared.err == nil {
			shared.srv, shared.err = newServer(filepath.Join(shared.dir, "alak.db"), "")
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.srv
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.srv != nil {
		shared.srv.stop()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// stop stops the server abruptly: its connections and streams are cut.
func (s *testServer) stop() {
	select {
	case <-s.done:
		return
	default:
	}
	s.hs.Close()
	<-s.done
	s.srv.Close()
	s.st.Close()
}

// restart stops the server and starts a new process on the same file and
// address.
func (s *testServer) restart() *testServer {
	s.stop()
	return startServer(s.t, s.db, s.addr)
}

// post sends a JSON request and decodes the answer.
func post(t *testing.T, url, token, path string, body, out any) error {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("POST %s: %d %s", path, resp.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// account makes an account (a bot account with isBot) and returns a
// bearer token of it. Both are written to the store as the server writes
// them (a token is stored as the hex SHA-256 of its secret, store.Token):
// through the API each would cost an argon2id hash at the server's real
// cost, seconds under the race detector, and signing up is not what these
// tests are about.
func account(t *testing.T, srv *testServer, name string, isBot bool) string {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	a, err := srv.st.CreateAccount(ctx, store.Account{Name: name, PassHash: "not a password hash: signs nobody in", Created: now, Bot: isBot})
	if err != nil {
		t.Fatal(err)
	}
	secret := fmt.Sprintf("%s-token-%d", name, now.UnixNano())
	sum := sha256.Sum256([]byte(secret))
	if err := srv.st.CreateToken(ctx, store.Token{Hash: hex.EncodeToString(sum[:]), AccountID: a.ID, Kind: store.TokenAPI, Created: now, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	return secret
}

// challenge has the person with token challenge name: the person plays x.
func challenge(t *testing.T, url, token, name, rulesText, clock string) string {
	t.Helper()
	var c struct{ ID string }
	if err := post(t, url, token, "/api/games", map[string]any{"rules": rulesText, "color": "x", "clock": clock, "opponent": name}, &c); err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// person plays seat color of game id through the API as a page does: it
// follows the game's event stream and answers each of its turns with the
// greedy player's move, until the game ends (its final state returned) or
// ctx ends. It reconnects after a lost stream (a server restart).
func person(ctx context.Context, c *Client, id, color string, seed uint64) (wire.Game, error) {
	p := player.NewGreedy(seed)
	var final wire.Game
	for ctx.Err() == nil {
		err := c.Stream(ctx, "/api/games/"+id+"/events", 30*time.Second, func(ev Event) error {
			var v wire.Game
			if err := json.Unmarshal([]byte(ev.Data), &v); err != nil {
				return err
			}
			if gameEnded(&v) {
				final = v
				return errGameEnded
			}
			if v.State != "active" || v.ToMove != color {
				return nil
			}
			r, err := rules.Parse(v.Rules)
			if err != nil {
				return err
			}
			g, err := rules.NewGame(r)
			if err != nil {
				return err
			}
			for _, s := range v.Moves {
				m, err := r.ParseMoveText(s)
				if err != nil {
					return err
				}
				if err := g.Play(m); err != nil {
					return err
				}
			}
			m, err := p.Move(ctx, g)
			if err != nil {
				return err
			}
			if err := c.Move(ctx, id, r.MoveText(m), v.Ply); err != nil && codeOf(err) != "stale_ply" {
				var ae *APIError
				if errors.As(err, &ae) {
					return err
				}
			}
			return nil
		})
		if errors.Is(err, errGameEnded) {
			return final, nil
		}
		var ae *APIError
		if errors.As(err, &ae) {
			return final, err
		}
		sleep(ctx, 100*time.Millisecond)
	}
	return final, ctx.Err()
}

// runBridge runs a bridge until the test ends (or stop is called) and
// collects its results.
type runningBridge struct {
	b       *Bridge
	stop    context.CancelFunc
	done    chan error
	mu      sync.Mutex
	results map[string]Result
}

func runBridge(t *testing.T, url, token, engine string, cfg Config) *runningBridge {
	t.Helper()
	eng, err := NewEngine(context.Background(), engine)
	if err != nil {
		t.Fatal(err)
	}
	rb := &runningBridge{done: make(chan error, 1), results: map[string]Result{}}
	cfg.URL, cfg.Token, cfg.Engine = url, token, eng
	cfg.Retry, cfg.MaxRetry = 100*time.Millisecond, 500*time.Millisecond
	cfg.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	cfg.Result = func(r Result) {
		rb.mu.Lock()
		defer rb.mu.Unlock()
		rb.results[r.Game] = r
	}
	if rb.b, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	rb.stop = cancel
	go func() { rb.done <- rb.b.Run(ctx) }()
	t.Cleanup(func() { rb.halt(t) })
	return rb
}

// halt stops the bridge as SIGTERM does and waits for it, at most 10 s.
func (rb *runningBridge) halt(t *testing.T) {
	t.Helper()
	rb.stop()
	select {
	case err, ok := <-rb.done:
		if ok && err != nil {
			t.Errorf("the bridge: %v", err)
		}
		if ok {
			close(rb.done)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the bridge did not stop within 10 s of its context's end")
	}
}

func (rb *runningBridge) result(id string) (Result, bool) {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	r, ok := rb.results[id]
	return r, ok
}

// testWriter sends the bridge's logs to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// waitFor polls cond every 20 ms for at most d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("after %v: %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// playGames has the person play x in each game against the bot and
// checks that each ends with a result the bridge reported as the server
// shows it.
func playGames(t *testing.T, ctx context.Context, url, token string, rb *runningBridge, ids ...string) []wire.Game {
	t.Helper()
	c, err := NewClient(url, token)
	if err != nil {
		t.Fatal(err)
	}
	finals := make([]wire.Game, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			finals[i], errs[i] = person(ctx, c, id, "x", uint64(i+1))
		}()
	}
	wg.Wait()
	for i, id := range ids {
		if errs[i] != nil {
			t.Fatalf("game %s: %v", id, errs[i])
		}
		checkResult(t, rb, finals[i])
	}
	return finals
}

// checkResult checks that the bridge reported game v's end as the server
// shows it.
func checkResult(t *testing.T, rb *runningBridge, v wire.Game) {
	t.Helper()
	var r Result
	waitFor(t, 5*time.Second, "the bridge reported no result for game "+v.ID, func() (ok bool) {
		r, ok = rb.result(v.ID)
		return ok
	})
	want := Result{Game: v.ID, Rules: v.Rules, Color: "o", Opponent: v.Players["x"].Name, State: v.State,
		Result: v.SGFResult, Moves: len(v.Moves), Rated: v.Rated}
	if v.Winner != nil {
		want.Winner = *v.Winner
	}
	if v.Reason != nil {
		want.Reason = *v.Reason
	}
	switch want.Winner {
	case "o":
		want.Score = 1
	case "draw":
		want.Score = 0.5
	}
	if r != want {
		t.Errorf("game %s: the bridge reported\n%+v\nthe server shows\n%+v", v.ID, r, want)
	}
}

// gameState reads a game as the person.
func gameState(t *testing.T, url, token, id string) wire.Game {
	t.Helper()
	c, _ := NewClient(url, token)
	g, err := c.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestBridgeBuiltin: a bot with a built-in engine plays two games at once
// against a person through the API, to their end, and declines a
// challenge whose rules --rules does not match, saying why.
func TestBridgeBuiltin(t *testing.T) {
	t.Parallel() // accounts of its own on the shared server
	srv := sharedServer(t)
	botTok := account(t, srv, "mctsbot", true)
	ada := account(t, srv, "ada-b", false)
	rb := runBridge(t, srv.url, botTok, "mcts:playouts=300", Config{Rules: "alak size=7,alak size=9"})
	ids := []string{challenge(t, srv.url, ada, "mctsbot", "alak size=7", "live:2m"), challenge(t, srv.url, ada, "mctsbot", "alak size=9", "none")}
	golf := challenge(t, srv.url, ada, "mctsbot", "golf size=7", "none")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	finals := playGames(t, ctx, srv.url, ada, rb, ids...)
	for _, v := range finals {
		if v.State != "finished" || len(v.Moves) < 4 {
			t.Errorf("game %s ended %s after %d moves, want finished and played out", v.ID, v.State, len(v.Moves))
		}
	}
	// A game_start sent while a game was under way and read after its end
	// (the account's stream replays every active game on each connect)
	// neither plays it nor reports it again.
	rb.b.handle(context.Background(), Event{Type: "game_start", Data: `{"type":"game_start","id":"` + ids[0] + `"}`})
	rb.b.mu.Lock()
	again := rb.b.running[ids[0]]
	rb.b.mu.Unlock()
	if again {
		t.Errorf("a late game_start of game %s, over, started it again", ids[0])
	}
	waitFor(t, 5*time.Second, "the golf challenge was not declined", func() bool {
		return gameState(t, srv.url, ada, golf).State == "expired"
	})
	g := gameState(t, srv.url, ada, golf)
	if want := "declined: the bot plays only the rules alak size=7, alak size=9, not golf size=7"; g.Reason == nil || *g.Reason != want {
		t.Errorf("the golf challenge's reason is %v, want %q", g.Reason, want)
	}
}

// TestClipReason: a decline's reason fits the server's limit (200 bytes,
// one line) and is cut at a character's boundary.
func TestClipReason(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes
	for _, tc := range []struct{ in, want string }{
		{"busy", "busy"},
		{"two\nlines\tand  spaces", "two lines and spaces"},
		{long, strings.Repeat("é", 98) + "..."}, // 196 + 3 bytes: the 99th é would end at byte 198, then ... is 201
	} {
		got := clipReason(tc.in)
		if got != tc.want || len(got) > maxReason || !utf8.ValidString(got) {
			t.Errorf("clipReason(%.20q) = %q (%d bytes), want %q", tc.in, got, len(got), tc.want)
		}
	}
}

// perlEngine is the spec of the Perl test engine with its arguments.
func perlEngine(t *testing.T, args ...string) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/perl"); err != nil {
		t.Skip("no /usr/bin/perl")
	}
	abs, err := filepath.Abs("testdata/engine.pl")
	if err != nil {
		t.Fatal(err)
	}
	return "gtp:setup=10s genmove=20s /usr/bin/perl " + abs + " " + strings.Join(args, " ")
}

// enginePIDs reads the process ids the Perl engine logged at its starts.
func enginePIDs(t *testing.T, log string) []int {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, line := range strings.Split(string(data), "\n") {
		if s, ok := strings.CutPrefix(line, "pid "); ok {
			if n, err := strconv.Atoi(s); err == nil {
				pids = append(pids, n)
			}
		}
	}
	return pids
}

// alive reports whether process pid exists (and is not a zombie of ours).
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	f := strings.Fields(string(data))
	return len(f) > 2 && f[2] != "Z"
}

// TestBridgeGTP: a bot whose engine is the Perl test engine (plain GTP,
// another language) plays a whole live game against a person, told the
// clocks with time_left, one engine process for the game, stopped at its
// end; challenges it cannot play are declined, saying why: sliding rules
// (plain GTP has no sliding moves) and a set-up start (GTP replays a game
// from the rules' own start).
func TestBridgeGTP(t *testing.T) {
	t.Parallel() // accounts of its own on the shared server
	srv := sharedServer(t)
	botTok := account(t, srv, "perlbot", true)
	ada := account(t, srv, "ada-g", false)
	log := filepath.Join(t.TempDir(), "engine.log")
	rb := runBridge(t, srv.url, botTok, perlEngine(t, "--log", log), Config{})
	id := challenge(t, srv.url, ada, "perlbot", "alak size=9", "live:5m+2s")
	slide := challenge(t, srv.url, ada, "perlbot", "dewdney size=7", "none")
	var setUp struct{ ID string }
	if err := post(t, srv.url, ada, "/api/games", map[string]any{"rules": "alak size=7", "position": "x--o---", "to_move": "x",
		"color": "x", "clock": "none", "opponent": "perlbot"}, &setUp); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	v := playGames(t, ctx, srv.url, ada, rb, id)[0]
	if v.State != "finished" || len(v.Moves) < 4 {
		t.Errorf("game %s ended %s after %d moves, want finished and played out", v.ID, v.State, len(v.Moves))
	}
	for id, why := range map[string]string{
		slide:    "declined: the engine does not know alak-rules, and plain GTP has no sliding moves",
		setUp.ID: "declined: the engine plays over GTP, which starts from the rules' own start position, not a set-up one",
	} {
		waitFor(t, 5*time.Second, "challenge "+id+" was not declined", func() bool {
			return gameState(t, srv.url, ada, id).State == "expired"
		})
		if g := gameState(t, srv.url, ada, id); g.Reason == nil || *g.Reason != why {
			t.Errorf("challenge %s (%s) ended with the reason %v, want %q", id, g.Rules, g.Reason, why)
		}
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	// The bridge told the engine both clocks before its moves: 5 minutes
	// each at most, in whole seconds.
	if !strings.Contains(string(data), "time_left b ") || !strings.Contains(string(data), "time_left w ") || !strings.Contains(string(data), "genmove w") {
		t.Errorf("the engine was not told the clocks before genmove; it received:\n%s", data)
	}
	pids := enginePIDs(t, log)
	// The start-up check (known_command alak-rules) and the game's one process.
	if len(pids) != 2 {
		t.Errorf("%d engine processes started, want 2 (the start-up check and the game's): %v; the engine received:\n%s", len(pids), pids, data)
	}
	waitFor(t, 5*time.Second, "an engine process outlived its game", func() bool {
		for _, p := range pids {
			if alive(p) {
				return false
			}
		}
		return true
	})
}

// TestBridgeServerRestart: the server is stopped in the middle of the
// bot's game and started again on the same database and address; the
// bridge reconnects, resumes the game and plays it to its end, and a new
// challenge after the restart is taken too.
func TestBridgeServerRestart(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "alak.db"), "")
	botTok := account(t, srv, "robo", true)
	ada := account(t, srv, "ada", false)
	rb := runBridge(t, srv.url, botTok, "mcts:playouts=200", Config{})
	id := challenge(t, srv.url, ada, "robo", "alak size=9", "none")
	c, _ := NewClient(srv.url, ada)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The person plays the first moves, then the server goes down.
	firstPart, stopFirst := context.WithCancel(ctx)
	go person(firstPart, c, id, "x", 1)
	waitFor(t, 20*time.Second, "the bot did not play its second move", func() bool {
		return gameState(t, srv.url, ada, id).Ply >= 4
	})
	stopFirst()
	srv = srv.restart()
	if v := gameState(t, srv.url, ada, id); v.State != "active" {
		t.Fatalf("after the restart the game is %s", v.State)
	}
	id2 := challenge(t, srv.url, ada, "robo", "alak size=7", "none")
	finals := playGames(t, ctx, srv.url, ada, rb, id, id2)
	for _, v := range finals {
		if v.State != "finished" {
			t.Errorf("game %s ended %s, want finished", v.ID, v.State)
		}
	}
}

// TestBridgeHangingEngine: the engine hangs in one game (the Perl engine
// with --hang-size 7 never answers genmove on 7 points after its first
// move): that game is lost on time, the hung process is killed, and the
// bridge plays the other game (9 points) to its end. Then SIGTERM (the
// context's end) stops the bridge at once, leaving a game under way to
// its clock, and a bridge started again resumes it.
func TestBridgeHangingEngine(t *testing.T) {
	t.Parallel() // accounts of its own on the shared server; it waits seconds for a clock to run out
	srv := sharedServer(t)
	botTok := account(t, srv, "hangbot", true)
	ada := account(t, srv, "ada-h", false)
	log := filepath.Join(t.TempDir(), "engine.log")
	engine := perlEngine(t, "--log", log, "--hang-size", "7")
	rb := runBridge(t, srv.url, botTok, engine, Config{})
	hung := challenge(t, srv.url, ada, "hangbot", "alak size=7", "live:2s")
	ok := challenge(t, srv.url, ada, "hangbot", "alak size=9", "none")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	finals := playGames(t, ctx, srv.url, ada, rb, hung, ok)
	if v := finals[0]; v.Winner == nil || *v.Winner != "x" || v.Reason == nil || *v.Reason != "time" {
		t.Errorf("the hung engine's game ended %s, winner %v, reason %v; want lost on time", v.State, v.Winner, v.Reason)
	}
	if v := finals[1]; v.State != "finished" || len(v.Moves) < 4 {
		t.Errorf("the other game ended %s after %d moves, want finished and played out", v.State, len(v.Moves))
	}
	waitFor(t, 10*time.Second, "a hung engine process was left running", func() bool {
		for _, p := range enginePIDs(t, log) {
			if alive(p) {
				return false
			}
		}
		return true
	})

	// SIGTERM in the middle of a game: the bridge stops at once and the
	// game stays under way; a new bridge finishes it.
	next := challenge(t, srv.url, ada, "hangbot", "alak size=9", "none")
	c, _ := NewClient(srv.url, ada)
	firstPart, stopFirst := context.WithCancel(ctx)
	go person(firstPart, c, next, "x", 3)
	waitFor(t, 20*time.Second, "the bot did not play its first move", func() bool {
		return gameState(t, srv.url, ada, next).Ply >= 2
	})
	stopFirst()
	start := time.Now()
	rb.halt(t)
	t.Logf("the bridge stopped %v after its context ended", time.Since(start))
	if v := gameState(t, srv.url, ada, next); v.State != "active" {
		t.Errorf("after SIGTERM the game is %s, want active (left to its clock)", v.State)
	}
	for _, p := range enginePIDs(t, log) {
		if alive(p) {
			t.Errorf("engine process %d outlived the bridge", p)
		}
	}
	rb2 := runBridge(t, srv.url, botTok, engine, Config{})
	playGames(t, ctx, srv.url, ada, rb2, next)
}

// TestResultJSON: alak bot --json prints a Result as docs/bots.md lists
// its keys, in that order.
func TestResultJSON(t *testing.T) {
	b, err := json.Marshal(Result{Game: "g", Rules: "alak size=7", Color: "o", Opponent: "ada", State: "finished",
		Result: "W+2", Winner: "o", Reason: "no legal move", Score: 1, Moves: 10, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"game":"g","rules":"alak size=7","color":"o","opponent":"ada","state":"finished","result":"W+2","winner":"o","reason":"no legal move","score":1,"moves":10,"rated":true}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// TestBridgeFirstMove: a built-in player whose own budget is longer than
// the first-move limit of a live game (a minute a move against 5 s) still
// makes its first move in time: its thinking ends before the game would be
// aborted for the want of it.
func TestBridgeFirstMove(t *testing.T) {
	srv := sharedServer(t)
	botTok := account(t, srv, "slowbot", true)
	ada := account(t, srv, "ada-f", false)
	rb := runBridge(t, srv.url, botTok, "mcts:time=1m", Config{})
	id := challenge(t, srv.url, ada, "slowbot", "alak size=9", "live:5m")
	c, _ := NewClient(srv.url, ada)
	waitFor(t, 5*time.Second, "the bot did not take the challenge", func() bool {
		return gameState(t, srv.url, ada, id).State == "active"
	})
	if err := c.Move(context.Background(), id, "5", 0); err != nil {
		t.Fatal(err)
	}
	waitFor(t, firstMove+3*time.Second, "the bot made no first move", func() bool {
		g := gameState(t, srv.url, ada, id)
		return g.Ply >= 2 || gameEnded(&g)
	})
	if g := gameState(t, srv.url, ada, id); g.State != "active" || g.Ply != 2 {
		t.Errorf("the game is %s at ply %d, want active at ply 2 (the bot's first move in time)", g.State, g.Ply)
	}
	rb.halt(t)
}

// TestBridgeMaxGames: with --max-games 1, a challenge that comes while the
// bot plays a game is declined, saying why; the game goes on.
func TestBridgeMaxGames(t *testing.T) {
	t.Parallel() // accounts of its own on the shared server
	srv := sharedServer(t)
	botTok := account(t, srv, "busybot", true)
	ada := account(t, srv, "ada-m", false)
	runBridge(t, srv.url, botTok, "mcts:playouts=100", Config{MaxGames: 1})
	first := challenge(t, srv.url, ada, "busybot", "alak size=7", "none")
	waitFor(t, 5*time.Second, "the bot did not take the first challenge", func() bool {
		return gameState(t, srv.url, ada, first).State == "active"
	})
	second := challenge(t, srv.url, ada, "busybot", "alak size=7", "none")
	waitFor(t, 5*time.Second, "the second challenge was not declined", func() bool {
		return gameState(t, srv.url, ada, second).State == "expired"
	})
	if g, want := gameState(t, srv.url, ada, second), "declined: the bot is busy: it plays at most 1 game at once; try again later"; g.Reason == nil || *g.Reason != want {
		t.Errorf("the second challenge ended with the reason %v, want %q", g.Reason, want)
	}
	if g := gameState(t, srv.url, ada, first); g.State != "active" {
		t.Errorf("the first game is %s, want active", g.State)
	}
}

// TestBridgeEngines: the other built-in engines the issue names, perfect
// and a level, each play a whole game through the bridge.
func TestBridgeEngines(t *testing.T) {
	t.Parallel() // accounts of its own on the shared server
	srv := sharedServer(t)
	for i, engine := range []string{"perfect", "level:5"} {
		t.Run(engine, func(t *testing.T) {
			name := fmt.Sprintf("engine%d", i)
			botTok := account(t, srv, name, true)
			ada := account(t, srv, "ada-e"+strconv.Itoa(i), false)
			rb := runBridge(t, srv.url, botTok, engine, Config{})
			id := challenge(t, srv.url, ada, name, "alak size=7", "live:1m")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if v := playGames(t, ctx, srv.url, ada, rb, id)[0]; v.State != "finished" || len(v.Moves) < 4 {
				t.Errorf("game %s ended %s after %d moves, want finished and played out", v.ID, v.State, len(v.Moves))
			}
		})
	}
}
