package solve

import (
	"alak/notation"
	"alak/rules"
)

// Answer is a Result written with the moves in the project's notation
// (notation.Human): the numbers `alak solve --json` prints and GET
// /api/analysis answers, each in its own wire shape (cmd/alak/solve.go,
// server/internal/analysis/positions.go).
type Answer struct {
	// Value (Black's margin), Outcome ("x", "o" or "draw"), Best and PV
	// are set only when Complete: a search cut off proves only the values
	// of the moves it finished.
	Value    *float64
	Outcome  string
	Complete bool
	Best, PV []string // never nil
	// Moves are the moves whose values were proved (every legal move when
	// Complete), in board order, pass last.
	Moves  []MoveValue
	Nodes  int64
	Method Method
}

// MoveValue is one move of an Answer and Black's margin after it.
type MoveValue struct {
	Move  string
	Value float64
}

// Answer writes res, a result under r, as an Answer.
func (res Result) Answer(r rules.Rules) Answer {
	a := Answer{Complete: res.Complete, Best: []string{}, PV: []string{}, Moves: make([]MoveValue, 0, len(res.Moves)),
		Nodes: res.Nodes, Method: res.Method}
	if res.Complete {
		v := res.Value
		a.Value, a.Outcome = &v, OutcomeWord(res.Outcome)
		a.Best, a.PV = moveTexts(r, res.Best), moveTexts(r, res.PV)
	}
	for _, m := range SortedMoves(res.Moves) {
		a.Moves = append(a.Moves, MoveValue{Move: notation.Human.Encode(r, m), Value: res.Moves[m]})
	}
	return a
}

// OutcomeWord writes the winner as answers do: "x", "o", or "draw" for
// rules.None.
func OutcomeWord(c rules.Color) string {
	if c == rules.None {
		return "draw"
	}
	return c.Letter()
}

// SortedMoves returns the moves of vals in board order: placements and
// slides by point, pass last.
func SortedMoves(vals map[rules.Move]float64) []rules.Move {
	ms := make([]rules.Move, 0, len(vals))
	for m := range vals {
		ms = append(ms, m)
	}
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && moveBefore(ms[j], ms[j-1]); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
	return ms
}

func moveBefore(a, b rules.Move) bool {
	if (a < 0) != (b < 0) {
		return b < 0
	}
	return a < b
}

func moveTexts(r rules.Rules, ms []rules.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = notation.Human.Encode(r, m)
	}
	return out
}
