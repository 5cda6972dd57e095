package puzzle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"alak/rules"
	"alak/solve"
)

// Bounds of a decoded puzzle.
const (
	// MaxBytes bounds a puzzle's JSON.
	MaxBytes = 1 << 20
	// maxSteps bounds a line: the player's moves, MaxMoves at most 32.
	maxSteps = 63
)

// Decode reads a puzzle from its JSON (json.Marshal's form) and checks
// that it holds together (UnmarshalJSON).
func Decode(data []byte) (*Puzzle, error) {
	var p Puzzle
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// UnmarshalJSON reads a puzzle and checks that it holds together without
// a solver: known fields only, within MaxBytes; the rules written as
// rules.Rules.String writes them; the game replayed by the kernel to the
// puzzle's position; the ID its game's; every step of the line legal in
// turn, played by the side to move, with the value of exactly the
// kernel's legal moves, its move's value as After and the next step's
// Before; the accepted moves exactly those whose values keep the goal's
// outcome (only the last of the player's steps having several); the
// opponent's best replies among the legal moves; the end and its reply;
// the themes as the kernel finds them and the difficulty and rating as
// measured. Whether the values are right is Verify's question. Any
// failure is an error wrapping ErrInvalid (or the JSON decoder's), and
// the receiver is left unchanged.
func (p *Puzzle) UnmarshalJSON(b []byte) error {
	if len(b) > MaxBytes {
		return fmt.Errorf("%w: %d bytes; a puzzle is at most %d", ErrInvalid, len(b), MaxBytes)
	}
	type plain Puzzle
	var q plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	pz := Puzzle(q)
	if err := pz.validate(); err != nil {
		return err
	}
	*p = pz
	return nil
}

// validate checks that p holds together, as UnmarshalJSON describes.
func (p *Puzzle) validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
	}
	r, err := rules.Parse(p.Rules)
	if err != nil {
		return fmt.Errorf("%w: rules: %w", ErrInvalid, err)
	}
	if r.String() != p.Rules {
		return bad("rules %q are written %q", p.Rules, r.String())
	}
	g, err := p.Game()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if id := ID(p.Rules, p.Start, p.Moves); p.ID != id {
		return bad("id %q; its game's is %q", p.ID, id)
	}
	me := g.Position().ToMove()
	switch {
	case p.Goal != GoalWin && p.Goal != GoalDraw:
		return bad("goal %q: want %s or %s", p.Goal, GoalWin, GoalDraw)
	case class(p.Value, me) != goalClass(p.Goal):
		return bad("goal %q, but the value %v is not that for %s", p.Goal, p.Value, p.ToMove)
	case p.Method != string(solve.MethodTable) && p.Method != string(solve.MethodDense) && p.Method != string(solve.MethodSearch):
		return bad("method %q: want %s, %s or %s", p.Method, solve.MethodTable, solve.MethodDense, solve.MethodSearch)
	case !slices.Contains([]string{SourceGame, SourceSelfPlay, SourceTable, SourcePosition}, p.Source.Kind):
		return bad("source %q", p.Source.Kind)
	case len(p.Line) == 0 || len(p.Line)%2 == 0 || len(p.Line) > maxSteps:
		return bad("a line of %d moves: it has an odd number, at most %d, the player's first and last", len(p.Line), maxSteps)
	case !slices.Equal(p.Accepted, p.Line[0].Accepted):
		return bad("accepted %v; the line's first step accepts %v", p.Accepted, p.Line[0].Accepted)
	}
	line := g.Clone()
	before := p.Value
	want := goalClass(p.Goal)
	for i, s := range p.Line {
		player := i%2 == 0
		mover := line.Position().ToMove()
		if line.Over() || s.Player != mover.Letter() || (mover == me) != player {
			return bad("step %d (%s) played by %q: %s is to move, the game over: %v", i+1, s.Move, s.Player, mover.Letter(), line.Over())
		}
		if s.Before != before {
			return bad("step %d is worth %v before; the step before leaves %v", i+1, s.Before, before)
		}
		legal := line.LegalMoves(nil)
		if len(s.Values) != len(legal) {
			return bad("step %d values %d moves; %d are legal", i+1, len(s.Values), len(legal))
		}
		var kept []string
		best := math.Inf(1)
		for j, mv := range s.Values {
			if name := r.MoveText(legal[j]); mv.Move != name {
				return bad("step %d's value %d is of %q; the legal move is %s", i+1, j+1, mv.Move, name)
			}
			if player && class(mv.Value, me) == want {
				kept = append(kept, mv.Move)
			}
			best = min(best, mine(mv.Value, me))
		}
		after, ok := lookup(s.Values, s.Move)
		if !ok || after != s.After {
			return bad("step %d's move %q is not a legal move worth %v", i+1, s.Move, s.After)
		}
		if player {
			if !slices.Equal(kept, s.Accepted) || s.Best != nil || len(kept) == len(legal) ||
				!slices.Contains(kept, s.Move) || len(kept) > 1 && i != len(p.Line)-1 {
				return bad("step %d accepts %v; the moves that keep the outcome are %v of %d", i+1, s.Accepted, kept, len(legal))
			}
		} else {
			for _, b := range s.Best {
				if v, ok := lookup(s.Values, b); !ok || mine(v, me) != best {
					return bad("step %d's best reply %q is not a reply of the least margin", i+1, b)
				}
			}
			if !slices.Contains(s.Best, s.Move) || s.Accepted != nil {
				return bad("step %d's reply %s is not among its best %v", i+1, s.Move, s.Best)
			}
		}
		m, err := r.ParseMoveText(s.Move)
		if err != nil {
			return fmt.Errorf("%w: step %d: %w", ErrInvalid, i+1, err)
		}
		if err := line.Play(m); err != nil {
			return fmt.Errorf("%w: step %d: %w", ErrInvalid, i+1, err)
		}
		before = s.After
	}
	switch p.End {
	case EndOver, EndSeveral, EndLength:
		if p.EndReply != "" {
			return bad("end %q with a reply %q", p.End, p.EndReply)
		}
		if (p.End == EndOver) != line.Over() {
			return bad("end %q, the game over after the line: %v", p.End, line.Over())
		}
	case EndSettled, EndOpen:
		m, err := r.ParseMoveText(p.EndReply)
		if err == nil {
			err = line.Legal(m)
		}
		if err != nil {
			return fmt.Errorf("%w: end reply %q: %w", ErrInvalid, p.EndReply, err)
		}
	default:
		return bad("end %q: want %s, %s, %s, %s or %s", p.End, EndOver, EndSeveral, EndSettled, EndOpen, EndLength)
	}
	th, err := themes(p, g)
	if err != nil {
		return err
	}
	if !slices.Equal(th, p.Themes) {
		return bad("themes %v; the kernel finds %v", p.Themes, th)
	}
	d, err := difficulty(p, g)
	if err != nil {
		return err
	}
	if !sameDifficulty(d, p.Difficulty) || rating(d) != p.Rating {
		return bad("difficulty %+v rated %v; measured %+v rated %v", p.Difficulty, p.Rating, d, rating(d))
	}
	return nil
}
