// Package tables opens the play server's solver (solve.Tables) over its
// table directory (Config.TableDir): the position analyses, the post-game
// analyses, the hints, the puzzles and the computer's perfect seats solve
// through it, by the fastest exact method that answers.
//
// Its tables are read at first use for each rule set and frozen
// (solve.Tables.Frozen): shared by games and analyses, no request makes
// them grow or writes them. A rule set's table is read once a process, so
// a file added later is read after a restart. A rule set without a file
// is not remembered (looking again costs two stat calls), so the solver
// holds at most one table a file of the directory; a file that fails its
// checks is logged once and not used (the solver then answers without it,
// within its budget). The one dense table it makes is a small line's
// (alak on up to 13 points: tenths of a second, on every core), at the
// first question about its rules, kept in memory within memMB
// (Config.TableMemoryMB): the analysis board, the hints and the perfect
// seats then answer every position of those rules at once, with or
// without a table directory.
package tables

import (
	"log/slog"
	"runtime"

	"alak/rules"
	"alak/solve"
)

// DefaultGraphMB is the server's bound on the small lines' state graphs
// (Open's graphMB 0): alak on up to 12 points (727,899 positions, 485 MB
// of the solver's estimate) fits, 13 points (2.2 million) does not. It is
// lower than the solver's own default (solve.DefaultGraphMB, for a
// command on one's own machine): a server shares its machine.
const DefaultGraphMB = 512

// Open returns the server's solver over the table directory dir (none
// when ""), keeping the small lines' dense tables it makes within memMB
// and their state graphs within graphMB (0: DefaultGraphMB).
func Open(dir string, memMB, graphMB int, log *slog.Logger) *solve.Tables {
	if graphMB <= 0 {
		graphMB = DefaultGraphMB
	}
	return &solve.Tables{Dir: dir, Frozen: true, Jobs: runtime.GOMAXPROCS(0), KeepMB: memMB, GraphMB: graphMB, Bad: func(r rules.Rules, err error) {
		// A damaged table file is refused whole (solve.ErrDenseFormat,
		// solve.ErrTableFormat).
		log.Warn("a table file of the table directory is not used", "dir", dir, "rules", r.String(), "err", err)
	}}
}
