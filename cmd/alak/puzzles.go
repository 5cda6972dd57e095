package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"alak/notation"
	"alak/puzzle"
	"alak/rules"
	"alak/solve"
)

func init() {
	register(command{name: "puzzles", summary: "make puzzles proved by perfect play, each checked by a second solver method", run: puzzlesRun})
}

const puzzlesUsage = `usage: alak puzzles [--rules R] [--size N] [--OPTION VALUE ...] [--count K] [--seed S]
                    [--source selfplay|table] [--theme T] [--json]
       alak puzzles --source games [--theme T] [--json] FILE ...
Makes puzzles offline: positions where the player to move has one move (or
a short set of moves) that keeps the outcome of perfect play, a win or a
draw, and every other move changes it; each with its solution line (the
player's moves and the opponent's most resisting replies), its themes and a
starting rating, and each checked again by a second solver method (the
search against the dense table, or the reverse; the proof search where no
dense table applies). docs/puzzles.md says exactly what a puzzle is.
Sources: selfplay (positions of seeded games between weak players, the
default), table (states drawn from the rules' dense table), games (the
mistakes of the finished games of the record FILEs, SGF or move lists,
each under its own rules). Rules and boards the solver does not answer
quickly enough are refused, saying how far it reaches.
Themes (--theme): ` + "win, draw, capture, edge-capture, forbidden-point, repetition, end-in-N (end-in: any N)."

func puzzlesRun(e *env, args []string) int {
	fs := newFlagSet(e, "puzzles", puzzlesUsage)
	buildRules := rulesFlags(fs)
	count := fs.Int("count", 10, "puzzles to make (1-10000)")
	seed := fs.Uint64("seed", 1, "seed of the self-play games and the table's draws")
	source := fs.String("source", "selfplay", "where positions come from: selfplay, table or games")
	games := fs.Int("games", 0, "self-play games to play at most (default 50 times --count); with --source table, states to draw (default 500 times --count)")
	theme := fs.String("theme", "", "keep only the puzzles with this theme")
	asJSON := fs.Bool("json", false, "print one JSON object: the puzzles and what was tried")
	dir := fs.String("table-dir", "", "directory of the solver's tables (default $XDG_CACHE_HOME/alak or ~/.cache/alak; none: no files)")
	memory := fs.Int("memory", 256, "memory of each solve in MB")
	nodes := fs.Int64("nodes", 5_000_000, "positions a solve may search; a position that needs more is skipped (0: no limit)")
	accepted := fs.Int("accepted", puzzle.DefaultMaxAccepted, "the most moves a puzzle may accept at a position (1-8)")
	moves := fs.Int("moves", puzzle.DefaultMaxMoves, "the most moves of the player in a solution line (1-16)")
	verify := fs.Bool("verify", true, "check every puzzle by a second solver method; a puzzle it rejects or cannot check is left out")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	switch {
	case *count < 1 || *count > 10000:
		return fail(e, "puzzles", fmt.Errorf("--count %d: want 1 to 10000", *count))
	case *games < 0 || *games > 1_000_000:
		return fail(e, "puzzles", fmt.Errorf("--games %d: want 1 to 1000000 (0: the default)", *games))
	case *accepted < 1 || *accepted > 8:
		return fail(e, "puzzles", fmt.Errorf("--accepted %d: want 1 to 8", *accepted))
	case *moves < 1 || *moves > 16:
		return fail(e, "puzzles", fmt.Errorf("--moves %d: want 1 to 16", *moves))
	case *memory < 16 || *memory > 1<<20:
		return fail(e, "puzzles", fmt.Errorf("--memory %d: want 16 to 1048576 (MB)", *memory))
	case *nodes < 0:
		return fail(e, "puzzles", fmt.Errorf("--nodes %d: want 0 (no limit) or more", *nodes))
	}
	if *theme != "" {
		if *theme, err = puzzle.ParseTheme(*theme); err != nil {
			return fail(e, "puzzles", fmt.Errorf("--theme: %w", err))
		}
	}
	tdir, err := tableDir(*dir)
	if err != nil {
		return fail(e, "puzzles", err)
	}
	ts := &solve.Tables{Dir: tdir, Build: solve.DefaultBuild, MemoryMB: *memory, Note: func(s string) { fmt.Fprintln(e.stderr, "alak puzzles: "+s) }}
	opt := puzzle.Options{MaxAccepted: *accepted, MaxMoves: *moves, Solve: solve.Options{MaxNodes: *nodes}}
	ctx, cancel := e.searchContext()
	defer cancel()
	mk := puzzleMaker{e: e, ts: ts, opt: opt, ctx: ctx}
	out := puzzlesOutput{Source: *source, Seed: *seed, Puzzles: []*puzzle.Puzzle{}}
	switch *source {
	case "selfplay", "table":
		if len(files) > 0 {
			return fail(e, "puzzles", fmt.Errorf("%q: files are read with --source games; --source %s takes none", files[0], *source))
		}
		r, err := buildRules()
		if err != nil {
			return fail(e, "puzzles", err)
		}
		if err := mk.prepare(r); err != nil {
			return fail(e, "puzzles", err)
		}
		out.Rules = r.String()
		rng := rand.New(rand.NewPCG(*seed, 0x70757a7a6c65))
		if *source == "selfplay" {
			n := *games
			if n == 0 {
				n = 50 * *count
			}
			out.Puzzles, out.Stats, err = puzzle.FromSelfPlay(ctx, ts, r, rng, puzzle.SelfPlayOptions{Options: opt, Games: n, Count: *count, Theme: *theme})
		} else {
			var dt *solve.DenseTable
			if dt, err = mk.denseTable(r); err == nil {
				n := *games
				if n == 0 {
					n = 500 * *count
				}
				out.Puzzles, out.Stats, err = puzzle.FromTable(ctx, ts, dt, rng, puzzle.TableOptions{Options: opt, Samples: n, Count: *count, Theme: *theme})
			}
		}
		if err != nil {
			return fail(e, "puzzles", err)
		}
	case "games":
		if len(files) == 0 {
			return fail(e, "puzzles", errors.New("--source games reads the record FILEs named after the flags; none was given"))
		}
		if flags := setupFlagsGiven(fs, "source", "theme", "json", "count", "table-dir", "memory", "nodes", "accepted", "moves", "verify"); len(flags) > 0 {
			return fail(e, "puzzles", fmt.Errorf("%s: a record FILE carries its own rules", strings.Join(flags, ", ")))
		}
		for _, f := range files {
			if len(out.Puzzles) >= *count {
				break
			}
			ps, st, err := mk.fromFile(f)
			if err != nil {
				return fail(e, "puzzles", err)
			}
			out.Stats.Add(st)
			for _, p := range ps {
				if (*theme == "" || p.HasTheme(*theme)) && len(out.Puzzles) < *count {
					out.Puzzles = append(out.Puzzles, p)
				}
			}
		}
		out.Stats.Puzzles = len(out.Puzzles)
	default:
		return fail(e, "puzzles", fmt.Errorf("--source %q: want selfplay, table or games", *source))
	}
	if *verify {
		if err := mk.verify(&out); err != nil {
			return fail(e, "puzzles", err)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		if err := enc.Encode(out); err != nil {
			return fail(e, "puzzles", err)
		}
		return 0
	}
	printPuzzles(e, &out, *verify)
	return 0
}

// puzzlesOutput is what alak puzzles --json prints.
type puzzlesOutput struct {
	Rules  string       `json:"rules,omitempty"`
	Source string       `json:"source"`
	Seed   uint64       `json:"seed"`
	Stats  puzzle.Stats `json:"stats"`
	// Verified counts the puzzles the second method confirmed; Rejected
	// those it contradicted and Unchecked those whose check passed the
	// node limit (both left out, and each named on standard error).
	Verified  int              `json:"verified"`
	Rejected  int              `json:"rejected"`
	Unchecked int              `json:"unchecked"`
	Puzzles   []*puzzle.Puzzle `json:"puzzles"`
}

// puzzleMaker holds what every source of the command shares.
type puzzleMaker struct {
	e   *env
	ts  *solve.Tables
	opt puzzle.Options
	ctx context.Context
}

// prepare refuses rules beyond the puzzles' reach and makes the dense
// table of the rules where it applies (a solve of the start position
// without a node limit), so that the limit bounds only the searches a
// history needs.
func (mk *puzzleMaker) prepare(r rules.Rules) error {
	if err := puzzle.Reach(r); err != nil {
		return err
	}
	if !solve.DenseApplies(r) {
		return nil
	}
	g, err := rules.NewGame(r)
	if err != nil {
		return err
	}
	if _, err := mk.ts.Solve(mk.ctx, g, solve.Options{}); err != nil && !errors.Is(err, solve.ErrUnsupported) {
		return err
	}
	return nil
}

// denseTable returns the rules' dense table, which prepare made.
func (mk *puzzleMaker) denseTable(r rules.Rules) (*solve.DenseTable, error) {
	tab, err := mk.ts.For(r)
	if err != nil {
		return nil, err
	}
	if tab == nil || tab.Dense() == nil {
		return nil, fmt.Errorf("--source table samples the dense table of the rules, which %s has none of: the dense solver %w", r.String(), solve.DenseRefusal(r))
	}
	return tab.Dense(), nil
}

// fromFile finds the puzzles of the game recorded in path.
func (mk *puzzleMaker) fromFile(path string) ([]*puzzle.Puzzle, puzzle.Stats, error) {
	rec, err := notation.ReadRecordFile(path)
	if err != nil {
		return nil, puzzle.Stats{}, fmt.Errorf("%s: %w", path, err)
	}
	g, err := rec.Game()
	if err != nil {
		return nil, puzzle.Stats{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := mk.prepare(g.Rules()); err != nil {
		return nil, puzzle.Stats{}, fmt.Errorf("%s: %w", path, err)
	}
	ps, st, err := puzzle.FromGame(mk.ctx, mk.ts, g, mk.opt)
	if err != nil {
		return nil, st, fmt.Errorf("%s: %w", path, err)
	}
	return ps, st, nil
}

// verify checks every puzzle of out by Verify and keeps those it
// confirms; the others are counted and named on standard error.
func (mk *puzzleMaker) verify(out *puzzlesOutput) error {
	kept := out.Puzzles[:0]
	for _, p := range out.Puzzles {
		_, err := puzzle.Verify(mk.ctx, p, puzzle.VerifyOptions{Options: mk.opt, MemoryMB: mk.ts.MemoryMB, MaxNodes: mk.opt.Solve.MaxNodes})
		switch {
		case err == nil:
			out.Verified++
			kept = append(kept, p)
		case errors.Is(err, solve.ErrNodeLimit):
			out.Unchecked++
			fmt.Fprintf(mk.e.stderr, "alak puzzles: puzzle %s left out: its check passed the node limit (--nodes): %v\n", p.ID, err)
		case errors.Is(err, puzzle.ErrRejected), errors.Is(err, puzzle.ErrInvalid):
			out.Rejected++
			fmt.Fprintf(mk.e.stderr, "alak puzzles: puzzle %s left out: %v\n", p.ID, err)
		default:
			return err
		}
	}
	out.Puzzles = kept
	return nil
}

// printPuzzles writes the puzzles for people: each position, who is to
// move and what to find, the answer and the line, the themes, and what
// was tried.
func printPuzzles(e *env, out *puzzlesOutput, verified bool) {
	for i, p := range out.Puzzles {
		goal := "win"
		if p.Goal == puzzle.GoalDraw {
			goal = "hold the draw"
		}
		fmt.Fprintf(e.stdout, "%d. %s  %s  %s to move and %s (rating %.0f)\n", i+1, p.ID, p.Rules, p.ToMove, goal, p.Rating)
		if len(p.Moves) > 0 {
			fmt.Fprintf(e.stdout, "   after %s\n", strings.Join(p.Moves, " "))
		}
		fmt.Fprintf(e.stdout, "   %s\n", p.Position)
		fmt.Fprintf(e.stdout, "   answer %s; line %s (%s); themes %s\n", strings.Join(p.Accepted, " or "), strings.Join(p.Solution(), " "), endWords(p), strings.Join(p.Themes, " "))
	}
	st := out.Stats
	switch out.Source {
	case "table":
		fmt.Fprintf(e.stdout, "%s from %s of the dense table", things(len(out.Puzzles), "puzzle"), things(st.Positions, "state"))
	case "selfplay":
		fmt.Fprintf(e.stdout, "%s from %s, %s tried", things(len(out.Puzzles), "puzzle"), things(st.Games, "self-play game"), things(st.Positions, "position"))
	default:
		fmt.Fprintf(e.stdout, "%s from %s, %s tried", things(len(out.Puzzles), "puzzle"), things(st.Games, "game"), things(st.Positions, "position"))
	}
	fmt.Fprintf(e.stdout, " (%d skipped: a solve passed --nodes)", st.Skipped)
	if verified {
		fmt.Fprintf(e.stdout, "; %d verified by a second method, %d rejected, %d unchecked", out.Verified, out.Rejected, out.Unchecked)
	}
	fmt.Fprintln(e.stdout)
}

// things writes n things: "1 puzzle", "3 puzzles".
func things(n int, thing string) string { return fmt.Sprintf("%d %s%s", n, thing, plural(n)) }

// endWords says why a puzzle's line stops.
func endWords(p *puzzle.Puzzle) string {
	switch p.End {
	case puzzle.EndOver:
		return "the game is over"
	case puzzle.EndSeveral:
		return "any accepted move completes it"
	case puzzle.EndSettled:
		return "after " + p.EndReply + " every move keeps the outcome"
	case puzzle.EndOpen:
		return "after " + p.EndReply + " several moves keep the outcome"
	}
	return "the longest line a puzzle has"
}
