package analysis

import (
	"context"
	"net/http"
	"time"

	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// explorerBackfillBatch is the games the backfill counts a round; it runs
// rounds until none is left.
const explorerBackfillBatch = 500

// handleExplorer is GET /api/explorer?rules=...&moves=...: one indexed
// read of the explorer's counts (store.ExplorerMoves). Only games from the
// rules' own start are counted, so a position is given as moves; it is
// rate-limited with the analyses.
func (a *Analysis) handleExplorer(w http.ResponseWriter, r *http.Request) {
	if wait, ok := a.Limits.Allow(httpx.ClientAddr(r), a.cfg.Now()); !ok {
		a.writeError(w, r, httpx.TooMany(wait, "too many requests from this address: ask again in %d seconds", httpx.RetrySeconds(wait)))
		return
	}
	q := r.URL.Query()
	if q.Get("position") != "" {
		a.writeError(w, r, httpx.Errf(wire.BadInput, "bad_position", "the explorer counts games from the rules' own start: give the moves from it, not a position"))
		return
	}
	g, err := analysisGame(q)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	moves := explorerLine(g)
	ms, err := a.cfg.Store.ExplorerMoves(r.Context(), g.Rules().String(), moves)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	out := wire.Explorer{Rules: g.Rules().String(), Moves: []wire.ExplorerMove{}}
	for _, m := range ms {
		out.Moves = append(out.Moves, wire.ExplorerMove{Move: m.Move, Games: m.Games, XWins: m.XWins, Draws: m.Draws, OWins: m.OWins})
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// explorerLine is the moves of g as the store keeps them (MoveText),
// without a resignation.
func explorerLine(g *rules.Game) []string {
	r := g.Rules()
	var out []string
	for _, m := range g.Moves() {
		if m == rules.Resign {
			continue
		}
		out = append(out, r.MoveText(m))
	}
	return out
}

// explorerGame is a finished game waiting to be counted in the explorer.
type explorerGame struct {
	id, rules, winner string
	moves             []string
}

// explorerWaiting bounds the finished games waiting to be counted (a few
// hundred bytes each).
const explorerWaiting = 4096

// GameEnded has a game that has just finished counted in the explorer,
// when it began at the rules' own start: not by the request that ended
// it, which answers at once, but by explorerWork, at the store's idle
// priority (a count writes a row for each of the game's moves: it was
// the slowest write of the game's last move, and moves waited behind
// it). When the queue is full (the store's writer busy for long enough
// that explorerWaiting games wait), the game is left uncounted and
// explorerWork's backfill counts it once the queue has emptied: the
// request never writes the count itself.
func (a *Analysis) GameEnded(ctx context.Context, g Game) {
	if g.Row.State != store.StateFinished || g.Row.Start != "" {
		return
	}
	eg := explorerGame{id: g.Row.ID, rules: g.Row.Rules, winner: g.Row.Winner, moves: explorerLine(g.Game)}
	select {
	case a.explorer <- eg:
	default:
		a.explorerBehind.Store(true)
	}
}

// explorerWork counts the finished games GameEnded queues, until the
// server stops; those still waiting then are the next start's backfill's.
// Once the queue is empty after games were left out of it, it runs the
// backfill, which counts every finished game not counted yet (a count is
// written once: a game counted twice over is counted once).
func (a *Analysis) explorerWork() {
	ctx := store.Idle(a.cfg.Stop)
	for {
		select {
		case <-ctx.Done():
			return
		case g := <-a.explorer:
			a.addExplorerGame(ctx, g)
			if len(a.explorer) == 0 && a.explorerBehind.CompareAndSwap(true, false) {
				a.explorerBackfill()
			}
		}
	}
}

// addExplorerGame counts g. A failure is logged: the backfill of the next
// start counts the game.
func (a *Analysis) addExplorerGame(ctx context.Context, g explorerGame) {
	if _, err := a.cfg.Store.AddExplorerGame(ctx, g.id, g.rules, g.moves, g.winner); err != nil && ctx.Err() == nil {
		a.cfg.Log.Warn("counting a game in the opening explorer", "game", g.id, "err", err)
	}
}

// explorerBackfill counts the finished games not counted yet: those that
// ended before the explorer existed, or whose count a stopped process did
// not write. It runs once at start, in the background, at the store's
// idle priority.
func (a *Analysis) explorerBackfill() {
	ctx := store.Idle(a.cfg.Stop)
	total := 0
	start := time.Now()
	for {
		n, err := a.cfg.Store.ExplorerBackfill(ctx, explorerBackfillBatch)
		total += n
		if err != nil {
			if ctx.Err() == nil {
				a.cfg.Log.Warn("the opening explorer's backfill stopped", "counted", total, "err", err)
			}
			return
		}
		if n == 0 {
			break
		}
	}
	if total > 0 {
		a.cfg.Log.Info("the opening explorer counted the finished games it had not counted", "games", total, "took", time.Since(start))
	}
}
