package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"alak/notation"
	"alak/rules"
	"alak/solve"
)

// solveSplitRun answers --at-least V with --split: the question split over
// the moves wherever one search passes the budget (solve.AtLeastSplit).
// Every sub-question is listed, so the proof can be checked and each part
// asked again on its own (alak solve --at-least V MOVES...).
func solveSplitRun(ctx context.Context, e *env, g *rules.Game, v float64, sf solveFlags, so solve.SplitOptions, asJSON bool) int {
	r := g.Rules()
	if e.terminal {
		so.Report = func(p solve.Part) {
			fmt.Fprintf(e.stderr, "%s\n", splitPartLine(r, p))
		}
	}
	opt := solve.Options{MaxNodes: *sf.maxNodes, MemoryMB: *sf.memory}
	b, serr := solve.AtLeastSplit(ctx, g, v, opt, so)
	if serr != nil {
		fmt.Fprintf(e.stderr, "alak solve: %v; the whole question was not answered (%d parts were)\n", serr, answeredParts(b.Parts))
		return 1
	}
	if asJSON {
		type part struct {
			Moves    []string        `json:"moves"`
			Answered bool            `json:"answered"`
			Holds    *bool           `json:"holds,omitempty"`
			Bound    *float64        `json:"bound,omitempty"`
			Nodes    int64           `json:"nodes"`
			Seconds  json.RawMessage `json:"seconds"`
		}
		parts := make([]part, len(b.Parts))
		for i, p := range b.Parts {
			q := part{Moves: []string{}, Answered: p.Answered, Nodes: p.Nodes,
				Seconds: json.RawMessage(strconv.FormatFloat(p.Elapsed.Seconds(), 'f', 3, 64))}
			for _, m := range p.Moves {
				q.Moves = append(q.Moves, notation.FormatMove(r, m))
			}
			if p.Answered {
				h, bd := p.Holds, p.Bound
				q.Holds, q.Bound = &h, &bd
			}
			parts[i] = q
		}
		js, err := json.Marshal(parts)
		if err != nil {
			return fail(e, "solve", err)
		}
		fmt.Fprintf(e.stdout, "{%s, \"parts\": %s}\n", boundJSONFields(b.Bound), js)
		return 0
	}
	solveWriteBound(e, g, b.Bound)
	fmt.Fprintf(e.stdout, "parts:    %d questions, %d answered (the others were split)\n", len(b.Parts), answeredParts(b.Parts))
	for _, p := range b.Parts {
		fmt.Fprintf(e.stdout, "  %s\n", splitPartLine(r, p))
	}
	return 0
}

// splitPartLine is one sub-question: its moves and what was found.
func splitPartLine(r rules.Rules, p solve.Part) string {
	var ms []string
	for _, m := range p.Moves {
		ms = append(ms, notation.FormatMove(r, m))
	}
	at := "(the position)"
	if len(ms) > 0 {
		at = "after " + strings.Join(ms, " ")
	}
	if !p.Answered {
		return fmt.Sprintf("%s: cut off at %d positions, split", at, p.Nodes)
	}
	side := "most"
	if p.Holds {
		side = "least"
	}
	return fmt.Sprintf("%s: at %s %s (%d positions, %.1fs)", at, side, solveNum(p.Bound), p.Nodes, p.Elapsed.Seconds())
}

func answeredParts(ps []solve.Part) int {
	n := 0
	for _, p := range ps {
		if p.Answered {
			n++
		}
	}
	return n
}
