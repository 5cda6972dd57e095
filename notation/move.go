package notation

import (
	"fmt"
	"strings"

	"alak/rules"
)

// FormatMove writes a move in the one form the project prints and stores
// everywhere (replay, solve, JSON, the server): rules.Rules.MoveText, a
// placement as its point (FormatPoint), a slide as "from-to" with 1-based
// slots, "pass", "resign".
func FormatMove(r rules.Rules, m rules.Move) string { return r.MoveText(m) }

// ParseMove reads a move in any notation the project accepts: "pass",
// "resign", a slide "from-to" (also "from to") under sliding rules, and a
// placement as ParsePoint reads it. It checks the form and the board, not
// legality.
func ParseMove(r rules.Rules, s string) (rules.Move, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "pass":
		return rules.Pass, nil
	case "resign":
		return rules.Resign, nil
	}
	if r.Movement == rules.Sliding {
		a, b, ok := strings.Cut(t, "-")
		if !ok {
			f := strings.Fields(t)
			if len(f) == 2 {
				a, b, ok = f[0], f[1], true
			}
		}
		if !ok {
			return rules.NoMove, fmt.Errorf("%w: %q: a move slides a piece, written from-to such as 1-4 (slots 1 to %d)", ErrNotation, s, r.Width)
		}
		from, err := ParsePoint(r, a)
		if err != nil {
			return rules.NoMove, err
		}
		to, err := ParsePoint(r, b)
		if err != nil {
			return rules.NoMove, err
		}
		return rules.Slide(from, to), nil
	}
	p, err := ParsePoint(r, t)
	if err != nil {
		return rules.NoMove, fmt.Errorf("%w (or pass, resign)", err)
	}
	return rules.Place(p), nil
}
