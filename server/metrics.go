package server

import (
	"context"
	"database/sql"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"alak/player"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
)

// metrics are the server's counters, exposed for Prometheus at /metrics
// (MetricsHandler) from a registry of the server's own: two servers in
// one process (the tests) do not share them.
type metrics struct {
	// The game core's counters: moves, conflicts, database errors,
	// adjudications, streams open and slow, events not written at once.
	game.Metrics
	mails                      atomic.Int64
	moveRequests, moveFailures atomic.Int64
	moveNanos                  atomic.Int64
	// liveGames is the number of active games, as the store counted them
	// at the last sweep; -1 before the first count.
	liveGames atomic.Int64
	// perfect counts the perfect seats' moves by how they were made.
	perfect perfectMoves
	// moveLatency is the time from a move's request to its
	// acknowledgement, of the moves acknowledged.
	moveLatency prometheus.Histogram
}

// observeMove counts a move request and its time to the answer.
func (m *metrics) observeMove(d time.Duration, ok bool) {
	m.moveRequests.Add(1)
	if !ok {
		m.moveFailures.Add(1)
	} else if m.moveLatency != nil {
		m.moveLatency.Observe(d.Seconds())
	}
	m.moveNanos.Add(int64(d))
}

// gameCounter is a store that counts games by state (sqlstore.Store is
// one); the live-games gauge needs it.
type gameCounter interface {
	CountGames(ctx context.Context, state string) (int, error)
}

// registry builds the server's Prometheus registry: the counters the
// server keeps anyway, read at each scrape, the move latency histogram,
// the queues' depths, the database pool, and Go's and the process's own.
func (s *Server) registry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	m := &s.metrics
	m.liveGames.Store(-1)
	m.moveLatency = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "alak_move_seconds",
		Help:    "Time from a move's request to its acknowledgement (the move checked and stored), of the moves acknowledged.",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14), // 0.5 ms to 4 s
	})
	counter := func(name, help string, v *atomic.Int64, labels prometheus.Labels) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help, ConstLabels: labels},
			func() float64 { return float64(v.Load()) })
	}
	gauge := func(name, help string, labels prometheus.Labels, f func() float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help, ConstLabels: labels}, f)
	}
	const perfectHelp = "Moves of the computer's perfect seats by how they were made: exact (a best move, chosen by depth or replies), " +
		"a best move with the tie broken at random (no depths within the budget), or the alpha-beta fallback (no solve within the budget)."
	const queueHelp = "Jobs waiting in a queue: the computer's moves, the post-game analyses, the positions of the analysis board waiting for the search, the small lines' tables to make, the mail."
	reg.MustRegister(
		m.moveLatency,
		counter("alak_moves_total", "Moves stored, by people and by the computer.", &m.Moves, nil),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "alak_move_requests_total",
			Help: "Move requests (POST /api/games/{id}/moves) by outcome.", ConstLabels: prometheus.Labels{"result": "acknowledged"}},
			func() float64 { return float64(m.moveRequests.Load() - m.moveFailures.Load()) }),
		counter("alak_move_requests_total", "Move requests (POST /api/games/{id}/moves) by outcome.", &m.moveFailures, prometheus.Labels{"result": "refused"}),
		counter("alak_conflicts_total", "Changes refused because another request changed the game first (the store's version check).", &m.Conflicts, nil),
		counter("alak_db_errors_total", "Database operations that failed (not conflicts): writes of a change, the sweep's queries, readiness checks.", &m.DBErrors, nil),
		counter("alak_adjudications_total", "Games ended on time by the server.", &m.Adjudications, nil),
		counter("alak_mails_total", "Mails handed to the mail queue (your move, time running out).", &m.mails, nil),
		counter("alak_perfect_moves_total", perfectHelp, &m.perfect.exact, prometheus.Labels{"how": "exact"}),
		counter("alak_perfect_moves_total", perfectHelp, &m.perfect.untied, prometheus.Labels{"how": "tie_at_random"}),
		counter("alak_perfect_moves_total", perfectHelp, &m.perfect.fallback, prometheus.Labels{"how": "fallback"}),
		gauge("alak_event_streams", "Event streams open on this process.", nil, func() float64 { return float64(m.Streams.Load()) }),
		counter("alak_event_lead_missed_total", "Events of the player to move not written to their stream by the change's request itself, before its answer (the stream was busy writing, or its socket held data the client had not acknowledged), but handed to the stream's goroutine.", &m.LeadMissed, nil),
		counter("alak_event_streams_slow_total", "Event streams closed because the client did not take a write (an event, a keep-alive) within the stream write timeout.", &m.SlowStreams, nil),
		gauge("alak_queue_depth", queueHelp, prometheus.Labels{"queue": "computer"}, func() float64 { return float64(s.bots.Depth()) }),
		gauge("alak_queue_depth", queueHelp, prometheus.Labels{"queue": "analysis"}, func() float64 { return float64(s.analysis.Games.Depth()) }),
		gauge("alak_queue_depth", queueHelp, prometheus.Labels{"queue": "position_analysis"}, func() float64 { return float64(s.analysis.Positions.Waiting()) }),
		gauge("alak_queue_depth", queueHelp, prometheus.Labels{"queue": "table"}, func() float64 { return float64(s.analysis.Positions.Building()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "alak_solver_tables_made_total",
			Help: "Dense tables of small lines the solver made (once a rule set while kept)."},
			func() float64 { return float64(s.tables.Stats().Made) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "alak_solver_tables_dropped_total",
			Help: "Dense tables of small lines dropped to stay within --table-memory (made again when asked for)."},
			func() float64 { return float64(s.tables.Stats().Dropped) }),
		gauge("alak_solver_tables_kept", "Dense tables of small lines the solver keeps in memory.", nil,
			func() float64 { return float64(s.tables.Stats().Kept) }),
		gauge("alak_solver_tables_kept_bytes", "Memory of the dense tables the solver keeps (--table-memory bounds it).", nil,
			func() float64 { return float64(s.tables.Stats().KeptBytes) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "alak_solver_table_answers_total",
			Help: "Solves a dense table answered (analyses, hints, perfect seats)."},
			func() float64 { return float64(s.tables.Stats().FromTable) }),
		gauge("alak_queue_depth", queueHelp, prometheus.Labels{"queue": "mail"}, func() float64 {
			return float64(s.mail.QueueDepth())
		}),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	if s.mail.Sends() {
		reg.MustRegister(
			counter("alak_mails_sent_total", "Mails the mail server accepted.", &s.mail.Counts.Sent, nil),
			counter("alak_mails_failed_total", "Mails the mail server refused or could not be reached for (not retried).", &s.mail.Counts.Failed, nil),
		)
	}
	if s.mail.Reads() {
		in := &s.mail.Counts
		const help = "Mails taken by --mail-listen (moves by email), by what became of them: played, refused (nothing changed; the player was told why), board (sent again), automatic (dropped unanswered)."
		reg.MustRegister(
			counter("alak_mails_received_total", help, &in.Played, prometheus.Labels{"result": "played"}),
			counter("alak_mails_received_total", help, &in.Refused, prometheus.Labels{"result": "refused"}),
			counter("alak_mails_received_total", help, &in.Board, prometheus.Labels{"result": "board"}),
			counter("alak_mails_received_total", help, &in.Automatic, prometheus.Labels{"result": "automatic"}),
			counter("alak_mail_recipients_refused_total", "Recipients --mail-listen refused at RCPT: unknown or forged addresses, ended games, over the rate.", &in.RcptRefused, nil),
			counter("alak_mail_connections_refused_total", "SMTP connections --mail-listen answered 421 and closed: over the connections it takes at once (in all, or from one address).", &in.ConnsRefused, nil),
			counter("alak_mail_connections_cut_total", "SMTP connections --mail-listen closed because a command (or a mail's data) or the whole session took longer than it may.", &in.ConnsCut, nil),
		)
	}
	if _, ok := s.store.(gameCounter); ok {
		reg.MustRegister(gauge("alak_games_active", "Games being played (all processes), as the store counted them at the last sweep.", nil,
			func() float64 { return float64(m.liveGames.Load()) }))
	}
	if d, ok := s.store.(interface{ DB() *sql.DB }); ok {
		reg.MustRegister(collectors.NewDBStatsCollector(d.DB(), "alak"))
	}
	return reg
}

// countLiveGames refreshes the live-games gauge from the store.
func (s *Server) countLiveGames(ctx context.Context) {
	c, ok := s.store.(gameCounter)
	if !ok {
		return
	}
	n, err := c.CountGames(ctx, "active")
	if err != nil {
		s.metrics.DBErrors.Add(1)
		s.log.ErrorContext(ctx, "counting the active games", "err", err)
		return
	}
	s.metrics.liveGames.Store(int64(n))
}

// MetricsHandler serves the metrics in Prometheus's text format. Handler
// serves it at /metrics unless Config.MetricsElsewhere is set.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{Registry: s.reg, MaxRequestsInFlight: 4})
}

// handleHealth is GET /healthz: the process serves (liveness). It does not
// ask the database: a process whose database is away is alive, and
// restarting it would not bring the database back.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyTimeout bounds the database's answer to a readiness check.
const readyTimeout = time.Second

// handleReady is GET /readyz: 200 when the database answers within
// readyTimeout, 503 otherwise, for a proxy or an orchestrator to send
// requests only to processes that can serve them.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.metrics.DBErrors.Add(1)
		s.log.WarnContext(r.Context(), "not ready: the database does not answer", "err", err)
		httpx.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "the database does not answer", "code": "not_ready"})
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// perfectMoves counts the moves of the computer's perfect seats (and the
// levels that are perfect) by how they were made: exact, exact with a tie
// broken at random, or the alpha-beta fallback (player.Perfect's Report).
type perfectMoves struct {
	exact, untied, fallback atomic.Int64
}

// observe adds what p's report gained between before and after.
func (c *perfectMoves) observe(before, after player.Report) {
	fb := after.Count(player.PerfectFallback) - before.Count(player.PerfectFallback)
	un := after.Count(player.PerfectUntied) - before.Count(player.PerfectUntied)
	c.fallback.Add(int64(fb))
	c.untied.Add(int64(un))
	c.exact.Add(int64(after.Moves - before.Moves - fb - un))
}
