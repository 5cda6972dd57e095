package server

import (
	"log/slog"
	"sync"
	"sync/atomic"

	"alak/player"
	"alak/rules"
	"alak/solve"
)

// tables holds the solver tables of the server's table directory
// (Config.TableDir), read at first use for each rule set and frozen
// (solve.Table.Freeze): the post-game analyses and the computer's perfect
// seats share them, and no request makes them grow or writes them. A rule
// set's table is read once a process, so a file added later is read after
// a restart. A rule set without a file is not remembered (looking again
// costs two stat calls), so the map holds at most one entry a file of the
// directory; a file that fails its checks is logged once and not used (the
// solver then searches within its budget).
type tables struct {
	dir string
	log *slog.Logger

	mu      sync.Mutex
	byRules map[string]*solve.Table // nil: a file that failed its checks
}

func newTables(dir string, log *slog.Logger) *tables {
	return &tables{dir: dir, log: log, byRules: map[string]*solve.Table{}}
}

// get returns the frozen table of r, or nil when the server has no table
// directory or the directory nothing usable for r.
func (t *tables) get(r rules.Rules) *solve.Table {
	if t == nil || t.dir == "" {
		return nil
	}
	key := r.String()
	t.mu.Lock()
	defer t.mu.Unlock()
	if tab, ok := t.byRules[key]; ok {
		return tab
	}
	tab, err := solve.LoadTable(t.dir, r)
	if err != nil {
		// A damaged table file is refused whole (solve.ErrDenseFormat,
		// solve.ErrTableFormat).
		t.log.Warn("a table file of the table directory is not used", "dir", t.dir, "rules", key, "err", err)
		t.byRules[key] = nil
		return nil
	}
	if tab.Len() == 0 && tab.Dense() == nil {
		return nil // no file for these rules
	}
	tab.Freeze()
	t.byRules[key] = tab
	return tab
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
