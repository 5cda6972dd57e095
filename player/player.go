// Package player holds the computer players: random, greedy, alpha-beta,
// MCTS, perfect, strong (perfect play past the tables where it can prove
// it, search elsewhere: Strong) and external engines spoken to over GTP.
// They share one
// interface, used by the terminal game, the GTP front end and the arena.
// A player is built from a spec, its name and options:
//
//	p, err := player.New("mcts:time=100ms", seed) // or "alphabeta:depth=8", "perfect", "level:5", "gtp:alak gtp"
//	m, err := p.Move(ctx, game)
//
// Level(n) maps the named levels, 1 (random) to Levels() (perfect), to
// specs; docs/strength.md measures them. NewUntrusted builds a player from
// a spec that comes from outside (a play server's request): built-in
// players only, every budget bounded. A player is used by one goroutine
// at a time; the arena gives every game its own players.
package player

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"alak/rules"
)

// Player chooses a move for the side to move. The game carries the history,
// so players can respect superko and repetition. A player never returns an
// illegal move; it returns an error only when it cannot choose (the game is
// over, the context was cancelled, an external engine failed). Close
// releases what the player holds (an external engine's process is
// stopped); the player is not used afterwards.
type Player interface {
	Name() string
	Move(ctx context.Context, g *rules.Game) (rules.Move, error)
	Close() error
}

// ErrNoMove is returned when the game is over or no move is legal.
var ErrNoMove = fmt.Errorf("no legal move")

// constructors maps a player name to its constructor; args are what follows
// "name:" in the spec.
var constructors = map[string]func(args string, seed uint64) (Player, error){
	"random":    func(args string, seed uint64) (Player, error) { return NewRandom(seed), noArgs("random", args) },
	"greedy":    func(args string, seed uint64) (Player, error) { return NewGreedy(seed), noArgs("greedy", args) },
	"alphabeta": newAlphaBetaSpec,
	"mcts":      newMCTSSpec,
	"perfect":   newPerfectSpec,
	"strong":    newStrongSpec,
	"gtp":       newGTPSpec,
}

func init() { constructors["level"] = newLevelSpec }

func noArgs(name, args string) error {
	if args != "" {
		return fmt.Errorf("player %s takes no options, got %q", name, args)
	}
	return nil
}

// Names lists the built-in players.
func Names() []string {
	return []string{"random", "greedy", "alphabeta", "mcts", "perfect", "strong"}
}

// New builds a player from a spec: a name from Names, optionally followed by
// ":" and options (see each player), "level:N" for a named level (see
// Level), or "gtp:COMMAND ARGS..." for an external engine. seed seeds the
// player's randomness: the same seed plays the same moves (for the search
// players, under a node or playout budget rather than a time budget).
func New(spec string, seed uint64) (Player, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	c, ok := constructors[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown player %q: the players are %s, level:N (1 to %d), or gtp:COMMAND for an external engine", spec, strings.Join(Names(), ", "), len(levels))
	}
	return c(args, seed)
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x616c616b)) }

// Random plays a uniformly random legal move.
type Random struct{ rng *rand.Rand }

// NewRandom returns a random player seeded with seed.
func NewRandom(seed uint64) *Random { return &Random{newRand(seed)} }

// Name returns "random".
func (p *Random) Name() string { return "random" }

// Close releases nothing.
func (p *Random) Close() error { return nil }

// Move returns a random legal move.
func (p *Random) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	moves := g.LegalMoves(nil)
	if len(moves) == 0 {
		return rules.NoMove, ErrNoMove
	}
	return moves[p.rng.IntN(len(moves))], nil
}

// Greedy plays the move with the best immediate gain for the mover: a move
// that wins at once, otherwise the largest count difference after the move
// under the rules' scoring (stones, area, ...), ties broken at random. It
// avoids a move that loses at once while another does not.
type Greedy struct{ rng *rand.Rand }

// NewGreedy returns a greedy player seeded with seed.
func NewGreedy(seed uint64) *Greedy { return &Greedy{newRand(seed)} }

// Name returns "greedy".
func (p *Greedy) Name() string { return "greedy" }

// Close releases nothing.
func (p *Greedy) Close() error { return nil }

// Move returns a move of best immediate gain.
func (p *Greedy) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	moves := g.LegalMoves(nil)
	if len(moves) == 0 {
		return rules.NoMove, ErrNoMove
	}
	me := g.Position().ToMove()
	best, bestVal, ties := rules.NoMove, math.Inf(-1), 0
	for _, m := range moves {
		v := Gain(g, m, me)
		switch {
		case v > bestVal:
			best, bestVal, ties = m, v, 1
		case v == bestVal:
			ties++
			if p.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best, nil
}

// Gain is the greedy evaluation of move m for player me: +Inf for a move
// that wins at once, -Inf for one that loses, otherwise me's count minus the
// opponent's after the move (0 for a move that draws).
func Gain(g *rules.Game, m rules.Move, me rules.Color) float64 {
	h := g.Clone()
	if err := h.Play(m); err != nil {
		return math.Inf(-1)
	}
	o := h.Outcome()
	if o.Over() {
		switch o.Winner {
		case me:
			return math.Inf(1)
		case me.Opp():
			return math.Inf(-1)
		}
		return 0
	}
	d := o.Black - o.White
	if me == rules.White {
		d = -d
	}
	return d
}
