package solve

import (
	"fmt"
	"strconv"

	"alak/rules"
)

// The rule lab's table as data: what `alak solve --table --variants ...
// --json` prints, and what the play server ships and serves as GET
// /api/rulelab (server/internal/analysis/rulelab.go, docs/rulelab.md).

// LabTable is the rule lab's table: a column for the alak preset and one
// for each variant, a row a size, each cell the value of the empty line.
type LabTable struct {
	Columns []LabColumn `json:"columns"`
	Rows    []LabRow    `json:"rows"`
}

// LabColumn is a column of the lab's table: a variant, the rules it
// plays (without the size), the methods that answered it, its seconds in
// all, and why it stopped if it did (the size and the error; the cells
// from there on are null).
type LabColumn struct {
	Variant string   `json:"variant"` // Variant.String: "alak", "edge=off"
	Option  string   `json:"option,omitempty"`
	Value   string   `json:"value,omitempty"`
	Rules   string   `json:"rules"` // "alak edge=off", as rules.Parse reads it
	Methods []Method `json:"methods"`
	Seconds float64  `json:"seconds"`
	Stopped string   `json:"stopped,omitempty"`
}

// LabRow is a size of the lab's table: a cell for each column, in the
// columns' order (null where the column stopped at a smaller size), and
// the row's seconds (every column).
type LabRow struct {
	Size    int        `json:"size"`
	Cells   []*LabCell `json:"cells"`
	Seconds float64    `json:"seconds"`
}

// LabCell is the empty line's value under a column's rules at a row's
// size: Black's margin under perfect play, the outcome ("x", "o" or
// "draw"), every opening that keeps the value (in Result.Best's order, as
// rules.Rules.MoveText writes them: "3", "*2" for a declaration) and
// whether that is every legal opening. A cell the solver could not answer
// has Error (why) and no value.
type LabCell struct {
	Value    *float64 `json:"value,omitempty"`
	Outcome  string   `json:"outcome,omitempty"`
	Best     []string `json:"best"`
	All      bool     `json:"all"`
	Openings int      `json:"openings"` // legal openings (0: the game is over before the first move)
	Method   Method   `json:"method,omitempty"`
	Seconds  float64  `json:"seconds"`
	Error    string   `json:"error,omitempty"`
}

// LabCellOf writes the result of SolveLab for the rules r as a cell; err
// is SolveLab's error (a cell not solved).
func LabCellOf(r rules.Rules, res Result, err error) LabCell {
	c := LabCell{Best: []string{}, Method: res.Method, Seconds: res.Elapsed.Seconds()}
	if err != nil {
		c.Error = err.Error()
		return c
	}
	v := res.Value
	c.Value = &v
	switch res.Outcome {
	case rules.Black:
		c.Outcome = "x"
	case rules.White:
		c.Outcome = "o"
	default:
		c.Outcome = "draw"
	}
	for _, m := range res.Best {
		c.Best = append(c.Best, r.MoveText(m))
	}
	c.Openings = len(res.Moves)
	c.All = len(res.Best) > 0 && len(res.Best) == len(res.Moves)
	return c
}

// Text writes the cell as the Markdown table does: the value, then the
// best openings in parentheses ("all" when every opening keeps the
// value, "no move" when there is none), or "not solved".
func (c LabCell) Text() string {
	if c.Value == nil {
		return "not solved"
	}
	best := ""
	for i, m := range c.Best {
		if i > 0 {
			best += " "
		}
		best += m
	}
	switch {
	case len(c.Best) == 0:
		best = "no move"
	case c.All:
		best = "all"
	}
	return fmt.Sprintf("%s (%s)", formatMargin(*c.Value), best)
}

// formatMargin writes a margin as the tables do: 1, -2, 0.5.
func formatMargin(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}
