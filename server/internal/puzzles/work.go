package puzzles

// Where the server's puzzles come from (docs/puzzles.md, "Wiring the play
// server"): a first set for each preset made at start from the server's
// small lines, when the store has none of the preset, and the mistakes
// of every finished game once its analysis is done. Every puzzle is
// proved by the solver that found it (package puzzle) and checked again
// by a second method (puzzle.Verify) and by puzzle.Check on its own line
// before it is stored.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"alak/glicko2"
	"alak/puzzle"
	"alak/rules"
	"alak/server/internal/ratings"
	"alak/server/store"
	"alak/solve"
)

// Bounds of the puzzles' work: each solve of a position (finding a puzzle
// or verifying it) within puzzleNodes positions and puzzleMemMB, a game's
// puzzles within puzzleGameTime, at most puzzleQueued games waiting.
const (
	puzzleNodes    = 2_000_000
	puzzleMemMB    = 128
	puzzleGameTime = 2 * time.Minute
	puzzleQueued   = 32
	// puzzleSeedTries bounds the sources' calls made for one preset's
	// first set: a preset whose positions rarely make puzzles stops.
	puzzleSeedTries = 400
	// puzzleGameIdle is how long the worker rests after a finished game's
	// puzzles, as a multiple of the time they took: they take at most a
	// twentieth of one core (alak on 11 points: about half a second a
	// game, so a game's puzzles every ten seconds at most), and a busy
	// server's moves keep the cores. The puzzles are a bonus: the games
	// that come meanwhile wait in the queue, or are dropped when it is
	// full.
	puzzleGameIdle = 19
)

// SeedRules are the small lines of each preset the first puzzles
// are made on: within puzzle.Reach, on boards where the dense table (or
// for traditional and tromp-taylor, the search) answers in milliseconds.
var SeedRules = []string{"alak size=9", "traditional size=5", "tromp-taylor size=6", "alterigo size=8", "dewdney size=9", "golf size=9"}

// puzzleGame is a finished game whose analysis is done, waiting for its
// puzzles.
type puzzleGame struct {
	row   store.Game
	game  *rules.Game
	plies []solve.PlyValue
}

// GameAnalysed queues a finished game (its row, its rules, its moves)
// whose analysis is plies for its puzzles; a full queue drops it (its
// analysis stays: the puzzles are a bonus, never a reason to wait).
func (pz *Puzzles) GameAnalysed(row store.Game, r rules.Rules, game *rules.Game, plies []solve.PlyValue) {
	if len(plies) == 0 || puzzle.Reach(r) != nil {
		return
	}
	// A copy: the session's game stays the session's.
	g := game.Clone()
	select {
	case pz.queue <- puzzleGame{row: row, game: g, plies: plies}:
	default:
		pz.cfg.Log.Info("the puzzles' queue is full: a finished game's puzzles are not made", "game", row.ID)
	}
}

// work makes the puzzles of the finished games queued, resting after
// each game (gameIdle).
func (pz *Puzzles) work() {
	for {
		select {
		case <-pz.cfg.Stop.Done():
			return
		case pg := <-pz.queue:
			start := time.Now()
			pz.fromGame(pg)
			pz.mu.Lock()
			pz.games++
			idle := pz.gameIdle
			pz.mu.Unlock()
			if !pz.rest(time.Since(start), idle) {
				return
			}
		}
	}
}

// rest waits took*idle, the rest after work that took took; false when
// the server stops meanwhile.
func (pz *Puzzles) rest(took time.Duration, idle float64) bool {
	t := time.NewTimer(time.Duration(float64(took) * idle))
	defer t.Stop()
	select {
	case <-pz.cfg.Stop.Done():
		return false
	case <-t.C:
		return true
	}
}

// SetGameIdle sets the rest after a finished game's puzzles (gameIdle;
// tests raise it).
func (pz *Puzzles) SetGameIdle(idle float64) {
	pz.mu.Lock()
	defer pz.mu.Unlock()
	pz.gameIdle = idle
}

// Waiting reports whether a finished game waits for its puzzles.
func (pz *Puzzles) Waiting() bool { return len(pz.queue) > 0 }

// fromGame stores the puzzles of a finished game: every one joins the
// pool of its rules, and each that is a player's own mistake is that
// player's personal puzzle.
func (pz *Puzzles) fromGame(pg puzzleGame) {
	ctx, cancel := context.WithTimeout(pz.cfg.Stop, puzzleGameTime)
	defer cancel()
	ps, _, err := puzzle.FromAnalysis(ctx, pz.cfg.Solver, pg.game, pg.plies, puzzle.Options{Solve: solve.Options{MaxNodes: puzzleNodes, MemoryMB: puzzleMemMB}})
	if err != nil && !errors.Is(err, context.Canceled) {
		pz.cfg.Log.Info("a finished game's puzzles are incomplete", "game", pg.row.ID, "err", err)
	}
	for _, p := range ps {
		if _, err := pz.Add(ctx, p, pg.row.ID); err != nil {
			if !errors.Is(err, context.Canceled) {
				pz.cfg.Log.Info("a puzzle of a finished game is not stored", "game", pg.row.ID, "puzzle", p.ID, "err", err)
			}
			continue
		}
		if !p.Source.Mistake {
			continue
		}
		seat := pg.row.Black
		if p.ToMove == "o" {
			seat = pg.row.White
		}
		if seat.AccountID == 0 || seat.Bot != "" {
			continue
		}
		if err := pz.cfg.Store.AddPersonalPuzzle(store.Idle(ctx), store.PersonalPuzzle{AccountID: seat.AccountID, PuzzleID: p.ID,
			GameID: pg.row.ID, Ply: p.Source.Ply, Played: p.Source.Played, Created: pz.cfg.Now()}); err != nil {
			pz.cfg.Log.Info("a personal puzzle is not stored", "game", pg.row.ID, "puzzle", p.ID, "err", err)
		}
	}
}

// checkPuzzle checks a puzzle found by the server's solver before it is
// stored: by a second solver method (puzzle.Verify), and by playing its
// own line through puzzle.Check, which must call it solved.
func checkPuzzle(ctx context.Context, p *puzzle.Puzzle) error {
	if _, err := puzzle.Verify(ctx, p, puzzle.VerifyOptions{MaxNodes: puzzleNodes, MemoryMB: puzzleMemMB}); err != nil {
		return err
	}
	var mine []string
	for i, st := range p.Line {
		if i%2 == 0 {
			mine = append(mine, st.Move)
		}
	}
	att, err := puzzle.Check(p, mine)
	if err != nil {
		return err
	}
	if !att.Done || !att.Correct {
		return fmt.Errorf("%w: its own line %v does not solve it", puzzle.ErrInvalid, mine)
	}
	return nil
}

// Add checks p (checkPuzzle) and stores it, found in game gameID ("" for
// none); it reports whether the puzzle is new.
func (pz *Puzzles) Add(ctx context.Context, p *puzzle.Puzzle, gameID string) (bool, error) {
	if err := checkPuzzle(ctx, p); err != nil {
		return false, err
	}
	body, err := json.Marshal(p)
	if err != nil {
		return false, err
	}
	r, err := rules.Parse(p.Rules)
	if err != nil {
		return false, err
	}
	pool := ""
	if ratings.PresetRules(p.Rules) {
		pool = r.Preset
	}
	start := puzzleStartRating(p)
	added, err := pz.cfg.Store.AddPuzzle(store.Idle(ctx), store.Puzzle{ID: p.ID, Rules: p.Rules, Preset: pool, Body: body, Themes: p.Themes,
		Source: p.Source.Kind, GameID: gameID, Rating: start, Created: pz.cfg.Now()})
	return added, err
}

// seed makes the first set of puzzles of each preset the store has none
// of, from the server's small lines (docs/puzzles.md's sources: the
// dense table's states where the rules have one, else self-play), one
// puzzle at a time, resting after each as long as it took times idle.
func (pz *Puzzles) seed() {
	for _, text := range pz.seedRules {
		select {
		case <-pz.cfg.Stop.Done():
			return
		default:
		}
		if err := pz.seedRules1(text); err != nil && !errors.Is(err, context.Canceled) {
			pz.cfg.Log.Warn("the first puzzles of a preset are not made", "rules", text, "err", err)
		}
	}
}

func (pz *Puzzles) seedRules1(text string) error {
	r, err := rules.Parse(text)
	if err != nil {
		return err
	}
	if err := puzzle.Reach(r); err != nil {
		return err
	}
	ctx := pz.cfg.Stop
	n, err := pz.cfg.Store.CountPuzzles(ctx, r.Preset)
	if err != nil || n > 0 {
		return err
	}
	opt := puzzle.Options{Solve: solve.Options{MaxNodes: puzzleNodes, MemoryMB: puzzleMemMB}}
	var dt *solve.DenseTable
	if tab, err := pz.cfg.Solver.Make(ctx, r, solve.Options{MemoryMB: pz.cfg.TableMemoryMB}); err == nil && tab != nil {
		dt = tab.Dense()
	}
	// A seed of its own a preset: every server makes the same first set.
	h := fnv.New64a()
	h.Write([]byte(text))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x70757a7a6c65))
	stored := 0
	// The puzzles met, stored or not: each self-play game starts from the
	// rules' start, so its first puzzles are often the last game's.
	tried := map[string]bool{}
	for try := 0; try < puzzleSeedTries && stored < pz.seedCount; try++ {
		start := time.Now()
		var ps []*puzzle.Puzzle
		if dt != nil {
			ps, _, err = puzzle.FromTable(ctx, pz.cfg.Solver, dt, rng, puzzle.TableOptions{Options: opt, Samples: 50, Count: 1})
		} else {
			ps, _, err = puzzle.FromSelfPlay(ctx, pz.cfg.Solver, r, rng, puzzle.SelfPlayOptions{Options: opt, Games: 1})
		}
		if err != nil {
			return err
		}
		for _, p := range ps {
			if tried[p.ID] || stored >= pz.seedCount {
				continue
			}
			tried[p.ID] = true
			added, err := pz.Add(ctx, p, "")
			switch {
			case errors.Is(err, context.Canceled):
				return err
			case err != nil:
				pz.cfg.Log.Info("a puzzle is not stored", "rules", text, "puzzle", p.ID, "err", err)
			case added:
				stored++
			}
		}
		if !pz.rest(time.Since(start), pz.idle) {
			return context.Canceled
		}
	}
	pz.cfg.Log.Info("first puzzles made", "rules", text, "puzzles", stored)
	return nil
}

// puzzleStartRating is a new puzzle's rating: its starting rating
// (puzzle.Puzzle.Rating, from how often a weak player solves it) with a
// new player's deviation and volatility, which the first attempts narrow.
func puzzleStartRating(p *puzzle.Puzzle) glicko2.Rating {
	return glicko2.Rating{Rating: p.Rating, RD: glicko2.StartRD, Volatility: glicko2.StartVolatility}
}

// GamesDone is how many finished games' puzzles were made.
func (pz *Puzzles) GamesDone() int {
	pz.mu.Lock()
	defer pz.mu.Unlock()
	return pz.games
}
