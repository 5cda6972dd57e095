package puzzle

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"alak/player"
	"alak/rules"
	"alak/solve"
)

// Analyze solves the position before every move of g with s, under the
// game's history, as solve.Analyze does (Before, After, Best of each
// move), stopping at a resignation: what FromAnalysis reads.
func Analyze(ctx context.Context, s Solver, g *rules.Game, opt solve.Options) ([]solve.PlyValue, error) {
	replay := rules.NewGameFrom(g.Start())
	var plies []solve.PlyValue
	for i, m := range g.Moves() {
		if m == rules.Resign {
			break
		}
		res, err := s.Solve(ctx, replay, opt)
		if err != nil {
			return plies, fmt.Errorf("ply %d: %w", i+1, err)
		}
		after, ok := res.Moves[m]
		if !ok {
			return plies, fmt.Errorf("ply %d: the solver has no value for %s", i+1, g.Rules().MoveText(m))
		}
		plies = append(plies, solve.PlyValue{Ply: i + 1, Player: replay.Position().ToMove(), Move: m,
			Before: res.Value, After: after, Best: res.Best, Method: res.Method})
		if err := replay.Play(m); err != nil {
			return plies, fmt.Errorf("ply %d: %w", i+1, err)
		}
	}
	return plies, nil
}

// Stats count what a source tried: Puzzles are those kept (with the
// theme asked for, if any).
type Stats struct {
	Games     int `json:"games"`     // games played or read
	Positions int `json:"positions"` // positions tried with Find
	Puzzles   int `json:"puzzles"`   // puzzles found
	// Skipped counts the positions left untried or unfinished because a
	// solve passed the node limit (Options.Solve.MaxNodes): a position
	// whose history used positions up can need far more work than one
	// with a fresh history.
	Skipped int `json:"skipped"`
}

// Add adds b's counts to s.
func (s *Stats) Add(b Stats) {
	s.Games += b.Games
	s.Positions += b.Positions
	s.Puzzles += b.Puzzles
	s.Skipped += b.Skipped
}

// overBudget reports whether err is a solve cut off by its node limit: a
// position the sources skip.
func overBudget(err error) bool { return errors.Is(err, solve.ErrNodeLimit) }

// FromGame finds the puzzles of a finished game: it analyses the game
// with s (Analyze) and passes the analysis to FromAnalysis. Where a ply's
// solve passes the node limit, the analysis stops there (Stats.Skipped
// counts the plies left) and the puzzles are those of the plies before.
func FromGame(ctx context.Context, s Solver, g *rules.Game, opt Options) ([]*Puzzle, Stats, error) {
	plies, err := Analyze(ctx, s, g, opt.Solve)
	skipped := 0
	if overBudget(err) {
		skipped, err = len(g.Moves())-len(plies), nil
	}
	if err != nil {
		return nil, Stats{Games: 1}, err
	}
	out, st, err := FromAnalysis(ctx, s, g, plies, opt)
	st.Skipped += skipped
	return out, st, err
}

// FromAnalysis finds the puzzles of a game from its analysis (the
// PlyValues of Analyze, or of solve.Tables.Analyze, which the play server
// keeps for every finished game). Each move that changed the outcome (a
// mistake: solve.PlyValue.Changed) gives two candidates: the position
// before it, where its player could have kept the outcome (the player's
// own mistake: a personal puzzle, Source.Mistake set), and the position
// after it, where the opponent may punish it. Each candidate that is a
// puzzle (Find) is returned, in the order of the game, with Source.Kind
// SourceGame, Source.Ply the moves played before it and Source.Played the
// move the game went on with there.
func FromAnalysis(ctx context.Context, s Solver, g *rules.Game, plies []solve.PlyValue, opt Options) ([]*Puzzle, Stats, error) {
	st := Stats{Games: 1}
	moves := g.Moves()
	mistake := map[int]bool{}
	var at []int
	for _, pv := range plies {
		if pv.Ply < 1 || pv.Ply > len(moves) || moves[pv.Ply-1] != pv.Move {
			return nil, st, fmt.Errorf("the analysis's ply %d (%s) is not the game's", pv.Ply, g.Rules().MoveText(pv.Move))
		}
		if pv.Changed() {
			mistake[pv.Ply-1] = true
			at = append(at, pv.Ply-1, pv.Ply)
		}
	}
	slices.Sort(at)
	at = slices.Compact(at)
	var out []*Puzzle
	for _, ply := range at {
		h := rules.NewGameFrom(g.Start())
		for _, m := range moves[:ply] {
			if err := h.Play(m); err != nil {
				return out, st, err
			}
		}
		if h.Over() {
			continue
		}
		st.Positions++
		p, err := Find(ctx, s, h, opt)
		switch {
		case errors.Is(err, ErrNotPuzzle):
			continue
		case overBudget(err):
			st.Skipped++
			continue
		case err != nil:
			return out, st, fmt.Errorf("ply %d: %w", ply, err)
		}
		p.Source = Source{Kind: SourceGame, Ply: ply, Mistake: mistake[ply]}
		if ply < len(moves) {
			p.Source.Played = g.Rules().MoveText(moves[ply])
		}
		out = append(out, p)
		st.Puzzles++
	}
	return out, st, nil
}

// SelfPlayOptions say how many games FromSelfPlay plays.
type SelfPlayOptions struct {
	Options
	// Games is the number of games to play; Count, when above 0, stops
	// once that many puzzles are found. MaxPlies bounds a game's length
	// (0: 4 times the board's points, plus 40). Theme, when not "", keeps
	// only the puzzles with that theme (as ParseTheme reads it).
	Games    int
	Count    int
	MaxPlies int
	Theme    string
}

// FromSelfPlay plays opt.Games games under the rules r between two weak
// players drawing from rng (each move, with probability 1/2, the greedy
// player's choice, ties at random, else a uniformly random legal move:
// the mistakes of both make puzzles), and tries every position of every
// game with Find. A position already found with the same earlier
// positions (the same puzzle by any other move order) is skipped. The
// puzzles come in the order found, with Source.Kind SourceSelfPlay,
// Source.Game the game's number from 0 and Source.Ply its ply.
func FromSelfPlay(ctx context.Context, s Solver, r rules.Rules, rng *rand.Rand, opt SelfPlayOptions) ([]*Puzzle, Stats, error) {
	var st Stats
	if rng == nil {
		return nil, st, errors.New("FromSelfPlay needs a seeded random generator")
	}
	maxPlies := opt.MaxPlies
	if maxPlies <= 0 {
		maxPlies = 4*r.Points() + 40
	}
	seen := map[string]bool{}
	var out []*Puzzle
	for k := 0; k < opt.Games && (opt.Count <= 0 || len(out) < opt.Count); k++ {
		g, err := rules.NewGame(r)
		if err != nil {
			return out, st, err
		}
		st.Games++
		for g.Len() < maxPlies && !g.Over() {
			if err := g.Play(weakMove(g, rng)); err != nil {
				return out, st, err
			}
		}
		moves := g.Moves()
		h, _ := rules.NewGame(r)
		for ply := 0; ; ply++ {
			if err := ctx.Err(); err != nil {
				return out, st, err
			}
			if key := stateKey(h); !h.Over() && !seen[key] {
				seen[key] = true
				st.Positions++
				p, err := Find(ctx, s, h, opt.Options)
				switch {
				case err == nil && (opt.Theme == "" || p.HasTheme(opt.Theme)):
					p.Source = Source{Kind: SourceSelfPlay, Game: k, Ply: ply}
					if ply < len(moves) {
						p.Source.Played = r.MoveText(moves[ply])
					}
					out = append(out, p)
					st.Puzzles++
				case err == nil:
				case overBudget(err):
					st.Skipped++
				case !errors.Is(err, ErrNotPuzzle):
					return out, st, fmt.Errorf("game %d, ply %d: %w", k, ply, err)
				}
				if opt.Count > 0 && len(out) >= opt.Count {
					return out, st, nil
				}
			}
			if ply >= len(moves) {
				break
			}
			if err := h.Play(moves[ply]); err != nil {
				return out, st, err
			}
		}
	}
	return out, st, nil
}

// weakMove is the self-play players' move: the greedy player's choice
// (best player.Gain, ties at random) or a random legal move, even odds.
func weakMove(g *rules.Game, rng *rand.Rand) rules.Move {
	moves := g.LegalMoves(nil)
	if rng.IntN(2) == 0 {
		return moves[rng.IntN(len(moves))]
	}
	me := g.Position().ToMove()
	var top []rules.Move
	best := math.Inf(-1)
	for _, m := range moves {
		switch v := player.Gain(g, m, me); {
		case v > best:
			best, top = v, append(top[:0], m)
		case v == best:
			top = append(top, m)
		}
	}
	return top[rng.IntN(len(top))]
}

// stateKey names g's position with what of its history decides its
// values: the position in full (rules.Position.MarshalText) and the
// repetition and board keys of the earlier positions, in any order. Two
// games with one key have the same legal moves, repetitions and superko
// refusals from there on, so the same puzzle.
func stateKey(g *rules.Game) string {
	text, _ := g.Position().MarshalText()
	keys := make([]string, 0, g.Len())
	for i := range g.Len() {
		pos := g.PositionAt(i)
		keys = append(keys, fmt.Sprintf("%x.%x", pos.Hash(), pos.BoardHash()))
	}
	slices.Sort(keys)
	return string(text) + "|" + strings.Join(keys, ",")
}

// TableOptions say how many states FromTable samples.
type TableOptions struct {
	Options
	// Samples is the number of states drawn; Count, when above 0, stops
	// once that many puzzles are found; Theme, when not "", keeps only
	// the puzzles with that theme.
	Samples int
	Count   int
	Theme   string
}

// FromTable draws opt.Samples state numbers of the dense table dt
// uniformly from rng and tries each state's position, set up with a
// fresh history (the table's values are those of a fresh history), with
// Find. The puzzle's start is then the state's position itself
// (Puzzle.Start) and its history empty; Source.State is the number. The
// table holds every state of its line, not only those reachable from the
// empty board: a sampled position can be a composed problem. States whose
// diagram the kernel does not read back as the same state (a ko point
// under ko=simple) and finished games are skipped, and so is a state
// drawn twice.
func FromTable(ctx context.Context, s Solver, dt *solve.DenseTable, rng *rand.Rand, opt TableOptions) ([]*Puzzle, Stats, error) {
	var st Stats
	if rng == nil || dt == nil {
		return nil, st, errors.New("FromTable needs a dense table and a seeded random generator")
	}
	r := dt.Rules()
	seen := map[uint64]bool{}
	var out []*Puzzle
	for k := 0; k < opt.Samples && (opt.Count <= 0 || len(out) < opt.Count); k++ {
		if err := ctx.Err(); err != nil {
			return out, st, err
		}
		i := rng.Uint64N(dt.States())
		if seen[i] {
			continue
		}
		seen[i] = true
		pos, ok := statePosition(dt, r, i)
		if !ok || pos.Over() {
			continue
		}
		st.Positions++
		p, err := Find(ctx, s, rules.NewGameFrom(pos), opt.Options)
		switch {
		case errors.Is(err, ErrNotPuzzle):
			continue
		case overBudget(err):
			st.Skipped++
			continue
		case err != nil:
			return out, st, fmt.Errorf("state %d (%s): %w", i, pos, err)
		case opt.Theme != "" && !p.HasTheme(opt.Theme):
			continue
		}
		p.Source = Source{Kind: SourceTable, State: i}
		out = append(out, p)
		st.Puzzles++
	}
	return out, st, nil
}

// statePosition sets up the state numbered i of dt as a kernel position,
// false when the kernel does not read its diagram back as that state.
func statePosition(dt *solve.DenseTable, r rules.Rules, i uint64) (rules.Position, bool) {
	b, w, f, white, ok := dt.State(i)
	if !ok {
		return rules.Position{}, false
	}
	d := make([]byte, r.Width)
	for p := range d {
		switch bit := uint64(1) << p; {
		case b&bit != 0:
			d[p] = 'x'
		case w&bit != 0:
			d[p] = 'o'
		case f&bit != 0:
			d[p] = '/'
		default:
			d[p] = '-'
		}
	}
	side := rules.Black
	if white {
		side = rules.White
	}
	pos, err := rules.ParseDiagram(r, string(d), side)
	if err != nil {
		return rules.Position{}, false
	}
	pb, pw, pf, ok := pos.Line()
	return pos, ok && pb == b && pw == w && pf == f && pos.ToMove() == side
}
