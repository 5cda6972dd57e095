package analysis

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/internal/pages"
	"alak/server/store"
	"alak/solve"
)

// Game is a stored game as the analysis reads it.
type Game struct {
	Row   store.Game  // its id, state, rules, start and winner
	Rules rules.Rules // its rules, parsed
	// Game is its moves played from its start. It may be shared with the
	// server's cache of games: the analysis only reads it.
	Game *rules.Game
}

// LoadGame loads the stored game id. An unknown id's error is the API's
// answer (a 404 that says so).
type LoadGame func(ctx context.Context, id string) (Game, error)

// Store is what the analysis keeps: the finished games' analyses and the
// opening explorer's counts.
type Store interface {
	store.AnalysisStore
	store.ExplorerStore
}

// Config is what the analysis takes from the rest of the server.
type Config struct {
	Store  Store
	Solver *solve.Tables // the server's solver (package tables)
	Pages  *pages.Pages  // the analysis board's and the rule lab's pages
	Load   LoadGame
	// Analysed is told of each finished game analysed, with the values of
	// its plies (its mistakes become puzzles); nil tells nobody.
	Analysed func(Game, []solve.PlyValue)
	// Busy reports whether the work Analysed feeds is behind (a finished
	// game waits for its puzzles): the games nobody asked about wait
	// meanwhile. Nil: never.
	Busy func() bool
	Log  *slog.Logger
	Now  func() time.Time
	// Stop is done when the server stops: the background work ends and
	// the searches under way are cut off.
	Stop context.Context
	// ExplorerWaiting bounds the finished games waiting to be counted in
	// the opening explorer; 0 is explorerWaiting.
	ExplorerWaiting int
}

// Analysis serves the analyses, the explorer, the rule lab and the
// analysis board. Its methods are safe for concurrent use.
type Analysis struct {
	cfg Config
	// Limits bound GET /api/analysis and GET /api/explorer by address
	// (RequestRate, RequestBurst); set before the first request (tests
	// lift them).
	Limits *httpx.Limiters
	// Games analyses the finished games, Positions any position.
	Games     *Games
	Positions *Positions
	// explorer holds the finished games waiting to be counted in the
	// opening explorer (explorer.go); explorerBehind is set when a game
	// found it full and was left to the backfill.
	explorer       chan explorerGame
	explorerBehind atomic.Bool
}

// New returns the analysis of cfg; Start starts its background work.
func New(cfg Config) *Analysis {
	waiting := cfg.ExplorerWaiting
	if waiting <= 0 {
		waiting = explorerWaiting
	}
	return &Analysis{cfg: cfg, Limits: httpx.NewLimiters(rate.Limit(RequestRate), RequestBurst),
		Games: NewGames(cfg), Positions: newPositions(cfg), explorer: make(chan explorerGame, waiting)}
}

// Start starts the background work with spawn, which runs a function in
// a goroutine of its own: the finished games' analyses, the position
// searches and the small lines' tables, the explorer's counts and its
// backfill. Each ends once cfg.Stop is done.
func (a *Analysis) Start(spawn func(func())) {
	spawn(a.Games.work)
	spawn(a.Positions.work)
	spawn(a.Positions.workLong)
	spawn(a.Positions.build)
	spawn(a.explorerBackfill)
	spawn(a.explorerWork)
}

// Routes serves the analysis's calls and pages on mux.
func (a *Analysis) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/games/{id}/analysis", a.handleGameAnalysis)
	mux.HandleFunc("GET /api/analysis", a.handlePositionAnalysis)
	mux.HandleFunc("GET /api/explorer", a.handleExplorer)
	mux.HandleFunc("GET /api/rulelab", handleRuleLab)
	mux.HandleFunc("GET /rulelab", a.handleRuleLabPage)
	mux.HandleFunc("GET /analysis", a.handleAnalysisPage)
	mux.HandleFunc("GET /api/board", a.handleBoard)
	mux.HandleFunc("POST /api/board/sgf", a.handleBoardSGF)
	mux.HandleFunc("POST /api/board/sgf/export", a.handleBoardSGFExport)
}

// writeError answers err as JSON with its kind's status (httpx.WriteError).
func (a *Analysis) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(a.cfg.Log, w, r, err)
}
