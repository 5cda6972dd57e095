package learn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"alak/notation"
	"alak/rules"
	"alak/solve"
)

// Lesson is one short interactive lesson: a small board, a text, and one
// goal the kernel checks on what the player does.
type Lesson struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Rules is the rule set as rules.Rules.String writes it, with the
	// board's size.
	Rules string `json:"rules"`
	// Text teaches the rule in a few plain sentences; Refs name where
	// docs/rules.md states each rule it teaches: "alak 5" is rule 5 of the
	// preset alak's section, "A4" row A4 of the table of ambiguities.
	Text string   `json:"text"`
	Refs []string `json:"refs"`
	// Start is the start position (rules.Position.MarshalText: "-xo-- x")
	// when it is not the rules' own; Moves are played from it before the
	// lesson begins (its history: the repetition counts, the points just
	// captured).
	Start string   `json:"start,omitempty"`
	Moves []string `json:"moves,omitempty"`
	Goal  Goal     `json:"goal"`
	// Replies are the computer's scripted answers; where none fits and
	// Perfect is set, the computer plays a best move of the solver.
	Replies []Reply `json:"replies,omitempty"`
	Perfect bool    `json:"perfect,omitempty"`
	// MaxMoves is how many moves the player may play (refused tries not
	// counted) before the lesson is failed.
	MaxMoves int      `json:"max_moves"`
	Hints    []string `json:"hints"`
	// Solution is a line of the player's moves that meets the goal.
	Solution []string `json:"solution"`
}

// Reply is a scripted answer of the computer: after the player's moves
// After (the whole list since the lesson began), it plays Move.
type Reply struct {
	After []string `json:"after"`
	Move  string   `json:"move"`
}

// Goal is what the player must do, as the kernel checks it.
type Goal struct {
	// Kind is one of the Goal... constants.
	Kind string `json:"kind"`
	// At names the moves (stored form) the goal is about: where a stone
	// is to stand (GoalPlace, GoalSelfFill), the move to play
	// (GoalMove), the points to try (GoalRefused); empty: any.
	At []string `json:"at,omitempty"`
	// Count is the stones a capture takes at least (GoalCapture); Edge,
	// that the captured chain is on the edge; Keep, that the move loses
	// none of the player's own stones.
	Count int  `json:"count,omitempty"`
	Edge  bool `json:"edge,omitempty"`
	Keep  bool `json:"keep,omitempty"`
	// Refusal is the rules' reason for a refusal (GoalRefused:
	// RefusalForbidden, ...); End the reason a game ends (GoalEnd:
	// "repetition", "no-moves", "" any) and Winner who wins it ("x", "o",
	// "draw", "" any).
	Refusal string `json:"refusal,omitempty"`
	End     string `json:"end,omitempty"`
	Winner  string `json:"winner,omitempty"`
	// Text says the goal to the player.
	Text string `json:"text"`
}

// Goal kinds.
const (
	// GoalPlace: a stone of the player's stands on a point of At (any
	// point when At is empty) after the player's move there.
	GoalPlace = "place"
	// GoalCapture: one of the player's moves removes at least Count of the
	// opponent's stones (with Edge: one of them on the edge of the board;
	// with Keep: and none of the player's own).
	GoalCapture = "capture"
	// GoalRefused: the player tries a move of At and the rules refuse it
	// for the reason Refusal.
	GoalRefused = "refused"
	// GoalSelfFill: the player's stone on a point of At takes its chain's
	// last liberty, and the chain stays on the board.
	GoalSelfFill = "self-fill"
	// GoalMove: the player plays a move of At.
	GoalMove = "move"
	// GoalEnd: the game is over, for the reason End, won by Winner.
	GoalEnd = "end"
)

// Refusals: the rules' reasons a move is refused, as Goal.Refusal and
// Try.Refused name them.
const (
	RefusalForbidden = "forbidden" // rules.ErrForbidden: Baljeu's no-return rule
	RefusalKo        = "ko"        // rules.ErrKo
	RefusalSuperko   = "superko"   // rules.ErrSuperko
	RefusalSuicide   = "suicide"   // rules.ErrSuicide
	RefusalOccupied  = "occupied"  // rules.ErrOccupied
	RefusalOther     = "other"     // any other reason
)

// refusal names the reason err refuses a move.
func refusal(err error) string {
	for _, r := range []struct {
		err  error
		name string
	}{{rules.ErrForbidden, RefusalForbidden}, {rules.ErrKo, RefusalKo}, {rules.ErrSuperko, RefusalSuperko},
		{rules.ErrSuicide, RefusalSuicide}, {rules.ErrOccupied, RefusalOccupied}} {
		if errors.Is(err, r.err) {
			return r.name
		}
	}
	return RefusalOther
}

// Solver answers a position's exact value, for lessons whose computer
// plays perfectly: *solve.Tables is one.
type Solver interface {
	Solve(ctx context.Context, g *rules.Game, opt solve.Options) (solve.Result, error)
}

// Progress is the state of a lesson after the player's tries.
type Progress struct {
	// Done: the lesson is over; Success: the goal was met.
	Done    bool  `json:"done"`
	Success bool  `json:"success"`
	Tries   []Try `json:"tries"`
	// Position and ToMove are the board now (the seeds' diagram) and who
	// is to move; Result the game's result if it is over.
	Position string `json:"position"`
	ToMove   string `json:"to_move"`
	Result   string `json:"result,omitempty"`
	// Message says how the lesson stands, in words.
	Message string `json:"message"`
}

// Try is one of the player's inputs and what came of it.
type Try struct {
	Move string `json:"move"` // in the stored form
	// Refused is the rules' reason when the move was refused (Refusal...)
	// and Why the kernel's sentence; a refused try changes nothing.
	Refused string `json:"refused,omitempty"`
	Why     string `json:"why,omitempty"`
	// Captured and Lost are the opponent's and the player's own stones
	// the move removed.
	Captured int `json:"captured"`
	Lost     int `json:"lost"`
	// Reply is the computer's answer ("" when none: the lesson is over,
	// or the game).
	Reply string `json:"reply,omitempty"`
}

// Game rebuilds the lesson's game at its start: the rules, the start
// position and the moves before the lesson, replayed by the kernel.
func (l *Lesson) Game() (*rules.Game, error) {
	in, err := json.Marshal(struct {
		Rules string   `json:"rules"`
		Start string   `json:"start,omitempty"`
		Moves []string `json:"moves"`
	}{l.Rules, l.Start, l.Moves})
	if err != nil {
		return nil, err
	}
	var g rules.Game
	if err := g.UnmarshalJSON(in); err != nil {
		return nil, fmt.Errorf("lesson %s: %w", l.ID, err)
	}
	return &g, nil
}

// ErrTry is wrapped by Play's errors about input it cannot take: text
// that is no move, a try after the lesson ended.
var ErrTry = errors.New("bad try")

// Play plays the player's tries on the lesson, in any form a person types
// (notation.Human), the computer answering each move that the rules take
// and that does not meet the goal (its script, else, with Perfect, a best
// move of s; after the player's last allowed move only if it has such an
// answer, which can end the game), and checks the goal
// with the kernel after each try: a refused try changes nothing and
// counts only towards a GoalRefused goal; the lesson succeeds when the
// goal is met, fails when the player has played MaxMoves moves without
// meeting it or the game ends first. s may be nil for a lesson that is
// not Perfect.
func Play(ctx context.Context, l *Lesson, tries []string, s Solver) (Progress, error) {
	pr := Progress{Tries: []Try{}}
	g, err := l.Game()
	if err != nil {
		return pr, err
	}
	r := g.Rules()
	me := g.Position().ToMove()
	var played []string
	for i, text := range tries {
		if pr.Done {
			return pr, fmt.Errorf("%w: try %d (%q) comes after the lesson ended", ErrTry, i+1, text)
		}
		m, err := notation.Human.Decode(r, text)
		if err != nil || m == rules.Resign {
			return pr, fmt.Errorf("%w: try %d: %q is not a move here: %v", ErrTry, i+1, text, err)
		}
		t := Try{Move: r.MoveText(m)}
		if err := g.Legal(m); err != nil {
			t.Refused = refusal(err)
			var merr *rules.MoveError
			if errors.As(err, &merr) {
				t.Why = merr.Why()
			} else {
				t.Why = err.Error()
			}
			pr.Tries = append(pr.Tries, t)
			if l.Goal.Kind == GoalRefused && inAt(l.Goal.At, t.Move) && t.Refused == l.Goal.Refusal {
				pr.Done, pr.Success = true, true
			}
			continue
		}
		before := g.Position()
		if err := g.Play(m); err != nil {
			return pr, err
		}
		after := g.Position()
		t.Captured = before.Count(me.Opp()) - after.Count(me.Opp())
		t.Lost = before.Count(me) - after.Count(me)
		if m.IsPlace() {
			t.Lost++ // the placed stone is not one the player had
		}
		played = append(played, t.Move)
		met := l.Goal.met(before, after, m, t, g)
		if !met && !g.Over() {
			reply, ok, err := l.reply(ctx, g, played, s)
			switch {
			case err != nil:
				return pr, err
			case ok:
				if err := g.Play(reply); err != nil {
					return pr, fmt.Errorf("lesson %s: the computer's reply %s: %w", l.ID, r.MoveText(reply), err)
				}
				t.Reply = r.MoveText(reply)
				met = l.Goal.Kind == GoalEnd && l.Goal.ended(g)
			case len(played) < l.MaxMoves:
				return pr, fmt.Errorf("lesson %s: no reply after %v (the lesson has no script for it and no solver plays)", l.ID, played)
			}
		}
		pr.Tries = append(pr.Tries, t)
		switch {
		case met:
			pr.Done, pr.Success = true, true
		case g.Over() || len(played) >= l.MaxMoves:
			pr.Done = true
		}
	}
	pos := g.Position()
	pr.Position, pr.ToMove = pos.String(), pos.ToMove().Letter()
	if o := g.Outcome(); o.Over() {
		pr.Result = notation.GameResultWords(g)
	}
	switch {
	case pr.Success:
		pr.Message = "Well done: " + l.Goal.Text
	case pr.Done:
		pr.Message = "Not this time: " + l.Goal.Text + " Try again."
	default:
		pr.Message = l.Goal.Text
	}
	return pr, nil
}

// reply is the computer's answer after the player's moves played: the
// script's, else the solver's best move; ok is false when the lesson has
// neither (no script for these moves, or no solver).
func (l *Lesson) reply(ctx context.Context, g *rules.Game, played []string, s Solver) (m rules.Move, ok bool, err error) {
	r := g.Rules()
	for _, rp := range l.Replies {
		if slices.Equal(rp.After, played) {
			m, err := r.ParseMoveText(rp.Move)
			return m, err == nil, err
		}
	}
	if !l.Perfect || s == nil {
		return rules.NoMove, false, nil
	}
	res, err := s.Solve(ctx, g, solve.Options{})
	if err != nil {
		return rules.NoMove, false, err
	}
	if len(res.Best) == 0 {
		return rules.NoMove, false, fmt.Errorf("lesson %s: the solver has no move at %s", l.ID, g.Position())
	}
	return res.Best[0], true, nil
}

// met reports whether the player's move m, from before to after (the game
// g now at after), meets the goal (GoalEnd is checked after the reply as
// well).
func (gl Goal) met(before, after rules.Position, m rules.Move, t Try, g *rules.Game) bool {
	switch gl.Kind {
	case GoalPlace:
		return m.IsPlace() && inAt(gl.At, t.Move) && after.At(m.Point()) == before.ToMove()
	case GoalCapture:
		if t.Captured < max(gl.Count, 1) || gl.Keep && t.Lost > 0 {
			return false
		}
		return !gl.Edge || edgeLoss(before, after, before.ToMove().Opp())
	case GoalSelfFill:
		return m.IsPlace() && inAt(gl.At, t.Move) && after.At(m.Point()) == before.ToMove() && !hasLiberty(after, m.Point())
	case GoalMove:
		return inAt(gl.At, t.Move)
	case GoalEnd:
		return gl.ended(g)
	}
	return false
}

// ended reports whether g is over as the GoalEnd goal asks.
func (gl Goal) ended(g *rules.Game) bool {
	o := g.Outcome()
	if !o.Over() {
		return false
	}
	switch gl.End {
	case "repetition":
		if o.Reason != rules.Repetition {
			return false
		}
	case "no-moves":
		if o.Reason != rules.NoMoves {
			return false
		}
	}
	switch gl.Winner {
	case "x", "o":
		return o.Winner.Letter() == gl.Winner
	case "draw":
		return o.Winner == rules.None
	}
	return true
}

func inAt(at []string, move string) bool { return len(at) == 0 || slices.Contains(at, move) }

// edgeLoss reports whether a stone of c on the board's edge is gone.
func edgeLoss(before, after rules.Position, c rules.Color) bool {
	w, h := before.Size()
	for p := range before.Points() {
		x, y := p%w, p/w
		if (x == 0 || x == w-1 || h > 1 && (y == 0 || y == h-1)) && before.At(p) == c && after.At(p) != c {
			return true
		}
	}
	return false
}

// hasLiberty reports whether the chain on point p of a line has an empty
// neighbour.
func hasLiberty(pos rules.Position, p int) bool {
	c := pos.At(p)
	n := pos.Points()
	for _, d := range []int{-1, 1} {
		for q := p; q >= 0 && q < n; q += d {
			if pos.At(q) == rules.None {
				return true
			}
			if pos.At(q) != c {
				break
			}
		}
	}
	return false
}
