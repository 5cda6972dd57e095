package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"alak/gtp"
	"alak/player"
	"alak/rules"
)

// Engine is what plays the bridge's games: a built-in player (mcts,
// perfect, level:N, or any spec player.New takes) or an external engine
// over GTP, "gtp:COMMAND ARGS" (one process per game, started at its first
// move, with player.GTP's time limits: setup= and genmove= before the
// command, and its process group killed when it does not answer).
type Engine struct {
	spec     string
	external bool
	alak     bool // the external engine knows alak-rules: every rule set
}

// NewEngine checks spec by building its player once; an external engine
// is started once to ask whether it knows alak-rules (without it, plain
// GTP plays placements from the rules' start only), within its set-up
// limit.
func NewEngine(ctx context.Context, spec string) (*Engine, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, errors.New("--engine: name the engine: mcts, perfect, level:N (1 to 9), or gtp:COMMAND ARGS")
	}
	p, err := player.New(spec, 1)
	if err != nil {
		return nil, fmt.Errorf("--engine %q: %w", spec, err)
	}
	defer p.Close()
	e := &Engine{spec: spec}
	g, ok := p.(*player.GTP)
	if !ok {
		return e, nil
	}
	e.external = true
	setup, _ := g.Limits()
	command, args := g.Command()
	sctx, cancel := context.WithTimeout(ctx, setup)
	defer cancel()
	c, err := gtp.Start(sctx, command, args...)
	if err != nil {
		return nil, fmt.Errorf("--engine %q: %w", spec, err)
	}
	defer c.Close()
	known, err := c.Command(sctx, "known_command", "alak-rules")
	e.alak = err == nil && strings.TrimSpace(known) == "true"
	return e, nil
}

// Spec returns the engine's spec.
func (e *Engine) Spec() string { return e.spec }

// Check says why the engine cannot play a game of rules r from start (nil
// when it can): an external engine that does not know alak-rules plays
// plain GTP, placements only, and GTP replays a game from the rules' start
// position only.
func (e *Engine) Check(r rules.Rules, start rules.Position) error {
	if !e.external {
		return nil
	}
	if s, err := rules.NewPosition(r); err != nil || s.String() != start.String() || s.ToMove() != start.ToMove() {
		return errors.New("the engine plays over GTP, which starts from the rules' own start position, not a set-up one")
	}
	if !e.alak && r.Movement != rules.Placement {
		return errors.New("the engine does not know alak-rules, and plain GTP has no sliding moves")
	}
	return nil
}

// player builds the engine's player for one game.
func (e *Engine) player(seed uint64) (player.Player, error) {
	return player.New(e.spec, seed)
}

// moveBudget is how long a built-in player may think about one move with
// left on its clock and inc added after the move: a twentieth of what is
// left plus most of the increment, and never less than 50 ms (the first
// move of a live game, before any clock runs, at most half of the time
// left for it). An external engine is told the clocks (time_left) and
// manages its own time; it is stopped at its clock's deadline (or the
// first move's) less a twentieth of the time it had, at least 150 ms.
func moveBudget(left, inc time.Duration) time.Duration {
	return max(left/20+inc*4/5, 50*time.Millisecond)
}
