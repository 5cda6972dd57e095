// Package arena plays matches between computer players and measures them:
// K games alternating colours from varied openings, in parallel on every
// core, with wins, draws, the score with a 95% confidence interval and the
// Elo difference; and a ladder that plays every player against every other
// and fits Elo ratings.
//
//	res, err := arena.Match(ctx, arena.Config{
//		Rules:    rules.MustPreset("alak"),
//		Players:  [2]string{"mcts:time=100ms", "greedy"},
//		Games:    40,
//		Openings: "random:2",
//	})
//	fmt.Println(res.Score, res.ScoreCI, res.Elo, res.EloCI)
package arena

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"alak/notation"
	"alak/player"
	"alak/rules"
	"alak/session"
)

// Config describes a match.
type Config struct {
	Rules   rules.Rules
	Players [2]string // player specs (player.New); Players[0] is P1
	Games   int
	// Openings is "" (every game from the start position) or "random:N":
	// N random plies, seeded, before the players take over. Games 2k and
	// 2k+1 share an opening with the colours swapped, so neither player gets
	// the better side of an opening more often.
	Openings string
	Seed     uint64 // seeds the openings and the players
	Workers  int    // games played at once; 0: runtime.NumCPU()
	// MaxMoves ends a game that runs longer as a draw (rules without a
	// repetition rule need not end); 0: 50 moves per point plus 200. It is
	// an arena rule: the game's session knows nothing of it.
	MaxMoves int
	// MoveTime is the most a player may think about one move (the
	// session's Options.MoveTime): a player still thinking then is stopped
	// and the match ends with an error. 0: session.DefaultMoveTime.
	MoveTime time.Duration
	// SGFDir, when set, receives every game as SGF, named game-NNN.sgf.
	SGFDir string
	// Progress, when set, is called after every game with the results so
	// far. Calls never overlap.
	Progress func(Progress)
	// NewPlayer builds a player; nil means player.New.
	NewPlayer func(spec string, seed uint64) (player.Player, error)
}

// Progress is the state of a match after a game.
type Progress struct {
	Done, Games int
	Wins        [2]int
	Draws       int
}

// Game is one game of a match.
type Game struct {
	Index   int
	P1Black bool // P1 had Black (x)
	Opening int  // plies of the random opening
	Moves   []rules.Move
	Outcome rules.Outcome
	Limit   bool // ended as a draw at the move limit
	// P1Score is 1 for a win of P1, 0.5 for a draw, 0 for a loss.
	P1Score float64
	// Reports are P1's and P2's reports of how they made their moves, for
	// players that give one (player.Reporter); zero otherwise.
	Reports [2]player.Report
	// Record is the game as its session recorded it (the players named by
	// their specs), for SGF.
	Record notation.Record
}

// Result is a match's result, P1's point of view.
type Result struct {
	Players [2]string
	Games   int
	Wins    [2]int // Wins[0]: games P1 won; Wins[1]: games P2 won
	Draws   int
	Score   float64    // P1's points per game, a draw counting half
	ScoreCI [2]float64 // 95% confidence interval of Score (Wilson)
	Elo     float64    // the Elo difference P1 minus P2 that the score implies
	EloCI   [2]float64 // 95% interval, from ScoreCI
	Played  []Game     // every game, by index
	// Reports sums the games' reports of P1 and P2 (player.Reporter): how
	// a player made its moves, such as how often the perfect player fell
	// back to alpha-beta. Zero for players that give none.
	Reports [2]player.Report
}

// ErrConfig is wrapped by errors about a match that cannot be played.
var ErrConfig = errors.New("invalid match")

// parseOpenings reads "random:N" (or "" and "none" for no opening).
func parseOpenings(s string) (int, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "" || s == "none" {
		return 0, nil
	}
	name, n, ok := strings.Cut(s, ":")
	k, err := strconv.Atoi(n)
	if !ok || name != "random" || err != nil || k < 0 || k > 100 {
		return 0, fmt.Errorf("%w: openings %q: accepted are random:N (N random plies, 0 to 100) and none", ErrConfig, s)
	}
	return k, nil
}

// Match plays the match. Games run in parallel, each in its own session
// with its own players (a player is not shared between goroutines), which
// the session closes at the game's end. A player's error ends the match
// with that error. Cancelling ctx stops it and returns ctx.Err()
// with the games finished so far.
func Match(ctx context.Context, cfg Config) (Result, error) {
	res := Result{Players: cfg.Players}
	plies, err := parseOpenings(cfg.Openings)
	if err != nil {
		return res, err
	}
	if cfg.Games < 1 {
		return res, fmt.Errorf("%w: %d games: play at least one", ErrConfig, cfg.Games)
	}
	if err := cfg.Rules.Validate(); err != nil {
		return res, err
	}
	newPlayer := cfg.NewPlayer
	if newPlayer == nil {
		newPlayer = player.New
	}
	for _, spec := range cfg.Players {
		p, err := newPlayer(spec, 0)
		if err != nil {
			return res, err
		}
		p.Close()
	}
	if cfg.SGFDir != "" {
		if err := os.MkdirAll(cfg.SGFDir, 0o755); err != nil {
			return res, err
		}
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, cfg.Games)
	maxMoves := cfg.MaxMoves
	if maxMoves <= 0 {
		maxMoves = 50*cfg.Rules.Points() + 200
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var mu sync.Mutex
	var firstErr error
	played := make([]*Game, cfg.Games)
	prog := Progress{Games: cfg.Games}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				g, err := playOne(ctx, cfg, newPlayer, i, plies, maxMoves)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					cancel()
					mu.Unlock()
					continue
				}
				played[i] = g
				prog.Done++
				switch g.P1Score {
				case 1:
					prog.Wins[0]++
				case 0:
					prog.Wins[1]++
				default:
					prog.Draws++
				}
				if cfg.Progress != nil {
					cfg.Progress(prog)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range cfg.Games {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()

	var games []Game
	for _, g := range played {
		if g != nil {
			games = append(games, *g)
		}
	}
	res = Summarize(cfg.Players, games)
	if firstErr != nil {
		return res, firstErr
	}
	return res, ctx.Err()
}

// gameSeed derives the seed of game i's players and opening.
func gameSeed(seed uint64, i int) uint64 {
	x := seed ^ uint64(i+1)*0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	return x ^ x>>27
}

// opening plays the random opening of pair k: plies random moves, from a
// seed of the pair, redrawn (with the next seed) when it ends the game.
func opening(cfg Config, pair, plies int) (*rules.Game, error) {
	for try := range 100 {
		g, err := rules.NewGame(cfg.Rules)
		if err != nil {
			return nil, err
		}
		rnd := player.NewRandom(gameSeed(cfg.Seed^0x6f70656e, pair*100+try))
		for g.Len() < plies && !g.Over() {
			m, err := rnd.Move(context.Background(), g)
			if err != nil {
				return nil, err
			}
			if err := g.Play(m); err != nil {
				return nil, err
			}
		}
		if !g.Over() {
			return g, nil
		}
	}
	return nil, fmt.Errorf("%w: every random opening of %d plies ends the game", ErrConfig, plies)
}

// playOne plays game i through a session: P1 has Black in even games.
func playOne(ctx context.Context, cfg Config, newPlayer func(string, uint64) (player.Player, error), i, plies, maxMoves int) (*Game, error) {
	g, err := opening(cfg, i/2, plies)
	if err != nil {
		return nil, err
	}
	seed := gameSeed(cfg.Seed, i)
	var seats [2]session.Seat // P1's and P2's
	var reporters [2]player.Reporter
	for k, spec := range cfg.Players {
		p, err := newPlayer(spec, seed+uint64(k))
		if err != nil {
			if k == 1 {
				seats[0].Player.Close()
			}
			return nil, err
		}
		seats[k] = session.Seat{Name: spec, Player: p}
		reporters[k], _ = p.(player.Reporter)
	}
	p1Black := i%2 == 0
	if !p1Black {
		seats[0], seats[1] = seats[1], seats[0]
	}
	s := session.New(g, seats[0], seats[1], session.Options{MoveTime: cfg.MoveTime})
	defer s.Close()
	limit := false
	for !s.Over() {
		if s.Ply() >= maxMoves {
			limit = true // an arena rule, not the game's: the game is drawn
			break
		}
		if _, err := s.Reply(ctx); err != nil {
			return nil, fmt.Errorf("game %d, move %d: %w", i+1, s.Ply()+1, err)
		}
	}
	moves := s.Moves()
	out := &Game{Index: i, P1Black: p1Black, Opening: plies, Moves: moves, Outcome: s.Outcome(), Limit: limit}
	for k, r := range reporters {
		if r != nil {
			out.Reports[k] = r.Report()
		}
	}
	if out.Outcome.Reason == rules.Resigned {
		// The session ends the game at a resignation without playing it:
		// the game's moves end with it all the same.
		out.Moves = append(moves, rules.Resign)
	}
	winner := out.Outcome.Winner
	if limit {
		winner = rules.None
	}
	switch {
	case winner == rules.None:
		out.P1Score = 0.5
	case (winner == rules.Black) == p1Black:
		out.P1Score = 1
	}
	out.Record = s.Record()
	if cfg.SGFDir != "" {
		if err := WriteSGF(cfg.SGFDir, out, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// WriteSGF writes game out to dir as game-NNN.sgf, with a note on the match
// before the first move and comments[k] after move k (JudgeMoves' verdicts,
// for example).
func WriteSGF(dir string, out *Game, comments map[int]string) error {
	rec := out.Record
	note := fmt.Sprintf("alak match game %d: %s (x) against %s (o), %d random opening plies", out.Index+1, rec.Black, rec.White, out.Opening)
	if out.Limit {
		note += fmt.Sprintf("; stopped as a draw at the move limit of %d", len(rec.Moves))
		rec.Result = "0"
	}
	rec.Comments = map[int]string{0: note}
	for k, c := range comments {
		if k > 0 {
			rec.Comments[k] = c
		}
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("game-%03d.sgf", out.Index+1)))
	if err != nil {
		return err
	}
	if err := notation.WriteSGF(f, rec); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
