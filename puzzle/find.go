package puzzle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"alak/rules"
	"alak/solve"
)

// Solver answers the exact value of a game's position under its history:
// Black's margin under perfect play and the value of every legal move.
// *solve.Tables, the project's one entry point to the solver, is one.
type Solver interface {
	Solve(ctx context.Context, g *rules.Game, opt solve.Options) (solve.Result, error)
}

// Errors of the package.
var (
	// ErrNotPuzzle is wrapped by Find's answer for a position that is not
	// a puzzle, with the reason.
	ErrNotPuzzle = errors.New("not a puzzle")
	// ErrInvalid is wrapped by the errors of a puzzle that does not hold
	// together: text that does not decode, moves the kernel refuses, a
	// line that contradicts itself.
	ErrInvalid = errors.New("invalid puzzle")
	// ErrRejected is wrapped by Verify's answer when the second method
	// contradicts the puzzle.
	ErrRejected = errors.New("the puzzle is contradicted by a second solver method")
	// ErrBeyondReach is wrapped by Reach's answer for rules and boards the
	// solver does not answer quickly enough to make puzzles.
	ErrBeyondReach = errors.New("beyond the puzzles' reach")
)

// Defaults of Options.
const (
	DefaultMaxAccepted = 2
	DefaultMaxMoves    = 4
)

// Options bound what Find accepts as a puzzle and how long its line is.
type Options struct {
	// MaxAccepted is the most moves that may keep the outcome at a
	// position of the puzzle's player (0: DefaultMaxAccepted). Only the
	// line's last move of the player may have more than one: the line
	// goes on only where the move is unique.
	MaxAccepted int
	// MaxMoves is the most moves of the puzzle's player in a line (0:
	// DefaultMaxMoves); with the replies, 2*MaxMoves-1 plies.
	MaxMoves int
	// Solve is passed to every solve (MaxNodes, MemoryMB, Method). The
	// sources skip a position whose solve passes MaxNodes (Stats.Skipped).
	// solve.Tables takes no dense solve under a limit below the line's
	// states: give it its dense table first (a solve of the start position
	// without a limit, with Tables.Build covering the line), and the
	// limit then bounds only the searches that a history which used
	// positions up needs.
	Solve solve.Options
}

func (o Options) withDefaults() Options {
	if o.MaxAccepted <= 0 {
		o.MaxAccepted = DefaultMaxAccepted
	}
	if o.MaxMoves <= 0 {
		o.MaxMoves = DefaultMaxMoves
	}
	return o
}

// node is a position of a line with its solve: the value of every legal
// move, in the kernel's order.
type node struct {
	g      *rules.Game
	value  float64 // Black's margin under perfect play
	legal  []rules.Move
	values []float64 // values[i] is the value after legal[i]
	method solve.Method
}

func (n *node) over() bool { return n.g.Over() }

// accepted returns the moves that keep the position's outcome for the
// player to move.
func (n *node) accepted() []rules.Move {
	me := n.g.Position().ToMove()
	want := class(n.value, me)
	var out []rules.Move
	for i, m := range n.legal {
		if class(n.values[i], me) == want {
			out = append(out, m)
		}
	}
	return out
}

// valueOf returns the value after legal move m.
func (n *node) valueOf(m rules.Move) float64 {
	for i, l := range n.legal {
		if l == m {
			return n.values[i]
		}
	}
	return 0
}

// keptShare is the share of the legal moves that keep the outcome: 1
// where nothing can be got wrong (and in a finished game).
func (n *node) keptShare() float64 {
	if n.over() || len(n.legal) == 0 {
		return 1
	}
	return float64(len(n.accepted())) / float64(len(n.legal))
}

// solveNode solves g's position (a copy of g is kept) with s: the value of
// every legal move, each checked to be there.
func solveNode(ctx context.Context, s Solver, g *rules.Game, opt solve.Options) (*node, error) {
	n := &node{g: g.Clone()}
	if o := g.Outcome(); o.Over() {
		n.value = o.Margin
		return n, nil
	}
	res, err := s.Solve(ctx, g, opt)
	if err != nil {
		return nil, err
	}
	if !res.Complete {
		return nil, fmt.Errorf("the solve of %s was cut off", g.Position())
	}
	n.value, n.method = res.Value, res.Method
	if n.method == "" {
		n.method = solve.MethodSearch
	}
	n.legal = g.LegalMoves(nil)
	if len(res.Moves) != len(n.legal) {
		return nil, fmt.Errorf("the solver valued %d moves of %s, the kernel has %d legal", len(res.Moves), g.Position(), len(n.legal))
	}
	n.values = make([]float64, len(n.legal))
	for i, m := range n.legal {
		v, ok := res.Moves[m]
		if !ok {
			return nil, fmt.Errorf("the solver has no value for the legal move %s of %s", g.Rules().MoveText(m), g.Position())
		}
		n.values[i] = v
	}
	return n, nil
}

// Find decides whether g's position, with g's history, is a puzzle for
// its player to move, and builds its solution line; g is not changed.
//
// A position is a puzzle when the player to move does not lose (the value
// is a win or a draw for them), at least one move changes that outcome,
// and at most opt.MaxAccepted moves keep it. Outcomes are classes (win,
// draw, loss), not margins: under the presets scored by margin (alak's
// stones, traditional's and tromp-taylor's area) a move that wins by less
// than the best still wins and is accepted; the line plays the best
// margin, and the margins are kept in the puzzle to say by how much each
// move wins or loses.
//
// The line: the player's move that keeps the outcome with the best
// margin, then the opponent's most resisting reply (the least margin
// for the player; of those, the one after which the smallest share of
// the player's moves keeps the outcome; then the kernel's order), then the
// player's next move, and so on, each position solved under the history
// it has. It stops (Puzzle.End) when the game is over, when the player's
// move was one of several accepted, after opt.MaxMoves of the player's
// moves, or before a reply after which the player has nothing to find
// (every move keeps the outcome) or more than opt.MaxAccepted moves keep
// it. Every node of the line is solved and checked: at the player's
// positions the accepted moves are exactly those that keep the outcome,
// at the opponent's the reply is among the best, and the puzzle holds
// together as UnmarshalJSON checks it (each solve's values agree with the
// next's).
//
// A position that is not a puzzle gives an error wrapping ErrNotPuzzle
// that says why; a solver's error is returned as it is.
func Find(ctx context.Context, s Solver, g *rules.Game, opt Options) (*Puzzle, error) {
	opt = opt.withDefaults()
	root, err := solveNode(ctx, s, g, opt.Solve)
	if err != nil {
		return nil, err
	}
	if err := puzzleNode(root, opt.MaxAccepted); err != nil {
		return nil, err
	}
	r := g.Rules()
	me := g.Position().ToMove()
	p := &Puzzle{Rules: r.String(), Position: g.Position().String(), ToMove: me.Letter(), Value: root.value,
		Method: string(root.method), Source: Source{Kind: SourcePosition}}
	if class(root.value, me) > 0 {
		p.Goal = GoalWin
	} else {
		p.Goal = GoalDraw
	}
	var rec struct {
		Start string   `json:"start"`
		Moves []string `json:"moves"`
	}
	b, err := g.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, err
	}
	p.Start, p.Moves = rec.Start, rec.Moves
	p.ID = ID(p.Rules, p.Start, p.Moves)

	line := g.Clone()
	cur := root
	for own := 1; ; own++ { // own: the player's moves in the line
		acc := cur.accepted()
		m := bestFor(cur, acc, me)
		p.Line = append(p.Line, step(cur, m, acc, true))
		if err := line.Play(m); err != nil {
			return nil, fmt.Errorf("the kernel refused the solver's move %s: %w", r.MoveText(m), err)
		}
		if line.Over() {
			p.End = EndOver
			break
		}
		if len(acc) > 1 {
			p.End = EndSeveral
			break
		}
		if own >= opt.MaxMoves {
			p.End = EndLength
			break
		}
		opp, err := solveNode(ctx, s, line, opt.Solve)
		if err != nil {
			return nil, err
		}
		best := bestReplies(opp, me)
		var reply rules.Move
		var next *node
		for _, b := range best {
			after := line.Clone()
			if err := after.Play(b); err != nil {
				return nil, fmt.Errorf("the kernel refused the solver's reply %s: %w", r.MoveText(b), err)
			}
			n, err := solveNode(ctx, s, after, opt.Solve)
			if err != nil {
				return nil, err
			}
			if next == nil || n.keptShare() < next.keptShare() {
				reply, next = b, n
			}
		}
		if next.over() || len(next.accepted()) == len(next.legal) {
			p.End, p.EndReply = EndSettled, r.MoveText(reply)
			break
		}
		if len(next.accepted()) > opt.MaxAccepted {
			p.End, p.EndReply = EndOpen, r.MoveText(reply)
			break
		}
		p.Line = append(p.Line, step(opp, reply, best, false))
		if err := line.Play(reply); err != nil {
			return nil, err
		}
		cur = next
	}
	p.Accepted = p.Line[0].Accepted
	if p.Themes, err = themes(p, g); err != nil {
		return nil, err
	}
	if p.Difficulty, err = difficulty(p, g); err != nil {
		return nil, err
	}
	p.Rating = rating(p.Difficulty)
	if err := p.validate(); err != nil {
		// The solves of the line's positions contradict each other.
		return nil, fmt.Errorf("the solver's answers do not hold together: %w", err)
	}
	return p, nil
}

// puzzleNode returns nil when the player to move at n has a puzzle there:
// not lost, at least one move that changes the outcome, and at most
// maxAccepted that keep it; otherwise why not, wrapping ErrNotPuzzle.
func puzzleNode(n *node, maxAccepted int) error {
	if n.over() {
		return fmt.Errorf("%w: the game is over", ErrNotPuzzle)
	}
	me := n.g.Position().ToMove()
	if class(n.value, me) < 0 {
		return fmt.Errorf("%w: %s loses whatever they play (value %v)", ErrNotPuzzle, me.Letter(), n.value)
	}
	acc := n.accepted()
	switch {
	case len(acc) == len(n.legal):
		return fmt.Errorf("%w: every one of the %d legal moves keeps the outcome", ErrNotPuzzle, len(n.legal))
	case len(acc) > maxAccepted:
		return fmt.Errorf("%w: %d of the %d legal moves keep the outcome, more than the %d a puzzle accepts", ErrNotPuzzle, len(acc), len(n.legal), maxAccepted)
	}
	return nil
}

// bestFor returns the move of moves (all legal at n) with the best margin
// for me, the first in the kernel's order among equals.
func bestFor(n *node, moves []rules.Move, me rules.Color) rules.Move {
	best, bv := moves[0], 0.0
	for i, m := range moves {
		v := n.valueOf(m)
		if me == rules.White {
			v = -v
		}
		if i == 0 || v > bv {
			best, bv = m, v
		}
	}
	return best
}

// bestReplies returns the opponent's replies at n that leave the player
// me the least margin, in the kernel's order.
func bestReplies(n *node, me rules.Color) []rules.Move {
	worst := 0.0
	for i, v := range n.values {
		if me == rules.White {
			v = -v
		}
		if i == 0 || v < worst {
			worst = v
		}
	}
	var out []rules.Move
	for i, m := range n.legal {
		v := n.values[i]
		if me == rules.White {
			v = -v
		}
		if v == worst {
			out = append(out, m)
		}
	}
	return out
}

// step writes move m at node n: for the puzzle's player (mine) with the
// accepted moves set, for the opponent with the best replies set.
func step(n *node, m rules.Move, set []rules.Move, mine bool) Step {
	r := n.g.Rules()
	s := Step{Move: r.MoveText(m), Player: n.g.Position().ToMove().Letter(), Before: n.value, After: n.valueOf(m)}
	names := make([]string, len(set))
	for i, x := range set {
		names[i] = r.MoveText(x)
	}
	if mine {
		s.Accepted = names
	} else {
		s.Best = names
	}
	s.Values = make([]MoveValue, len(n.legal))
	for i, l := range n.legal {
		s.Values[i] = MoveValue{Move: r.MoveText(l), Value: n.values[i]}
	}
	return s
}
