package notation

import (
	"errors"
	"strconv"
	"strings"

	"alak/internal/clip"

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
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
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
		from, err1 := strconv.Atoi(strings.TrimSpace(a))
		to, err2 := strconv.Atoi(strings.TrimSpace(b))
		switch {
		case !ok || err1 != nil || err2 != nil:
			return rules.NoMove, parseErr(s, "a move slides a piece, written from-to: the slot it leaves and the slot it goes to, such as 1-4 (slots 1 to %d), or resign", r.Width)
		case from < 1 || from > r.Width || to < 1 || to > r.Width:
			return rules.NoMove, parseErr(s, "off the line: the slots are 1 to %d", r.Width)
		}
		return rules.Slide(from-1, to-1), nil
	}
	p, err := ParsePoint(r, t)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			pe.Input = clip.Text(t)
			pe.Msg += map[bool]string{true: " (or pass, resign)", false: " (or resign)"}[r.Pass]
		}
		return rules.NoMove, err
	}
	return rules.Place(p), nil
}
