// Package loadtest is the play server's own load tool (alak loadtest): it
// creates accounts and games through the API, plays them with many
// concurrent simulated players who follow the event streams, and measures
// moves per second, the latency from a move's request to its
// acknowledgement and from the acknowledgement to the opponent's event,
// the errors by kind, and at the end whether any acknowledged move was lost
// or applied twice, by reading every game back.
//
// It only talks to servers on this machine (loopback addresses), and it
// is bounded in count and time: it stops by itself. Given several URLs
// (several processes on one database) it spreads the accounts over them,
// each account's requests and streams going to its own URL, as a proxy
// without affinity would: the two players of a game are often on two
// processes, and each sees the other's moves through the database's
// notifications.
//
// The tool itself stays cheap, since it shares the machine with the
// server: the players decode only the fields they read, the spectators
// decode nothing, and Report.ToolCPU says what the run cost it.
package loadtest

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
	"net/http/cookiejar"
	"net/url"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"alak/wire"
)

// Limits of a run.
const (
	MaxGames    = 20000
	MaxStreams  = 20000
	MaxDuration = time.Hour
	MaxRate     = 100000
)

// Config is a run.
type Config struct {
	URLs     []string      // the servers (processes of one server), on loopback addresses
	Games    int           // games played at once
	Rate     float64       // moves per second, all games together
	Duration time.Duration // how long moves are made
	Accounts int           // accounts the games are spread over (default: Games/10, at least 2)
	Rules    string        // the games' rules (default "alak size=11")
	Clock    string        // the games' clock (default "none")
	Streams  int           // spectator event streams held open besides the players' (default 0)
	// Busy is how many processes keep a core busy each while the moves
	// are made (0 to the machine's cores; busy.go): the server measured
	// beside another program that wants the CPU.
	Busy int
	// Latencies, when set, is written every move's and every timed
	// event's latency at the end of the run, as CSV (writeLatencies): to
	// see when the slow ones came.
	Latencies io.Writer
	Seed      uint64
	Progress  func(Report) // called every second, when set
	// Record, when set, is told of every move request answered 200
	// (acked) and of every one left without an answer or answered 5xx
	// (not acked: it may have been stored), with its game, ply and move, from many goroutines
	// at once: a fault test compares them with the games read back after
	// the server was killed.
	Record func(game string, ply int, move string, acked bool)
}

// Report is what a run measured. Latencies are in milliseconds.
type Report struct {
	Moves      int64            `json:"moves"`       // moves acknowledged
	MovesPerS  float64          `json:"moves_per_s"` // acknowledged moves per second of the run
	P50        float64          `json:"p50_ms"`      // request to acknowledgement
	P95        float64          `json:"p95_ms"`
	P99        float64          `json:"p99_ms"`
	Max        float64          `json:"max_ms"`
	EventP50   float64          `json:"event_p50_ms"` // acknowledgement to the opponent's event
	EventP95   float64          `json:"event_p95_ms"`
	EventP99   float64          `json:"event_p99_ms"`
	Events     int64            `json:"events"`  // opponents' events timed
	Errors     map[string]int64 `json:"errors"`  // by kind: "409 stale_ply", "timeout", ...
	Lost       int64            `json:"lost"`    // acknowledged moves missing from the stored games
	Doubled    int64            `json:"doubled"` // moves stored more often than they were made: stored moves beyond the acknowledged ones and those of unknown outcome (unanswered or answered 5xx)
	Games      int              `json:"games"`   // games played (started) in the run
	Finished   int              `json:"finished"`
	Streams    int              `json:"streams"`     // event streams open (players' and spectators') at the end of the moves, before the tool stops
	StreamsMax int              `json:"streams_max"` // the most open at once
	// StreamsAtStart are the streams open when the clock started: the
	// first games are created and joined, and their players' and the
	// spectators' streams opened, before it (SetupS, with the sign-ups).
	StreamsAtStart int       `json:"streams_at_start"`
	SetupS         float64   `json:"setup_s"` // the seconds before the clock started: sign-ups, the first games, their streams
	Seconds        float64   `json:"seconds"`
	Unanswered     int64     `json:"unanswered"`    // move requests without an answer (a stored move may be among them)
	ServerErrors   int64     `json:"server_errors"` // move requests answered 5xx (likewise: stored or not)
	URLs           int       `json:"urls"`          // servers the load was spread over
	ToolCPU        float64   `json:"tool_cpu_s"`    // CPU seconds (user and system) the tool itself used in the run, setup and check aside
	LoadAvg        [2]string `json:"load_avg"`      // the machine's load averages (1, 5, 15 min) at the start and the end of the moves
	Busy           int       `json:"busy"`          // busy-loop processes run beside the moves (Config.Busy)
	BusyCPU        float64   `json:"busy_cpu_s"`    // CPU seconds those processes got: how much of the cores they took from the server and the tool
}

// Loopback reports whether the URL names this machine.
func Loopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return fmt.Errorf("--url %q: an http URL such as http://127.0.0.1:8080", raw)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--url %q: the load tool only targets this machine (127.0.0.1, ::1, localhost)", raw)
	}
	return nil
}

func (c *Config) check() error {
	if len(c.URLs) == 0 {
		return fmt.Errorf("--url: give the server's address, such as http://127.0.0.1:8080")
	}
	if len(c.URLs) > 16 {
		return fmt.Errorf("--url given %d times: at most 16 servers", len(c.URLs))
	}
	for i, u := range c.URLs {
		if err := Loopback(u); err != nil {
			return err
		}
		c.URLs[i] = strings.TrimRight(u, "/")
	}
	switch {
	case c.Games < 1 || c.Games > MaxGames:
		return fmt.Errorf("--games %d: 1 to %d", c.Games, MaxGames)
	case c.Rate <= 0 || c.Rate > MaxRate:
		return fmt.Errorf("--rate %v: more than 0, at most %d moves a second", c.Rate, MaxRate)
	case c.Duration <= 0 || c.Duration > MaxDuration:
		return fmt.Errorf("--duration %v: more than 0, at most %v", c.Duration, MaxDuration)
	case c.Streams < 0 || c.Streams > MaxStreams:
		return fmt.Errorf("--streams %d: 0 to %d", c.Streams, MaxStreams)
	case c.Busy < 0 || c.Busy > runtime.NumCPU():
		return fmt.Errorf("--busy %d: 0 to %d (the cores of this machine)", c.Busy, runtime.NumCPU())
	}
	if c.Accounts <= 0 {
		c.Accounts = max(2, c.Games/10)
	}
	if c.Accounts < 2 || c.Accounts > 2*MaxGames {
		return fmt.Errorf("--accounts %d: 2 to %d", c.Accounts, 2*MaxGames)
	}
	if c.Rules == "" {
		c.Rules = "alak size=11"
	}
	if c.Clock == "" {
		c.Clock = "none"
	}
	return nil
}

// run is one run's state.
type run struct {
	cfg      Config
	http     *http.Client // for the requests
	stream   *http.Client // for the event streams (no timeout)
	limit    *rate.Limiter
	accounts []*account
	// moving is read-held by each move under way: at the end of the run
	// the moves stop, and those under way are timed to their answer,
	// before the streams close (a tool tearing down thousands of streams
	// would add its own delay to the answers it times).
	moving sync.RWMutex

	moves, events, unanswered atomic.Int64
	serverErrors              atomic.Int64
	games, finished           atomic.Int64
	streams, streamsMax       atomic.Int64

	start  time.Time     // of the moves
	begin  chan struct{} // closed when the moves may start (the clock)
	mu     sync.Mutex
	ackLat []float64
	evLat  []float64
	ackAt  []float64 // when each move of ackLat was sent, ms from start
	evAt   []float64 // when each event of evLat was seen, ms from start
	errs   map[string]int64
	played []*game
	active []*game // the games under way, for the spectators
}

type account struct {
	name  string
	url   string // the server this account talks to
	jar   http.CookieJar
	moves *moveConns // nil: moves through the HTTP client (https)
}

// game is one game the run plays, and what the clients know of it.
type game struct {
	id      string
	players [2]*account // x, o
	mu      sync.Mutex
	acked   map[int]string    // ply → the move acknowledged there
	ackedAt map[int]time.Time // when
	seenAt  map[int]time.Time // when the opponent's stream showed the move of that ply
	unknown int               // move requests whose outcome is unknown
	over    bool
	slot    int // its index in run.active while under way
}

// timed records the time from a move's acknowledgement to the opponent's
// event once both are known (the event may come first: the server sends it
// as it answers); it reports whether it did.
func (g *game) timed(ply int) (float64, bool) {
	ack, ok1 := g.ackedAt[ply]
	seen, ok2 := g.seenAt[ply]
	if !ok1 || !ok2 {
		return 0, false
	}
	d := seen.Sub(ack)
	if d < 0 {
		d = 0
	}
	return float64(d.Microseconds()) / 1000, true
}

// Run plays the load and returns what it measured. It stops at the end of
// the duration or when ctx ends, then reads every game back.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if err := cfg.check(); err != nil {
		return Report{}, err
	}
	tr := &http.Transport{MaxIdleConns: 8192, MaxIdleConnsPerHost: 4096, MaxConnsPerHost: 0, IdleConnTimeout: 90 * time.Second}
	r := &run{cfg: cfg, http: &http.Client{Transport: tr, Timeout: 30 * time.Second},
		stream: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
		limit:  rate.NewLimiter(rate.Limit(cfg.Rate), max(1, int(cfg.Rate/20))), errs: map[string]int64{}}
	setupStart := time.Now()
	if err := r.setup(ctx); err != nil {
		return Report{}, err
	}
	// The first games are made before the clock starts, as the accounts
	// are, and the moves wait for it (begin): the run measures a server
	// with its games under way and their players' streams open, not
	// thousands of games created, joined and opened in its first seconds.
	firsts, err := r.firstGames(ctx)
	if err != nil {
		return Report{}, err
	}
	// runCtx is the moves', streamCtx the streams': they close once the
	// moves under way have their answers.
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	streamCtx, closeStreams := context.WithCancel(ctx)
	defer closeStreams()
	r.begin = make(chan struct{})
	var ready sync.WaitGroup // each slot's first game's two streams, and each spectator's first
	ready.Add(cfg.Games + cfg.Streams)
	var wg sync.WaitGroup
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6c6f6164))
	for i := range cfg.Games {
		seed := rng.Uint64()
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.slot(runCtx, streamCtx, i, seed, firsts[i], ready.Done)
		}()
	}
	for i := range cfg.Streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.spectate(runCtx, streamCtx, i, ready.Done)
		}()
	}
	if err := waitReady(ctx, &ready, setupWait(cfg)); err != nil {
		cancel()
		closeStreams()
		wg.Wait()
		return Report{}, err
	}
	setup := time.Since(setupStart)
	streamsAtStart := r.streams.Load()
	var busy *busyLoops
	if cfg.Busy > 0 {
		var err error
		if busy, err = startBusy(cfg.Busy); err != nil {
			cancel()
			closeStreams()
			wg.Wait()
			return Report{}, err
		}
	}
	cpu0 := cpuTime()
	load0 := loadAvg()
	start := time.Now()
	r.start = start
	close(r.begin)
	stop := time.AfterFunc(cfg.Duration, cancel)
	defer stop.Stop()
	if cfg.Progress != nil {
		go func() {
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-runCtx.Done():
					return
				case <-t.C:
					cfg.Progress(r.report(time.Since(start)))
				}
			}
		}()
	}
	<-runCtx.Done()
	streams, load1 := r.streams.Load(), loadAvg()
	// The write lock is granted once every move under way (each holds the
	// read lock) has its answer; nothing is done under it.
	r.moving.Lock()
	//lint:ignore SA2001 the empty critical section waits for the readers
	r.moving.Unlock()
	closeStreams()
	wg.Wait()
	elapsed := time.Since(start)
	for _, a := range r.accounts {
		if a.moves != nil {
			a.moves.close()
		}
	}
	var busyCPU time.Duration
	var busyErr error
	if busy != nil {
		busyCPU, busyErr = busy.stop()
	}
	rep := r.report(elapsed)
	rep.Busy, rep.BusyCPU = cfg.Busy, busyCPU.Seconds()
	rep.Streams, rep.StreamsMax = int(streams), int(r.streamsMax.Load())
	rep.StreamsAtStart, rep.SetupS = int(streamsAtStart), setup.Seconds()
	rep.ToolCPU = (cpuTime() - cpu0).Seconds()
	rep.URLs = len(cfg.URLs)
	rep.LoadAvg = [2]string{load0, load1}
	lost, doubled, err := r.verify(ctx)
	rep.Lost, rep.Doubled = lost, doubled
	var latErr error
	if cfg.Latencies != nil {
		latErr = r.writeLatencies(cfg.Latencies)
	}
	return rep, errors.Join(busyErr, err, latErr)
}

// writeLatencies writes every move's latency (request to acknowledgement)
// and every timed event's (acknowledgement to the opponent's event) as
// CSV: a header, then kind ("move" or "event"), at_ms (when the move was
// sent, or the event seen, in milliseconds from the start of the moves)
// and ms (the latency).
func (r *run) writeLatencies(w io.Writer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	bw := bufio.NewWriter(w)
	bw.WriteString("kind,at_ms,ms\n")
	for i, ms := range r.ackLat {
		fmt.Fprintf(bw, "move,%.3f,%.3f\n", r.ackAt[i], ms)
	}
	for i, ms := range r.evLat {
		fmt.Fprintf(bw, "event,%.3f,%.3f\n", r.evAt[i], ms)
	}
	return bw.Flush()
}

// setup creates the accounts.
func (r *run) setup(ctx context.Context) error {
	tag := strconv.FormatUint(rand.Uint64()%1e9, 36)
	sem := make(chan struct{}, 16)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for i := range r.cfg.Accounts {
		jar, _ := cookiejar.New(nil)
		a := &account{name: fmt.Sprintf("lt%s-%d", tag, i), url: r.cfg.URLs[i%len(r.cfg.URLs)], jar: jar}
		a.moves = newMoveConns(a.url, jar)
		r.accounts = append(r.accounts, a)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			status, body, err := r.callWithin(ctx, a, signUpTimeout, "POST", "/api/accounts", wire.Credentials{Name: a.name, Password: "load test password"})
			if err == nil && status != http.StatusCreated {
				err = fmt.Errorf("creating account %s: %d %s", a.name, status, body)
				if status == http.StatusTooManyRequests {
					err = fmt.Errorf("%w: the server limits new accounts; start it with a higher --signup-rate for a load test", err)
				}
			}
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// call sends one request as account a (to its server; with no account, to
// the first) and returns the status and body.
func (r *run) call(ctx context.Context, a *account, method, path string, body any) (int, []byte, error) {
	return r.callWithin(ctx, a, r.http.Timeout, method, path, body)
}

// signUpTimeout bounds a sign-up's request: a password hash takes tens of
// megabytes and a good part of a second of a core, and the server makes
// at most one a core at once, so on a busy machine the setup's sign-ups
// wait their turn for longer than the other requests' bound (30 s of
// them timed out at a load average of 25).
const signUpTimeout = 5 * time.Minute

// callWithin is call within timeout.
func (r *run) callWithin(ctx context.Context, a *account, timeout time.Duration, method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	base := r.cfg.URLs[0]
	if a != nil {
		base = a.url
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	client := *r.http
	client.Timeout = timeout
	if a != nil {
		client.Jar = a.jar
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, data, err
}

// moveText is a legal move as the view gives it (a number, or a string),
// as a move request takes it.
func moveText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func (r *run) errorOf(kind string) {
	r.mu.Lock()
	r.errs[kind]++
	r.mu.Unlock()
}

// players are the two accounts of slot i's game n: each account is x in
// turn, its opponent one of the others at random.
func (r *run) players(i, n int, rng *rand.Rand) (x, o *account) {
	x = r.accounts[(i+n)%len(r.accounts)]
	o = r.accounts[(i+n+1+rng.IntN(len(r.accounts)-1))%len(r.accounts)]
	if x == o {
		o = r.accounts[(i+n+1)%len(r.accounts)]
	}
	return x, o
}

// firstGames creates and joins each slot's first game before the clock
// starts, a few at a time, as setup creates the accounts.
func (r *run) firstGames(ctx context.Context) ([]*game, error) {
	games := make([]*game, r.cfg.Games)
	sem := make(chan struct{}, 16)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for i := range games {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			x, o := r.players(i, 0, rand.New(rand.NewPCG(r.cfg.Seed, uint64(i))))
			g, err := r.newGame(ctx, x, o)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("creating the first games: %w", err)
			}
			games[i] = g
		}()
	}
	wg.Wait()
	return games, firstErr
}

// setupWait bounds the wait for the first games' streams and the
// spectators' to open.
func setupWait(cfg Config) time.Duration {
	return 30*time.Second + time.Duration(2*cfg.Games+cfg.Streams)*10*time.Millisecond
}

// waitReady waits for ready, at most d.
func waitReady(ctx context.Context, ready *sync.WaitGroup, d time.Duration) error {
	done := make(chan struct{})
	go func() {
		ready.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return fmt.Errorf("the first games' event streams did not all open within %v", d)
	}
}

// slot keeps one game going: it plays first (made before the clock) to its
// end, then creates the next game and plays it, until the run stops.
// ready is called once both streams of the first game have shown its
// state.
func (r *run) slot(ctx, streams context.Context, i int, seed uint64, first *game, ready func()) {
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	r.play(ctx, streams, first, rng, ready)
	for n := 1; ctx.Err() == nil; n++ {
		x, o := r.players(i, n, rng)
		g, err := r.newGame(ctx, x, o)
		if err != nil {
			if ctx.Err() == nil {
				r.errorOf("setup: " + err.Error())
				select {
				case <-ctx.Done():
				case <-time.After(time.Second):
				}
			}
			continue
		}
		r.play(ctx, streams, g, rng, nil)
	}
}

// newGame creates a game between x and o: a challenge by name, joined.
func (r *run) newGame(ctx context.Context, x, o *account) (*game, error) {
	status, body, err := r.call(ctx, x, "POST", "/api/games", wire.CreateRequest{Rules: r.cfg.Rules, Clock: r.cfg.Clock, Color: "x", Opponent: o.name})
	if err != nil {
		return nil, err
	}
	if status == http.StatusTooManyRequests {
		return nil, fmt.Errorf("create %d: the server limits new games; start it with a higher --game-rate for a load test", status)
	}
	if status != http.StatusCreated {
		return nil, fmt.Errorf("create %d", status)
	}
	var created wire.Created
	if err := json.Unmarshal(body, &created); err != nil {
		return nil, err
	}
	status, _, err = r.call(ctx, o, "POST", "/api/games/"+created.ID+"/join", nil)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("join %d", status)
	}
	g := &game{id: created.ID, players: [2]*account{x, o}, acked: map[int]string{}, ackedAt: map[int]time.Time{}, seenAt: map[int]time.Time{}}
	r.mu.Lock()
	r.played = append(r.played, g)
	g.slot = len(r.active)
	r.active = append(r.active, g)
	r.mu.Unlock()
	r.games.Add(1)
	return g, nil
}

// play plays game g to its end (or the end of the run): each side follows
// the event stream and moves, at the run's rate, when the stream says it
// is its turn. ready, when not nil, is called once each side's stream
// has shown the game's state: once both have, it has been called once.
func (r *run) play(ctx, streams context.Context, g *game, rng *rand.Rand, ready func()) {
	gctx, cancel := context.WithCancel(streams) // the game's streams, until it ends
	defer cancel()
	var wg, seen sync.WaitGroup
	seen.Add(2)
	if ready != nil {
		go func() {
			seen.Wait()
			ready()
		}()
	}
	var rmu sync.Mutex // the two sides share the game's random source
	for side := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var once sync.Once
			r.side(ctx, gctx, cancel, g, side, rng, &rmu, func() { once.Do(seen.Done) })
		}()
	}
	wg.Wait()
	r.mu.Lock() // no longer under way
	last := r.active[len(r.active)-1]
	r.active[g.slot], last.slot = last, g.slot
	r.active = r.active[:len(r.active)-1]
	r.mu.Unlock()
}

// side is one player of a game: it reads the game's stream (until
// stream ends) and, on its turn, makes a random legal move (from the
// clock's start until ctx ends). seen is called at each state the stream
// shows.
func (r *run) side(ctx, stream context.Context, end context.CancelFunc, g *game, side int, rng *rand.Rand, rmu *sync.Mutex, seen func()) {
	me := []string{"x", "o"}[side]
	a := g.players[side]
	for ctx.Err() == nil && stream.Err() == nil {
		err := r.follow(stream, a.url, a, g.id, func(data []byte) bool {
			at := time.Now() // before the decoding, which is the tool's time
			st, err := readHead(data)
			if err != nil {
				r.errorOf("stream: " + shortErr(err))
				return false
			}
			seen()
			if st.Over || st.State != "active" {
				g.mu.Lock()
				if !g.over {
					g.over = true
					r.finished.Add(1)
				}
				g.mu.Unlock()
				end()
				return false
			}
			// The opponent's move, seen by its event: time it from its
			// acknowledgement.
			if st.Ply > 0 && st.ToMove == me {
				g.mu.Lock()
				g.seenAt[st.Ply-1] = at
				lat, ok := g.timed(st.Ply - 1)
				g.mu.Unlock()
				if ok {
					r.event(lat)
				}
			}
			if st.ToMove != me || len(st.Legal) == 0 {
				return true
			}
			var legal []json.RawMessage
			if err := json.Unmarshal(st.Legal, &legal); err != nil {
				r.errorOf("stream: " + shortErr(err))
				return false
			}
			if len(legal) == 0 {
				return true
			}
			select {
			case <-r.begin:
			case <-ctx.Done():
			}
			if err := r.limit.Wait(ctx); err != nil {
				// The moves are over. The stream stays open until the
				// streams close, after the last moves' answers: closed
				// now, and opened again by the loop below while the run
				// lasts, the streams of the players waiting for their
				// turn at the end would each be opened and closed again
				// and again, a load of their own on the last moves.
				<-stream.Done()
				return false
			}
			r.moving.RLock()
			defer r.moving.RUnlock()
			if ctx.Err() != nil { // the moves are over
				return false
			}
			rmu.Lock()
			m := moveText(legal[rng.IntN(len(legal))])
			rmu.Unlock()
			r.move(ctx, a, g, m, st.Ply)
			return true
		})
		if ctx.Err() != nil || stream.Err() != nil { // the moves, or the game, are over
			return
		}
		if err != nil {
			r.errorOf("stream: " + shortErr(err))
			select {
			case <-ctx.Done():
			case <-stream.Done():
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
}

// move sends one move and records its outcome.
func (r *run) move(ctx context.Context, a *account, g *game, m string, ply int) {
	path := "/api/games/" + g.id + "/moves"
	var status int
	var body []byte
	var err error
	start := time.Now()
	if a.moves != nil {
		status, body, err = a.moves.post(path, moveBody(m, ply))
	} else {
		status, body, err = r.call(context.WithoutCancel(ctx), a, "POST", path, wire.MoveRequest{Move: m, Ply: &ply})
	}
	lat := float64(time.Since(start).Microseconds()) / 1000
	switch {
	case err != nil:
		if r.cfg.Record != nil {
			r.cfg.Record(g.id, ply, m, false)
		}
		r.unanswered.Add(1)
		g.mu.Lock()
		g.unknown++
		g.mu.Unlock()
		r.errorOf("no answer: " + shortErr(err))
	case status == http.StatusOK:
		if r.cfg.Record != nil {
			r.cfg.Record(g.id, ply, m, true)
		}
		g.mu.Lock()
		g.acked[ply], g.ackedAt[ply] = m, time.Now()
		evLat, timed := g.timed(ply)
		g.mu.Unlock()
		if timed {
			r.event(evLat)
		}
		r.moves.Add(1)
		r.mu.Lock()
		r.ackLat = append(r.ackLat, lat)
		r.ackAt = append(r.ackAt, float64(start.Sub(r.start).Microseconds())/1000)
		r.mu.Unlock()
	case status >= 500:
		// A server error, like a lost connection, says nothing of the
		// move: the store may have taken it before the failure.
		if r.cfg.Record != nil {
			r.cfg.Record(g.id, ply, m, false)
		}
		r.serverErrors.Add(1)
		g.mu.Lock()
		g.unknown++
		g.mu.Unlock()
		r.errorOf(statusError(status, body))
	default:
		r.errorOf(statusError(status, body))
	}
}

// statusError names a refusal by its status and the API's code.
func statusError(status int, body []byte) string {
	var e wire.Error
	json.Unmarshal(body, &e)
	return fmt.Sprintf("%d %s", status, e.Code)
}

// event records one acknowledgement-to-event latency.
func (r *run) event(ms float64) {
	at := float64(time.Since(r.start).Microseconds()) / 1000
	r.mu.Lock()
	r.evLat = append(r.evLat, ms)
	r.evAt = append(r.evAt, at)
	r.mu.Unlock()
	r.events.Add(1)
}

// follow reads a game's event stream from base as account a (nil: a
// spectator), calling f with each state's data until f returns false, the
// stream ends or ctx ends.
func (r *run) follow(ctx context.Context, base string, a *account, id string, f func(data []byte) bool) error {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/games/"+id+"/events", nil)
	if err != nil {
		return err
	}
	client := *r.stream
	if a != nil {
		client.Jar = a.jar
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("events: %d", resp.StatusCode)
	}
	n := r.streams.Add(1)
	defer r.streams.Add(-1)
	for m := r.streamsMax.Load(); n > m && !r.streamsMax.CompareAndSwap(m, n); m = r.streamsMax.Load() {
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 4<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("data: ")) {
			continue
		}
		if !f(line[6:]) {
			return nil
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return err
	}
	return errors.New("the stream ended")
}

// spectate holds an event stream open as a watcher who is not playing:
// on a game under way, then, once it is over, on another, until the
// moves end (ctx); the stream closes with streams. It reads the
// events without decoding them: a game is over when its view says
// "over":true (the only such key) or its state is no longer active.
func (r *run) spectate(ctx, streams context.Context, i int, ready func()) {
	base := r.cfg.URLs[i%len(r.cfg.URLs)]
	rng := rand.New(rand.NewPCG(uint64(i), 0x77617463))
	var once sync.Once
	for ctx.Err() == nil {
		r.mu.Lock()
		var id string
		if len(r.active) > 0 {
			id = r.active[rng.IntN(len(r.active))].id
		}
		r.mu.Unlock()
		if id == "" {
			select {
			case <-ctx.Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		err := r.follow(streams, base, nil, id, func(data []byte) bool {
			once.Do(ready)
			return !bytes.Contains(data, []byte(`"over":true`)) && bytes.Contains(data, []byte(`"state":"active"`))
		})
		if err != nil && ctx.Err() == nil {
			r.errorOf("spectator stream: " + shortErr(err))
			select {
			case <-ctx.Done():
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
}

// verify reads every game back and compares the stored moves with the
// acknowledged ones.
func (r *run) verify(ctx context.Context) (lost, doubled int64, err error) {
	r.mu.Lock()
	games := append([]*game(nil), r.played...)
	r.mu.Unlock()
	sem := make(chan struct{}, 32)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var firstErr error
	for _, g := range games {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			status, body, err := r.call(ctx, nil, "GET", "/api/games/"+g.id, nil)
			var st wire.Game
			if err == nil && status == http.StatusOK {
				err = json.Unmarshal(body, &st)
			} else if err == nil {
				err = fmt.Errorf("reading game %s back: %d", g.id, status)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			g.mu.Lock()
			defer g.mu.Unlock()
			for ply, m := range g.acked {
				if ply >= len(st.Moves) || st.Moves[ply] != m {
					lost++
				}
			}
			if extra := len(st.Moves) - len(g.acked) - g.unknown; extra > 0 {
				doubled += int64(extra)
			}
		}()
	}
	wg.Wait()
	return lost, doubled, firstErr
}

// report summarises the run so far.
func (r *run) report(elapsed time.Duration) Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := Report{Moves: r.moves.Load(), Events: r.events.Load(), Errors: map[string]int64{}, Games: int(r.games.Load()),
		Finished: int(r.finished.Load()), Streams: int(r.streams.Load()), Seconds: elapsed.Seconds(), Unanswered: r.unanswered.Load(),
		ServerErrors: r.serverErrors.Load()}
	if s := elapsed.Seconds(); s > 0 {
		rep.MovesPerS = float64(rep.Moves) / s
	}
	for k, v := range r.errs {
		rep.Errors[k] = v
	}
	ack := append([]float64(nil), r.ackLat...)
	ev := append([]float64(nil), r.evLat...)
	rep.P50, rep.P95, rep.P99, rep.Max = quantiles(ack)
	rep.EventP50, rep.EventP95, rep.EventP99, _ = quantiles(ev)
	return rep
}

// quantiles returns the 50th, 95th and 99th percentiles and the largest.
func quantiles(xs []float64) (p50, p95, p99, top float64) {
	if len(xs) == 0 {
		return 0, 0, 0, 0
	}
	sort.Float64s(xs)
	at := func(q float64) float64 { return xs[min(len(xs)-1, int(q*float64(len(xs))))] }
	return at(0.50), at(0.95), at(0.99), xs[len(xs)-1]
}

func shortErr(err error) string {
	s := err.Error()
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || strings.Contains(s, "Client.Timeout"):
		return "timeout"
	case strings.Contains(s, "connection refused"):
		return "connection refused"
	case strings.Contains(s, "connection reset"):
		return "connection reset"
	case strings.Contains(s, "EOF"):
		return "EOF"
	}
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

// loadAvg is the machine's load averages over 1, 5 and 15 minutes, as
// /proc/loadavg gives them ("" where there is none).
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
