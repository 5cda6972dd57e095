package session

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"alak/rules"
	"alak/solve"
)

// Hint is the solver's advice for the player to move.
type Hint struct {
	Best  []rules.Move // every move that keeps the value
	PV    []rules.Move // a line of perfect play from here
	Value float64      // Black's margin under perfect play (a draw by repetition is 0)
	Nodes int64        // positions searched
}

// ErrNoHint is wrapped by every reason Hint gives no hint.
var ErrNoHint = errors.New("no hint")

// Words says what perfect play leads to: "Black wins by 2", "the game is
// a draw".
func (h Hint) Words(r rules.Rules) string { return ValueWords(r, h.Value) }

// Hint asks the exact solver for the best moves of the player to move,
// under the game's history (repetitions and superko count), within the
// session's HintTime, HintNodes, HintMemoryMB and ctx, by the fastest
// method that answers (solve.Tables.Solve, with the session's HintTables
// when it has one). Its errors wrap ErrNoHint and say why in words.
func (s *Session) Hint(ctx context.Context) (Hint, error) {
	if s.Over() {
		return Hint{}, fmt.Errorf("%w: the game is over", ErrNoHint)
	}
	ctx, cancel := context.WithTimeout(ctx, s.opt.HintTime)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	ts := s.opt.HintTables
	if ts == nil {
		ts = &solve.Tables{}
	}
	res, err := ts.Solve(ctx, s.game.Clone(), solve.Options{MaxNodes: s.opt.HintNodes, MemoryMB: s.opt.HintMemoryMB})
	h := Hint{Best: res.Best, PV: res.PV, Value: res.Value, Nodes: res.Nodes}
	switch {
	case errors.Is(err, solve.ErrUnsupported) && s.Rules().Points() > 64:
		return h, fmt.Errorf("%w: the solver handles boards of at most 64 points, not a %s board", ErrNoHint, s.Rules().SizeString())
	case errors.Is(err, solve.ErrUnsupported):
		return h, fmt.Errorf("%w: %w", ErrNoHint, err)
	case errors.Is(err, context.DeadlineExceeded) && s.ctx.Err() == nil && ctx.Err() != nil:
		return h, fmt.Errorf("%w: the solver could not finish in %v (%d positions searched)", ErrNoHint, s.opt.HintTime, res.Nodes)
	case errors.Is(err, solve.ErrNodeLimit):
		return h, fmt.Errorf("%w: the solver could not finish within %d positions", ErrNoHint, s.opt.HintNodes)
	case errors.Is(err, solve.ErrMemory):
		return h, fmt.Errorf("%w: the positions reachable from here do not fit the memory a hint may use", ErrNoHint)
	case err != nil:
		return h, fmt.Errorf("%w: %w", ErrNoHint, err)
	case len(res.Best) == 0:
		return h, fmt.Errorf("%w: no move is legal", ErrNoHint)
	}
	return h, nil
}

// The budget of a computer's answer to a draw offer: a look-up in the
// session's table with a little search around it, never a long solve.
const (
	drawNodes    = 20_000
	drawMemoryMB = 4
	drawTime     = 500 * time.Millisecond
)

// drawn reports whether the table of the session's solver (HintTables)
// shows the current position drawn under perfect play, within the draw
// budget; false without a table, or when the budget ends first.
func (s *Session) drawn() bool {
	tab, err := s.opt.HintTables.For(s.Rules())
	if err != nil || tab == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(s.ctx, drawTime)
	defer cancel()
	res, err := solve.Solve(ctx, s.game.Clone(), solve.Options{Table: tab, MaxNodes: drawNodes, MemoryMB: drawMemoryMB, ValueOnly: true})
	return err == nil && res.Complete && res.Value == 0
}

// ValueWords says in words what a solver value (Black's margin under
// perfect play) means under r: "Black wins by 2" where the board is
// counted, "Black wins" where games are won by rule, "the game is a draw".
func ValueWords(r rules.Rules, v float64) string {
	counted := r.Scoring != rules.ScoreNone && r.Movement == rules.Placement
	num := strconv.FormatFloat(math.Abs(v), 'f', -1, 64)
	switch {
	case v > 0 && counted:
		return "Black wins by " + num
	case v < 0 && counted:
		return "White wins by " + num
	case v > 0:
		return "Black wins"
	case v < 0:
		return "White wins"
	}
	return "the game is a draw"
}
