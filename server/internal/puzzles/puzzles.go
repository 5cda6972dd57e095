package puzzles

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"alak/server/internal/httpx"
	"alak/server/internal/pages"
	"alak/server/store"
	"alak/solve"
)

// Config is what the puzzles take from the rest of the server.
type Config struct {
	// Store is the store's puzzles role.
	Store store.PuzzleStore
	// Solver is the server's solver (package tables): it finds and proves
	// the puzzles and answers the lessons.
	Solver *solve.Tables
	// TableMemoryMB bounds a dense table made for a preset's first
	// puzzles (the analysis's bound, analysis.MemoryMB).
	TableMemoryMB int
	// Pages draws the puzzles' and the lessons' pages.
	Pages *pages.Pages
	Log   *slog.Logger
	Now   func() time.Time
	// Stop is done when the server stops: the background work ends and
	// the searches under way are cut off.
	Stop context.Context
	// Seed is how many puzzles are made at start for each preset the
	// store has none of (the server's Config.PuzzleSeed); 0 makes none.
	Seed int
	// SeedRules replaces SeedRules, the rules the first puzzles are made
	// on; nil takes SeedRules.
	SeedRules []string
}

// Puzzles makes the server's puzzles in the background, one at a time,
// and serves the puzzles' and the lessons' API and pages. Its methods are
// safe for concurrent use.
type Puzzles struct {
	cfg   Config
	queue chan puzzleGame
	// seedRules and seedCount say which first sets are made at start
	// (Config.Seed).
	seedRules []string
	seedCount int
	// idle is the share of the seed's time spent waiting: after a puzzle
	// that took d, the seed waits d*idle, so that it uses at most a
	// 1/(1+idle) share of a core; gameIdle is the same for the finished
	// games' puzzles (puzzleGameIdle).
	idle, gameIdle float64
	// games counts the finished games whose puzzles were made.
	mu    sync.Mutex
	games int
	// limits bound the API's calls (api.go).
	limits limits
}

// New returns the puzzles of cfg; Start starts their background work.
func New(cfg Config) *Puzzles {
	pz := &Puzzles{cfg: cfg, queue: make(chan puzzleGame, puzzleQueued), seedCount: cfg.Seed, idle: 1, gameIdle: puzzleGameIdle,
		limits: newLimits()}
	if pz.seedCount > 0 {
		pz.seedRules = SeedRules
		if cfg.SeedRules != nil {
			pz.seedRules = cfg.SeedRules
		}
	}
	return pz
}

// Start starts the background work with spawn, which runs a function in
// a goroutine the server waits for as it stops: the finished games'
// puzzles and the first sets.
func (pz *Puzzles) Start(spawn func(func())) {
	spawn(pz.work)
	spawn(pz.seed)
}

// Routes serves the puzzles' and the lessons' API (api.go) and pages
// (pages.go).
func (pz *Puzzles) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/puzzles/next", pz.handleNextPuzzle)
	mux.HandleFunc("GET /api/puzzles/daily", pz.handleDailyPuzzle)
	mux.HandleFunc("GET /api/puzzles/{id}", pz.handlePuzzle)
	mux.HandleFunc("POST /api/puzzles/{id}/attempt", pz.handleAttempt)
	mux.HandleFunc("GET /api/me/puzzles", pz.handleMyPuzzles)
	mux.HandleFunc("GET /api/lessons", pz.handleLessons)
	mux.HandleFunc("POST /api/lessons/{id}/try", pz.handleLessonTry)
	pz.pageRoutes(mux)
}

// writeError answers err as JSON with its kind's status (httpx.WriteError).
func (pz *Puzzles) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(pz.cfg.Log, w, r, err)
}
