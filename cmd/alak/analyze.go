package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"alak/notation"
	"alak/rules"
	"alak/session"
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

func analyzeRun(e *env, args []string) int {
	fs := newFlagSet(e, "analyze", analyzeUsage)
	sf := solveAddFlags(fs)
	asJSON := fs.Bool("json", false, "print the analysis as one JSON object")
	sgfOut := fs.String("sgf", "", "write the game with the annotations as SGF comments to this file (- for standard output); an existing file is kept unless --force")
	force := fs.Bool("force", false, "with --sgf: replace the file if it exists")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if len(words) == 0 {
		return fail(e, "analyze", errors.New("give a record FILE or the moves of the game"))
	}
	if *force && *sgfOut == "" {
		return fail(e, "analyze", errors.New("--force replaces the file of --sgf: give --sgf OUT"))
	}
	var rec notation.Record
	if len(words) == 1 && looksLikeFile(words[0]) {
		if flags := setupFlagsGiven(fs, "json", "sgf", "force", "memory", "table-dir", "max-nodes"); len(flags) > 0 {
			return fail(e, "analyze", fmt.Errorf("%s: a record FILE carries its own rules and start; give either the file or those flags", strings.Join(flags, ", ")))
		}
		if rec, err = readRecordArg(words[0]); err != nil {
			return fail(e, "analyze", err)
		}
		if *sgfOut != "" && *sgfOut != "-" && sameFile(*sgfOut, words[0]) {
			return fail(e, "analyze", fmt.Errorf("--sgf %s is the game being analysed: write the annotations to another file", *sgfOut))
		}
	} else {
		r, err := sf.rules()
		if err != nil {
			return fail(e, "analyze", err)
		}
		g, err := sf.setup(r, words).Game()
		if err != nil {
			return fail(e, "analyze", err)
		}
		rec = notation.NewRecord(g)
	}
	if *sgfOut != "" && *sgfOut != "-" && !*force {
		if _, err := os.Stat(*sgfOut); err == nil {
			return fail(e, "analyze", fmt.Errorf("--sgf %s: the file exists; give another name, or --force to replace it", *sgfOut))
		}
	}
	g, err := rec.Game()
	if err != nil {
		return fail(e, "analyze", err)
	}
	ctx, stop := e.searchContext()
	defer stop()
	plies, aerr := analyzeGame(ctx, e, g, sf, solveProgress(e))
	if e.terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	interrupted := aerr != nil && ctx.Err() != nil
	if aerr != nil && !interrupted {
		return fail(e, "analyze", aerr)
	}
	r := g.Rules()
	switch {
	case interrupted:
		// The plies finished before the interruption, never a file: a record
		// with half its annotations would read as complete.
		if *asJSON {
			analyzeWriteJSON(e, r, plies)
		} else {
			analyzePrint(e.stdout, r, plies, false)
		}
	case *sgfOut != "":
		if rec.Comments == nil {
			rec.Comments = map[int]string{}
		}
		for _, p := range plies {
			c := analyzeComment(r, p)
			if old := rec.Comments[p.Ply]; old != "" {
				c = old + "\n" + c
			}
			rec.Comments[p.Ply] = c
		}
		if err := analyzeWriteSGF(e, *sgfOut, rec, *force); err != nil {
			return fail(e, "analyze", err)
		}
		if *sgfOut != "-" && !*asJSON {
			analyzePrint(e.stdout, r, plies, true)
		}
	case *asJSON:
	default:
		analyzePrint(e.stdout, r, plies, true)
	}
	if *asJSON && !interrupted {
		analyzeWriteJSON(e, r, plies)
	}
	if interrupted {
		fmt.Fprintf(e.stderr, "alak analyze: interrupted after %d of %d plies; the plies above are exact\n", len(plies), g.Len())
		return exitInterrupted
	}
	return 0
}

// sameFile reports whether two names are one file.
func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// analyzeGame solves the position before every move of g by the flags'
// solver (solve.Tables.Analyze: on an alak line of up to 16 points it
// makes the dense table of every position first, then answers every ply
// from it).
func analyzeGame(ctx context.Context, e *env, g *rules.Game, sf solveFlags, progress func(solve.Progress)) ([]solve.PlyValue, error) {
	ts, err := sf.solveTables(e, "analyze")
	if err != nil {
		return nil, err
	}
	return ts.Analyze(ctx, g, solve.Options{MaxNodes: *sf.maxNodes, Progress: progress})
}

func analyzeComment(r rules.Rules, p solve.PlyValue) string {
	s := fmt.Sprintf("value %s before, %s after; best: %s", solveNum(p.Before), solveNum(p.After), strings.Join(solveMoveList(r, p.Best), " "))
	if p.Changed() {
		s += "; this move changed the outcome"
	}
	return s
}

// analyzePrint prints the plies, one a line; complete (the analysis of
// every ply) adds the methods that answered, in the order they first did.
func analyzePrint(w io.Writer, r rules.Rules, plies []solve.PlyValue, complete bool) {
	fmt.Fprintf(w, "rules: %s (values are Black's margin under perfect play)\n", r.String())
	for _, p := range plies {
		mark := ""
		switch {
		case p.Changed():
			mark = "  changed the outcome"
		case p.After != p.Before:
			mark = "  lost " + solveNum(math.Abs(p.After-p.Before))
		}
		fmt.Fprintf(w, "%3d. %c %-4s value %s -> %s  best %s%s\n", p.Ply, p.Player.Symbol(), notation.Human.Encode(r, p.Move),
			solveNum(p.Before), solveNum(p.After), strings.Join(solveMoveList(r, p.Best), " "), mark)
	}
	if !complete {
		return
	}
	var methods []string
	for _, p := range plies {
		if words := methodWords(p.Method, false); words != "" && !slices.Contains(methods, words) {
			methods = append(methods, words)
		}
	}
	if len(methods) > 0 {
		fmt.Fprintf(w, "method: %s\n", strings.Join(methods, "; "))
	}
}

func analyzeWriteSGF(e *env, path string, rec notation.Record, force bool) error {
	var buf bytes.Buffer
	if err := notation.WriteSGF(&buf, rec); err != nil {
		return err
	}
	if path == "-" {
		_, err := e.stdout.Write(buf.Bytes())
		return err
	}
	return writeNewFile(path, buf.Bytes(), force)
}

// analyzeWriteJSON prints {"moves": [...]}, one object per ply.
func analyzeWriteJSON(e *env, r rules.Rules, plies []solve.PlyValue) {
	out := struct {
		Moves []session.PlyView `json:"moves"`
	}{Moves: session.PlyViews(r, plies)}
	data, _ := json.Marshal(out)
	fmt.Fprintf(e.stdout, "%s\n", data)
}
