package puzzle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"alak/rules"
)

// Themes: stable names (they travel in the API and in --theme). Each is
// found by the kernel on the puzzle's line, never guessed.
const (
	// ThemeWin: the puzzle's position is won; the line keeps the win.
	ThemeWin = "win"
	// ThemeDraw: the position is drawn, and only the accepted moves hold it.
	ThemeDraw = "draw"
	// ThemeCapture: one of the player's moves in the line captures.
	ThemeCapture = "capture"
	// ThemeEdgeCapture: one of those captures takes a chain on the edge
	// of the board (an end of the line), which the rules count as closed
	// (edge=on).
	ThemeEdgeCapture = "edge-capture"
	// ThemeForbidden: at one of the player's positions in the line, a
	// point is refused to the player by the rules' forbidden points:
	// Baljeu's no-return rule (ko=captured), ko, or superko.
	ThemeForbidden = "forbidden-point"
	// ThemeRepetition: the history counts: under rules with a repetition
	// draw, a position of the line (the puzzle's own included) that a
	// move, not a pass, brought about has occurred before in the game, or
	// the line ends in a draw by repetition. (A pass brings back the same
	// stones with the other player to move, and two passes the same
	// position: an end by passes, not a repetition.)
	ThemeRepetition = "repetition"
	// themeEndIn prefixes ThemeEndIn(n).
	themeEndIn = "end-in-"
)

// ThemeEndIn is the theme of a line after whose n plies the game is over,
// "end-in-3": chess's mate in N, for a game that ends by a count or a rule.
func ThemeEndIn(n int) string { return themeEndIn + strconv.Itoa(n) }

// ThemeNames lists the themes a puzzle may have, end-in-N as written.
func ThemeNames() []string {
	return []string{ThemeWin, ThemeDraw, ThemeCapture, ThemeEdgeCapture, ThemeForbidden, ThemeRepetition, themeEndIn + "N"}
}

// ParseTheme checks a theme as a filter takes it: a name of ThemeNames,
// end-in-N with N from 1, or "end-in" for any N.
func ParseTheme(s string) (string, error) {
	switch s {
	case ThemeWin, ThemeDraw, ThemeCapture, ThemeEdgeCapture, ThemeForbidden, ThemeRepetition, "end-in":
		return s, nil
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(s, themeEndIn)); strings.HasPrefix(s, themeEndIn) && err == nil && n >= 1 {
		return ThemeEndIn(n), nil
	}
	return "", fmt.Errorf("theme %q: want one of %s (N a number of plies), or end-in for any N", s, strings.Join(ThemeNames(), ", "))
}

// HasTheme reports whether p has theme t as ParseTheme reads it ("end-in"
// matches every end-in-N).
func (p *Puzzle) HasTheme(t string) bool {
	for _, x := range p.Themes {
		if x == t || t == "end-in" && strings.HasPrefix(x, themeEndIn) {
			return true
		}
	}
	return false
}

// themes finds p's themes by replaying its line from g, the game at the
// puzzle's position (not changed).
func themes(p *Puzzle, g *rules.Game) ([]string, error) {
	r := g.Rules()
	me := g.Position().ToMove()
	found := map[string]bool{}
	if p.Goal == GoalWin {
		found[ThemeWin] = true
	} else {
		found[ThemeDraw] = true
	}
	line := g.Clone()
	look := func() {
		if r.Repetition > 0 && line.Position().LastMove() != rules.Pass && line.Occurrences() > 1 {
			found[ThemeRepetition] = true
		}
		if line.Position().ToMove() == me && !line.Over() && refusesPoint(line) {
			found[ThemeForbidden] = true
		}
	}
	look()
	for _, s := range p.Line {
		m, err := r.ParseMoveText(s.Move)
		if err != nil {
			return nil, fmt.Errorf("%w: line move %q: %w", ErrInvalid, s.Move, err)
		}
		before := line.Position()
		if err := line.Play(m); err != nil {
			return nil, fmt.Errorf("%w: line move %s: %w", ErrInvalid, s.Move, err)
		}
		after := line.Position()
		if before.ToMove() == me {
			opp := me.Opp()
			if after.Count(opp) < before.Count(opp) {
				found[ThemeCapture] = true
				if r.EdgeCapture && capturedOnEdge(before, after, opp) {
					found[ThemeEdgeCapture] = true
				}
			}
		}
		look()
	}
	if o := line.Outcome(); o.Over() {
		if o.Reason == rules.Repetition {
			found[ThemeRepetition] = true
		}
		if p.End == EndOver {
			found[ThemeEndIn(len(p.Line))] = true
		}
	}
	var out []string
	for _, t := range []string{ThemeWin, ThemeDraw, ThemeCapture, ThemeEdgeCapture, ThemeForbidden, ThemeRepetition, ThemeEndIn(len(p.Line))} {
		if found[t] {
			out = append(out, t)
		}
	}
	return out, nil
}

// refusesPoint reports whether the game's player to move is refused an
// empty point by the forbidden-point rules (no-return, ko, superko).
func refusesPoint(g *rules.Game) bool {
	pos := g.Position()
	r := g.Rules()
	if r.Movement != rules.Placement {
		return false
	}
	for p := range pos.Points() {
		if pos.At(p) != rules.None || pos.Safe(p) {
			continue
		}
		err := g.Legal(rules.Place(p))
		if errors.Is(err, rules.ErrForbidden) || errors.Is(err, rules.ErrKo) || errors.Is(err, rules.ErrSuperko) {
			return true
		}
	}
	return false
}

// capturedOnEdge reports whether a stone of colour c on the board's edge
// in before is gone in after: a chain captured against the edge.
func capturedOnEdge(before, after rules.Position, c rules.Color) bool {
	w, h := before.Size()
	for p := range before.Points() {
		x, y := p%w, p/w
		edge := x == 0 || x == w-1 || (h > 1 && (y == 0 || y == h-1))
		if edge && before.At(p) == c && after.At(p) != c {
			return true
		}
	}
	return false
}
