package gtp

import (
	"fmt"
	"strings"

	"alak/internal/clip"
	"alak/notation"
	"alak/rules"
)

// ParseMove reads a move as GTP writes it under r: a vertex such as C1 for a
// placement, two vertices joined by "-" such as A1-E1 for a slide, pass or
// resign (any case).
func ParseMove(r rules.Rules, s string) (rules.Move, error) {
	switch strings.ToLower(s) {
	case "pass":
		return rules.Pass, nil
	case "resign":
		return rules.Resign, nil
	}
	if r.Movement == rules.Sliding {
		a, b, ok := strings.Cut(s, "-")
		if !ok {
			return rules.NoMove, fmt.Errorf("%w: %q is not a move: these rules slide a piece, written FROM-TO with two vertices such as A1-E1", notation.ErrNotation, clip.Text(s))
		}
		from, err := notation.ParseGTPVertex(r, a)
		if err != nil {
			return rules.NoMove, err
		}
		to, err := notation.ParseGTPVertex(r, b)
		if err != nil {
			return rules.NoMove, err
		}
		return rules.Slide(from, to), nil
	}
	p, err := notation.ParseGTPVertex(r, s)
	if err != nil {
		return rules.NoMove, fmt.Errorf("%w; a move is a vertex, pass or resign", err)
	}
	return rules.Place(p), nil
}

// FormatMove writes a move as ParseMove reads it: a vertex (C1), FROM-TO
// (A1-E1), pass or resign.
func FormatMove(r rules.Rules, m rules.Move) string {
	switch {
	case m == rules.Pass:
		return "pass"
	case m == rules.Resign:
		return "resign"
	case m.IsSlide():
		return notation.GTPVertex(r, m.From()) + "-" + notation.GTPVertex(r, m.To())
	case m.IsPlace():
		return notation.GTPVertex(r, m.Point())
	}
	return "none"
}
