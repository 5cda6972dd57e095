package session

import (
	"alak/notation"
	"alak/rules"
	"alak/solve"
)

// PlyView is one move of a game judged by the solver, as the wire and
// `alak analyze --json` write it: the value (Black's margin under perfect
// play) before and after the move, the best moves, and whether the move
// changed the outcome. Moves are in the human form (notation.Human).
type PlyView struct {
	Ply            int      `json:"ply"`
	Player         string   `json:"player"` // "x" or "o"
	Move           string   `json:"move"`
	ValueBefore    float64  `json:"value_before"`
	ValueAfter     float64  `json:"value_after"`
	Best           []string `json:"best"`
	ChangedOutcome bool     `json:"changed_outcome"`
}

// PlyViews writes the solver's analysis of a game under r (solve's
// Analyze) as PlyViews, one a ply; never nil.
func PlyViews(r rules.Rules, plies []solve.PlyValue) []PlyView {
	out := make([]PlyView, 0, len(plies))
	for _, p := range plies {
		best := make([]string, len(p.Best))
		for i, m := range p.Best {
			best[i] = notation.Human.Encode(r, m)
		}
		out = append(out, PlyView{Ply: p.Ply, Player: p.Player.Letter(), Move: notation.Human.Encode(r, p.Move),
			ValueBefore: p.Before, ValueAfter: p.After, Best: best, ChangedOutcome: p.Changed()})
	}
	return out
}
