package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"alak/rules"
	"alak/solve"
)

// denseAuto is the longest line whose dense table alak solve makes by
// itself when it keeps tables: on 16 points, for alak 96 million states, a
// 92 MB file, a few seconds; for dewdney or golf 43 million, about 20 s
// of CPU.
const denseAuto = 16

// denseProgress returns a progress callback for the dense solver that
// rewrites one line on a terminal, or nil when the output is not one.
func denseProgress(e *env) func(solve.Progress) {
	if !e.terminal {
		return nil
	}
	return func(p solve.Progress) {
		fmt.Fprintf(e.stderr, "\r%d states handled, %.0f/s, %s elapsed   ", p.Nodes, p.Rate, p.Elapsed.Round(time.Second))
	}
}

// denseOptions are the dense solver's options from the flags: every
// state's margin kept when asked or on up to denseAuto points, the memory
// bounded only when --memory was given.
func denseOptions(e *env, r rules.Rules, sf solveFlags) solve.DenseOptions {
	opt := solve.DenseOptions{Jobs: 1, Progress: denseProgress(e)}
	if sf.jobs != nil {
		opt.Jobs = *sf.jobs
	}
	opt.Margins = r.Width <= denseAuto || sf.denseMargins != nil && *sf.denseMargins
	if sf.memorySet {
		opt.MemoryMB = *sf.memory
	}
	if sf.denseSpill != nil && *sf.denseSpill != "" {
		opt.Spill, opt.SpillDir = true, *sf.denseSpill
	}
	return opt
}

// solveDense solves g with the dense solver and, when it kept every
// state's margin and there is a table (tab), saves the dense table beside
// it and gives it to tab.
func solveDense(ctx context.Context, e *env, g *rules.Game, sf solveFlags, tab *solve.Table) (solve.Result, error) {
	r := g.Rules()
	if !solve.DenseApplies(r) {
		return solve.Result{}, fmt.Errorf("--dense takes the alak rules and their variants that keep a position's value free of the game's history, the alterigo rules, or the sliding rules (dewdney, golf), on a line of up to 24 points, with a repetition rule and no passing, not %s: %w", r.String(), solve.ErrUnsupported)
	}
	opt := denseOptions(e, r, sf)
	res, dt, err := solve.DenseSolve(ctx, g, opt)
	if opt.Progress != nil {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil || dt == nil || tab == nil {
		return res, err
	}
	return res, saveDense(e, dt, tab)
}

// saveDense writes the dense table dt beside the results table tab and
// gives it to tab.
func saveDense(e *env, dt *solve.DenseTable, tab *solve.Table) error {
	path, err := dt.Save(filepath.Dir(tab.Path()))
	if err != nil {
		return fmt.Errorf("could not save the dense table: %w", err)
	}
	fmt.Fprintf(e.stderr, "alak solve: the value of every position (%d states) is in %s\n", dt.States(), path)
	return tab.SetDense(dt)
}

// ensureDense makes the dense table of r when there is a results table
// (tab), the dense solver takes the rules, the line has up to denseAuto points,
// and the table's directory has none yet.
func ensureDense(ctx context.Context, e *env, r rules.Rules, sf solveFlags, tab *solve.Table) error {
	if tab == nil || tab.Dense() != nil || !solve.DenseApplies(r) || r.Width > denseAuto {
		return nil
	}
	g, err := rules.NewGame(r)
	if err != nil {
		return err
	}
	opt := denseOptions(e, r, sf)
	opt.Margins = true
	_, dt, err := solve.DenseSolve(ctx, g, opt)
	if opt.Progress != nil {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	switch {
	case errors.Is(err, solve.ErrMemory):
		return nil // the solve below does without
	case err != nil:
		return err
	}
	return saveDense(e, dt, tab)
}
