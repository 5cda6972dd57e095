package player

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"alak/gtp"
	"alak/notation"
	"alak/rules"
)

// Time limits of the GTP player's commands, unless its spec sets others.
const (
	// DefaultGTPSetup bounds starting the engine (its answer to
	// protocol_version) and each set-up command: known_command, alak-rules,
	// boardsize, rectangular_boardsize, komi, clear_board and play. They
	// need no thought; an engine that takes longer is stuck.
	DefaultGTPSetup = 10 * time.Second
	// DefaultGTPGenmove bounds genmove. It is below session.DefaultMoveTime,
	// so an engine that thinks too long is reported as such rather than as a
	// seat out of time; a session's shorter move time bounds it too.
	DefaultGTPGenmove = 30 * time.Second
)

// GTPGenmoveLimit returns the genmove limit that goes with a move time per
// move of movetime: twice it plus 5 seconds. The engine is not told the
// move time, and its start-up, the pipes and a loaded machine all take
// their share; the limit is there to stop an engine that does not answer,
// not to time its thinking.
func GTPGenmoveLimit(movetime time.Duration) time.Duration {
	return 2*movetime + 5*time.Second
}

// ErrEngineTimeout is wrapped by the error of an external engine that did
// not answer a command within its limit (an *EngineTimeoutError).
var ErrEngineTimeout = errors.New("the engine did not answer in time")

// EngineTimeoutError says which command an external engine did not answer
// within which limit. The engine has been stopped.
type EngineTimeoutError struct {
	Engine  string // the player's spec
	Command string // the GTP command, without its arguments
	Limit   time.Duration
}

func (e *EngineTimeoutError) Error() string {
	return fmt.Sprintf("%s did not answer %s within %v", e.Engine, e.Command, e.Limit)
}

// Unwrap returns ErrEngineTimeout.
func (e *EngineTimeoutError) Unwrap() error { return ErrEngineTimeout }

// GTP is an external engine spoken to over the Go Text Protocol. Its spec
// is "gtp:COMMAND ARGS..." (words split on spaces), optionally with time
// limits before the command: "gtp:setup=2s genmove=10s COMMAND ARGS...".
// setup= bounds starting the engine and each set-up command (default
// DefaultGTPSetup), genmove= bounds genmove (default DefaultGTPGenmove);
// the context of Move bounds them too. An engine that does not answer in
// time is stopped, with an *EngineTimeoutError, and started afresh at the
// next move; so is one whose context ends while it thinks.
//
// On the first move, and whenever the game is not the continuation of what
// the engine was told, it sets the rules (alak-rules when the engine knows
// the command, otherwise boardsize or rectangular_boardsize and komi),
// clears the board and replays the game's moves with play; then it asks
// genmove. The engine is started at the first move and stopped by Close.
type GTP struct {
	spec    string
	command string
	args    []string
	setupT  time.Duration // the limit of starting and of each set-up command
	genT    time.Duration // the limit of genmove

	client   *gtp.Client
	alakKnow bool             // the engine knows alak-rules
	timeKnow bool             // the engine knows time_left
	clock    [2]time.Duration // the time left of Black and White, for time_left
	clockSet bool             // TimeLeft was called: send time_left before genmove
	rules    string           // the rules the engine was set to
	sent     []rules.Move     // the moves the engine has been told
}

// gtpOptions are the options a GTP spec may set before its command.
var gtpOptions = []string{"setup", "genmove"}

func newGTPSpec(args string, seed uint64) (Player, error) {
	words := strings.Fields(args)
	o := options{}
	for len(words) > 0 && isOptionWord(words[0]) {
		k, v, _ := strings.Cut(words[0], "=")
		k = strings.ToLower(k)
		if !slices.Contains(gtpOptions, k) {
			return nil, fmt.Errorf("player gtp: unknown option %q before the command; the options are setup=DURATION and genmove=DURATION, such as gtp:genmove=10s alak gtp", k)
		}
		o[k] = v
		words = words[1:]
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("player gtp: name the engine's command, such as gtp:alak gtp --player greedy")
	}
	setup, err := o.duration("gtp", "setup", DefaultGTPSetup)
	if err != nil {
		return nil, err
	}
	genmove, err := o.duration("gtp", "genmove", DefaultGTPGenmove)
	if err != nil {
		return nil, err
	}
	return &GTP{spec: "gtp:" + strings.Join(strings.Fields(args), " "), command: words[0], args: words[1:],
		setupT: setup, genT: genmove}, nil
}

// isOptionWord reports whether a word before a GTP spec's command is an
// option, NAME=VALUE with a name of letters (no program is started that
// way).
func isOptionWord(w string) bool {
	k, _, ok := strings.Cut(w, "=")
	return ok && k != "" && strings.IndexFunc(k, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}) < 0
}

// Name returns the player's spec.
func (p *GTP) Name() string { return p.spec }

// Close stops the engine.
func (p *GTP) Close() error {
	if p.client == nil {
		return nil
	}
	err := p.client.Close()
	p.client = nil
	return err
}

// TimeLeft sets the time left on Black's and White's clocks, which the
// engine is told with GTP's time_left (COLOUR SECONDS 0: no byo-yomi
// stones) before each later genmove, if it knows the command. A play
// server's bridge (alak bot) calls it before each move.
func (p *GTP) TimeLeft(black, white time.Duration) {
	p.clock, p.clockSet = [2]time.Duration{max(black, 0), max(white, 0)}, true
}

// Command returns the engine's program and its arguments.
func (p *GTP) Command() (string, []string) { return p.command, slices.Clone(p.args) }

// Limits returns the time limits of starting and set-up commands and of
// genmove.
func (p *GTP) Limits() (setup, genmove time.Duration) { return p.setupT, p.genT }

// start starts the engine within the set-up limit.
func (p *GTP) start(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, p.setupT)
	defer cancel()
	c, err := gtp.Start(cctx, p.command, p.args...)
	if err != nil {
		// Start has stopped an engine that did not answer.
		if ctx.Err() != nil {
			return fmt.Errorf("%s: starting the engine: %w", p.spec, ctx.Err())
		}
		if cctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
			return &EngineTimeoutError{Engine: p.spec, Command: "protocol_version", Limit: p.setupT}
		}
		return err
	}
	p.client, p.rules, p.sent = c, "", nil
	return nil
}

// do sends one command within limit. An engine that does not answer in
// time, or while ctx ends, is stopped: it is out of step, and the next move
// starts it afresh.
func (p *GTP) do(ctx context.Context, limit time.Duration, cmd string, args ...string) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	reply, err := p.client.Command(cctx, cmd, args...)
	if err == nil {
		return reply, nil
	}
	if cctx.Err() != nil && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) {
		p.Close()
		if ctx.Err() != nil {
			return "", fmt.Errorf("%s: %s: %w", p.spec, cmd, ctx.Err())
		}
		return "", &EngineTimeoutError{Engine: p.spec, Command: cmd, Limit: limit}
	}
	return "", fmt.Errorf("%s: %w", p.spec, err)
}

func gtpColour(c rules.Color) string {
	if c == rules.Black {
		return "b"
	}
	return "w"
}

// Move brings the engine up to date with g and returns its genmove.
func (p *GTP) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	if g.Over() {
		return rules.NoMove, ErrNoMove
	}
	r := g.Rules()
	if start, err := rules.NewPosition(r); err != nil || start.String() != g.Start().String() || start.ToMove() != g.Start().ToMove() {
		return rules.NoMove, fmt.Errorf("%s: GTP can only replay games from the rules' start position", p.spec)
	}
	if p.client == nil {
		if err := p.start(ctx); err != nil {
			return rules.NoMove, err
		}
		known, err := p.do(ctx, p.setupT, "known_command", "alak-rules")
		if err != nil && p.client == nil {
			return rules.NoMove, err // stopped: it did not answer
		}
		p.alakKnow = err == nil && strings.TrimSpace(known) == "true"
		known, err = p.do(ctx, p.setupT, "known_command", "time_left")
		if err != nil && p.client == nil {
			return rules.NoMove, err
		}
		p.timeKnow = err == nil && strings.TrimSpace(known) == "true"
	}
	moves := g.Moves()
	if p.rules != r.String() || len(p.sent) > len(moves) || !slices.Equal(p.sent, moves[:len(p.sent)]) {
		if err := p.setup(ctx, r); err != nil {
			return rules.NoMove, err
		}
	}
	for _, m := range moves[len(p.sent):] {
		colour := gtpColour(g.PositionAt(len(p.sent)).ToMove())
		if _, err := p.do(ctx, p.setupT, "play", colour, notation.GTP.Encode(r, m)); err != nil {
			p.rules = "" // out of step: set up again next time
			return rules.NoMove, err
		}
		p.sent = append(p.sent, m)
	}
	if p.clockSet && p.timeKnow {
		for c, left := range p.clock {
			secs := strconv.FormatInt(int64(left/time.Second), 10)
			if _, err := p.do(ctx, p.setupT, "time_left", gtpColour(rules.Color(c)), secs, "0"); err != nil {
				var f *gtp.Failure
				if !errors.As(err, &f) { // a refusal is the engine's business; silence is not
					p.rules = ""
					return rules.NoMove, err
				}
			}
		}
	}
	reply, err := p.do(ctx, p.genT, "genmove", gtpColour(g.Position().ToMove()))
	if err != nil {
		p.rules = ""
		return rules.NoMove, err
	}
	m, err := notation.GTP.Decode(r, strings.TrimSpace(reply))
	if err != nil {
		p.rules = ""
		return rules.NoMove, fmt.Errorf("%s: genmove answered %q: %w", p.spec, reply, err)
	}
	if err := g.Legal(m); err != nil {
		p.rules = ""
		return rules.NoMove, fmt.Errorf("%s: genmove answered %q, which is not legal: %w", p.spec, reply, err)
	}
	// The engine has played its own move; a resignation ends the game.
	p.sent = append(p.sent, m)
	return m, nil
}

// setup sets the engine's rules and board and clears it.
func (p *GTP) setup(ctx context.Context, r rules.Rules) error {
	var err error
	if p.alakKnow {
		_, err = p.do(ctx, p.setupT, "alak-rules", strings.Fields(r.String())...)
	} else {
		if r.Movement != rules.Placement {
			return fmt.Errorf("%s: the engine does not know alak-rules, and plain GTP has no sliding moves", p.spec)
		}
		// A square grid is boardsize N to a Go engine, but an engine on a
		// line may refuse that (alak's does: boardsize never turns a line
		// into a grid), so rectangular_boardsize N N goes first where the
		// engine knows it.
		known, kerr := p.do(ctx, p.setupT, "known_command", "rectangular_boardsize")
		if kerr != nil {
			return kerr
		}
		if r.IsLine() || r.Width != r.Height || strings.TrimSpace(known) == "true" {
			_, err = p.do(ctx, p.setupT, "rectangular_boardsize", strconv.Itoa(r.Width), strconv.Itoa(r.Height))
		} else {
			_, err = p.do(ctx, p.setupT, "boardsize", strconv.Itoa(r.Width))
		}
		if err == nil {
			_, err = p.do(ctx, p.setupT, "komi", strconv.FormatFloat(r.Komi, 'f', -1, 64))
		}
	}
	if err == nil {
		_, err = p.do(ctx, p.setupT, "clear_board")
	}
	if err != nil {
		p.rules = ""
		return err // the command is quoted, with the rules or the board
	}
	p.rules, p.sent = r.String(), nil
	return nil
}
