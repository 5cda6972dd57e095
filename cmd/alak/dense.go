package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"alak/solve"
)

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

// solveTables is the solver of the flags (solve.Tables): the table
// directory, --jobs (every core by default), --memory, --dense-margins, --dense-spill; the dense
// table of a line of up to solve.DefaultBuild points is made when a solve
// needs it. Forced to the dense method (--dense, --method dense) without
// --memory, the dense solver's memory is not bounded (as --dense always
// did); otherwise --memory bounds every method, and without it the dense
// solver may take half of the machine's memory.
func (sf solveFlags) solveTables(e *env, cmd string) (*solve.Tables, error) {
	dir, err := tableDir(*sf.tableDir)
	if err != nil {
		return nil, err
	}
	ts := &solve.Tables{Dir: dir, Jobs: sf.cores(), MemoryMB: *sf.memory, Build: solve.DefaultBuild, DenseProgress: denseProgress(e),
		Note: func(s string) {
			if e.terminal {
				fmt.Fprint(e.stderr, "\r\033[K")
			}
			fmt.Fprintf(e.stderr, "alak %s: %s\n", cmd, s)
		}}
	switch {
	case sf.method == solve.MethodDense && !sf.memorySet:
		ts.MemoryMB = math.MaxInt32
	case !sf.memorySet:
		// Without --memory the dense solver, where it answers, may take
		// half of the machine's memory (alak on 20 points takes 2.6 GB):
		// a user need not know which method answers to have an answer.
		ts.DenseMemoryMB = physicalMB() / 2
	}
	ts.Margins = sf.denseMargins != nil && *sf.denseMargins
	if sf.denseSpill != nil {
		ts.SpillDir = *sf.denseSpill
	}
	return ts, nil
}

// cores is --jobs: every core (at most 64) unless it names a number, and
// every core for analyze, which has no such flag.
func (sf solveFlags) cores() int {
	if sf.jobs != nil && *sf.jobs > 0 {
		return *sf.jobs
	}
	return min(runtime.NumCPU(), 64)
}

// solveMethod reads --method and --dense into sf.method.
func (sf *solveFlags) solveMethod(method string, dense bool) error {
	m, err := solve.ParseMethod(method)
	if err != nil {
		return fmt.Errorf("--%w", err)
	}
	if dense {
		if m == solve.MethodSearch {
			return errors.New("--dense is --method dense: not with --method search")
		}
		m = solve.MethodDense
	}
	sf.method = m
	return nil
}

// physicalMB is the machine's memory in MB (MemTotal of /proc/meminfo), 0
// where it cannot be read.
func physicalMB() int {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.Atoi(f[1])
			if err != nil {
				return 0
			}
			return kb / 1024
		}
	}
	return 0
}
