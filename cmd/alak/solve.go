package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/session"
	"alak/solve"
)

func init() {
	register(command{name: "solve", summary: "find the exact value of a position under perfect play, or print a results table", run: solveRun})
}

const solveUsage = `usage: alak solve [--rules R] [--size N] [--OPTION VALUE ...] [--json] [--value-only] [--at-least V] [--method auto|dense|search] [--jobs J] [MOVE ... | --position ROW --to-move x|o]
       alak solve --table [--rules R] --sizes A-B [--value-only] [--method M] [--OPTION VALUE ...]
       alak solve --table --variants all|NAME=VALUE,... --sizes A-B [--jobs J] [--memory MB] [--json]
Finds the game-theoretic value of the position after the moves (or of the
--position diagram): Black's margin under perfect play, the outcome, every
best move, a principal variation and the value of every legal move. Solved
positions are kept in a table file under --table-dir (none: do not keep).
The fastest exact method that answers is chosen (--method auto): the
table directory's dense table of the rules; else the dense solver, for
the alak, alterigo, dewdney and golf rules on lines of up to 24 points,
within --memory (without it, half of the machine's memory; it fails at
once when the line needs more); else the
search the rules take. On lines with passing and prisoners (traditional),
where the search does not finish beyond 5 points: alak's proof
certificates where they settle the position (said at once, with each file
of proofdata/ and its SHA-256, which alak knows wherever it runs), else
the search within 2,000,000 positions, else
the proof search (alak prove --graph --proof-numbers, progress on standard
error), which proves who wins (or a draw), not the margin.
--method dense or search forces one, to compare;
the answer says which method gave it.
--table prints a Markdown table of the start positions of a range of sizes.
--variants makes it the rule lab's table: one column for the alak preset
and one for each variant, the preset with one option changed (all: every
such option that keeps a position's value free of the game's history),
each cell the value and the best openings; the dense solver answers where
it applies, the state graph (within --memory) elsewhere. With --json it
prints the same as one JSON object (what alak serve's /api/rulelab ships).
--value-only gives the value, one best move and its line, but not the
value of every move (tromp-taylor on lines then searches less).
--at-least V only answers whether Black's margin is at least V, with the
bound proved (tromp-taylor on lines proves that bound alone). With --split
B it asks the question again after each move wherever one search passes B
positions; --parts FILE keeps those parts, so a stopped split resumes, and
--plan lists the lines such a file leaves open, searching nothing.
--jobs is the cores a solve takes, every core unless told (--jobs 1: one).
--dense (--method dense) solves every position of the line at once with
the dense solver, with no memory bound unless --memory
is given; the dense solver keeps every position's value (one byte a
position) on up to 16 points or with --dense-margins, and writes them to
the table directory, where every later solve, analyze, hint and perfect
player of those rules reads them.`

// solveFlags are the flags solve and analyze share.
type solveFlags struct {
	rules     func() (rules.Rules, error)
	setup     func(r rules.Rules, moves []string) session.Setup
	memory    *int
	method    solve.Method // --method, or dense for --dense
	tableDir  *string
	maxNodes  *int64
	valueOnly *bool // solve only; nil for analyze
	jobs      *int  // solve only: --jobs; nil for analyze
	// dense: solve with solve.DenseSolve; denseMargins: keep every state's
	// margin whatever the size (solve only; nil for analyze).
	dense, denseMargins *bool
	denseSpill          *string // solve only: --dense-spill
	memorySet           bool    // --memory was given
}

func solveAddFlags(fs *flag.FlagSet) solveFlags {
	return solveFlags{
		rules:    rulesFlags(fs),
		setup:    setupFlags(fs),
		memory:   fs.Int("memory", 256, "transposition table memory in MB"),
		tableDir: fs.String("table-dir", "", "directory of the results tables (default $XDG_CACHE_HOME/alak or ~/.cache/alak; none: no table)"),
		maxNodes: fs.Int64("max-nodes", 0, "stop after this many positions (0: no limit)"),
	}
}

// visited notes the flags given that change a default (--memory).
func (sf *solveFlags) visited(fs *flag.FlagSet) {
	fs.Visit(func(f *flag.Flag) { sf.memorySet = sf.memorySet || f.Name == "memory" })
}

// addMethodFlags adds solve's flags of the method and its means (--jobs,
// --dense, --method, --dense-margins, --dense-spill) and returns --method.
func (sf *solveFlags) addMethodFlags(fs *flag.FlagSet) *string {
	sf.jobs = fs.Int("jobs", 0, "cores a solve takes: the dense solver's goroutines that sweep; with --split, sub-questions searched at once, each with its own --memory (1-64; default: every core)")
	sf.dense = fs.Bool("dense", false, "the same as --method dense")
	method := fs.String("method", "auto", "auto (the fastest exact method that answers), dense (every position of the line at once: alak, alterigo, dewdney and golf rules, up to 24 points, on --jobs cores) or search")
	sf.denseMargins = fs.Bool("dense-margins", false, "with --dense: keep and save every position's value whatever the size (one byte a position; done anyway up to 16 points)")
	sf.denseSpill = fs.String("dense-spill", "", "with --dense, without margins: keep the first pass's answer (one bit a position) in a temporary file in this directory instead of memory")
	return method
}

// solveProgress returns a progress callback that rewrites one line on a
// terminal, or nil when the output is not a terminal.
func solveProgress(e *env) func(solve.Progress) {
	if !e.terminal {
		return nil
	}
	return func(p solve.Progress) {
		est := "?"
		if p.Estimate > 0 {
			est = p.Estimate.Round(time.Second).String()
		}
		fmt.Fprintf(e.stderr, "\r%d positions, %.0f/s, %s elapsed, %d/%d moves, about %s left   ",
			p.Nodes, p.Rate, p.Elapsed.Round(time.Second), p.Done, p.Total, est)
	}
}

func solveRun(e *env, args []string) int {
	fs := newFlagSet(e, "solve", solveUsage)
	sf := solveAddFlags(fs)
	sf.valueOnly = fs.Bool("value-only", false, "find the value and one best move with its line, not every move's value (faster for tromp-taylor)")
	atLeast := fs.String("at-least", "", "only answer whether Black's margin is at least this (a multiple of 0.5), with a proved bound")
	split := fs.Int64("split", 0, "with --at-least: split the question over the moves when one search passes this many positions (0: never)")
	splitDepth := fs.Int("split-depth", 24, "with --split: split at most this many plies deep (1-64)")
	method := sf.addMethodFlags(fs)
	jobs := sf.jobs
	fresh := fs.Bool("fresh-tables", false, "with --split: start every part with an empty table instead of the one the previous part left (slower; for comparison)")
	proofFile := fs.String("proof", "", "with --split: when the answer is settled, write the parts it rests on (the proof's leaves and the lines above them) to this file, as a parts file")
	plan := fs.Bool("plan", false, "with --split: search nothing; list the lines the --parts file leaves open")
	partsFile := fs.String("parts", "", "with --split: a parts file, read first (lines it settles are not searched again) and added to as each part ends, so a stopped split resumes")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	table := fs.Bool("table", false, "print a Markdown table of the start positions of --sizes")
	sizes := fs.String("sizes", "", "with --table: a range of sizes such as 1-11")
	variants := fs.String("variants", "", "with --table: the rule lab: all, or alak options as NAME=VALUE separated by commas (edge=off,ko=none), one column each")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	r, err := sf.rules()
	if err != nil {
		return fail(e, "solve", err)
	}
	sf.visited(fs)
	ctx, stop := e.searchContext()
	defer stop()
	if err := sf.solveMethod(*method, *sf.dense); err != nil {
		return fail(e, "solve", err)
	}
	if sf.method != solve.MethodAuto && *atLeast != "" {
		return fail(e, "solve", errors.New("--dense and --method choose how every move is solved: not with --at-least, which has its own search"))
	}
	if (*sf.denseMargins || *sf.denseSpill != "") && sf.method != solve.MethodDense {
		return fail(e, "solve", errors.New("--dense-margins and --dense-spill go with --dense"))
	}
	if *table && *atLeast != "" {
		return fail(e, "solve", errors.New("--at-least asks about one position: not with --table"))
	}
	so := solve.SplitOptions{Budget: *split, MaxDepth: *splitDepth, Jobs: sf.cores(), Plan: *plan, FreshTables: *fresh}
	switch {
	case *split < 0:
		return fail(e, "solve", fmt.Errorf("--split %d: want the positions one search may take before its question is split, 1 or more (0: never split)", *split))
	case *split > 0 && *atLeast == "":
		return fail(e, "solve", errors.New("--split splits an --at-least question: give --at-least V"))
	case *splitDepth < 1 || *splitDepth > 64:
		return fail(e, "solve", fmt.Errorf("--split-depth %d: want 1 to 64 plies", *splitDepth))
	case *jobs < 0 || *jobs > 64:
		return fail(e, "solve", fmt.Errorf("--jobs %d: want 1 to 64 (0, the default: every core)", *jobs))
	case *partsFile != "" && *split == 0:
		return fail(e, "solve", errors.New("--parts records the parts of a split: give --split B too"))
	case *proofFile != "" && *split == 0:
		return fail(e, "solve", errors.New("--proof writes the proof of a split: give --split B too"))
	case *proofFile != "" && *proofFile == *partsFile:
		return fail(e, "solve", errors.New("--proof and --parts name the same file: the proof is written to a file of its own"))
	case *plan && *partsFile == "":
		return fail(e, "solve", errors.New("--plan lists what a --parts file leaves open: give --split B and --parts FILE"))
	}
	if *variants != "" && !*table {
		return fail(e, "solve", errors.New("--variants makes the rule lab's table: give --table --sizes A-B too"))
	}
	if *table {
		if len(words) > 0 || positionGiven(fs) {
			return fail(e, "solve", errors.New("--table solves start positions: give no moves and no --position"))
		}
		if *variants != "" {
			return solveLabRun(ctx, e, r, *sizes, *variants, sf, *asJSON)
		}
		return solveTableRun(ctx, e, r, *sizes, sf)
	}
	if *sizes != "" {
		return fail(e, "solve", errors.New("--sizes goes with --table"))
	}
	g, err := sf.setup(r, words).Game()
	if err != nil {
		return fail(e, "solve", err)
	}
	r = g.Rules()
	if err := solve.Check(r); err != nil {
		return fail(e, "solve", fmt.Errorf("%w (alak prove takes any board)", err))
	}
	if sf.method == solve.MethodDense && !solve.DenseApplies(r) {
		return fail(e, "solve", fmt.Errorf("--dense %w", solve.DenseRefusal(r)))
	}
	if *atLeast != "" {
		return solveAtLeastRun(ctx, e, g, *atLeast, sf, so, splitFiles{parts: *partsFile, proof: *proofFile}, *asJSON)
	}
	ts, err := sf.solveTables(e, "solve")
	if err != nil {
		return fail(e, "solve", err)
	}
	if sf.method == solve.MethodAuto && *sf.maxNodes == 0 && solve.Settles(r) {
		return solveSettleRun(ctx, e, ts, g, *asJSON)
	}
	res, serr := solveWith(ctx, e, ts, g, sf)
	if *asJSON {
		if err := solveWriteJSON(e.stdout, r, res); err != nil {
			return fail(e, "solve", err)
		}
	} else {
		solveWriteText(e.stdout, g, res)
	}
	switch {
	case serr != nil && ctx.Err() != nil:
		fmt.Fprintf(e.stderr, "alak solve: interrupted: %v; no value was proved, only the move values printed\n", serr)
		return exitInterrupted
	case errors.Is(serr, solve.ErrMemory):
		fmt.Fprintf(e.stderr, "alak solve: %v: raise it with --memory (or try another --method); only the move values printed are proved\n", serr)
		return 1
	case serr != nil:
		fmt.Fprintf(e.stderr, "alak solve: %v; only the move values printed are proved\n", serr)
		return 1
	}
	return 0
}

// solveAtLeastRun answers --at-least V for g's position: whether Black's
// margin under perfect play is at least V, with the bound proved.
func solveAtLeastRun(ctx context.Context, e *env, g *rules.Game, arg string, sf solveFlags, so solve.SplitOptions, files splitFiles, asJSON bool) int {
	v, err := strconv.ParseFloat(strings.TrimSpace(arg), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v*2 != math.Trunc(v*2) || math.Abs(v) > 1e6 {
		return fail(e, "solve", fmt.Errorf("--at-least %q: want a margin for Black, a multiple of 0.5 such as 1 or -0.5", arg))
	}
	if so.Budget > 0 {
		return solveSplitRun(ctx, e, g, v, sf, so, files, asJSON)
	}
	opt := solve.Options{MaxNodes: *sf.maxNodes, MemoryMB: *sf.memory, Progress: solveProgress(e)}
	b, serr := solve.AtLeast(ctx, g, v, opt)
	if opt.Progress != nil {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if serr != nil {
		fmt.Fprintf(e.stderr, "alak solve: %v; nothing was proved\n", serr)
		if ctx.Err() != nil {
			return exitInterrupted
		}
		return 1
	}
	if asJSON {
		return printJSON(e, "solve", boundOf(b))
	}
	solveWriteBound(e, g, b)
	return 0
}

// boundJSON is an --at-least answer in JSON.
type boundJSON struct {
	AtLeast float64 `json:"at_least"`
	Holds   bool    `json:"holds"`
	Bound   float64 `json:"bound"`
	Nodes   int64   `json:"nodes"`
	Seconds seconds `json:"seconds"`
}

func boundOf(b solve.Bound) boundJSON {
	return boundJSON{AtLeast: b.AtLeast, Holds: b.Holds, Bound: b.Bound, Nodes: b.Nodes, Seconds: seconds(b.Elapsed)}
}

// seconds is a duration written in JSON as seconds with three decimals.
type seconds time.Duration

// MarshalJSON writes the seconds as a number, such as 0.004.
func (d seconds) MarshalJSON() ([]byte, error) {
	return []byte(strconv.FormatFloat(time.Duration(d).Seconds(), 'f', 3, 64)), nil
}

// printJSON prints v as one line of JSON (encoding/json).
func printJSON(e *env, cmd string, v any) int {
	data, err := json.Marshal(v)
	if err != nil {
		return fail(e, cmd, err)
	}
	fmt.Fprintf(e.stdout, "%s\n", data)
	return 0
}

// solveWriteHead prints the rules and the position an answer is about.
func solveWriteHead(e *env, g *rules.Game) {
	fmt.Fprintf(e.stdout, "rules:    %s\n", g.Rules().String())
	fmt.Fprintf(e.stdout, "position: %s, %s to move\n", g.Position().String(), g.Position().ToMove().Letter())
}

// solveWriteBound prints an --at-least answer as text.
func solveWriteBound(e *env, g *rules.Game, b solve.Bound) {
	v := b.AtLeast
	solveWriteHead(e, g)
	if b.Holds {
		fmt.Fprintf(e.stdout, "at least %s: yes, the value is at least %s\n", solveNum(v), solveNum(b.Bound))
	} else {
		fmt.Fprintf(e.stdout, "at least %s: no, the value is at most %s\n", solveNum(v), solveNum(b.Bound))
	}
	fmt.Fprintf(e.stdout, "searched: %d positions in %.3fs\n", b.Nodes, b.Elapsed.Seconds())
}

func solveNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func solveMoveList(r rules.Rules, ms []rules.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = notation.Human.Encode(r, m)
	}
	return out
}

// solveWriteJSON prints the result as one JSON object (solve.Answer):
// value, outcome, best, pv and the value of every move (only the moves
// whose values were proved when the search was cut off, and then no
// value, best nor pv).
func solveWriteJSON(w io.Writer, r rules.Rules, res solve.Result) error {
	a := res.Answer(r)
	out := struct {
		Value    *float64           `json:"value,omitempty"`
		Outcome  string             `json:"outcome,omitempty"`
		Complete bool               `json:"complete"`
		Best     []string           `json:"best"`
		PV       []string           `json:"pv"`
		Moves    map[string]float64 `json:"moves"`
		Nodes    int64              `json:"nodes"`
		Seconds  seconds            `json:"seconds"`
		Method   solve.Method       `json:"method,omitempty"`
	}{Value: a.Value, Outcome: a.Outcome, Complete: a.Complete, Best: a.Best, PV: a.PV, Moves: map[string]float64{},
		Nodes: a.Nodes, Seconds: seconds(res.Elapsed), Method: a.Method}
	for _, m := range a.Moves {
		out.Moves[m.Move] = m.Value
	}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

func solveWriteText(w io.Writer, g *rules.Game, res solve.Result) {
	r := g.Rules()
	pos := g.Position()
	fmt.Fprintf(w, "rules:    %s\n", r.String())
	fmt.Fprintf(w, "position: %s, %s to move\n", pos.String(), pos.ToMove().Letter())
	a := res.Answer(r)
	var parts []string
	for _, m := range a.Moves {
		parts = append(parts, m.Move+":"+solveNum(m.Value))
	}
	if !res.Complete {
		// No value line: a cut-off search proves only the move values it
		// finished.
		fmt.Fprintf(w, "cut off:  the search stopped before the value was proved\n")
		fmt.Fprintf(w, "proved:   %s\n", strings.Join(parts, " "))
		fmt.Fprintf(w, "searched: %d positions in %.3fs\n", res.Nodes, res.Elapsed.Seconds())
		solveWriteMethod(w, res)
		return
	}
	word := map[rules.Color]string{rules.Black: "x (Black) wins", rules.White: "o (White) wins", rules.None: "draw"}[res.Outcome]
	fmt.Fprintf(w, "value:    %s (%s)\n", solveNum(res.Value), word)
	fmt.Fprintf(w, "best:     %s\n", strings.Join(a.Best, " "))
	fmt.Fprintf(w, "pv:       %s\n", strings.Join(a.PV, " "))
	fmt.Fprintf(w, "moves:    %s\n", strings.Join(parts, " "))
	fmt.Fprintf(w, "searched: %d positions in %.3fs\n", res.Nodes, res.Elapsed.Seconds())
	solveWriteMethod(w, res)
}

// solveWriteMethod says which method answered (solve.Tables).
func solveWriteMethod(w io.Writer, res solve.Result) {
	if words := methodWords(res.Method, true); words != "" {
		fmt.Fprintf(w, "method:   %s\n", words)
	}
}

// methodWords names a method of solve.Tables for solve's and analyze's
// output ("" for none); searched says the output counts the positions
// searched, which for the dense solver are its states.
func methodWords(m solve.Method, searched bool) string {
	switch m {
	case solve.MethodDense:
		if searched {
			return "dense (every state of the line solved at once; positions searched are its states)"
		}
		return "dense (every state of the line solved at once)"
	case solve.MethodTable:
		return "table (the dense table of every position's value)"
	case solve.MethodSearch:
		return "search"
	}
	return ""
}

// solveRange reads "A-B" or "A".
func solveRange(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || lo < 1 || hi < lo || hi > 64 {
		return 0, 0, fmt.Errorf("--sizes %q: write a range of sizes from 1 to 64 such as 1-11", s)
	}
	return lo, hi, nil
}

func solveTableRun(ctx context.Context, e *env, base rules.Rules, sizes string, sf solveFlags) int {
	if sizes == "" {
		return fail(e, "solve", errors.New("--table needs --sizes, such as --sizes 1-11"))
	}
	lo, hi, err := solveRange(sizes)
	if err != nil {
		return fail(e, "solve", err)
	}
	ts, err := sf.solveTables(e, "solve")
	if err != nil {
		return fail(e, "solve", err)
	}
	fmt.Fprintln(e.stdout, "| size | value | outcome | best openings | positions searched | seconds |")
	fmt.Fprintln(e.stdout, "|---:|---:|:---|:---|---:|---:|")
	for n := lo; n <= hi; n++ {
		r := base
		if r.Movement == rules.Sliding && r.Start != "" {
			return fail(e, "solve", errors.New("--table with --start: give one start layout, not a range of sizes"))
		}
		r.SetSize(n, 1)
		if err := r.Validate(); err != nil {
			fmt.Fprintf(e.stdout, "| %d | – | – | %v | – | – |\n", n, err)
			continue
		}
		g, err := rules.NewGame(r)
		if err != nil {
			return fail(e, "solve", err)
		}
		if sf.method == solve.MethodAuto && *sf.maxNodes == 0 && solve.Settles(r) {
			s, serr := ts.Settle(ctx, g, solve.SettleOptions{})
			if serr != nil && ctx.Err() != nil {
				fmt.Fprintf(e.stderr, "alak solve: interrupted at size %d: the rows above are proved\n", n)
				return exitInterrupted
			}
			fmt.Fprintln(e.stdout, settleRow(n, r, s, serr))
			continue
		}
		res, serr := solveWith(ctx, e, ts, g, sf)
		if serr != nil && ctx.Err() != nil {
			fmt.Fprintf(e.stderr, "alak solve: interrupted at size %d: the rows above are proved\n", n)
			return exitInterrupted
		}
		if serr != nil {
			fmt.Fprintf(e.stdout, "| %d | not solved | – | %s | %d | %.1f |\n", n, serr, res.Nodes, res.Elapsed.Seconds())
			continue
		}
		best := strings.Join(solveMoveList(r, res.Best), " ")
		if len(res.Best) == 0 {
			best = "(no move)"
		}
		fmt.Fprintf(e.stdout, "| %d | %s | %s | %s | %d | %.2f |\n", n, solveNum(res.Value), solve.OutcomeWord(res.Outcome), best, res.Nodes, res.Elapsed.Seconds())
	}
	return 0
}

// solveWith solves g by ts (solve.Tables: the method, the tables) within
// the flags' limits, with a progress line on a terminal.
func solveWith(ctx context.Context, e *env, ts *solve.Tables, g *rules.Game, sf solveFlags) (solve.Result, error) {
	opt := solve.Options{MaxNodes: *sf.maxNodes, Progress: solveProgress(e), Method: sf.method}
	opt.ValueOnly = sf.valueOnly != nil && *sf.valueOnly
	res, err := ts.Solve(ctx, g, opt)
	if e.terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	return res, err
}
