package solve

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"alak/rules"
)

// Method names how a position is solved.
type Method string

// The methods. MethodAuto is a choice, not a method: Tables picks the
// fastest that answers (Tables.Solve).
const (
	MethodAuto Method = "auto"
	// MethodDense is the dense solver (DenseSolve): every state of the
	// line at once, for the rules DenseApplies takes.
	MethodDense Method = "dense"
	// MethodSearch is Solve: the state graph (retrograde analysis) for
	// rules whose values are free of the history, alpha-beta or the
	// superko search elsewhere (docs/solver.md, methods 1 to 4, and the pages it links).
	MethodSearch Method = "search"
	// MethodTable is reported, never asked for: Solve answered from the
	// dense table of the rules (every position's value, kept in a table
	// directory or made by this Tables), searching at most one ply.
	MethodTable Method = "table"
)

// ParseMethod reads a method a caller may ask for: auto (or ""), dense or
// search.
func ParseMethod(s string) (Method, error) {
	switch Method(s) {
	case "", MethodAuto:
		return MethodAuto, nil
	case MethodDense, MethodSearch:
		return Method(s), nil
	}
	return "", fmt.Errorf("method %q: want auto (the fastest that answers), dense or search", s)
}

// Check returns an error wrapping ErrUnsupported when no method of the
// solver takes the rules: boards of more than 64 points, komi that is not
// a multiple of 0.5.
func Check(r rules.Rules) error {
	if r.Points() > 64 {
		return fmt.Errorf("a %s board has %d points; the solver takes boards of at most 64 points: %w", r.SizeString(), r.Points(), ErrUnsupported)
	}
	if r.Komi*2 != float64(int64(r.Komi*2)) {
		return fmt.Errorf("komi %v: the solver counts in half points, so it takes komi in multiples of 0.5: %w", r.Komi, ErrUnsupported)
	}
	return nil
}

// DefaultBuild is the longest line whose dense table the commands make
// when it is missing: on 16 points, for alak, 96 million states, a 92 MB
// file, a few seconds; for dewdney or golf 43 million, about 20 s of CPU.
const DefaultBuild = 16

// Tables is the one place that decides how a position is solved: which
// method answers, where the tables live, when a dense table is made, how
// much memory and how many cores a solve takes. The commands (alak solve,
// analyze, play's hint, match), the perfect player and the play server
// all solve through it. Its methods are safe for concurrent use; the
// tables it holds are read from Dir once per rule set and shared.
//
// Which method answers (MethodAuto):
//
//  1. the dense table of the rules, when Dir has one or this Tables made
//     it (Solve with the table: nothing to search);
//  2. on a small line (Small: an index of at most SmallStates states, such
//     as alak on up to 13 points), the dense table made at the first solve
//     of its rules (Make), in the background and once, whatever Build,
//     Frozen and ReadOnly say, and kept (in memory within KeepMB when it
//     is not saved in Dir); every later solve of the rules is case 1;
//  3. else the dense solver, where DenseApplies takes the rules and the
//     position (a history that has used up no position, a position the
//     index numbers, a game not over), without a node limit or within it
//     (the index's states), and within the memory: a dense solve that
//     needs more than the memory fails at once with ErrMemory (the state
//     graph of such a line needs far more);
//  4. else Solve, the search method the rules take.
//
// A dense solve keeps every state's margin (and saves the dense table in
// Dir) on lines of up to Build points, or always with Margins.
type Tables struct {
	// Dir is the table directory ("": no files; dense tables this
	// Tables makes are then kept in memory only).
	Dir string
	// Jobs is the number of goroutines of a dense solve (0: 1).
	Jobs int
	// MemoryMB bounds a solve's memory in MB (Options.MemoryMB, when
	// set, overrides it for one call): the search's table and graph, the
	// dense solver's bitmaps and margins (0: 256).
	MemoryMB int
	// DenseMemoryMB, when larger than a call's memory bound, bounds the
	// dense solver's memory in its place: the dense solver takes what its
	// line needs at the start, and only that, where the search fills its
	// table up to its bound, so a command may let the dense solver use
	// much of the machine and keep the search's table small (0: the
	// call's bound, MemoryMB).
	DenseMemoryMB int
	// Build is the longest line whose dense table is made (and saved in
	// Dir) when a solve or an analysis of its rules needs it (0: never;
	// DefaultBuild in the commands).
	Build int
	// Margins keeps every state's margin in every dense solve (and saves
	// the table), whatever the line's length.
	Margins bool
	// SpillDir, when not "", keeps a dense solve's first pass (one bit a
	// state) in a temporary file there rather than in memory
	// (DenseOptions.Spill).
	SpillDir string
	// Frozen shares the tables read-only (Table.Freeze): solves add
	// nothing to them, nothing is written, no dense table is made but
	// those of small lines (kept in memory), and a rule set without a
	// file is not remembered. The play server's.
	Frozen bool
	// ReadOnly reads the tables of Dir and lets solves add to them in
	// memory, but writes nothing and makes no dense table but those of
	// small lines (kept in memory): a player's or a hint's tables.
	ReadOnly bool
	// SmallStates is the most states a line's dense index may have for
	// its dense table to be made at the first solve of its rules (Small,
	// Make): such a line is solved whole, every position at once, in
	// less time than a search takes to answer one of its positions, so
	// no caller should wait for a search there. 0: DefaultSmall;
	// negative: none (Build alone decides).
	SmallStates int64
	// KeepMB bounds the memory of the dense tables kept in memory (those
	// not saved in Dir): beyond it the least recently used are dropped
	// (and made again when asked for); the table made last is kept even
	// when it alone passes the bound. 0: DefaultKeepMB.
	KeepMB int
	// Bad, when not nil, is told once about a table file of Dir that
	// fails its checks, which is then not used (the rules are solved
	// without it); when nil, such a file is an error of every solve of
	// its rules.
	Bad func(r rules.Rules, err error)
	// DenseProgress, when not nil, is called now and then during a dense
	// solve (Progress.Nodes counts the states handled).
	DenseProgress func(Progress)
	// Note, when not nil, is told what the caller may want to print: a
	// dense table saved, a table that could not be saved.
	Note func(string)
	// GraphMB bounds the memory (NewGraph's estimate) of the state graphs
	// of small lines that Depths makes and keeps, all rule sets together
	// (graphs.go). 0: DefaultGraphMB.
	GraphMB int

	mu      sync.Mutex
	byRules map[string]*Table
	bad     map[string]error
	mem     keptTables // the dense tables kept in memory (tables_keep.go)
	graphs  keptGraphs // the state graphs of small lines (graphs.go)
}

func (ts *Tables) note(format string, args ...any) {
	if ts.Note != nil {
		ts.Note(fmt.Sprintf(format, args...))
	}
}

// For returns the table of rules r: the dense table made in memory and
// kept, if any; else read from Dir the first time (with the directory's
// dense table of r, if any), then the same table; nil when there is none
// (no Dir, and no dense table kept; or, frozen, no file of r). A file
// that fails its checks is an error, the same error every time (it is
// not read again).
func (ts *Tables) For(r rules.Rules) (*Table, error) {
	if ts == nil {
		return nil, nil
	}
	key := r.String()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t, ok := ts.mem.kept(key); ok {
		return t, nil
	}
	if t, ok := ts.byRules[key]; ok {
		return t, nil
	}
	if err, ok := ts.bad[key]; ok {
		return nil, err // nil when told to Bad
	}
	if ts.Dir == "" {
		return nil, nil
	}
	t, err := LoadTable(ts.Dir, r)
	if err != nil {
		if ts.bad == nil {
			ts.bad = map[string]error{}
		}
		if ts.Bad != nil {
			ts.Bad(r, err)
			ts.bad[key] = nil
			return nil, nil
		}
		ts.bad[key] = err
		return nil, err
	}
	if ts.Frozen {
		if t.Len() == 0 && t.Dense() == nil {
			return nil, nil // no file for these rules: looked for again next time
		}
		t.Freeze()
	}
	ts.keep(key, t)
	return t, nil
}

// Use makes t the table of its rules (a table the caller loaded).
func (ts *Tables) Use(t *Table) {
	if t == nil {
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.keep(t.Rules().String(), t)
}

func (ts *Tables) keep(key string, t *Table) {
	if ts.byRules == nil {
		ts.byRules = map[string]*Table{}
	}
	ts.byRules[key] = t
}

// memory is the memory bound of a call: opt's, else the Tables', else
// 256 MB.
func (ts *Tables) memory(opt Options) int {
	switch {
	case opt.MemoryMB > 0:
		return opt.MemoryMB
	case ts.MemoryMB > 0:
		return ts.MemoryMB
	}
	return 256
}

// Solve solves g's position by opt.Method (MethodAuto: see Tables) and
// says in Result.Method which method answered. Of opt it takes MaxNodes,
// MemoryMB (overriding the Tables'), Progress (the search's), ValueOnly
// and Method; the table is the Tables' (For). The search adds what it
// proved to the table, which is saved in Dir unless frozen.
func (ts *Tables) Solve(ctx context.Context, g *rules.Game, opt Options) (Result, error) {
	r := g.Rules()
	if err := Check(r); err != nil {
		return Result{Moves: map[rules.Move]float64{}}, err
	}
	method, err := ParseMethod(string(opt.Method))
	if err != nil {
		return Result{Moves: map[rules.Move]float64{}}, fmt.Errorf("%w: %w", err, ErrUnsupported)
	}
	tab, err := ts.For(r)
	if err != nil {
		return Result{Moves: map[rules.Move]float64{}}, err
	}
	if method == MethodAuto && tab != nil && tab.Dense() != nil {
		return ts.search(ctx, g, opt, tab)
	}
	if method == MethodAuto && ts.Small(r) && ts.denseFits(r, opt) {
		start := time.Now()
		made, res, mine, err := ts.make(ctx, r, g, opt)
		switch {
		case mine:
			return res, nil // the dense solve that made the table, of g's position
		case made != nil:
			res, err := ts.search(ctx, g, opt, made)
			res.Elapsed = time.Since(start)
			return res, err
		case ctx.Err() != nil:
			return Result{Moves: map[rules.Move]float64{}}, err
		}
		// No table (too many builds waiting, a build that failed): the
		// methods below answer.
	}
	if method != MethodSearch && DenseApplies(r) && (method == MethodDense || ts.denseFits(r, opt)) {
		res, err := ts.dense(ctx, g, opt, ts.Margins || (r.Width <= ts.Build && !ts.Frozen && !ts.ReadOnly))
		switch {
		case method == MethodAuto && (errors.Is(err, ErrDenseHistory) || errors.Is(err, ErrUnsupported)):
			// A history that used up a position, a set-up position the
			// index does not number, a finished game: the search answers.
		case method == MethodAuto && errors.Is(err, ErrMemory):
			return res, fmt.Errorf("the dense solver (the fastest method for %s; the search's state graph needs more memory still): %w", r.String(), err)
		default:
			return res, err
		}
	} else if method == MethodDense {
		return Result{Moves: map[rules.Move]float64{}}, fmt.Errorf("the dense solver %w", DenseRefusal(r))
	}
	if method == MethodSearch && tab != nil && tab.Dense() != nil {
		tab = nil // a search asked for: not the dense table's answers
	}
	return ts.search(ctx, g, opt, tab)
}

// Plan says which method Solve would answer g's position by under opt
// now, without solving it: MethodTable where a dense table of the rules
// is kept (Solve with it searches at most one ply), MethodDense where the
// dense solver answers (and, on a small line or one Build covers, makes
// the table), MethodSearch elsewhere; and the error Solve would fail with
// at once: a dense solve that needs more than the memory, the dense
// solver asked for rules it does not take.
func (ts *Tables) Plan(g *rules.Game, opt Options) (Method, error) {
	r := g.Rules()
	if err := Check(r); err != nil {
		return "", err
	}
	method, err := ParseMethod(string(opt.Method))
	if err != nil {
		return "", fmt.Errorf("%w: %w", err, ErrUnsupported)
	}
	tab, err := ts.For(r)
	if err != nil {
		return "", err
	}
	switch {
	case method == MethodAuto && tab != nil && tab.Dense() != nil:
		return MethodTable, nil
	case method == MethodSearch:
		return MethodSearch, nil
	case !DenseApplies(r):
		if method == MethodDense {
			return "", fmt.Errorf("the dense solver %w", DenseRefusal(r))
		}
		return MethodSearch, nil
	case method == MethodAuto && (!ts.denseFits(r, opt) || !denseTakes(g)):
		return MethodSearch, nil
	}
	small := method == MethodAuto && ts.Small(r)
	margins := ts.Margins || small || r.Width <= ts.Build && !ts.Frozen && !ts.ReadOnly
	limit := uint64(max(ts.memory(opt), ts.DenseMemoryMB)) << 20
	need := func(margins bool) uint64 {
		ix := newDindex(r)
		if b, w, _, ok := g.Position().Line(); ok && ix.kind == denseSlide && !margins {
			ix.slideCone(b, w)
		}
		return denseBytes(ix, margins, ts.SpillDir != "")
	}
	n := need(margins)
	if n > limit && margins && !ts.Margins && method != MethodDense {
		n = need(false) // the value without the table (Tables.dense)
	}
	if n > limit {
		return "", fmt.Errorf("the dense solver: %d states need %d MB: %w", newDindex(r).total, n>>20, ErrMemory)
	}
	return MethodDense, nil
}

// DenseRefusal says which rules the dense solver takes, to a caller that
// asked for it on rules r it does not take; it wraps ErrUnsupported.
func DenseRefusal(r rules.Rules) error {
	return fmt.Errorf("takes the alak rules and their variants that keep a position's value free of the game's history, the alterigo rules, or the sliding rules (dewdney, golf), on a line of up to 24 points, with a repetition rule and no passing, not %s: %w", r.String(), ErrUnsupported)
}

// denseFits reports whether a dense solve of r stays within a node limit
// of opt: the states of its index.
func (ts *Tables) denseFits(r rules.Rules, opt Options) bool {
	return opt.MaxNodes <= 0 || ts.states(r) <= uint64(opt.MaxNodes)
}

// search solves g with Solve, answering from and adding to tab, and saves
// tab.
func (ts *Tables) search(ctx context.Context, g *rules.Game, opt Options, tab *Table) (Result, error) {
	sopt := Options{MaxNodes: opt.MaxNodes, MemoryMB: ts.memory(opt), Table: tab, Progress: opt.Progress, ValueOnly: opt.ValueOnly}
	res, err := Solve(ctx, g, sopt)
	res.Method = MethodSearch
	if tab != nil && tab.Dense() != nil {
		res.Method = MethodTable
		ts.mem.fromTable.Add(1)
	}
	ts.save(tab)
	return res, err
}

// save writes tab to its file (a table of Dir, not frozen); a failure is
// noted, not returned: what was solved stands.
func (ts *Tables) save(tab *Table) {
	if tab == nil || ts.Dir == "" || ts.ReadOnly || tab.Frozen() {
		return
	}
	if err := tab.Save(); err != nil {
		ts.note("could not save the table: %v", err)
	}
}

// dense solves g with the dense solver; with margins it keeps the dense
// table (saved in Dir, kept for the rules), or, unless the dense method
// was asked for, does without it when it does not fit the memory.
func (ts *Tables) dense(ctx context.Context, g *rules.Game, opt Options, margins bool) (Result, error) {
	dopt := DenseOptions{Jobs: ts.Jobs, MemoryMB: max(ts.memory(opt), ts.DenseMemoryMB), Margins: margins, Progress: ts.DenseProgress}
	if ts.SpillDir != "" {
		dopt.Spill, dopt.SpillDir = true, ts.SpillDir
	}
	res, dt, err := DenseSolve(ctx, g, dopt)
	if errors.Is(err, ErrMemory) && margins && !ts.Margins && opt.Method != MethodDense {
		dopt.Margins = false // the value without the table
		res, dt, err = DenseSolve(ctx, g, dopt)
	}
	res.Method = MethodDense
	if err != nil || dt == nil {
		return res, err
	}
	_, err = ts.adopt(dt)
	return res, err
}

// adopt keeps the dense table dt as its rules' and returns the table that
// answers from it: saved in Dir, the directory's table of the rules,
// unless frozen or read-only; else a table in memory, kept within KeepMB.
func (ts *Tables) adopt(dt *DenseTable) (*Table, error) {
	r := dt.Rules()
	if ts.Dir != "" && !ts.Frozen && !ts.ReadOnly {
		path, err := dt.Save(ts.Dir)
		if err != nil {
			return nil, fmt.Errorf("could not save the dense table: %w", err)
		}
		ts.note("the value of every position (%d states) is in %s", dt.States(), path)
		tab, err := ts.For(r)
		if err != nil || tab == nil {
			return nil, err
		}
		return tab, tab.SetDense(dt)
	}
	tab := ts.memTable(dt)
	ts.keepTable(tab, dt)
	return tab, nil
}

// prepare makes the dense table of r when the line is small or Build
// covers it and the table has none: an analysis then answers every ply
// from it. A table that does not fit the memory is done without.
func (ts *Tables) prepare(ctx context.Context, r rules.Rules, opt Options) error {
	if opt.Method == MethodSearch {
		return nil
	}
	if ts.Small(r) && ts.denseFits(r, opt) {
		_, err := ts.Make(ctx, r, opt)
		if errors.Is(err, ErrMemory) {
			return nil
		}
		return err
	}
	if ts.Frozen || ts.ReadOnly || !DenseApplies(r) || r.Width > ts.Build {
		return nil
	}
	if tab, err := ts.For(r); err != nil || tab != nil && tab.Dense() != nil {
		return err
	}
	g, err := rules.NewGame(r)
	if err != nil {
		return err
	}
	_, err = ts.dense(ctx, g, opt, true)
	if errors.Is(err, ErrMemory) {
		return nil
	}
	return err
}

// Analyze solves the position before every move of g, as the package's
// Analyze does, each by Tables.Solve; on a line Build covers it first
// makes the rules' dense table, which then answers every ply.
func (ts *Tables) Analyze(ctx context.Context, g *rules.Game, opt Options) ([]PlyValue, error) {
	if err := Check(g.Rules()); err != nil {
		return nil, err
	}
	if err := ts.prepare(ctx, g.Rules(), opt); err != nil {
		return nil, err
	}
	return analyze(g, func(replay *rules.Game) (Result, error) { return ts.Solve(ctx, replay, opt) })
}
