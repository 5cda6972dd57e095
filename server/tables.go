package server

import (
	"log/slog"
	"runtime"
	"sync/atomic"

	"alak/player"
	"alak/rules"
	"alak/solve"
)

// tables is the server's solver (solve.Tables) over its table directory
// (Config.TableDir): the position analyses, the post-game analyses, the
// hints and the computer's perfect seats solve through it, by the fastest
// exact method that answers. Its tables are read at first use for each
// rule set and frozen (solve.Tables.Frozen): shared by games and analyses,
// no request makes them grow or writes them. A rule set's table is read
// once a process, so a file added later is read after a restart. A rule
// set without a file is not remembered (looking again costs two stat
// calls), so the solver holds at most one table a file of the directory; a
// file that fails its checks is logged once and not used (the solver then
// answers without it, within its budget). The one dense table it makes is
// a small line's (alak on up to 13 points: tenths of a second, on every
// core), at the first question about its rules, kept in memory within
// Config.TableMemoryMB: the analysis board, the hints and the perfect
// seats then answer every position of those rules at once, with or
// without a table directory.
type tables struct {
	solver *solve.Tables
}

func newTables(dir string, memMB int, log *slog.Logger) *tables {
	return &tables{solver: &solve.Tables{Dir: dir, Frozen: true, Jobs: runtime.GOMAXPROCS(0), KeepMB: memMB, Bad: func(r rules.Rules, err error) {
		// A damaged table file is refused whole (solve.ErrDenseFormat,
		// solve.ErrTableFormat).
		log.Warn("a table file of the table directory is not used", "dir", dir, "rules", r.String(), "err", err)
	}}}
}

// perfectMoves counts the moves of the computer's perfect seats (and the
// levels that are perfect) by how they were made: exact, exact with a tie
// broken at random, or the alpha-beta fallback (player.Perfect's Report).
type perfectMoves struct {
	exact, untied, fallback atomic.Int64
}

// observe adds what p's report gained between before and after.
func (c *perfectMoves) observe(before, after player.Report) {
	fb := after.Count(player.PerfectFallback) - before.Count(player.PerfectFallback)
	un := after.Count(player.PerfectUntied) - before.Count(player.PerfectUntied)
	c.fallback.Add(int64(fb))
	c.untied.Add(int64(un))
	c.exact.Add(int64(after.Moves - before.Moves - fb - un))
}
