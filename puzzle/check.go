package puzzle

import (
	"errors"
	"fmt"
	"strconv"

	"alak/notation"
	"alak/rules"
)

// ErrAttempt is wrapped by Check's errors about the moves of an attempt
// that cannot be judged: text that is no move, a move after the attempt
// ended. A move the rules refuse wraps rules.ErrIllegal instead.
var ErrAttempt = errors.New("bad attempt")

// Attempt is the verdict on the moves a player has played on a puzzle so
// far: the page sends the moves as they are played and shows each answer
// (POST /api/puzzles/{id}/attempt).
type Attempt struct {
	// Correct: the puzzle is solved (every move accepted, to the end of
	// the line). Done: the attempt is over, solved or missed; then
	// Solution is the line's moves.
	Correct  bool     `json:"correct"`
	Done     bool     `json:"done"`
	Answers  []Answer `json:"answers"`
	Solution []string `json:"solution,omitempty"`
}

// Answer is the verdict on one of the player's moves.
type Answer struct {
	Move string `json:"move"` // in the stored form
	// Correct: the move keeps the outcome. Best: it also keeps the margin
	// (the line's move, or one as good).
	Correct bool `json:"correct"`
	Best    bool `json:"best"`
	// Before and After are Black's margin under perfect play before and
	// after the move.
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Reply is the opponent's answer to a correct move when the line goes
	// on ("" when the puzzle is solved or the move was wrong).
	Reply string `json:"reply,omitempty"`
	// Why says it in words: "this move lets White draw: your margin under
	// perfect play goes from +2 to 0".
	Why string `json:"why"`
}

// Check judges an attempt: the player's moves, in any form a person types
// (notation.Human: "3", "c", "1-4"), without the opponent's replies, which
// Check plays from the line. Each move is answered as it is played: correct
// or wrong with the values, and the reply; a wrong move ends the attempt.
// It needs no solver: a puzzle holds the value of every legal move of each
// of its player's positions. An empty attempt is not done. An error says
// which move could not be judged, and wraps rules.ErrIllegal (a move the
// rules refuse), ErrAttempt or ErrInvalid (a puzzle that does not hold
// together).
func Check(p *Puzzle, moves []string) (Attempt, error) {
	att := Attempt{Answers: []Answer{}}
	g, err := p.Game()
	if err != nil {
		return att, err
	}
	r := g.Rules()
	me := g.Position().ToMove()
	want := goalClass(p.Goal)
	at := 0 // the index in p.Line of the player's step to answer
	for i, text := range moves {
		if att.Done {
			return att, fmt.Errorf("%w: move %d (%q) comes after the attempt ended at move %d", ErrAttempt, i+1, text, i)
		}
		if at >= len(p.Line) {
			return att, fmt.Errorf("%w: the line has no step %d", ErrInvalid, at+1)
		}
		m, err := notation.Human.Decode(r, text)
		if err != nil {
			return att, fmt.Errorf("%w: move %d: %w", ErrAttempt, i+1, err)
		}
		if m == rules.Resign {
			return att, fmt.Errorf("%w: move %d: an attempt answers with a move; resigning is not one", ErrAttempt, i+1)
		}
		if err := g.Legal(m); err != nil {
			return att, fmt.Errorf("move %d: %w", i+1, err)
		}
		s := p.Line[at]
		name := r.MoveText(m)
		v, ok := lookup(s.Values, name)
		if !ok {
			return att, fmt.Errorf("%w: step %d has no value for the legal move %s", ErrInvalid, at+1, name)
		}
		ans := Answer{Move: name, Before: s.Before, After: v}
		if class(v, me) != want {
			ans.Why = wrongWords(me, s.Before, v)
			att.Answers = append(att.Answers, ans)
			att.Done, att.Solution = true, p.Solution()
			continue
		}
		ans.Correct, ans.Best = true, v == s.After
		ans.Why = rightWords(me, p.Goal, s, v)
		if err := g.Play(m); err != nil {
			return att, err
		}
		if name != s.Move || at+1 >= len(p.Line) {
			att.Answers = append(att.Answers, ans)
			att.Done, att.Correct, att.Solution = true, true, p.Solution()
			continue
		}
		reply := p.Line[at+1]
		rm, err := r.ParseMoveText(reply.Move)
		if err != nil {
			return att, fmt.Errorf("%w: reply %q: %w", ErrInvalid, reply.Move, err)
		}
		if err := g.Play(rm); err != nil {
			return att, fmt.Errorf("%w: reply %s: %w", ErrInvalid, reply.Move, err)
		}
		ans.Reply = reply.Move
		att.Answers = append(att.Answers, ans)
		at += 2
	}
	return att, nil
}

// lookup returns the value of move name in vs.
func lookup(vs []MoveValue, name string) (float64, bool) {
	for _, mv := range vs {
		if mv.Move == name {
			return mv.Value, true
		}
	}
	return 0, false
}

// mine is v, Black's margin, as player c's margin.
func mine(v float64, c rules.Color) float64 {
	if c == rules.White {
		return -v + 0
	}
	return v
}

// signed writes a margin with its sign: +2, 0, -1.5.
func signed(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if v > 0 {
		s = "+" + s
	}
	return s
}

// wrongWords says why a move that changed the outcome is wrong.
func wrongWords(me rules.Color, before, after float64) string {
	opp := notation.PlayerName(me.Opp())
	lets := "lets " + opp + " win"
	if class(after, me) == 0 {
		lets = "lets " + opp + " draw"
	}
	return fmt.Sprintf("this move %s: your margin under perfect play goes from %s to %s", lets, signed(mine(before, me)), signed(mine(after, me)))
}

// rightWords says why a move that kept the outcome is right, and whether
// another wins by more.
func rightWords(me rules.Color, goal string, s Step, v float64) string {
	keeps := "it holds the draw"
	if goal == GoalWin {
		keeps = "it keeps the win"
	}
	if v == s.After {
		return fmt.Sprintf("correct: %s (your margin under perfect play stays %s)", keeps, signed(mine(v, me)))
	}
	return fmt.Sprintf("correct: %s, by %s where %s wins by %s", keeps, signed(mine(v, me)), s.Move, signed(mine(s.After, me)))
}
