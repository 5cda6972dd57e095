package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"alak/rules"
	"alak/solve"
)

// labStat is what the rule lab's table records of one column.
type labStat struct {
	methods []solve.Method // the methods that answered, in the order they first did
	seconds float64
	stopped string // why the column stopped: the size and the error
}

// solveLabRun prints the rule lab's table (--table --variants, docs/rulelab.md):
// a row a size, a column for the alak preset and one for each variant, each
// cell the value of the empty line and its best openings; then a table of
// the columns: their rules, the method that answered them and their
// seconds. A column whose solve fails (the state graph outgrowing --memory)
// says so at that size and is not tried at larger ones. With --json it
// prints the same as one JSON object, a solve.LabTable, instead.
func solveLabRun(ctx context.Context, e *env, base rules.Rules, sizes, spec string, sf solveFlags, asJSON bool) int {
	if base.Preset != "alak" || len(base.Changed(false)) > 0 {
		return fail(e, "solve", fmt.Errorf("--variants changes one option of the alak preset at a time: give no --rules but alak and no rule options (got %s)", strings.Join(append([]string{base.Preset}, base.Changed(false)...), " ")))
	}
	if sf.method != solve.MethodAuto || *sf.valueOnly {
		return fail(e, "solve", errors.New("--variants picks the solver of each column itself and gives every value and best opening: not with --dense, --method or --value-only"))
	}
	if sizes == "" {
		return fail(e, "solve", errors.New("--table needs --sizes, such as --sizes 1-11"))
	}
	lo, hi, err := solveRange(sizes)
	if err != nil {
		return fail(e, "solve", err)
	}
	if hi > 24 {
		return fail(e, "solve", fmt.Errorf("--sizes %q: the rule lab takes lines of up to 24 points (the dense solver's limit)", sizes))
	}
	vs, err := solve.ParseVariants(spec)
	if err != nil {
		return fail(e, "solve", fmt.Errorf("--variants: %w", err))
	}
	cols := append([]solve.Variant{{}}, vs...)
	head, align := "| size |", "|---:|"
	for _, v := range cols {
		head += " " + v.String() + " |"
		align += ":---|"
	}
	if !asJSON {
		fmt.Fprintln(e.stdout, head+" seconds |")
		fmt.Fprintln(e.stdout, align+"---:|")
	}
	var lab solve.LabTable
	// The lab's solver: no table directory, no dense table kept, not even
	// a small line's (a column is its start position's value); --memory
	// bounds every method, and without it the dense solver's memory is
	// not bounded (the state graph's is --memory's default).
	ts := &solve.Tables{Jobs: sf.cores(), MemoryMB: *sf.memory, SmallStates: -1, DenseProgress: denseProgress(e)}
	if !sf.memorySet {
		ts.DenseMemoryMB = math.MaxInt32
	}
	opt := solve.Options{MaxNodes: *sf.maxNodes, Progress: solveProgress(e)}
	stats := make([]labStat, len(cols))
	for n := lo; n <= hi; n++ {
		row := fmt.Sprintf("| %d |", n)
		var rowSecs float64
		lrow := solve.LabRow{Size: n, Cells: make([]*solve.LabCell, len(cols))}
		for k, v := range cols {
			st := &stats[k]
			if st.stopped != "" {
				row += " – |"
				continue
			}
			r, err := v.Rules(n)
			if err != nil {
				return fail(e, "solve", err)
			}
			start := time.Now()
			res, serr := solve.SolveLab(ctx, ts, r, opt)
			secs := time.Since(start).Seconds()
			if e.terminal {
				fmt.Fprint(e.stderr, "\r\033[K")
			}
			if serr != nil && ctx.Err() != nil {
				fmt.Fprintf(e.stderr, "alak solve: interrupted at size %d, %s: the rows above are proved\n", n, v)
				return exitInterrupted
			}
			rowSecs += secs
			st.seconds += secs
			if m := res.Method; m != "" && !slices.Contains(st.methods, m) {
				st.methods = append(st.methods, m)
			}
			cell := solve.LabCellOf(r, res, serr)
			cell.Seconds = round2(secs)
			lrow.Cells[k] = &cell
			if serr != nil {
				st.stopped = fmt.Sprintf("at %d points: %v", n, serr)
			}
			row += " " + cell.Text() + " |"
		}
		lrow.Seconds = round2(rowSecs)
		lab.Rows = append(lab.Rows, lrow)
		if !asJSON {
			fmt.Fprintf(e.stdout, "%s %.2f |\n", row, rowSecs)
		}
	}
	if asJSON {
		for k, v := range cols {
			r, _ := v.Rules(lo)
			methods := stats[k].methods
			if methods == nil {
				methods = []solve.Method{}
			}
			lab.Columns = append(lab.Columns, solve.LabColumn{Variant: v.String(), Option: v.Option, Value: v.Value,
				Rules:   strings.Join(append([]string{r.Preset}, r.Changed(false)...), " "),
				Methods: methods, Seconds: round2(stats[k].seconds), Stopped: stats[k].stopped})
		}
		return printJSON(e, "solve", lab)
	}
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, "| column | rules | method | seconds | not solved |")
	fmt.Fprintln(e.stdout, "|:---|:---|:---|---:|:---|")
	for k, v := range cols {
		r, _ := v.Rules(lo)
		rs := strings.Join(append([]string{r.Preset}, r.Changed(false)...), " ")
		names := make([]string, len(stats[k].methods))
		for i, m := range stats[k].methods {
			names[i] = labMethodName(m)
		}
		stop := stats[k].stopped
		if stop == "" {
			stop = "–"
		}
		fmt.Fprintf(e.stdout, "| %s | %s | %s | %.2f | %s |\n", v, rs, strings.Join(names, ", "), stats[k].seconds, stop)
	}
	return 0
}

// labMethodName names a method of solve.SolveLab as docs/solver.md does
// (the search of the history-free rules the lab takes is the state graph).
func labMethodName(m solve.Method) string {
	switch m {
	case solve.MethodDense:
		return "1b (dense)"
	case solve.MethodSearch:
		return "1 (state graph)"
	}
	return string(m)
}

// round2 rounds seconds to hundredths, as the Markdown table writes them.
func round2(x float64) float64 { return math.Round(x*100) / 100 }
