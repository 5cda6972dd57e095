package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/session"
	"alak/solve"
	"alak/wire"
)

// Limits of the post-game analysis: a game is analysed once, by one
// worker, within these budgets; a game the solver cannot answer within
// them gets an analysis that says so. MemoryMB is also the memory of
// the searches of GET /api/analysis and of the small lines' tables;
// GamesQueued is the games waiting for their analysis at most.
const (
	analysisNodes = 50_000_000
	MemoryMB      = 256
	analysisTime  = 2 * time.Minute
	GamesQueued   = 16
)

// analysisBackground bounds the analyses of finished games that nobody
// asked for: at most one started a period, and only while the queue is
// at most a quarter full, so that a busy server analyses some of its games
// and never keeps a player's request out of the queue. After each, the
// next waits analysisBackgroundIdle times as long as it took, so that
// they take at most a twentieth of one core (an analysis beyond the
// tables is a search of up to two minutes), and none is started while a
// game analysed before waits for its puzzles (Config.Busy: which those
// analyses are for, and which rest likewise).
const (
	analysisBackground     = time.Second
	analysisBackgroundIdle = 19
)

// Games runs the post-game analyses: one at a time, from a bounded
// queue; the results are kept in the store.
type Games struct {
	cfg     Config
	queue   chan string
	mu      sync.Mutex
	pending map[string]bool
	// Nodes is the solver's budget a position (analysisNodes); set before
	// the first game ends (tests lower it).
	Nodes  int64
	last   time.Time     // when background last queued a game
	period time.Duration // background's bound (analysisBackground; SetPeriod)
	// unasked are the games queued by Background that nobody has asked
	// for since; next is when Background may queue a game again, after
	// the rest that follows an unasked game's analysis (idle times as
	// long as it took: analysisBackgroundIdle).
	unasked map[string]bool
	next    time.Time
	idle    float64
}

// Background queues game id, a game that ended without anyone asking for
// its analysis, within analysisBackground's bounds; it reports whether it
// did.
func (a *Games) Background(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	if now.Sub(a.last) < a.period || now.Before(a.next) || len(a.queue) > GamesQueued/4 || a.cfg.Busy != nil && a.cfg.Busy() {
		return false
	}
	if a.pending[id] {
		return true
	}
	if !a.queueLocked(id) {
		return false
	}
	a.last = now
	a.unasked[id] = true
	return true
}

// SetPeriod sets Background's bound: at most one game queued a period.
func (a *Games) SetPeriod(d time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.period = d
}

// SetIdle sets the rest after a game nobody asked about: idle times as
// long as its analysis took (analysisBackgroundIdle; tests raise it).
func (a *Games) SetIdle(idle float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.idle = idle
}

// NewGames returns the post-game analyses of cfg, their queue empty and
// unworked until Analysis.Start.
func NewGames(cfg Config) *Games {
	return &Games{cfg: cfg, queue: make(chan string, GamesQueued), pending: map[string]bool{}, Nodes: analysisNodes, period: analysisBackground,
		unasked: map[string]bool{}, idle: analysisBackgroundIdle}
}

// request queues game id unless it is queued already; false when the
// queue is full.
func (a *Games) request(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.unasked, id) // asked for now: no rest after it
	if a.pending[id] {
		return true
	}
	return a.queueLocked(id)
}

// queueLocked queues game id, under mu; false when the queue is full.
func (a *Games) queueLocked(id string) bool {
	select {
	case a.queue <- id:
		a.pending[id] = true
		return true
	default:
		return false
	}
}

// Depth is the games waiting for their analysis.
func (a *Games) Depth() int { return len(a.queue) }

func (a *Games) work() {
	for {
		select {
		case <-a.cfg.Stop.Done():
			return
		case id := <-a.queue:
			start := time.Now()
			a.run(id)
			a.mu.Lock()
			delete(a.pending, id)
			if a.unasked[id] {
				delete(a.unasked, id)
				a.next = time.Now().Add(time.Duration(float64(time.Since(start)) * a.idle))
			}
			a.mu.Unlock()
		}
	}
}

func (a *Games) run(id string) {
	// Cut off by the server's stop as by the time allowed.
	ctx, cancel := context.WithTimeout(a.cfg.Stop, analysisTime)
	defer cancel()
	g, err := a.cfg.Load(ctx, id)
	if err != nil {
		return
	}
	out := wire.Analysis{Game: id, At: a.cfg.Now()}
	// A damaged table file is not used: the analysis then solves within
	// its budget.
	plies, err := a.cfg.Solver.Analyze(ctx, g.Game, solve.Options{MaxNodes: a.Nodes, MemoryMB: MemoryMB})
	switch {
	case errors.Is(err, context.Canceled):
		return // the server stops: not a verdict on the game
	case err != nil:
		out.Code, out.Error = analysisFailure(g.Rules, err)
		a.cfg.Log.Info("an analysis is incomplete", "game", id, "code", out.Code, "err", err)
	}
	out.Moves = session.PlyViews(g.Rules, plies)
	body, err := json.Marshal(out)
	if err == nil {
		err = a.cfg.Store.SaveAnalysis(ctx, id, body)
	}
	if err != nil && !errors.Is(err, store.ErrDuplicate) {
		a.cfg.Log.Error("saving an analysis", "game", id, "err", err)
		return
	}
	// The moves that changed the outcome become puzzles.
	if a.cfg.Analysed != nil {
		a.cfg.Analysed(g, plies)
	}
}

// analysisFailure says why an analysis is missing or incomplete, as a
// code and in a player's words (the solver's own words go to the log).
func analysisFailure(r rules.Rules, err error) (code, words string) {
	switch {
	case errors.Is(err, solve.ErrUnsupported) && r.Points() > 64:
		return "too_large", fmt.Sprintf("this %s board is too large to analyse: games on boards of at most 64 points are analysed", r.SizeString())
	case errors.Is(err, solve.ErrUnsupported), errors.Is(err, solve.ErrEndless):
		return "unsupported", "games under these rules are not analysed"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, solve.ErrNodeLimit), errors.Is(err, solve.ErrMemory):
		return "budget", "the analysis ran out of time before judging every move: the moves judged are listed"
	}
	return "failed", "the analysis failed: the moves judged are listed"
}

// handleGameAnalysis is GET /api/games/{id}/analysis: the exact value of
// every move of a finished game. Never during a game: it would be
// cheating. 202 while it is being computed (ask again).
func (a *Analysis) handleGameAnalysis(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	g, err := a.cfg.Load(r.Context(), id)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if g.Row.State != store.StateFinished {
		a.writeError(w, r, httpx.Errf(wire.Conflict, "not_finished", "the analysis is shown once the game is over, never during it"))
		return
	}
	body, err := a.cfg.Store.Analysis(r.Context(), id)
	if err == nil {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(body)
		return
	}
	if !errors.Is(err, store.ErrNotFound) {
		a.writeError(w, r, err)
		return
	}
	if !a.Games.request(id) {
		a.writeError(w, r, httpx.Errf(wire.Unavailable, "busy", "the analysis queue is full: ask again in a minute"))
		return
	}
	w.Header().Set("Retry-After", "2")
	httpx.WriteJSON(w, http.StatusAccepted, wire.Status{Status: "queued", Message: "the analysis is being computed: ask again in a few seconds"})
}
