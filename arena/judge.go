package arena

import (
	"context"
	"fmt"
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
				j.Why = append(j.Why, fmt.Sprintf("opening %s: %v", moveList(r, opening), err))
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

func moveList(r rules.Rules, moves []rules.Move) string {
	s := make([]string, len(moves))
	for i, m := range moves {
		s[i] = r.MoveText(m)
	}
	return strings.Join(s, " ")
}
