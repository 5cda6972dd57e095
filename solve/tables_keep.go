package solve

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"
	"unsafe"

	"alak/rules"
)

// DefaultSmall is the most states of a small line (Tables.SmallStates):
// alak on 13 points has 3,265,132 (on 14, 10,099,932), alterigo, dewdney
// and golf on 13 points 1,596,510 (on 14, 4,785,156). Each of these takes
// about as long to solve whole (docs/results.md, "Small lines": tenths of
// a second on the project's machine) as a search takes to answer one
// position of it.
const DefaultSmall = 3_500_000

// DefaultKeepMB is the memory of the dense tables a Tables keeps in memory
// (Tables.KeepMB): a small line's table takes one byte a state, 3.3 MB
// for alak on 13 points.
const DefaultKeepMB = 256

// maxBuilds bounds the dense tables of small lines being made or waiting
// to be made at once (one is made at a time): beyond, a solve does
// without, by the dense solver or the search as before.
const maxBuilds = 32

// maxStatesKept bounds the index sizes remembered (Tables.states); when
// full they are forgotten and counted again.
const maxStatesKept = 4096

// keptTables holds a Tables' dense tables kept in memory, least recently
// used first, the builds under way and the counts of TablesStats. Its
// maps are guarded by Tables.mu.
type keptTables struct {
	by     map[string]*keptTable
	order  []string // keys, least recently used first
	bytes  int64
	states map[string]uint64 // the states of a rule set's dense index
	builds map[string]*tableBuild
	sem    chan struct{} // one build at a time
	// limit, when positive, bounds the bytes kept in place of KeepMB
	// (tests keep small tables within less than a megabyte).
	limit int64

	made, dropped, fromTable atomic.Int64
}

type keptTable struct {
	tab   *Table
	bytes int64
}

// tableBuild is a dense table being made; done is closed when it is (tab
// and res set) or failed (err set).
type tableBuild struct {
	done chan struct{}
	tab  *Table
	res  Result // the result of the position the build solved
	err  error
}

// TablesStats counts what a Tables made and keeps.
type TablesStats struct {
	// Made counts the dense tables made at the first solve of small
	// lines (Make).
	Made int64
	// Kept and KeptBytes are the dense tables kept in memory now and the
	// memory they take (KeepMB bounds it); Dropped counts those dropped
	// to stay within it.
	Kept      int
	KeptBytes int64
	Dropped   int64
	// FromTable counts the solves a dense table answered (MethodTable).
	FromTable int64
}

// Stats returns the counts of what ts made and keeps.
func (ts *Tables) Stats() TablesStats {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	k := &ts.mem
	return TablesStats{Made: k.made.Load(), Kept: len(k.by), KeptBytes: k.bytes, Dropped: k.dropped.Load(), FromTable: k.fromTable.Load()}
}

// Small reports whether r is a small line: one the dense solver takes
// whose index has at most SmallStates states. Its dense table is made at
// the first solve of the rules (Make) and answers every later one.
func (ts *Tables) Small(r rules.Rules) bool {
	limit := ts.SmallStates
	switch {
	case limit < 0:
		return false
	case limit == 0:
		limit = DefaultSmall
	}
	if Check(r) != nil || r.Validate() != nil || !DenseApplies(r) {
		return false
	}
	return ts.states(r) <= uint64(limit)
}

// states returns the states of r's dense index (DenseApplies(r)),
// counted once a rule set.
func (ts *Tables) states(r rules.Rules) uint64 {
	key := r.String()
	ts.mu.Lock()
	n, ok := ts.mem.states[key]
	ts.mu.Unlock()
	if ok {
		return n
	}
	n = newDindex(r).total
	ts.mu.Lock()
	if ts.mem.states == nil || len(ts.mem.states) >= maxStatesKept {
		ts.mem.states = map[string]uint64{}
	}
	ts.mem.states[key] = n
	ts.mu.Unlock()
	return n
}

// Make returns the dense table of r when r is a small line (Small) whose
// states fit opt's node limit: the one kept, else one made now, within
// opt's memory (or the Tables'). It is made once, whoever asks (a caller
// that comes while it is made waits for the same build), one build at a
// time, and in the background: when ctx ends before the table is made,
// Make returns ctx's error and the build goes on, so that a later call
// finds the table. It returns nil and no error for rules that are not a
// small line, and when too many builds wait already.
func (ts *Tables) Make(ctx context.Context, r rules.Rules, opt Options) (*Table, error) {
	if !ts.Small(r) || !ts.denseFits(r, opt) {
		return nil, nil
	}
	tab, _, _, err := ts.make(ctx, r, nil, opt)
	return tab, err
}

// make is Make; the build, when this call starts it, solves g's position
// (when the dense solver takes it: else the start's) with the memory of
// opt, and mine says that res is g's result from it.
func (ts *Tables) make(ctx context.Context, r rules.Rules, g *rules.Game, opt Options) (tab *Table, res Result, mine bool, err error) {
	if !ts.Small(r) {
		return nil, res, false, nil
	}
	if tab, err := ts.For(r); err != nil || tab != nil && tab.Dense() != nil {
		return tab, res, false, err
	}
	key := r.String()
	ts.mu.Lock()
	b := ts.mem.builds[key]
	if b == nil {
		if len(ts.mem.builds) >= maxBuilds {
			ts.mu.Unlock()
			return nil, res, false, nil
		}
		if ts.mem.builds == nil {
			ts.mem.builds = map[string]*tableBuild{}
			ts.mem.sem = make(chan struct{}, 1)
		}
		b = &tableBuild{done: make(chan struct{})}
		ts.mem.builds[key] = b
		start := g
		if g == nil || !denseTakes(g) {
			if start, err = rules.NewGame(r); err != nil {
				delete(ts.mem.builds, key)
				ts.mu.Unlock()
				return nil, res, false, err
			}
		} else {
			start = g.Clone()
			mine = true
		}
		dopt := DenseOptions{Jobs: ts.Jobs, MemoryMB: max(ts.memory(opt), ts.DenseMemoryMB), Margins: true, Progress: ts.DenseProgress}
		go ts.build(key, start, b, dopt)
	}
	ts.mu.Unlock()
	if err := wait(ctx, b.done); err != nil {
		return nil, res, false, fmt.Errorf("waiting for the dense table of %s: %w", r.String(), err)
	}
	if b.err != nil {
		return nil, res, false, b.err
	}
	if mine {
		res = b.res
	}
	return b.tab, res, mine, nil
}

// wait waits for done to be closed, or ctx to end (its error): told by
// ctx's Done or, every 20 ms, by its Err, as the searches poll it (a
// context may say it ended through Err alone).
func wait(ctx context.Context, done <-chan struct{}) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
}

// denseTakes reports whether DenseSolve takes g as it stands: a history
// that used up no position, a position its index numbers, a game not
// over.
func denseTakes(g *rules.Game) bool {
	if g.Over() || denseFreshHistory(g) != nil {
		return false
	}
	b, w, f, ok := g.Position().Line()
	if !ok {
		return false
	}
	_, ok = newDindex(g.Rules()).index(b, w, f, g.Position().ToMove() == rules.White)
	return ok
}

// build makes the dense table of g's rules, solving g's position, and
// keeps it (adopt). It runs alone (keep.sem) and is not stopped: a small
// line's solve is short.
func (ts *Tables) build(key string, g *rules.Game, b *tableBuild, dopt DenseOptions) {
	ts.mem.sem <- struct{}{}
	res, dt, err := DenseSolve(context.Background(), g, dopt)
	<-ts.mem.sem
	res.Method = MethodDense
	var tab *Table
	if err == nil {
		tab, err = ts.adopt(dt)
		ts.mem.made.Add(1)
	}
	ts.mu.Lock()
	delete(ts.mem.builds, key)
	ts.mu.Unlock()
	b.tab, b.res, b.err = tab, res, err
	close(b.done)
}

// keepTable keeps tab, a table of dense table dt made in memory, as its
// rules' (For), dropping the least recently used tables kept while the
// memory passes KeepMB.
func (ts *Tables) keepTable(tab *Table, dt *DenseTable) {
	key := tab.Rules().String()
	size := dt.memBytes()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	k := &ts.mem
	if k.by == nil {
		k.by = map[string]*keptTable{}
	}
	if old, ok := k.by[key]; ok {
		k.bytes -= old.bytes
		k.remove(key)
	}
	k.by[key] = &keptTable{tab: tab, bytes: size}
	k.order = append(k.order, key)
	k.bytes += size
	limit := int64(ts.KeepMB) << 20
	switch {
	case k.limit > 0:
		limit = k.limit
	case ts.KeepMB <= 0:
		limit = DefaultKeepMB << 20
	}
	for k.bytes > limit && len(k.order) > 1 {
		old := k.order[0]
		k.bytes -= k.by[old].bytes
		delete(k.by, old)
		k.order = k.order[1:]
		k.dropped.Add(1)
	}
}

// kept returns the table kept in memory for key, marking it the most
// recently used; the caller holds Tables.mu.
func (k *keptTables) kept(key string) (*Table, bool) {
	e, ok := k.by[key]
	if !ok {
		return nil, false
	}
	k.remove(key)
	k.order = append(k.order, key)
	return e.tab, true
}

// remove takes key out of the order.
func (k *keptTables) remove(key string) {
	for i, o := range k.order {
		if o == key {
			k.order = append(k.order[:i], k.order[i+1:]...)
			return
		}
	}
}

// memTable is a table in memory that only answers from dt.
func (ts *Tables) memTable(dt *DenseTable) *Table {
	r := dt.Rules()
	return &Table{rules: r, path: filepath.Join(ts.Dir, FileName(r)), vals: map[ttKey]int16{}, frozen: true, dense: dt}
}

// memBytes is about the memory of t: its margins and its index.
func (t *DenseTable) memBytes() int64 {
	ix := t.ix
	n := int64(len(t.margins)) + int64(unsafe.Sizeof(*ix))
	n += int64(len(ix.regs)) * int64(unsafe.Sizeof(dregion{}))
	for _, k := range ix.key {
		n += 4 * int64(len(k))
	}
	return n
}
