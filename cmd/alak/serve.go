package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"alak/server"
	"alak/server/store/pgstore"
	"alak/server/store/sqlitestore"
	"alak/server/store/sqlstore"
)

func init() {
	register(command{name: "serve", summary: "run the play server: games between people and against the computer, in the browser", run: serveRun})
}

const serveUsage = `usage: alak serve [--addr 127.0.0.1:8080] [--db FILE] [--smtp URL] [--base-url URL] [--log-level info]
       [--trusted-proxy CIDR,...] [--metrics-addr ADDR] [--table-dir DIR] [--cpuprofile FILE] [--trace FILE]
       [--mail-listen ADDR --mail-domain DOMAIN]
Runs the play server: open the address in a browser to play live games by
link and against the computer, and, with an account, correspondence games,
the lobby and the archive; with --house-bots, a rated bot account for each
of the computer's levels (alak-beginner ... alak-perfect) takes every
challenge addressed to it. Games are kept in the SQLite file --db (created
and migrated at start). SIGTERM or Ctrl-C stops it after the requests under
way. /healthz answers while the process serves, /readyz while its database
answers, /metrics is for Prometheus. With --mail-listen (and --smtp) players
move by answering the your-move mail (docs/mail.md). docs/api.md describes
the API, docs/deploy.md how to run it.`

func serveRun(e *env, args []string) int {
	fs := newFlagSet(e, "serve", serveUsage)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	db := fs.String("db", "alak.db", "the database: a SQLite file (created if it does not exist), or postgres://USER:PASSWORD@HOST/DB for PostgreSQL")
	smtpURL := fs.String("smtp", "", "mail server for your-turn mail, smtp://[user:password@]host[:port][?from=ADDRESS] (default: no mail)")
	baseURL := fs.String("base-url", "", "the address players reach the server at, for links in mail and invitations (default http://ADDR)")
	level := fs.String("log-level", "info", "log level: debug, info, warn, error")
	signupRate := fs.Int("signup-rate", 0, "accounts one address may create a minute (default 5; raise it for alak loadtest on this machine)")
	loginRate := fs.Int("login-rate", 0, "sign-in attempts one address may make a minute on one name (default 10; twice that on all names)")
	gameRate := fs.Int("game-rate", 0, "games one account may create a minute (default 30; twice that from one address; raise it for alak loadtest on this machine)")
	proxies := fs.String("trusted-proxy", "", "addresses of the reverse proxies in front (127.0.0.1, 10.0.0.0/8, comma-separated): their X-Forwarded-For names the client")
	metricsAddr := fs.String("metrics-addr", "", "serve /metrics on this address only, not beside the API (default: beside the API)")
	tableDir := fs.String("table-dir", "", "a directory of solver tables (alak solve --table-dir, --dense) the post-game analysis and the computer's perfect player read: a dense table answers every position of its rules at once (default: none)")
	puzzleSeed := fs.Int("puzzle-seed", 30, "how many puzzles to make at start, in the background, for each preset the database has none of (0: none; the finished games' puzzles are made whatever it is)")
	tableMemory := fs.Int("table-memory", 0, "the memory in MB of the dense tables the server makes of the small lines it is asked about (alak on up to 13 points ...) and keeps for the analysis, the hints and the perfect player (default 256)")
	graphMemory := fs.Int("graph-memory", 0, "the memory in MB of the state graphs of small lines the perfect player keeps, made once a process, for the moves after a game's history repeated a position (default 512: alak on up to 12 points; 13 points need 1500)")
	houseBots := fs.Bool("house-bots", false, "keep a rated bot account for each of the computer's levels, alak-beginner ... alak-perfect, that takes every challenge addressed to it by name")
	cpuProfile := fs.String("cpuprofile", "", "write the server's CPU profile to this file when it stops (for measuring where the time goes under load)")
	mailListen := fs.String("mail-listen", "", "take mail over SMTP on this address, for moves by email: replies to the your-move mail play (needs --smtp and --mail-domain; docs/mail.md) (default: none)")
	mailDomain := fs.String("mail-domain", "", "the domain of the reply addresses game-ID-SECRET@DOMAIN, whose mail must reach --mail-listen")
	traceFile := fs.String("trace", "", "write the server's execution trace (go tool trace) to this file until it stops: for short runs, it grows by megabytes a second under load")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if len(words) > 0 {
		return fail(e, "serve", fmt.Errorf("unexpected argument %q: the server takes flags only", words[0]))
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return fail(e, "serve", fmt.Errorf("--log-level %q: debug, info, warn or error", *level))
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: lv}))
	if *baseURL == "" {
		*baseURL = "http://" + *addr
	}
	if *tableMemory < 0 {
		return fail(e, "serve", fmt.Errorf("--table-memory %d: give the megabytes of tables to keep, 1 or more (0: 256)", *tableMemory))
	}
	if *graphMemory < 0 {
		return fail(e, "serve", fmt.Errorf("--graph-memory %d: give the megabytes of state graphs to keep, 1 or more (0: 512)", *graphMemory))
	}
	if *puzzleSeed < 0 || *puzzleSeed > 1000 {
		return fail(e, "serve", fmt.Errorf("--puzzle-seed %d: give 0 to 1000 puzzles a preset", *puzzleSeed))
	}
	if *mailDomain != "" && *mailListen == "" {
		return fail(e, "serve", fmt.Errorf("--mail-domain without --mail-listen: mail for %s would reach nothing", *mailDomain))
	}
	trusted, err := parsePrefixes(*proxies)
	if err != nil {
		return fail(e, "serve", fmt.Errorf("--trusted-proxy: %w", err))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return fail(e, "serve", err)
		}
		defer stopProfile()
	}
	if *traceFile != "" {
		stopTrace, err := startTrace(*traceFile)
		if err != nil {
			return fail(e, "serve", err)
		}
		defer stopTrace()
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return fail(e, "serve", fmt.Errorf("--db %s: %w", pgstore.Redact(*db), err))
	}
	defer st.Close()
	cfg := server.Config{BaseURL: *baseURL, SMTP: *smtpURL, Logger: log, SignupRate: *signupRate, LoginRate: *loginRate, GameRate: *gameRate,
		TrustedProxies: trusted, MetricsElsewhere: *metricsAddr != "", TableDir: *tableDir, TableMemoryMB: *tableMemory, GraphMemoryMB: *graphMemory, PuzzleSeed: *puzzleSeed, MailListen: *mailListen, MailDomain: *mailDomain}
	cfg.HouseBots = *houseBots
	if isPostgres(*db) {
		// Several processes may share this database: each hears the
		// others' changes for the streams it holds.
		cfg.Notifier = pgstore.NewNotifier(st.DB(), *db)
	}
	srv, err := server.New(cfg, st)
	if err != nil {
		return fail(e, "serve", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		srv.Close()
		return fail(e, "serve", err)
	}
	hs := newHTTPServer(srv.Handler(), log, defaultTimeouts)
	if *metricsAddr != "" {
		mln, err := net.Listen("tcp", *metricsAddr)
		if err != nil {
			ln.Close()
			srv.Close()
			return fail(e, "serve", fmt.Errorf("--metrics-addr: %w", err))
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", srv.MetricsHandler())
		ms := newHTTPServer(mux, log, defaultTimeouts)
		go ms.Serve(mln)
		defer ms.Close()
		log.Info("metrics", "addr", mln.Addr().String())
	}
	fmt.Fprintf(e.stdout, "alak serve: open %s in a browser (database %s)\n", strings.TrimRight(*baseURL, "/"), st.Path())
	log.Info("listening", "addr", ln.Addr().String(), "db", st.Path(), "mail", *smtpURL != "")
	if a := srv.MailAddr(); a != "" {
		log.Info("taking mail", "addr", a, "domain", *mailDomain)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		srv.Close()
		return fail(e, "serve", err)
	case <-ctx.Done():
	}
	log.Info("stopping: finishing the requests under way")
	srv.Close() // ends the event streams and the background work
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = hs.Shutdown(sctx)
	srv.RecordStop() // the clocks' downtime counts from the last answer
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("shutdown", "err", err)
		return 1
	}
	log.Info("stopped")
	return 0
}

// timeouts bound how long a client may hold a connection: to send its
// headers, its whole request, to read the answer, and between requests.
type timeouts struct {
	readHeader, read, write, idle time.Duration
}

// defaultTimeouts are alak serve's.
var defaultTimeouts = timeouts{readHeader: 10 * time.Second, read: 30 * time.Second, write: 30 * time.Second, idle: 2 * time.Minute}

// newHTTPServer returns the HTTP server alak serve runs: a slow client
// (slowloris) is cut off by the timeouts, and headers are at most 64 kB.
func newHTTPServer(h http.Handler, log *slog.Logger, t timeouts) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.readHeader,
		ReadTimeout:       t.read,
		WriteTimeout:      t.write, // event streams lift it for themselves
		IdleTimeout:       t.idle,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ConnContext:       server.ConnContext, // the event streams bound their send buffers, and a move's event is written before its answer
	}
}

// parsePrefixes reads a comma-separated list of addresses and CIDR
// prefixes.
func parsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address (127.0.0.1) nor a prefix (10.0.0.0/8)", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// openStore opens the database --db names: PostgreSQL for a postgres://
// or postgresql:// URL, otherwise a SQLite file.
func openStore(ctx context.Context, db string) (*sqlstore.Store, error) {
	if isPostgres(db) {
		return pgstore.Open(ctx, db)
	}
	return sqlitestore.Open(ctx, db)
}

func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}
