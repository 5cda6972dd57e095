// Package server is alak's play server: live and correspondence games
// between people, and against the computer, over a JSON API and an event
// stream, with the web page (package web) on top. The game core
// (server/internal/game) loads a game, checks every move with a session
// (package session) rebuilt from the stored log, and stores it before it
// is acknowledged; this package holds the configuration, the routes and
// the features, which register their hooks on the core
// (registerGameHooks).
//
//	st, err := sqlitestore.Open(ctx, "alak.db")
//	srv, err := server.New(server.Config{BaseURL: "http://127.0.0.1:8080"}, st)
//	defer srv.Close()
//	hs := &http.Server{Addr: "127.0.0.1:8080", Handler: srv.Handler(), ConnContext: server.ConnContext}
//	hs.ListenAndServe()
//
// (ConnContext lets the event streams bound their connections' send
// buffers, and a move's request write its event to the opponent's stream
// before its answer.) docs/api.md describes the API; docs/deploy.md how to
// run it.
package server

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"

	"alak/server/internal/accounts"
	"alak/server/internal/analysis"
	"alak/server/internal/around"
	"alak/server/internal/computer"
	"alak/server/internal/conditional"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/internal/mail"
	"alak/server/internal/pages"
	"alak/server/internal/puzzles"
	"alak/server/internal/ratings"
	"alak/server/internal/tables"
	"alak/server/internal/tournaments"
	"alak/server/internal/vacation"
	"alak/server/store"
	"alak/solve"
	"alak/wire"
)

// Config is the server's configuration; the zero value of each field takes
// its default.
type Config struct {
	// BaseURL is where players reach the server, for links in mail and
	// invitations ("https://alak.example.org"); an https URL also makes the
	// cookies Secure.
	BaseURL string
	// SMTP is the mail server, smtp://[user:password@]host[:port][?from=ADDR];
	// "" sends no mail.
	SMTP string
	// Logger receives the server's structured logs (default: slog.Default).
	Logger *slog.Logger
	// Now is the clock (tests move it); default time.Now.
	Now func() time.Time
	// SweepEvery is how often clocks and challenges are settled (default 1s).
	SweepEvery time.Duration
	// BotMoveTime bounds one computer move (default 5s; the players
	// themselves stop at 3s, see player.NewUntrusted).
	BotMoveTime time.Duration
	// BotWorkers is how many computer moves are computed at once (default:
	// the number of CPUs).
	BotWorkers int
	// FirstMove is how long each player of a live game has for their first
	// move (default 30s): Black from the start, White from Black's first
	// move. Their clock does not run until they have moved; past it the
	// game is aborted.
	FirstMove time.Duration
	// Heartbeat is how often the process records in the store that it is
	// alive (default 2s), so that a process starting after a time when
	// none was can give the running clocks that time back
	// (server/internal/game/downtime.go).
	Heartbeat time.Duration
	// ChallengeLife is how long a challenge or an invitation waits for an
	// opponent: live games (default 1h); correspondence games wait 7 days.
	ChallengeLife time.Duration
	// LoginRate is how many sign-in attempts one address may make per
	// minute on one name, after a burst of as many (default 10); one
	// address on every name together may make twice as many. A name's
	// wrong guesses from every address together are limited alike, but
	// that limit refuses only addresses that guessed wrong on the name, so
	// that a guesser cannot lock the owner out (signInLimits).
	LoginRate int
	// SignupRate is how many accounts (and guests) one address may create
	// per minute (default 5 accounts, 30 guests); a load test on loopback
	// raises it.
	SignupRate int
	// GameRate is how many games one account may create per minute, after
	// a burst of as many (default 30); one address may create twice as
	// many. Wrong invitations are limited to 10 a minute per account and
	// per address. A load test on loopback raises it.
	GameRate int
	// Notifier carries changes between processes sharing the database
	// (pgstore.Notifier); nil for a single process.
	Notifier Notifier
	// TrustedProxies are the addresses of the reverse proxies in front of
	// the server: a request from one of them is taken to come from the
	// last address its X-Forwarded-For names that is not itself a trusted
	// proxy (for the rate limits). Empty: X-Forwarded-For is ignored.
	TrustedProxies []netip.Prefix
	// MetricsElsewhere leaves /metrics out of Handler: the metrics are
	// served by MetricsHandler on an address of their own.
	MetricsElsewhere bool
	// TableDir is a directory of solver tables (alak solve --table-dir):
	// the post-game analysis and the computer's perfect seats read them,
	// so a dense table (alak solve --dense) answers every position of its
	// rules at once. Empty: none. The server only reads it, each rule
	// set's files once a process (server/internal/tables).
	TableDir string
	// TableMemoryMB bounds the memory of the dense tables the server
	// makes of the small lines it is asked about (solve.Tables.Small: alak
	// on up to 13 points, alterigo, dewdney and golf on up to 13) and
	// keeps for the analysis, the hints and the perfect seats; the least
	// recently used go first (0: solve.DefaultKeepMB, 256).
	TableMemoryMB int
	// GraphMemoryMB bounds the memory (the solver's estimate) of the
	// state graphs of small lines that the perfect seats keep, all rule
	// sets together, made once a process: where a game's history has
	// repeated a position no table answers, and the graph of the line's
	// positions does (solve.Tables.Depths). Beyond it a perfect seat
	// makes a graph of its own within its memory option, else searches
	// (0: tables.DefaultGraphMB, 512, which holds alak on up to 12 points;
	// 13 points need 1,500).
	GraphMemoryMB int
	// StreamWriteTimeout is how long a write to an event stream (an event,
	// a keep-alive) may wait for the client to read before the stream is
	// closed as too slow (default 30s).
	StreamWriteTimeout time.Duration
	// StreamKeepAlive is how often an idle event stream sends a comment,
	// so that proxies keep it open (default 15s).
	StreamKeepAlive time.Duration
	// HouseBots keeps a rated bot account for each of the computer's
	// levels, alak-beginner ... alak-perfect, that takes every challenge
	// addressed to it (package computer).
	HouseBots bool
	// MailListen is the address where the server takes mail over SMTP,
	// for moves by email (server/internal/mail); "" takes none. It needs SMTP (the
	// answers are sent through it) and MailDomain.
	MailListen string
	// PuzzleSeed is how many puzzles the server makes at start for each
	// preset the store has none of, from its small lines, in the
	// background (server/internal/puzzles); 0 makes none (the finished games'
	// puzzles are made whatever it is).
	PuzzleSeed int
	// MailDomain is the domain of the reply addresses
	// (game-ID-SECRET@MailDomain); mail to it must reach MailListen.
	MailDomain string

	// hashCost is the cost of new password hashes: zero, defaultCost.
	// Unexported: only this package's tests set it (accounts.go).
	hashCost accounts.Cost
	// explorerWaiting replaces the bound on the finished games waiting to
	// be counted in the opening explorer (tests: 0 is the default).
	explorerWaiting int
	// puzzleSeedRules replaces puzzles.SeedRules, the rules the first
	// puzzles are made on. Unexported: only this package's tests set it.
	puzzleSeedRules []string
	// noBackgroundAnalysis leaves finished games unanalysed until asked
	// (registerGameHooks), for a test that records the API's answers,
	// which would otherwise depend on whether the background got there
	// first. Unexported: only this package's tests set it.
	noBackgroundAnalysis bool
	// mailBounds bounds the SMTP connections of MailListen: zero fields
	// take mail.DefaultBounds. Unexported: only this package's tests
	// scale them down (server/internal/mail).
	mailBounds mail.Bounds
}

// Server is the play server. Its methods are safe for concurrent use.
type Server struct {
	cfg   Config
	store store.Store
	log   *slog.Logger
	now   func() time.Time

	// core is the game core: loading a game, acting on it, its view and
	// its event streams (server/internal/game); the features below
	// register their hooks on it (registerGameHooks).
	core   *game.Core
	bots   *computer.Bots
	tables *solve.Tables // the solver over Config.TableDir (package tables)
	mail   *mail.Mail    // the mails sent, and moves by email (package mail)

	// accounts: sign-up, sign-in, sessions and tokens, the account
	// streams (server/internal/accounts).
	accounts *accounts.Accounts

	games   *httpx.Limiters // new games by account
	gamesAt *httpx.Limiters // new games by address
	// invites counts wrong invitation secrets by account and by address.
	invites *httpx.Limiters
	// around is the rematches, the messages and the games to watch
	// (package around).
	around *around.Service
	// tourneys is the tournaments' runner and API (package tournaments).
	tourneys *tournaments.Service
	// ratings: who is rated, the seats' ratings, the rating API
	// (server/internal/ratings).
	ratings *ratings.Service
	// analysis serves the analyses, the opening explorer, the rule lab
	// and the analysis board (package analysis).
	analysis *analysis.Analysis
	// puzzles makes the puzzles and serves them and the lessons (package
	// puzzles).
	puzzles *puzzles.Puzzles

	// conditional is the conditional moves (package conditional);
	// vacation the vacations (package vacation).
	conditional *conditional.Service
	vacation    *vacation.Service

	// pages draws the pages (package pages).
	pages *pages.Pages

	metrics metrics
	reg     *prometheus.Registry
	done    chan struct{}
	wg      sync.WaitGroup
	close   sync.Once
}

// registerGameHooks says what each feature does with a game, in the
// order the core calls them. When a game is loaded, its tournament and
// round are read; a computer seat is played by the computer (package computer);
// a move played may be answered at once from the opponent's conditional
// moves, and once stored, the player now to move is the computer (its
// reply) or, by correspondence, told by mail. A game's end ends its
// mailed reply addresses before the end is published; once a change is
// published, the account streams hear of it, and of an end the
// tournaments (the standings, the next round), the opening explorer (its
// count) and the post-game analysis, which a game between people gets in
// the background (its mistakes become puzzles) when the analysis worker
// is idle enough. Another process's change wakes the account streams. A
// game's view shows its players' ratings, the invitee of a named
// challenge, the vacation that pauses it, the rematch, and to each player
// their messages.
func (s *Server) registerGameHooks() {
	h := &s.core.Hooks
	h.Tournament = s.tourneys.GameTournament
	h.Computer = s.bots.Player
	h.Played = s.conditional.Reply
	h.Turn = s.bots.AfterMove
	h.Notified = func(string) { s.accounts.WakeAll() }
	if s.mail.Reads() {
		h.Stored.OnEnd(func(ctx context.Context, st *game.State) { s.mail.GameEnded(ctx, st.Row.ID) })
	}
	h.Published.OnChange(func(_ context.Context, st *game.State) { s.accounts.GameChanged(st.Row) })
	h.Published.OnEnd(func(_ context.Context, st *game.State) { s.tourneys.GameEnded(st.Row) })
	h.Published.OnEnd(func(ctx context.Context, st *game.State) { s.analysis.GameEnded(ctx, analysisGame(st)) })
	h.Published.OnEnd(func(_ context.Context, st *game.State) {
		if s.cfg.noBackgroundAnalysis {
			return
		}
		if st.Row.Black.AccountID != 0 && st.Row.Black.Bot == "" || st.Row.White.AccountID != 0 && st.Row.White.Bot == "" {
			s.analysis.Games.Background(st.Row.ID)
		}
	})
	s.core.Parts = game.ViewParts{
		Account:      accountPlayerView,
		ComputerName: computer.Name,
		Ratings:      s.ratings.Game,
		Invitee:      s.invitee,
		Vacation:     s.vacation.Until,
		Rematch:      s.around.RematchView,
		Private:      s.around.ChatFrames,
	}
}

// New returns a server on st and starts its background work: the sweep of
// clocks and challenges, the computer's workers, the analysis worker and
// the mail queue. Close stops them.
func New(cfg Config, st store.Store) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	// Every line logged with a request's context names the request.
	cfg.Logger = slog.New(httpx.RequestIDHandler{Handler: cfg.Logger.Handler()})
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.SweepEvery <= 0 {
		cfg.SweepEvery = time.Second
	}
	if cfg.BotMoveTime <= 0 {
		cfg.BotMoveTime = 5 * time.Second
	}
	if cfg.BotWorkers <= 0 {
		cfg.BotWorkers = runtime.NumCPU()
	}
	if cfg.FirstMove <= 0 {
		cfg.FirstMove = 30 * time.Second
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 2 * time.Second
	}
	if cfg.ChallengeLife <= 0 {
		cfg.ChallengeLife = time.Hour
	}
	if cfg.StreamWriteTimeout <= 0 {
		cfg.StreamWriteTimeout = 30 * time.Second
	}
	if cfg.StreamKeepAlive <= 0 {
		cfg.StreamKeepAlive = 15 * time.Second
	}
	if cfg.LoginRate <= 0 {
		cfg.LoginRate = 10
	}
	if cfg.GameRate <= 0 {
		cfg.GameRate = 30
	}
	if cfg.hashCost == (accounts.Cost{}) {
		cfg.hashCost = defaultCost
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	s := &Server{cfg: cfg, store: st, log: cfg.Logger, now: cfg.Now,
		done:    make(chan struct{}),
		games:   httpx.NewLimiters(rate.Limit(float64(cfg.GameRate)/60), cfg.GameRate),
		gamesAt: httpx.NewLimiters(rate.Limit(float64(2*cfg.GameRate)/60), 2*cfg.GameRate),
		invites: httpx.NewLimiters(rate.Limit(10.0/60), 10)}
	s.core = game.New(game.Config{Store: st, Log: cfg.Logger, Now: cfg.Now, FirstMove: cfg.FirstMove, BotMoveTime: cfg.BotMoveTime, Heartbeat: cfg.Heartbeat,
		StreamWriteTimeout: cfg.StreamWriteTimeout, StreamKeepAlive: cfg.StreamKeepAlive, Notifier: cfg.Notifier,
		Metrics: &s.metrics.Metrics, Done: s.done, Spawn: s.spawn})
	s.ratings = ratings.New(ratings.Config{Store: st, Player: s.core.PlayerView, Now: s.now, Log: s.log,
		Account: func(ctx context.Context, name string) (store.Account, error) {
			a, err := st.AccountByName(ctx, name)
			return a, noPlayer(err, name)
		}})
	s.conditional = conditional.New(conditional.Config{Store: st, Core: s.core, Shared: cfg.Notifier != nil, Metrics: &s.metrics.Metrics,
		Log: cfg.Logger, Now: cfg.Now})
	s.vacation = vacation.New(vacation.Config{Store: st, Core: s.core, YourTurn: s.mailYourTurn, Log: cfg.Logger, Now: cfg.Now})
	s.pages = pages.New(pages.Config{Log: cfg.Logger, Me: accounts.MeView, Levels: computer.LevelChoices(), Days: game.CorrespondenceDays, Lessons: puzzles.PresetLessons})
	s.tourneys = tournaments.New(tournaments.Config{Store: st, Core: s.core, Pages: s.pages, Log: cfg.Logger, Now: cfg.Now, NewID: newID,
		BaseURL: func() string { return s.cfg.BaseURL }, SweepEvery: cfg.SweepEvery, StreamKeepAlive: cfg.StreamKeepAlive, Done: s.done,
		Games: s.games, GamesAt: s.gamesAt, TakeSeats: s.ratings.TakeSeats, Ratable: ratings.PresetRules,
		Seed: func(ctx context.Context, account int64, preset string) (float64, error) {
			pr, err := s.ratings.Pool(ctx, account, preset)
			return ratings.Round1(pr.Rating), err
		},
		GameCreated: s.gameCreated, YourTurn: s.mailYourTurn})
	s.tables = tables.Open(cfg.TableDir, cfg.TableMemoryMB, cfg.GraphMemoryMB, cfg.Logger)
	s.bots = computer.New(computer.Config{Core: s.core, Accounts: st, Games: st, Tables: s.tables, Log: cfg.Logger, Now: cfg.Now,
		MoveTime: cfg.BotMoveTime, Queue: 1024, Done: s.done, Spawn: s.spawn, Perfect: s.metrics.perfect.observe,
		SeatAndStart: s.seatAndStart, YourTurn: s.mailYourTurn})
	s.around = around.New(around.Config{Store: st, Games: st, Core: s.core, Pages: s.pages, Log: cfg.Logger, Now: cfg.Now, NewID: newID,
		ChallengeLife: cfg.ChallengeLife, SeatAndStart: s.seatAndStart, GameCreated: s.gameCreated, Schedule: s.bots.Schedule,
		SeatNames: s.seatNames, Summary: s.summary})
	// The accounts after the features whose calls they are given.
	var err error
	if s.accounts, err = s.newAccounts(); err != nil {
		return nil, err
	}
	s.analysis = analysis.New(analysis.Config{Store: st, Solver: s.tables, Pages: s.pages, Load: s.loadAnalysisGame,
		Analysed: func(g analysis.Game, plies []solve.PlyValue) { s.puzzles.GameAnalysed(g.Row, g.Rules, g.Game, plies) },
		Busy:     func() bool { return s.puzzles.Waiting() },
		Log:      cfg.Logger, Now: cfg.Now, Stop: contextOf(s.done), ExplorerWaiting: cfg.explorerWaiting})
	if s.mail, err = s.newMail(); err != nil {
		return nil, err
	}
	s.registerGameHooks()
	s.reg = s.registry()
	// Before the sweep: a clock that ran out while no process served the
	// games is given its time back, not adjudicated.
	if err := s.core.Resume(newID()); err != nil {
		s.mail.Discard()
		return nil, err
	}
	s.puzzles = puzzles.New(puzzles.Config{Store: st, Solver: s.tables, TableMemoryMB: analysis.MemoryMB, Pages: s.pages, Log: cfg.Logger,
		Now: cfg.Now, Stop: contextOf(s.done), Seed: cfg.PuzzleSeed, SeedRules: cfg.puzzleSeedRules})
	s.spawn(s.core.Heartbeat)
	s.spawn(s.sweep)
	for range cfg.BotWorkers {
		s.spawn(s.bots.Work)
	}
	if cfg.HouseBots {
		if err := s.bots.StartHouseBots(context.Background()); err != nil {
			s.Close()
			return nil, err
		}
	}
	s.analysis.Start(s.spawn)
	s.spawn(s.tourneys.Work)
	s.puzzles.Start(s.spawn)
	if cfg.Notifier != nil {
		s.spawn(func() { s.core.Listen(contextOf(s.done)) })
	}
	s.mail.Start(s.spawn, s.done)
	return s, nil
}

func (s *Server) spawn(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// contextOf is a context done when done is closed.
func contextOf(done <-chan struct{}) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-done
		cancel()
	}()
	return ctx
}

// Close stops the background work and the event streams, waiting for a
// computer move or an analysis under way to finish or give up, and records
// the process's clean stop in the store (RecordStop). It does not close
// the store.
func (s *Server) Close() error {
	s.close.Do(func() {
		close(s.done)
		s.wg.Wait()
		s.RecordStop()
	})
	s.wg.Wait()
	return nil
}

// RecordStop records the process's clean stop in the store: the downtime
// that a process starting later gives back to the clocks counts from it
// (server/internal/game/downtime.go). Close calls it once the background
// work is over; a caller that still answers requests after Close (alak
// serve finishes those under way while it shuts down) calls it again when
// the last is answered, so that a move made then is not given back the
// time between.
func (s *Server) RecordStop() { s.core.RecordStop() }

// Handler returns the server's HTTP handler: the API under /api/, the
// event streams, /healthz, /readyz, /metrics (unless
// Config.MetricsElsewhere) and the pages. Every state-changing
// request from a browser must come from the server's own origin
// (http.CrossOriginProtection); scripts with a bearer token are not
// browsers and are not checked.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.routes(mux)
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, httpx.Errf(wire.Forbidden, "cross_origin",
			"a request that changes something must come from this site's own pages, or from a script with a bearer token"))
	}))
	return s.clientIP(s.requestLog(compress(s.withAccount(cop.Handler(mux)))))
}

// requestLog gives every request an id (X-Request-Id: the client's, when
// it is a short word, else a new one), puts it in the request's context,
// where the logger finds it (requestIDHandler), and logs the request.
func (s *Server) requestLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := s.now()
		id := r.Header.Get("X-Request-Id")
		if !requestIDRE.MatchString(id) {
			id = newID()
		}
		w.Header().Set("X-Request-Id", id)
		// No answer of this server is to be read as another type than it
		// says (a file, an SGF, a stream, JSON, a page).
		w.Header().Set("X-Content-Type-Options", "nosniff")
		ctx := httpx.WithRequestID(r.Context(), id)
		sw := &httpx.StatusWriter{ResponseWriter: w, Status: http.StatusOK, Log: s.log, Ctx: ctx}
		next.ServeHTTP(sw, r.WithContext(ctx))
		if strings.HasSuffix(r.URL.Path, "/events") {
			return // streams are logged as they end, by length only
		}
		// The path only: a query may hold an invitation's secret.
		s.log.LogAttrs(ctx, slog.LevelDebug, "request", slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", sw.Status), slog.Int64("ms", s.now().Sub(start).Milliseconds()))
	})
}

// requestIDRE is what a client's X-Request-Id may be, to be kept.
var requestIDRE = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)

// clientIP takes the client's address from X-Forwarded-For when the
// request comes from a trusted proxy (Config.TrustedProxies): the last
// address there that is not itself a trusted proxy, which the proxy
// nearest the client wrote. Without it, every client behind a proxy would
// share the proxy's address, and its rate limits.
func (s *Server) clientIP(next http.Handler) http.Handler {
	if len(s.cfg.TrustedProxies) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if peer, err := netip.ParseAddr(httpx.ClientAddr(r)); err == nil && s.trusted(peer) {
			hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
			for i := len(hops) - 1; i >= 0; i-- {
				ip, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
				if err != nil {
					break // a hop a client made up: stop at the last one known
				}
				r.RemoteAddr = net.JoinHostPort(ip.Unmap().String(), "0")
				if !s.trusted(ip) {
					break
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) trusted(ip netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(ip.Unmap()) {
			return true
		}
	}
	return false
}
