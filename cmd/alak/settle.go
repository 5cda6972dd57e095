package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/solve"
)

// solveSettleRun answers alak solve on rules the search does not finish
// on (solve.Settles: traditional) by solve.Tables.Settle: the shipped
// certificates at once where they settle the position, else the search
// within a short budget, else the proof search, each step said on
// standard error as it starts.
func solveSettleRun(ctx context.Context, e *env, ts *solve.Tables, g *rules.Game, asJSON bool) int {
	start := time.Now()
	opt := solve.SettleOptions{Note: func(s string) {
		if e.terminal {
			fmt.Fprint(e.stderr, "\r\033[K")
		}
		fmt.Fprintf(e.stderr, "alak solve: %s\n", s)
	}}
	opt.Searched = func(nodes int64, entries int) {
		line := fmt.Sprintf("proof numbers: %d positions, %d table entries, %s elapsed", nodes, entries, time.Since(start).Round(time.Second))
		if e.terminal {
			fmt.Fprintf(e.stderr, "\r%s   ", line)
			return
		}
		fmt.Fprintf(e.stderr, "alak solve: %s\n", line)
	}
	s, err := ts.Settle(ctx, g, opt)
	if e.terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	switch {
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(e.stderr, "alak solve: interrupted: %v; nothing was proved\n", err)
		return exitInterrupted
	case err != nil:
		fmt.Fprintf(e.stderr, "alak solve: %v; nothing was proved\n", err)
		return 1
	}
	r := g.Rules()
	if s.Method == solve.MethodSearch {
		if asJSON {
			if err := solveWriteJSON(e.stdout, r, s.Result); err != nil {
				return fail(e, "solve", err)
			}
			return 0
		}
		solveWriteText(e.stdout, g, s.Result)
		return 0
	}
	if asJSON {
		if err := settleWriteJSON(e.stdout, r, s); err != nil {
			return fail(e, "solve", err)
		}
		return 0
	}
	settleWriteText(e.stdout, g, s)
	return 0
}

// outcomeText writes an outcome as alak solve's moves line does: x, o or
// draw.
func outcomeText(c rules.Color) string { return solve.OutcomeWord(c) }

// settleWriteText prints a settled position: the value (a draw's) or the
// winner, the outcome of each move that is known, the best moves, the
// claims proved and how.
func settleWriteText(w io.Writer, g *rules.Game, s solve.Settled) {
	r := g.Rules()
	pos := g.Position()
	fmt.Fprintf(w, "rules:    %s\n", r.String())
	fmt.Fprintf(w, "position: %s, %s to move\n", pos.String(), pos.ToMove().Letter())
	word := map[rules.Color]string{rules.Black: "x (Black) wins", rules.White: "o (White) wins", rules.None: "draw"}[s.Outcome]
	if s.Margin {
		fmt.Fprintf(w, "value:    %s (%s)\n", solveNum(s.Value), word)
	} else {
		fmt.Fprintf(w, "outcome:  %s; by how much is not proved (a proof shows who wins, not the margin)\n", word)
	}
	if len(s.Moves) > 0 {
		var parts []string
		for _, m := range g.LegalMoves(nil) {
			if o, ok := s.Moves[m]; ok {
				parts = append(parts, notation.Human.Encode(r, m)+":"+outcomeText(o))
			}
		}
		fmt.Fprintf(w, "moves:    %s (the winner after each move, or draw)\n", strings.Join(parts, " "))
	}
	if len(s.Best) > 0 {
		fmt.Fprintf(w, "best:     %s\n", strings.Join(solveMoveList(r, s.Best), " "))
	}
	for i, p := range s.Proofs {
		label := "proved:   "
		if i > 0 {
			label = "          "
		}
		switch {
		case p.Certificate != nil:
			fmt.Fprintf(w, "%s%s: certificate %s (SHA-256 %s)\n", label, p.Claim(), p.Certificate.File, p.Certificate.SHA256)
		default:
			fmt.Fprintf(w, "%s%s (%d positions)\n", label, p.Claim(), p.Nodes)
		}
	}
	switch s.Method {
	case solve.MethodCertificate:
		fmt.Fprintf(w, "method:   certificate (proof certificates of the project's proofdata/; alak check-proof FILE checks one with the rules alone)\n")
	case solve.MethodProof:
		fmt.Fprintf(w, "searched: %d positions in %.3fs\n", s.Nodes, s.Elapsed.Seconds())
		fmt.Fprintf(w, "method:   proof (proof-number search over the state graph with prisoners; alak prove --certificate writes a checkable proof)\n")
	}
}

// settleJSON is a settled position in JSON: alak solve --json's shape,
// with the winner after each move (move_outcomes) and the claims proved.
type settleJSON struct {
	Value        *float64          `json:"value,omitempty"`
	Outcome      string            `json:"outcome"`
	Complete     bool              `json:"complete"`
	Best         []string          `json:"best"`
	PV           []string          `json:"pv"`
	Moves        map[string]any    `json:"moves"`
	MoveOutcomes map[string]string `json:"move_outcomes"`
	Proofs       []settleProofJSON `json:"proofs"`
	Nodes        int64             `json:"nodes"`
	Seconds      seconds           `json:"seconds"`
	Method       solve.Method      `json:"method"`
}

type settleProofJSON struct {
	Claim       string `json:"claim"`
	Certificate string `json:"certificate,omitempty"`
	SHA256      string `json:"sha256,omitempty"`
	Nodes       int64  `json:"nodes,omitempty"`
}

func settleWriteJSON(w io.Writer, r rules.Rules, s solve.Settled) error {
	out := settleJSON{Outcome: solve.OutcomeWord(s.Outcome), Complete: true, Best: solveMoveList(r, s.Best), PV: []string{},
		Moves: map[string]any{}, MoveOutcomes: map[string]string{}, Proofs: []settleProofJSON{}, Nodes: s.Nodes, Seconds: seconds(s.Elapsed), Method: s.Method}
	if s.Margin {
		v := s.Value
		out.Value = &v
	}
	for m, o := range s.Moves {
		t := notation.Human.Encode(r, m)
		out.MoveOutcomes[t] = outcomeText(o)
		if o == rules.None {
			out.Moves[t] = 0 // a draw's margin; a win's is not proved
		}
	}
	for _, p := range s.Proofs {
		j := settleProofJSON{Claim: p.Claim(), Nodes: p.Nodes}
		if c := p.Certificate; c != nil {
			j.Certificate, j.SHA256 = c.File, c.SHA256
		}
		out.Proofs = append(out.Proofs, j)
	}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// settleRow is a row of alak solve --table for a settled start position:
// the value (or "not proved" beside the winner, where only the outcome
// is), the best openings where known, the positions searched, the seconds
// and, past the search, how it was settled.
func settleRow(n int, r rules.Rules, s solve.Settled, err error) string {
	if err != nil {
		return fmt.Sprintf("| %d | not solved | – | %s | %d | %.1f |", n, err, s.Nodes, s.Elapsed.Seconds())
	}
	value := "not proved"
	if s.Margin {
		value = solveNum(s.Value)
	}
	best := strings.Join(solveMoveList(r, s.Best), " ")
	if len(s.Best) == 0 {
		best = "(not proved)"
	}
	how := ""
	if s.Method != solve.MethodSearch {
		how = " (by " + string(s.Method) + ")"
	}
	return fmt.Sprintf("| %d | %s | %s%s | %s | %d | %.2f |", n, value, solve.OutcomeWord(s.Outcome), how, best, s.Nodes, s.Elapsed.Seconds())
}
