package session

import (
	"fmt"
	"strings"

	"alak/internal/clip"
	"alak/notation"
	"alak/rules"
)

// Setup is how a game begins, as every front end takes it: the rules, an
// optional start diagram with the player to move and the prisoners taken
// before it, and moves played from there. Game reads it, with one set of
// defaults for every command.
type Setup struct {
	Rules rules.Rules
	// SizeGiven says the size was chosen, not the preset's: a diagram must
	// then have that size. Otherwise the diagram sets the size.
	SizeGiven bool
	// Diagram is the start position as the seeds draw it ("x--o/O": the
	// stone just played in capitals, / for the points it captured, which
	// the player to move may not take back where the rules forbid it). ""
	// is the rules' own start (the empty board, the sliding layout).
	Diagram string
	// ToMove is the player to move at a diagram, x or o. "" is the
	// opponent of the diagram's capital stone; a diagram without one needs
	// it. The rules' own start is always begun by x.
	ToMove string
	// Prisoners are the stones each side took before the start, Black's
	// first ("2-1"); "" is none. Only rules that count prisoners take them.
	Prisoners string
	// Moves are played from the start, each in any notation
	// notation.Human.Decode reads; an element may hold several moves separated
	// by blank space (under sliding rules "1 4" alone is one slide).
	Moves []string
}

// ErrSetup is wrapped by every error of Setup.Game that is not a move's.
var ErrSetup = rules.ErrSetup

// SetupError is an error of Setup.Game with the part of the set-up it is
// about, so that each front end can name that part its own way (a flag, a
// JSON field). Part is "diagram", "to_move", "prisoners" or "moves".
type SetupError struct {
	Part string
	Err  error
}

func (e *SetupError) Error() string { return e.Err.Error() }

// Unwrap returns the error itself.
func (e *SetupError) Unwrap() error { return e.Err }

func partErr(part string, err error) error {
	if err == nil {
		return nil
	}
	return &SetupError{Part: part, Err: err}
}

// Game builds the game the set-up describes: its errors say what is wrong
// and what is accepted, never naming a command's flags.
func (s Setup) Game() (*rules.Game, error) {
	start, err := s.start()
	if err != nil {
		return nil, err
	}
	g := rules.NewGameFrom(start)
	r := start.Rules()
	for i, w := range s.moveWords(r) {
		m, err := notation.Human.Decode(r, w)
		if err != nil {
			return nil, partErr("moves", fmt.Errorf("move %d %q: %w", i+1, clip.Text(w), err))
		}
		if err := g.Play(m); err != nil {
			return nil, partErr("moves", fmt.Errorf("move %d %q (%s to play): %w", i+1, clip.Text(w), g.Position().ToMove().Letter(), err))
		}
	}
	return g, nil
}

// moveWords splits the move arguments into moves.
func (s Setup) moveWords(r rules.Rules) []string {
	var words []string
	for _, a := range s.Moves {
		f := strings.Fields(a)
		if r.Movement == rules.Sliding && len(f) == 2 && !strings.Contains(a, "-") {
			words = append(words, a)
			continue
		}
		words = append(words, f...)
	}
	return words
}

// start builds the start position.
func (s Setup) start() (rules.Position, error) {
	r := s.Rules
	if err := r.Validate(); err != nil {
		return rules.Position{}, err
	}
	var pos rules.Position
	var err error
	if s.Diagram == "" {
		if s.ToMove != "" {
			return pos, partErr("to_move", fmt.Errorf("%w: a player to move goes with a start diagram; a game from the rules' start is begun by x", ErrSetup))
		}
		if pos, err = rules.NewPosition(r); err != nil {
			return pos, err
		}
	} else if pos, err = s.diagram(r); err != nil {
		return pos, err
	}
	if s.Prisoners != "" {
		if r.Scoring != rules.ScoreTerritory && r.Scoring != rules.ScoreAreaPrisoners {
			return pos, partErr("prisoners", fmt.Errorf("%w: prisoners %q: prisoners count only under score=territory or score=area+prisoners, and these rules score %s", ErrSetup, clip.Text(s.Prisoners), scoreName(r)))
		}
		b, w, err := notation.ParsePrisoners(s.Prisoners)
		if err != nil {
			return pos, partErr("prisoners", fmt.Errorf("%w: prisoners %q: %w", ErrSetup, clip.Text(s.Prisoners), err))
		}
		if pos, err = pos.WithPrisoners(b, w); err != nil {
			return pos, partErr("prisoners", err)
		}
	}
	return pos, nil
}

func scoreName(r rules.Rules) string {
	v, _ := r.Get("score")
	return v
}

// diagram reads the start diagram with its player to move.
func (s Setup) diagram(r rules.Rules) (rules.Position, error) {
	d := strings.TrimSpace(s.Diagram)
	var c rules.Color
	switch {
	case s.ToMove != "":
		var err error
		if c, err = rules.ParseColor(s.ToMove); err != nil {
			return rules.Position{}, partErr("to_move", err)
		}
	case strings.ContainsRune(d, 'X'):
		c = rules.White
	case strings.ContainsRune(d, 'O'):
		c = rules.Black
	default:
		return rules.Position{}, partErr("to_move", fmt.Errorf("%w: the diagram %q has no capital stone to tell who played last: say which player is to move, x or o", ErrSetup, clip.Text(d)))
	}
	if strings.ContainsRune(d, '/') && !forbidsPoints(r) {
		return rules.Position{}, partErr("diagram", fmt.Errorf("%w: the diagram %q marks points just captured (/), but under these rules (ko=%s) no point is forbidden after a capture: draw them empty (-)", ErrSetup, clip.Text(d), koName(r)))
	}
	pos, err := rules.ParseDiagram(r, d, c)
	if err != nil {
		return pos, partErr("diagram", err)
	}
	if w, h := pos.Size(); s.SizeGiven && (w != r.Width || h != r.Height) {
		return pos, partErr("diagram", fmt.Errorf("%w: the diagram %q is %s but the size is %s", ErrSetup, clip.Text(d), pos.Rules().SizeString(), r.SizeString()))
	}
	return pos, nil
}

// forbidsPoints reports whether a capture can leave a point the player to
// move may not place on: Baljeu's rule, or simple ko.
func forbidsPoints(r rules.Rules) bool {
	return r.Movement == rules.Placement && (r.Ko == rules.KoCaptured || r.Ko == rules.KoSimple)
}

func koName(r rules.Rules) string {
	if r.Movement == rules.Sliding {
		return "none, sliding"
	}
	v, _ := r.Get("ko")
	return v
}
