package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strings"

	"alak/notation"
	"alak/rules"
	"alak/solve"
)

// solveSplitRun answers --at-least V with --split: the question split over
// the moves wherever one search passes the budget (solve.AtLeastSplit).
// Every sub-question is listed as a line of a parts file (notation), its
// moves from the game's start, so the proof can be checked, each part asked
// again on its own (alak solve --at-least V MOVES...), and a stopped split
// resumed from its --parts file.
func solveSplitRun(ctx context.Context, e *env, g *rules.Game, v float64, sf solveFlags, so solve.SplitOptions, files splitFiles, asJSON bool) int {
	partsFile := files.parts
	r := g.Rules()
	root := g.Moves()
	var journal *os.File
	if partsFile != "" {
		known, err := readPartsFile(partsFile, g)
		if err != nil {
			return fail(e, "solve", err)
		}
		so.Known = func(moves []rules.Move) (solve.Known, bool) {
			k, ok := known[notation.PartMovesKey(r, fromStart(root, moves))]
			return k, ok
		}
		if !so.Plan {
			if journal, err = openPartsJournal(partsFile, g); err != nil {
				return fail(e, "solve", err)
			}
			defer journal.Close()
		}
	}
	var jerr error
	so.Report = func(p solve.Part) {
		line := notation.FormatPartLine(r, splitPartLine(root, p))
		if e.terminal {
			fmt.Fprintf(e.stderr, "%s\n", line)
		}
		if journal != nil && !p.Known && !p.Open && jerr == nil {
			if _, err := fmt.Fprintln(journal, line); err != nil {
				jerr = fmt.Errorf("--parts %s: %w (the split goes on; its parts are printed at the end)", partsFile, err)
				fmt.Fprintf(e.stderr, "alak solve: %v\n", jerr)
			}
		}
	}
	opt := solve.Options{MaxNodes: *sf.maxNodes, MemoryMB: *sf.memory}
	b, serr := solve.AtLeastSplit(ctx, g, v, opt, so)
	if asJSON {
		if err := splitWriteJSON(e, r, root, b, serr); err != nil {
			return fail(e, "solve", err)
		}
	} else {
		switch {
		case serr != nil:
		case b.Open:
			solveWriteHead(e, g)
			fmt.Fprintf(e.stdout, "at least %s: not settled by the known parts; %d lines are open\n", solveNum(v), countParts(b.Parts, func(p solve.Part) bool { return p.Open }))
		default:
			solveWriteBound(e, g, b.Bound)
		}
		fmt.Fprintf(e.stdout, "parts:    %d questions, %d answered (the others were split)\n", len(b.Parts), answeredParts(b.Parts))
		for _, p := range b.Parts {
			fmt.Fprintf(e.stdout, "  %s\n", notation.FormatPartLine(r, splitPartLine(root, p)))
		}
	}
	if serr != nil {
		fmt.Fprintf(e.stderr, "alak solve: %v; the whole question was not answered (%d parts were)\n", serr, answeredParts(b.Parts))
		return 1
	}
	if files.proof != "" {
		if b.Open {
			fmt.Fprintf(e.stderr, "alak solve: --proof %s: not written, the question is not settled\n", files.proof)
			return 1
		}
		if err := writeProof(files, g, b); err != nil {
			return fail(e, "solve", err)
		}
	}
	return 0
}

// splitFiles names the files of a split: --parts and --proof.
type splitFiles struct{ parts, proof string }

// writeProof writes the parts a settled split rests on (b.Proof) to
// files.proof as a parts file: every line above a leaf as cut off, then the
// leaf, in the order of the proof. A leaf taken from the --parts file keeps
// the note it has there (its positions and seconds).
func writeProof(files splitFiles, g *rules.Game, b solve.SplitBound) error {
	r := g.Rules()
	root := g.Moves()
	notes := map[string]string{} // settled lines of the parts file: their notes
	if files.parts != "" {
		data, err := os.ReadFile(files.parts)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err == nil {
			lines, err := notation.ReadParts(data, g)
			if err != nil {
				return fmt.Errorf("--parts %s: %w", files.parts, err)
			}
			for _, l := range lines {
				if !l.CutOff && !l.Open {
					notes[fmt.Sprintf("%s %v %v", notation.PartMovesKey(r, l.Moves), l.Lower, l.Bound)] = l.Note
				}
			}
		}
	}
	var out strings.Builder
	out.WriteString(notation.PartsHeader(g))
	fmt.Fprintf(&out, "# the proof that Black's margin is %s: %d parts\n", proofClaim(b.Bound), len(b.Proof))
	done := map[string]bool{}
	for _, p := range b.Proof {
		for i := 0; i < len(p.Moves); i++ {
			above := fromStart(root, p.Moves[:i])
			key := notation.PartMovesKey(r, above)
			if !done[key] {
				done[key] = true
				out.WriteString(notation.FormatPartLine(r, notation.PartLine{Moves: above, CutOff: true, Note: "split"}) + "\n")
			}
		}
		l := splitPartLine(root, p)
		if p.Known {
			l.Note = notes[fmt.Sprintf("%s %v %v", notation.PartMovesKey(r, l.Moves), l.Lower, l.Bound)]
		}
		done[notation.PartMovesKey(r, l.Moves)] = true
		out.WriteString(notation.FormatPartLine(r, l) + "\n")
	}
	if err := os.WriteFile(files.proof, []byte(out.String()), 0o644); err != nil {
		return fmt.Errorf("--proof: %w", err)
	}
	return nil
}

// proofClaim says what a bound answer proves: "at least 2", "below 2".
func proofClaim(b solve.Bound) string {
	if b.Holds {
		return "at least " + solveNum(b.AtLeast)
	}
	return "below " + solveNum(b.AtLeast)
}

// splitWriteJSON writes the answer and its parts; when the split stopped
// with an error the answer fields are left out and "error" says why.
func splitWriteJSON(e *env, r rules.Rules, root []rules.Move, b solve.SplitBound, serr error) error {
	type part struct {
		Moves    []string `json:"moves"`
		Answered bool     `json:"answered"`
		Holds    *bool    `json:"holds,omitempty"`
		Bound    *float64 `json:"bound,omitempty"`
		Known    bool     `json:"known,omitempty"`
		Open     bool     `json:"open,omitempty"`
		Nodes    int64    `json:"nodes"`
		Seconds  seconds  `json:"seconds"`
	}
	parts := make([]part, len(b.Parts))
	for i, p := range b.Parts {
		q := part{Moves: []string{}, Answered: p.Answered, Known: p.Known, Open: p.Open, Nodes: p.Nodes,
			Seconds: seconds(p.Elapsed)}
		for _, m := range fromStart(root, p.Moves) {
			q.Moves = append(q.Moves, notation.Human.Encode(r, m))
		}
		if p.Answered {
			h, bd := p.Holds, p.Bound
			q.Holds, q.Bound = &h, &bd
		}
		parts[i] = q
	}
	var out any
	switch {
	case b.Open && serr == nil:
		out = struct {
			AtLeast float64 `json:"at_least"`
			Open    bool    `json:"open"`
			Parts   []part  `json:"parts"`
		}{b.AtLeast, true, parts}
	case serr != nil:
		out = struct {
			Error string `json:"error"`
			Parts []part `json:"parts"`
		}{serr.Error(), parts}
	default:
		out = struct {
			boundJSON
			Parts []part `json:"parts"`
		}{boundOf(b.Bound), parts}
	}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", data)
	return err
}

// splitPartLine is one sub-question as a line of a parts file: its moves
// from the game's start (root, then the part's own) and what was found.
func splitPartLine(root []rules.Move, p solve.Part) notation.PartLine {
	l := notation.PartLine{Moves: fromStart(root, p.Moves)}
	switch {
	case p.Open:
		l.Open = true
		return l
	case p.Known:
		l.Note = "known"
	default:
		l.Note = fmt.Sprintf("%d positions, %.1fs", p.Nodes, p.Elapsed.Seconds())
	}
	if !p.Answered {
		l.CutOff = true
		return l
	}
	l.Lower, l.Bound = p.Holds, p.Bound
	return l
}

// readPartsFile reads a parts file for g into what each line of play is
// known to be; a missing file is empty. Several lines for one line of play
// combine: the best bounds either way, cut off if any says so.
func readPartsFile(path string, g *rules.Game) (map[string]solve.Known, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]solve.Known{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--parts: %w", err)
	}
	lines, err := notation.ReadParts(data, g)
	if err != nil {
		return nil, fmt.Errorf("--parts %s: %w", path, err)
	}
	r := g.Rules()
	known := map[string]solve.Known{}
	for _, l := range lines {
		key := notation.PartMovesKey(r, l.Moves)
		k, ok := known[key]
		if !ok {
			k = solve.Known{Lower: math.Inf(-1), Upper: math.Inf(1)}
		}
		switch {
		case l.Open:
			continue // says nothing
		case l.CutOff:
			k.CutOff = true
		case l.Lower:
			k.Lower = math.Max(k.Lower, l.Bound)
		default:
			k.Upper = math.Min(k.Upper, l.Bound)
		}
		if k.Lower > k.Upper {
			return nil, fmt.Errorf("--parts %s: %s: at least %s and at most %s cannot both hold", path, key, solveNum(k.Lower), solveNum(k.Upper))
		}
		known[key] = k
	}
	return known, nil
}

// openPartsJournal opens the parts file to add to, writing its rules and
// start lines first when it is new or empty.
func openPartsJournal(path string, g *rules.Game) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("--parts: %w", err)
	}
	st, err := f.Stat()
	if err == nil && st.Size() == 0 {
		_, err = fmt.Fprint(f, notation.PartsHeader(g))
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("--parts: %w", err)
	}
	return f, nil
}

// fromStart returns a part's moves from the game's start: the moves to the
// split's position (root), then the part's own.
func fromStart(root, moves []rules.Move) []rules.Move {
	return append(append(make([]rules.Move, 0, len(root)+len(moves)), root...), moves...)
}

// countParts counts the parts for which is says yes.
func countParts(ps []solve.Part, is func(solve.Part) bool) int {
	n := 0
	for _, p := range ps {
		if is(p) {
			n++
		}
	}
	return n
}

func answeredParts(ps []solve.Part) int {
	return countParts(ps, func(p solve.Part) bool { return p.Answered })
}
