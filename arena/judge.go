package arena

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"alak/rules"
	"alak/solve"
)

// Start is the value of a game's start for P1: the position after the
// random opening, solved.
type Start int

// Values of a start, P1's point of view.
const (
	StartUnknown Start = iota // the solver did not finish within its budget
	StartLost
	StartDrawn
	StartWon
)

// String names the start as the match output writes it.
func (s Start) String() string {
	return [...]string{"not judged", "lost", "drawn", "won"}[s]
}

// Judgement is what JudgeOpenings found: each game's start and a count of
// P1's results by start, so that a claim such as "the perfect player never
// loses from a drawn or won start" is read off the match, not inferred
// from totals.
type Judgement struct {
	Starts []Start // by game index
	// Results[s] counts P1's wins, draws and losses of the games whose
	// start is s.
	Results [4]struct{ Wins, Draws, Losses int }
	// Why says why the starts not judged were not, once per distinct
	// opening.
	Why []string
}

// JudgeOpenings solves the position after each game's opening (with its
// history: the opening plies) under r with opt, once per distinct
// opening (the two games of a pair share one), and classifies the game's
// start for P1. A solve that does not finish leaves its games'
// starts StartUnknown; only ctx's end stops the judging, with its error.
func JudgeOpenings(ctx context.Context, r rules.Rules, played []Game, opt solve.Options) (Judgement, error) {
	// One solver for every opening (solve.Tables: the fastest exact
	// method, answering from opt.Table where it holds the position).
	ts := &solve.Tables{MemoryMB: opt.MemoryMB}
	ts.Use(opt.Table)
	opt = solve.Options{MaxNodes: opt.MaxNodes, MemoryMB: opt.MemoryMB, ValueOnly: true}
	j := Judgement{Starts: make([]Start, len(played))}
	black := map[string]Start{} // an opening's start for Black, by its moves
	for i, g := range played {
		if g.Opening > len(g.Moves) {
			return j, fmt.Errorf("game %d: an opening of %d plies in %d moves", g.Index+1, g.Opening, len(g.Moves))
		}
		opening := g.Moves[:g.Opening]
		key := fmt.Sprint(opening)
		s, ok := black[key]
		if !ok {
			var err error
			s, err = judge(ctx, ts, r, opening, opt)
			if ctx.Err() != nil {
				return j, ctx.Err()
			}
			if err != nil {
				j.Why = append(j.Why, fmt.Sprintf("opening %s: %v", MoveList(r, opening), err))
			}
			black[key] = s
		}
		if !g.P1Black && s != StartUnknown {
			s = StartWon + StartLost - s // White's view
		}
		j.Starts[i] = s
		res := &j.Results[s]
		switch g.P1Score {
		case 1:
			res.Wins++
		case 0:
			res.Losses++
		default:
			res.Draws++
		}
	}
	return j, nil
}

// judge returns the start for Black after the moves from r's start.
func judge(ctx context.Context, ts *solve.Tables, r rules.Rules, moves []rules.Move, opt solve.Options) (Start, error) {
	g, err := rules.NewGame(r)
	if err != nil {
		return StartUnknown, err
	}
	for _, m := range moves {
		if err := g.Play(m); err != nil {
			return StartUnknown, err
		}
	}
	var v float64
	if o := g.Outcome(); o.Over() {
		v = o.Margin
	} else {
		res, err := ts.Solve(ctx, g, opt)
		if err != nil {
			return StartUnknown, err
		}
		v = res.Value
	}
	switch {
	case v > 0:
		return StartWon, nil
	case v < 0:
		return StartLost, nil
	}
	return StartDrawn, nil
}

// MoveList writes moves as r writes them, separated by spaces.
func MoveList(r rules.Rules, moves []rules.Move) string {
	s := make([]string, len(moves))
	for i, m := range moves {
		s[i] = r.MoveText(m)
	}
	return strings.Join(s, " ")
}

// Loss is a move that lowered its player's value under perfect play:
// Black's margin fell after a move of Black's, or rose after White's.
type Loss struct {
	Game    int // the game's index
	Ply     int // 1 for the game's first move
	P       int // 0: a move of P1, 1: of P2
	Move    rules.Move
	Before  float64 // Black's margin under perfect play before the move
	After   float64 // and after it
	Best    []rules.Move
	Changed bool // the outcome (win, draw, loss) changed too
}

// MoveJudgement is what JudgeMoves found, P1 first in each pair.
type MoveJudgement struct {
	Judged  [2]int // moves judged (those after each game's opening)
	Losses  [2]int // of them, moves that lowered their player's value
	Changed [2]int // of those, moves that changed the outcome
	Moves   []Loss // every value-losing move, by game, then ply
	// Comments holds, by game index, a verdict after each judged move
	// (keyed by the move's ply), for the game's SGF.
	Comments map[int]map[int]string
	// Why says which games were not judged whole, and why.
	Why []string
}

// JudgeMoves solves the position before every move of every game under r
// (with the game's history, as Tables.Analyze does) and judges each move
// played after the opening: a move that keeps its player's value is
// exact, one that lowers it is a value loss, counted for the player who
// made it. ts answers (and keeps the small lines' tables for every game);
// opt bounds each solve. A solve that does not finish leaves the rest of
// its game unjudged, said in Why; only ctx's end stops the judging.
func JudgeMoves(ctx context.Context, r rules.Rules, played []Game, ts *solve.Tables, opt solve.Options) (MoveJudgement, error) {
	j := MoveJudgement{Comments: map[int]map[int]string{}}
	for _, pg := range played {
		g, err := rules.NewGame(r)
		if err != nil {
			return j, err
		}
		for _, m := range pg.Moves {
			if m == rules.Resign {
				break
			}
			if err := g.Play(m); err != nil {
				return j, fmt.Errorf("game %d: %w", pg.Index+1, err)
			}
		}
		plies, err := ts.Analyze(ctx, g, opt)
		if ctx.Err() != nil {
			return j, ctx.Err()
		}
		if err != nil {
			j.Why = append(j.Why, fmt.Sprintf("game %d: judged to ply %d of %d: %v", pg.Index+1, len(plies), g.Len(), err))
		}
		notes := map[int]string{}
		if err == nil && len(pg.Moves) > 0 && pg.Moves[len(pg.Moves)-1] == rules.Resign && len(pg.Moves) > pg.Opening {
			// A resignation is judged by the value of the position it gave
			// up: it loses value unless that position was already lost.
			res, err := ts.Solve(ctx, g, solve.Options{MaxNodes: opt.MaxNodes, MemoryMB: opt.MemoryMB, ValueOnly: true})
			if ctx.Err() != nil {
				return j, ctx.Err()
			}
			if err != nil {
				j.Why = append(j.Why, fmt.Sprintf("game %d: the resignation not judged: %v", pg.Index+1, err))
			} else {
				after := -1.0 // a loss for the player who resigned
				if g.Position().ToMove() == rules.White {
					after = 1
				}
				plies = append(plies, solve.PlyValue{Ply: len(pg.Moves), Player: g.Position().ToMove(), Move: rules.Resign, Before: res.Value, After: after})
			}
		}
		for _, pv := range plies {
			if pv.Ply <= pg.Opening {
				continue
			}
			p := 1
			if (pv.Player == rules.Black) == pg.P1Black {
				p = 0
			}
			j.Judged[p]++
			lost := pv.After < pv.Before
			if pv.Player == rules.White {
				lost = pv.After > pv.Before
			}
			if pv.Move == rules.Resign {
				lost = pv.Changed()
			}
			if !lost {
				notes[pv.Ply] = fmt.Sprintf("judged: keeps the value (Black's margin %s under perfect play)", Margin(pv.Before))
				continue
			}
			l := Loss{Game: pg.Index, Ply: pv.Ply, P: p, Move: pv.Move, Before: pv.Before, After: pv.After, Best: pv.Best, Changed: pv.Changed()}
			j.Losses[p]++
			if l.Changed {
				j.Changed[p]++
			}
			j.Moves = append(j.Moves, l)
			notes[pv.Ply] = fmt.Sprintf("judged: a value loss by %s: Black's margin %s before, %s after (best: %s)",
				[2]string{"P1", "P2"}[p], Margin(pv.Before), Margin(pv.After), MoveList(r, pv.Best))
		}
		j.Comments[pg.Index] = notes
	}
	return j, nil
}

// Margin writes Black's margin with its sign (+2, 0, -1.5).
func Margin(v float64) string {
	if v > 0 {
		return "+" + strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
