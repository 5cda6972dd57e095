package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"alak/notation"
	"alak/rules"
	"alak/solve"
)

func init() {
	register(command{name: "analyze", summary: "annotate every move of a game with its exact value under perfect play", run: analyzeRun})
}

const analyzeUsage = `usage: alak analyze [--rules R] [--size N] [--OPTION VALUE ...] [--json] [--sgf OUT] FILE|MOVE...
For every ply: the value (Black's margin under perfect play) before and after
the move played, the best moves, and whether the move changed the outcome.
A FILE (SGF or a move list) carries its own rules. --sgf writes the record
with the annotations as comments; otherwise they are printed.`

// analyzePly is one ply of the analysis, as the JSON prints it.
type analyzePly struct {
	Ply            int      `json:"ply"`
	Player         string   `json:"player"`
	Move           string   `json:"move"`
	ValueBefore    float64  `json:"value_before"`
	ValueAfter     float64  `json:"value_after"`
	Best           []string `json:"best"`
	ChangedOutcome bool     `json:"changed_outcome"`
}

func analyzeRun(e *env, args []string) int {
	fs := newFlagSet(e, "analyze", analyzeUsage)
	sf := solveAddFlags(fs)
	asJSON := fs.Bool("json", false, "print the analysis as one JSON object")
	sgfOut := fs.String("sgf", "", "write the game with the annotations as SGF comments to this file (- for standard output)")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(words) == 0 {
		return fail(e, "analyze", errors.New("give a record FILE or the moves of the game"))
	}
	var rec notation.Record
	if len(words) == 1 && isFile(words[0]) {
		flagged := false
		fs.Visit(func(f *flag.Flag) {
			flagged = flagged || !strings.Contains(" json sgf memory table-dir max-nodes ", " "+f.Name+" ")
		})
		if flagged {
			return fail(e, "analyze", errors.New("a record FILE carries its own rules: give either the file or the rule flags"))
		}
		data, err := os.ReadFile(words[0])
		if err != nil {
			return fail(e, "analyze", err)
		}
		if rec, err = notation.ReadRecord(data); err != nil {
			return fail(e, "analyze", fmt.Errorf("%s: %w", words[0], err))
		}
	} else {
		r, err := sf.rules()
		if err != nil {
			return fail(e, "analyze", err)
		}
		g, err := solveGame(r, "", "", words)
		if err != nil {
			return fail(e, "analyze", err)
		}
		rec = notation.NewRecord(g)
	}
	g, err := rec.Game()
	if err != nil {
		return fail(e, "analyze", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	plies, err := analyzeGame(ctx, g, sf, solveProgress(e))
	if e.terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil {
		return fail(e, "analyze", err)
	}
	r := g.Rules()
	switch {
	case *sgfOut != "":
		if rec.Comments == nil {
			rec.Comments = map[int]string{}
		}
		for _, p := range plies {
			c := analyzeComment(p)
			if old := rec.Comments[p.Ply]; old != "" {
				c = old + "\n" + c
			}
			rec.Comments[p.Ply] = c
		}
		if err := analyzeWriteSGF(e, *sgfOut, rec); err != nil {
			return fail(e, "analyze", err)
		}
		if *sgfOut != "-" && !*asJSON {
			analyzePrint(e.stdout, r, plies)
		}
	case *asJSON:
	default:
		analyzePrint(e.stdout, r, plies)
	}
	if *asJSON {
		fmt.Fprintln(e.stdout, analyzeJSON(plies))
	}
	return 0
}

// analyzeGame solves the position before every move of g. The value after
// a move is the solver's value of that move in the position before it.
func analyzeGame(ctx context.Context, g *rules.Game, sf solveFlags, progress func(solve.Progress)) ([]analyzePly, error) {
	r := g.Rules()
	tab, err := openTable(*sf.tableDir, r)
	if err != nil {
		return nil, err
	}
	replay := rules.NewGameFrom(g.Start())
	var plies []analyzePly
	for i, m := range g.Moves() {
		if m == rules.Resign {
			break
		}
		res, err := solve.Solve(ctx, replay, solve.Options{MaxNodes: *sf.maxNodes, MemoryMB: *sf.memory, Table: tab, Progress: progress})
		if err != nil {
			return nil, fmt.Errorf("ply %d: %w", i+1, err)
		}
		after, ok := res.Moves[m]
		if !ok {
			return nil, fmt.Errorf("ply %d: the solver has no value for %s", i+1, notation.FormatMove(r, m))
		}
		plies = append(plies, analyzePly{
			Ply: i + 1, Player: string(replay.Position().ToMove().Symbol()), Move: notation.FormatMove(r, m),
			ValueBefore: res.Value, ValueAfter: after, Best: solveMoveList(r, res.Best),
			ChangedOutcome: solve.Sign(res.Value) != solve.Sign(after),
		})
		if err := replay.Play(m); err != nil {
			return nil, fmt.Errorf("ply %d: %w", i+1, err)
		}
	}
	if tab != nil {
		if err := tab.Save(); err != nil {
			return plies, err
		}
	}
	return plies, nil
}

func analyzeComment(p analyzePly) string {
	s := fmt.Sprintf("value %s before, %s after; best: %s", solveNum(p.ValueBefore), solveNum(p.ValueAfter), strings.Join(p.Best, " "))
	if p.ChangedOutcome {
		s += "; this move changed the outcome"
	}
	return s
}

func analyzePrint(w io.Writer, r rules.Rules, plies []analyzePly) {
	fmt.Fprintf(w, "rules: %s (values are Black's margin under perfect play)\n", r.String())
	for _, p := range plies {
		mark := ""
		switch {
		case p.ChangedOutcome:
			mark = "  changed the outcome"
		case p.ValueAfter != p.ValueBefore:
			mark = "  lost " + solveNum(analyzeAbs(p.ValueAfter-p.ValueBefore))
		}
		fmt.Fprintf(w, "%3d. %s %-4s value %s -> %s  best %s%s\n", p.Ply, p.Player, p.Move,
			solveNum(p.ValueBefore), solveNum(p.ValueAfter), strings.Join(p.Best, " "), mark)
	}
}

func analyzeAbs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func analyzeWriteSGF(e *env, path string, rec notation.Record) error {
	if path == "-" {
		return notation.WriteSGF(e.stdout, rec)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := notation.WriteSGF(f, rec); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// analyzeJSON writes the object of the issue, spaced as it shows it.
func analyzeJSON(plies []analyzePly) string {
	str := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	parts := make([]string, len(plies))
	for i, p := range plies {
		best := make([]string, len(p.Best))
		for j, m := range p.Best {
			best[j] = str(m)
		}
		parts[i] = fmt.Sprintf(`{"ply": %d, "player": %s, "move": %s, "value_before": %s, "value_after": %s, "best": [%s], "changed_outcome": %t}`,
			p.Ply, str(p.Player), str(p.Move), solveNum(p.ValueBefore), solveNum(p.ValueAfter), strings.Join(best, ", "), p.ChangedOutcome)
	}
	return `{"moves": [` + strings.Join(parts, ", ") + "]}"
}
