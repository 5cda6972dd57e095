package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"alak/rules"
	"alak/server/store"
	"alak/session"
	"alak/solve"
	"alak/wire"
)

// Limits of the post-game analysis: a game is analysed once, by one
// worker, within these budgets; a game the solver cannot answer within
// them gets an analysis that says so.
const (
	analysisNodes  = 50_000_000
	analysisMemMB  = 256
	analysisTime   = 2 * time.Minute
	analysisQueued = 16
)

// analysisBackground bounds the analyses of finished games that nobody
// asked for: at most one started a period, and only while the queue is
// at most a quarter full, so that a busy server analyses some of its games
// and never keeps a player's request out of the queue. After each, the
// next waits analysisBackgroundIdle times as long as it took, so that
// they take at most a twentieth of one core (an analysis beyond the
// tables is a search of up to two minutes), and none is started while a
// game analysed before waits for its puzzles (which those analyses are
// for, and which rest likewise: puzzles.go).
const (
	analysisBackground     = time.Second
	analysisBackgroundIdle = 19
)

// analyses runs the post-game analyses: one at a time, from a bounded
// queue; the results are kept in the store.
type analyses struct {
	s       *Server
	queue   chan string
	mu      sync.Mutex
	pending map[string]bool
	nodes   int64         // the solver's budget a position (analysisNodes; tests lower it)
	last    time.Time     // when background last queued a game
	period  time.Duration // background's bound (analysisBackground; tests raise it)
	// unasked are the games queued by background that nobody has asked
	// for since; next is when background may queue a game again, after
	// the rest that follows an unasked game's analysis (idle times as
	// long as it took: analysisBackgroundIdle).
	unasked map[string]bool
	next    time.Time
	idle    float64
}

// background queues game id, a game that ended without anyone asking for
// its analysis, within analysisBackground's bounds; it reports whether it
// did.
func (a *analyses) background(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	if now.Sub(a.last) < a.period || now.Before(a.next) || len(a.queue) > analysisQueued/4 || a.s.puzzles.waiting() {
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

func newAnalyses(s *Server) *analyses {
	return &analyses{s: s, queue: make(chan string, analysisQueued), pending: map[string]bool{}, nodes: analysisNodes, period: analysisBackground,
		unasked: map[string]bool{}, idle: analysisBackgroundIdle}
}

// request queues game id unless it is queued already; false when the
// queue is full.
func (a *analyses) request(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.unasked, id) // asked for now: no rest after it
	if a.pending[id] {
		return true
	}
	return a.queueLocked(id)
}

// queueLocked queues game id, under mu; false when the queue is full.
func (a *analyses) queueLocked(id string) bool {
	select {
	case a.queue <- id:
		a.pending[id] = true
		return true
	default:
		return false
	}
}

func (a *analyses) depth() int { return len(a.queue) }

func (a *analyses) work() {
	for {
		select {
		case <-a.s.done:
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

func (a *analyses) run(id string) {
	s := a.s
	ctx, cancel := context.WithTimeout(context.Background(), analysisTime)
	defer cancel()
	stop := context.AfterFunc(contextOf(s.done), cancel)
	defer stop()
	st, err := s.loadGame(ctx, id)
	if err != nil {
		return
	}
	out := wire.Analysis{Game: id, At: s.now()}
	// A damaged table file is not used: the analysis then solves within
	// its budget.
	plies, err := s.tables.solver.Analyze(ctx, st.sess.Game(), solve.Options{MaxNodes: a.nodes, MemoryMB: analysisMemMB})
	switch {
	case errors.Is(err, context.Canceled):
		return // the server stops: not a verdict on the game
	case err != nil:
		out.Code, out.Error = analysisFailure(st.r, err)
		s.log.Info("an analysis is incomplete", "game", id, "code", out.Code, "err", err)
	}
	out.Moves = session.PlyViews(st.r, plies)
	body, err := json.Marshal(out)
	if err == nil {
		err = s.store.SaveAnalysis(ctx, id, body)
	}
	if err != nil && !errors.Is(err, store.ErrDuplicate) {
		s.log.Error("saving an analysis", "game", id, "err", err)
		return
	}
	// The moves that changed the outcome become puzzles (puzzles.go).
	s.puzzles.gameAnalysed(st, plies)
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

// contextOf is a context done when done is closed.
func contextOf(done <-chan struct{}) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-done
		cancel()
	}()
	return ctx
}

// handleAnalysis is GET /api/games/{id}/analysis: the exact value of every
// move of a finished game. Never during a game: it would be cheating. 202
// while it is being computed (ask again).
func (s *Server) handleAnalysis(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	st, err := s.loadGame(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if st.row.State != store.StateFinished {
		s.writeError(w, r, apiErr(wire.Conflict, "not_finished", "the analysis is shown once the game is over, never during it"))
		return
	}
	body, err := s.store.Analysis(r.Context(), id)
	if err == nil {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(body)
		return
	}
	if !errors.Is(err, store.ErrNotFound) {
		s.writeError(w, r, err)
		return
	}
	if !s.analyses.request(id) {
		s.writeError(w, r, apiErr(wire.Unavailable, "busy", "the analysis queue is full: ask again in a minute"))
		return
	}
	w.Header().Set("Retry-After", "2")
	writeJSON(w, http.StatusAccepted, wire.Status{Status: "queued", Message: "the analysis is being computed: ask again in a few seconds"})
}
