package player

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"alak/gtp"
	"alak/rules"
)

// GTP is an external engine spoken to over the Go Text Protocol. Its spec
// is "gtp:COMMAND ARGS..." (words split on spaces). On the first move, and
// whenever the game is not the continuation of what the engine was told, it
// sets the rules (alak-rules when the engine knows the command, otherwise
// boardsize or rectangular_boardsize and komi), clears the board and replays
// the game's moves with play; then it asks genmove. The engine is started
// at the first move and stopped by Close.
type GTP struct {
	spec    string
	command string
	args    []string

	client   *gtp.Client
	alakKnow bool         // the engine knows alak-rules
	rules    string       // the rules the engine was set to
	sent     []rules.Move // the moves the engine has been told
}

func newGTPSpec(args string, seed uint64) (Player, error) {
	words := strings.Fields(args)
	if len(words) == 0 {
		return nil, fmt.Errorf("player gtp: name the engine's command, such as gtp:alak gtp --player greedy")
	}
	return &GTP{spec: "gtp:" + strings.Join(words, " "), command: words[0], args: words[1:]}, nil
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
		c, err := gtp.Start(ctx, p.command, p.args...)
		if err != nil {
			return rules.NoMove, err
		}
		p.client, p.rules, p.sent = c, "", nil
		known, err := c.Command(ctx, "known_command", "alak-rules")
		p.alakKnow = err == nil && strings.TrimSpace(known) == "true"
	}
	moves := g.Moves()
	if p.rules != r.String() || len(p.sent) > len(moves) || !slices.Equal(p.sent, moves[:len(p.sent)]) {
		if err := p.setup(ctx, r); err != nil {
			return rules.NoMove, err
		}
	}
	for _, m := range moves[len(p.sent):] {
		colour := gtpColour(g.PositionAt(len(p.sent)).ToMove())
		if _, err := p.client.Command(ctx, "play", colour, gtp.FormatMove(r, m)); err != nil {
			p.rules = "" // out of step: set up again next time
			return rules.NoMove, fmt.Errorf("%s: %w", p.spec, err)
		}
		p.sent = append(p.sent, m)
	}
	reply, err := p.client.Command(ctx, "genmove", gtpColour(g.Position().ToMove()))
	if err != nil {
		p.rules = ""
		return rules.NoMove, fmt.Errorf("%s: %w", p.spec, err)
	}
	m, err := gtp.ParseMove(r, strings.TrimSpace(reply))
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
	c := p.client
	var err error
	if p.alakKnow {
		_, err = c.Command(ctx, "alak-rules", strings.Fields(r.String())...)
	} else {
		if r.Movement != rules.Placement {
			return fmt.Errorf("%s: the engine does not know alak-rules, and plain GTP has no sliding moves", p.spec)
		}
		if r.IsLine() || r.Width != r.Height {
			_, err = c.Command(ctx, "rectangular_boardsize", strconv.Itoa(r.Width), strconv.Itoa(r.Height))
		} else {
			_, err = c.Command(ctx, "boardsize", strconv.Itoa(r.Width))
		}
		if err == nil {
			_, err = c.Command(ctx, "komi", strconv.FormatFloat(r.Komi, 'f', -1, 64))
		}
	}
	if err == nil {
		_, err = c.Command(ctx, "clear_board")
	}
	if err != nil {
		return fmt.Errorf("%s: setting up %s: %w", p.spec, r, err)
	}
	p.rules, p.sent = r.String(), nil
	return nil
}
