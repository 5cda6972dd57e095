package solve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"alak/rules"
)

// The dense solver: retrograde analysis over the dense index
// (dense_index.go), one bit a state for each threshold question, no table
// of states, no counters, no edges. docs/solver-dense.md.
//
// A threshold question is "can the attacker force a final margin of at
// least t" (Black, t > 0), or "below t" (White, t <= 0). Its answer, the
// won set, is the attacker's attractor: finished states on the attacker's
// side of t seed it; a state whose player to move is the attacker joins
// when one move leads into it, the defender's when every move does. It is
// grown backwards: a state that joins is expanded, its predecessors found
// by undoing a placement and replaying it; an attacker's predecessor joins
// at once, a defender's is marked pending, and sweeps over the pending
// marks re-check each one (does every move now lead into the set?) until a
// sweep finds none. The won set of Black's question grows as t falls, so
// Black's thresholds are done from the highest down on one bitmap, each
// state joining at the highest t it reaches, which is its value; White's
// from the lowest up on another pass. A state that joins neither is worth
// 0, a draw (docs/solver.md, "Why the values are exact").

// DenseOptions tune a dense solve. The zero value is usable.
type DenseOptions struct {
	// Jobs is the number of goroutines that sweep (0: 1).
	Jobs int
	// MemoryMB bounds the bitmaps and margins (0: no bound).
	MemoryMB int
	// Margins keeps the margin of every state, one byte a state: the
	// DenseTable returned then answers every position. Without it only the
	// values of the position, of its moves and of a principal variation
	// are kept, and the memory is 1.5 bits a state, and one more bit
	// while the second pass runs, to keep the first pass's answer for the
	// principal variation (unless it is spilled to a file; dewdney and golf
	// without komi take one pass and no more: dense_slide.go).
	Margins bool
	// Spill keeps the first pass's answer (one bit a state, kept for the
	// principal variation when Margins is off) in a temporary file in
	// SpillDir (the system's default when "") rather than in memory.
	Spill    bool
	SpillDir string
	Progress func(Progress)
}

// DenseApplies reports whether the dense solver handles the rules: the
// alak preset on a line of up to 24 points and its variants that keep the
// state history-free (edge capture, own=stays|illegal|removed|together,
// ko=captured|none|simple, score=stones|area, repetition, komi; not
// own=together with ko=simple), the alterigo preset on a line (with or
// without edge captures), and the sliding games, dewdney and golf, with
// their options (dense_slide.go).
func DenseApplies(r rules.Rules) bool { return denseApplies(r) }

// Bitmap layout. Only the defender's states are ever pending (an
// attacker's state joins, or not, when a move leads into the won set), and
// the two players' halves of the index are the same size, so a pass takes
// 1.5 bits a state: for every 64 of the defender's states two words, the
// won bits then the pending bits (a won bit and its pending bit share a
// cache line), then for every 64 of the attacker's states a word of won
// bits; and one summary bit for every denseBlock words of pending bits,
// set when one of them may be.
const (
	denseBlock      = 64              // pending words a summary bit covers (4,096 states)
	denseChunkWords = 1               // summary words a worker takes at once
	densePoll       = 1 << 16         // states a worker handles between two polls
	denseNoValue    = int32(-1 << 31) // a watched state in no won set (yet)
)

// dsolver is one dense solve.
type dsolver struct {
	ix      *dindex
	ctx     context.Context
	jobs    int
	bm      []uint64 // the defender's won and pending words, interleaved, then the attacker's won words
	summary []uint64 // one bit per denseBlock pending words
	margin  []int8   // Black's margin of every state (half points), or nil
	// finished lists the finished states and their margins (half points)
	// where they are found by a scan (dense_generic.go), once a solve.
	finished     []dfinished
	finishedDone bool
	// The pass under way: the attacker, the value a joining state takes
	// (its margin in half points), the defender's states (dlo, and dn of
	// them) and the attacker's (from alo), whose words start at abase.
	attackerWhite bool
	val           int8
	dlo, dn       uint64
	alo, abase    uint64
	// handled counts the states handled by the sweeps (progress).
	handled  atomic.Int64
	start    time.Time
	progress func(Progress)
	lastRep  time.Time
	repMu    sync.Mutex
}

// denseWords is the number of words of the bitmap of a pass over ix.
func denseWords(ix *dindex) uint64 {
	half := (ix.half + 63) / 64
	return 3 * half
}

// setAttacker lays the bitmap out for a pass of the attacker (White if
// white): it must be cleared.
func (d *dsolver) setAttacker(white bool) {
	d.attackerWhite = white
	ix := d.ix
	d.dlo, d.alo = ix.half, 0 // White defends
	if white {
		d.dlo, d.alo = 0, ix.half
	}
	d.dn = ix.half
	d.abase = 2 * ((ix.half + 63) / 64)
}

// words is the number of pending words (the defender's).
func (d *dsolver) words() uint64 { return (d.dn + 63) / 64 }

// wonWord returns the word holding the won bit of state i and the bit.
func (d *dsolver) wonWord(i uint64) (*uint64, uint64) {
	if j := i - d.dlo; j < d.dn {
		return &d.bm[2*(j>>6)], 1 << (j & 63)
	}
	j := i - d.alo
	return &d.bm[d.abase+j>>6], 1 << (j & 63)
}

// won reports whether state i is in the won set.
func (d *dsolver) won(i uint64) bool {
	p, bit := d.wonWord(i)
	return atomic.LoadUint64(p)&bit != 0
}

// join adds state i to the won set, writing its value, and reports
// whether it was not in it.
func (d *dsolver) join(i uint64) bool {
	p, bit := d.wonWord(i)
	if atomic.OrUint64(p, bit)&bit != 0 {
		return false
	}
	if d.margin != nil {
		d.margin[i] = d.val
	}
	return true
}

// mark sets the pending bit of the defender's state i (and its block's
// summary bit).
func (d *dsolver) mark(i uint64) {
	j := i - d.dlo
	k := j >> 6
	bit := uint64(1) << (j & 63)
	p := &d.bm[2*k+1]
	if atomic.LoadUint64(p)&bit != 0 {
		return
	}
	atomic.OrUint64(p, bit)
	blk := k / denseBlock
	s := &d.summary[blk>>6]
	sbit := uint64(1) << (blk & 63)
	if atomic.LoadUint64(s)&sbit == 0 {
		atomic.OrUint64(s, sbit)
	}
}

// dworker is one goroutine's state in a sweep. The predecessors of the
// states that join are listed and handled in batches: it loads their words
// first, so that the cache misses overlap, and only then sets bits. (An
// atomic read-modify-write waits for every earlier memory access: one on a
// line that misses the cache would keep the misses from overlapping.) An
// attacker's predecessor that joins is expanded at once (its own
// predecessors, the defender's, go to the list to be marked), so only the
// defender's states are ever pending. Re-checks only read, with plain
// loads, and stop at the first move that settles them.
type dworker struct {
	d       *dsolver
	att     []dstate // predecessors whose player to move is the attacker: they join
	def     []dstate // the defender's predecessors: marked for a re-check
	handled int64
	sink    uint64
}

// denseBatch is the number of predecessors a worker lists before it
// handles them.
const denseBatch = 256

// expand lists the predecessors of the state (b, w, f, white), which just
// joined: an attacker's predecessor joins, a defender's is marked.
func (wk *dworker) expand(b, w, f uint64, white bool) {
	if !white == wk.d.attackerWhite {
		wk.att = wk.d.ix.preds(b, w, f, white, wk.att)
	} else {
		wk.def = wk.d.ix.preds(b, w, f, white, wk.def)
	}
	if len(wk.att)+len(wk.def) >= denseBatch {
		wk.flush()
	}
}

// flush handles the listed predecessors: the attacker's join, and are
// expanded; then the defender's that are not won are marked.
func (wk *dworker) flush() {
	d := wk.d
	var sum uint64
	for _, q := range wk.att {
		p, _ := d.wonWord(q.i)
		sum += atomic.LoadUint64(p)
	}
	wk.sink += sum
	for _, q := range wk.att {
		if d.join(q.i) {
			// q's predecessors are the defender's: to the list.
			wk.def = d.ix.preds(q.b, q.w, q.f, d.attackerWhite, wk.def)
		}
	}
	wk.att = wk.att[:0]
	for _, q := range wk.def {
		p, _ := d.wonWord(q.i)
		sum += atomic.LoadUint64(p)
	}
	wk.sink += sum
	for _, q := range wk.def {
		if !d.won(q.i) {
			d.mark(q.i)
		}
	}
	wk.def = wk.def[:0]
}

// settled reports whether the state (b, w, f, white), not finished, whose
// board's place in the open regions is o, is won
// for the attacker now: one move into the won set if the attacker is to
// move, every move if the defender is. Placements that cannot capture (no
// enemy stone next to them) are tried first: their successors' numbers
// follow from the board's.
func (d *dsolver) settled(b, w, f uint64, o dopen, white bool) bool {
	ix := d.ix
	switch ix.kind {
	case denseSlide:
		return d.settledSlide(b, w, o, white)
	case denseGeneric:
		return d.settledGeneric(b, w, f, white)
	case denseAlterIgo:
		return d.settledTogether(b, w, ix.legal(b, w, f), white)
	}
	pts := ix.legal(b, w, f)
	op, next, dg := w, ix.openReg(true), uint64(1)
	if white {
		op, next, dg = b, ix.openReg(false), 2
	}
	quiet := pts &^ (op<<1 | op>>1)
	quietWon := func(p int) bool {
		c := ix.add(o, p, dg)
		return d.won(pair(next, c.x, c.y, c.md))
	}
	if white == d.attackerWhite {
		for x := quiet; x != 0; x &= x - 1 {
			if quietWon(bits.TrailingZeros64(x)) {
				return true
			}
		}
		for x := pts &^ quiet; x != 0; x &= x - 1 {
			if d.won(ix.child(b, w, o, white, bits.TrailingZeros64(x))) {
				return true
			}
		}
		return false
	}
	for x := quiet; x != 0; x &= x - 1 {
		if !quietWon(bits.TrailingZeros64(x)) {
			return false
		}
	}
	for x := pts &^ quiet; x != 0; x &= x - 1 {
		if !d.won(ix.child(b, w, o, white, bits.TrailingZeros64(x))) {
			return false
		}
	}
	return true
}

// settledTogether is settled under the Alter Igo rules, where a placement
// that leaves the board unchanged loses at once: a loss for the attacker
// if the attacker plays it, a win if the defender does.
func (d *dsolver) settledTogether(b, w, pts uint64, white bool) bool {
	attacker := white == d.attackerWhite
	for ; pts != 0; pts &= pts - 1 {
		c := d.ix.childTogether(b, w, white, bits.TrailingZeros64(pts))
		in := !attacker
		if c != denseLoss {
			in = d.won(c)
		}
		if in == attacker {
			return attacker
		}
	}
	return !attacker
}

// block re-checks the pending states of pending-word block blk (a
// defender's state marked but already won joined by another worker's
// re-check, which expanded it: it is skipped).
func (wk *dworker) block(blk uint64) {
	d, ix := wk.d, wk.d.ix
	lo := blk * denseBlock
	hi := min(lo+denseBlock, d.words())
	r := ix.region(d.dlo + lo*64)
	end := r.off + r.size
	for k := lo; k < hi; k++ {
		p := &d.bm[2*k+1]
		if atomic.LoadUint64(p) == 0 {
			continue
		}
		x := atomic.SwapUint64(p, 0) &^ atomic.LoadUint64(&d.bm[2*k])
		for ; x != 0; x &= x - 1 {
			i := d.dlo + k*64 + uint64(bits.TrailingZeros64(x))
			for i >= end {
				r = ix.region(end)
				end = r.off + r.size
			}
			b, w, f, white, o := ix.stateOpen(r, i)
			wk.handled++
			if ix.legalFor(b, w, f, white) != 0 && d.settled(b, w, f, o, white) && d.join(i) {
				wk.expand(b, w, f, white)
			}
		}
	}
	wk.flush()
}

// sweep re-checks every pending state once (and those marked ahead of the
// sweep as it goes), with d.jobs goroutines; it reports whether it found
// any.
func (d *dsolver) sweep() (bool, error) {
	nsum := uint64(len(d.summary))
	var next atomic.Uint64
	var found atomic.Bool
	d.parallel(func(wk *dworker) bool {
		c := next.Add(denseChunkWords) - denseChunkWords
		if c >= nsum {
			return false
		}
		for s := c; s < min(c+denseChunkWords, nsum); s++ {
			if atomic.LoadUint64(&d.summary[s]) == 0 {
				continue
			}
			for x := atomic.SwapUint64(&d.summary[s], 0); x != 0; x &= x - 1 {
				found.Store(true)
				wk.block(s*64 + uint64(bits.TrailingZeros64(x)))
			}
		}
		return true
	})
	return found.Load(), d.ctx.Err()
}

// parallel runs d.jobs workers, each calling step until it returns false
// or the context ends; they poll the context and report progress now and
// then.
func (d *dsolver) parallel(step func(wk *dworker) bool) {
	var wg sync.WaitGroup
	for range d.jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := &dworker{d: d}
			polled := int64(0)
			for step(wk) {
				if wk.handled-polled >= densePoll {
					d.handled.Add(wk.handled - polled)
					polled = wk.handled
					if d.ctx.Err() != nil {
						break
					}
					d.report()
				}
			}
			wk.flush()
			d.handled.Add(wk.handled - polled)
		}()
	}
	wg.Wait()
}

// report calls the progress callback at most twice a second.
func (d *dsolver) report() {
	if d.progress == nil {
		return
	}
	d.repMu.Lock()
	defer d.repMu.Unlock()
	now := time.Now()
	if now.Sub(d.lastRep) < 500*time.Millisecond {
		return
	}
	d.lastRep = now
	d.progress(progressAt(now, d.start, d.handled.Load(), 0, 0))
}

// seed adds the finished states whose margin is from lo to hi to the won
// set and expands them.
func (d *dsolver) seed(lo, hi int32) error {
	switch {
	case d.ix.kind == denseSlide:
		return d.seedSlide(lo, hi)
	case d.ix.kind == denseGeneric && d.ix.own == rules.OwnIllegal:
		return d.seedFinished(lo, hi)
	}
	var next atomic.Int64
	d.parallel(func(wk *dworker) bool {
		r := int(next.Add(1) - 1)
		if r >= len(d.ix.regs) {
			return false
		}
		reg := &d.ix.regs[r]
		d.ix.terminals(reg, lo, hi, func(s dstate) {
			if d.join(s.i) {
				wk.handled++
				wk.expand(s.b, s.w, s.f, reg.white)
			}
		})
		return true
	})
	if v := loss2(!d.attackerWhite); d.ix.kind == denseAlterIgo && v >= lo && v <= hi {
		d.seedLosses()
	}
	return d.ctx.Err()
}

// seedLosses adds to the won set the defender's states where every
// placement of the defender leaves the board unchanged (Alter Igo rules):
// the defender loses at once. They are found by a scan of the defender's
// states.
func (d *dsolver) seedLosses() {
	const chunk = 1 << 16
	var next atomic.Uint64
	d.parallel(func(wk *dworker) bool {
		lo := d.dlo + next.Add(chunk) - chunk
		if lo >= d.dlo+d.dn {
			return false
		}
		r := d.ix.region(lo)
		for i := lo; i < min(lo+chunk, d.dlo+d.dn); i++ {
			if i >= r.off+r.size {
				r = d.ix.region(i)
			}
			b, w, f, white := d.ix.state(r, i)
			wk.handled++
			if d.ix.allLose(b, w, white) && d.join(i) {
				wk.expand(b, w, f, white)
			}
		}
		return true
	})
}

// grow sweeps until no state is pending.
func (d *dsolver) grow() error {
	for {
		found, err := d.sweep()
		if err != nil {
			return err
		}
		if !found {
			return nil
		}
	}
}

// thresholds returns every value a state can have, ascending, in half
// points: the margins of finished states (2d - komi for d from -n to n)
// and 0, and the index of 0.
func (ix *dindex) thresholds() ([]int32, int) {
	if ix.kind == denseAlterIgo {
		return []int32{-2, 0, 2}, 1 // a win or loss by rule, or a draw
	}
	ts := []int32{0}
	if ix.kind == denseSlide && ix.minPieces > 0 {
		ts = append(ts, -2, 2) // a player left short of pieces loses
	}
	for d := -ix.n; d <= ix.n; d++ {
		ts = append(ts, int32(2*d)-ix.komi2)
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	return ts, slices.Index(ts, 0)
}

// watch is a state whose value a solve reports (the root, the positions
// after its moves) when it keeps no margins: the value it joined a won set
// with, or denseNoValue.
type watch struct {
	i     uint64
	v     int32
	fixed bool // a finished position: v is its outcome
}

// pass runs the thresholds of one attacker on a cleared bitmap: Black's
// from the highest down, White's from the lowest up, or with exact false
// only the last of them. After each threshold the watched states that
// joined take its value; after, the bitmap holds the attacker's whole won
// set (Black: the states worth more than 0; White: less than 0).
func (d *dsolver) pass(white, exact bool, ws []watch) error {
	return d.passUntil(white, exact, ws, nil)
}

// errDenseStop ends a pass early (passUntil).
var errDenseStop = errors.New("stop")

// passUntil is pass, calling after (when not nil) after each threshold
// with the value of the states that joined at it (Black: the won set is
// then the states worth at least that; White: at most that); the pass
// stops when after returns true.
func (d *dsolver) passUntil(white, exact bool, ws []watch, after func(val int32) (bool, error)) error {
	ts, zero := d.ix.thresholds()
	d.setAttacker(white)
	step := func(lo, hi, val int32) error {
		d.val = int8(val)
		if err := d.seed(lo, hi); err != nil {
			return err
		}
		if err := d.grow(); err != nil {
			return err
		}
		for k := range ws {
			if ws[k].v == denseNoValue && d.won(ws[k].i) {
				ws[k].v = val
			}
		}
		if after != nil {
			stop, err := after(val)
			if err != nil {
				return err
			}
			if stop {
				return errDenseStop
			}
		}
		return nil
	}
	top, bottom := ts[len(ts)-1], ts[0]
	switch {
	case !white && !exact:
		return step(ts[zero+1], top, ts[zero+1])
	case white && !exact:
		return step(bottom, ts[zero-1], ts[zero-1])
	case !white:
		for x := len(ts) - 1; x > zero; x-- {
			if err := step(ts[x], ts[x], ts[x]); err != nil {
				return ignoreStop(err)
			}
		}
	default:
		for x := 1; x <= zero; x++ {
			if err := step(ts[x-1], ts[x-1], ts[x-1]); err != nil {
				return ignoreStop(err)
			}
		}
	}
	return nil
}

func ignoreStop(err error) error {
	if err == errDenseStop {
		return nil
	}
	return err
}

// exactly returns the set of the states worth exactly v (not 0), in the
// form of a test: it runs the pass of the player v favours again, on the
// cleared bitmap, down (or up) to v, keeping the won set of the threshold
// before (kept as keep keeps it); the bitmap is then that pass's.
func (d *dsolver) exactly(v int32, spill bool, dir string) (func(i uint64) bool, func(), error) {
	var before *dbits
	d.clear()
	ts, _ := d.ix.thresholds()
	x := slices.Index(ts, v)
	var prev int32 // the threshold whose set is kept: v's neighbour away from 0
	switch {
	case v > 0 && x+1 < len(ts):
		prev = ts[x+1]
	case v < 0 && x > 0:
		prev = ts[x-1]
	default:
		prev = v // v is the extreme value: nothing beyond it
	}
	err := d.passUntil(v < 0, true, nil, func(val int32) (bool, error) {
		if val == prev && prev != v {
			var err error
			before, err = d.keep(spill, dir)
			return false, err
		}
		return val == v, nil
	})
	if err != nil {
		return nil, nil, err
	}
	done := func() {
		if before != nil && before.file != nil {
			before.file.Close()
		}
	}
	return func(i uint64) bool { return d.won(i) && (before == nil || !before.has(i)) }, done, nil
}

// refine gives the watched states that joined the attacker's won set in a
// pass that was not exact, those not in before, their exact values: it
// runs the pass again with every threshold (on the same bitmap, cleared,
// which it leaves as the attacker's whole won set again).
func (d *dsolver) refine(white bool, ws []watch, before []bool) error {
	var again []int
	for k := range ws {
		if !before[k] && !ws[k].fixed && ws[k].v != denseNoValue {
			ws[k].v = denseNoValue
			again = append(again, k)
			if d.ix.slideSigned() {
				ws[k].v = -loss2(white)
			}
		}
	}
	if d.ix.slideSigned() {
		return nil
	}
	if len(again) == 0 {
		return nil
	}
	sub := make([]watch, len(again))
	for x, k := range again {
		sub[x] = watch{i: ws[k].i, v: denseNoValue}
	}
	d.clear()
	if err := d.pass(white, true, sub); err != nil {
		return err
	}
	for x, k := range again {
		ws[k].v = sub[x].v
	}
	return nil
}

// clear empties the bitmap.
func (d *dsolver) clear() {
	clear(d.bm)
	clear(d.summary)
}

// sideWord returns the q-th word of won bits of the defender's states
// (defender) or the attacker's, 0 past their end.
func (d *dsolver) sideWord(defender bool, q uint64) uint64 {
	if q >= (d.dn+63)/64 {
		return 0
	}
	if defender {
		return d.bm[2*q]
	}
	return d.bm[d.abase+q]
}

// won64 returns the won bits of the 64 states from i, a multiple of 64:
// bit j for state i+j.
func (d *dsolver) won64(i uint64) uint64 {
	lo, def := d.alo, false
	if i-d.dlo < d.dn {
		lo, def = d.dlo, true
	}
	if j := i - lo; j+64 <= d.dn { // the 64 states are one player's
		q, sh := j>>6, j&63
		x := d.sideWord(def, q) >> sh
		if sh != 0 {
			x |= d.sideWord(def, q+1) << (64 - sh)
		}
		return x
	}
	var x uint64
	for j := i; j < min(i+64, d.ix.total); j++ {
		if d.won(j) {
			x |= 1 << (j - i)
		}
	}
	return x
}

// wonBits writes the won bits of every state, one bit a state in index
// order (little-endian words), to w.
func (d *dsolver) wonBits(w io.Writer) error {
	buf := make([]byte, 0, 1<<16)
	for k := uint64(0); k < (d.ix.total+63)/64; k++ {
		buf = binary.LittleEndian.AppendUint64(buf, d.won64(64*k))
		if len(buf) == cap(buf) {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// dbits is a set of states kept by wonBits: in memory, or in a file.
type dbits struct {
	mem  []byte
	file *os.File
}

// has reports whether state i is in the set.
func (s *dbits) has(i uint64) bool {
	var b [1]byte
	if s.mem != nil {
		b[0] = s.mem[i>>3]
	} else if _, err := s.file.ReadAt(b[:], int64(i>>3)); err != nil {
		panic(fmt.Sprintf("dense solve: reading back the first pass's answer: %v", err))
	}
	return b[0]>>(i&7)&1 != 0
}

// keep stores the won set of the bitmap in a dbits: in a temporary file
// in dir when spill, else in memory.
func (d *dsolver) keep(spill bool, dir string) (*dbits, error) {
	if !spill {
		var buf bytes.Buffer
		buf.Grow(int((d.ix.total + 7) / 8))
		if err := d.wonBits(&buf); err != nil {
			return nil, err
		}
		return &dbits{mem: buf.Bytes()}, nil
	}
	f, err := os.CreateTemp(dir, "alak-dense-*.bits")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name()) // the file lives while it is open
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := d.wonBits(bw); err != nil {
		f.Close()
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return nil, err
	}
	return &dbits{file: f}, nil
}

// denseBytes is the memory a dense solve of ix takes: the bitmaps of a
// pass, and the margins if kept, else the first pass's answer kept for the
// principal variation (in memory unless spilled).
func denseBytes(ix *dindex, margins, spill bool) uint64 {
	words := denseWords(ix)
	b := 8*words + words/denseBlock/8 + 8
	switch {
	case margins:
		b += ix.total
	case !spill:
		b += (ix.total + 7) / 8
	}
	return b
}

// ErrDenseHistory is returned by DenseSolve for a game whose history has
// used up a position (one more occurrence would be a draw by repetition):
// values then depend on the history, which Solve takes into account.
var ErrDenseHistory = errors.New("the game's history has used up a position (its next occurrence draws): the dense solver gives values of positions with a fresh history; use Solve")

// DenseSolve solves every state of the dense index of g's rules (every
// board, player to move and forbidden points of the line) and returns the
// result for g's position, as Solve would give it: the value, every best
// move, a principal variation and the value of every move. Nodes counts
// the states of the index. With opt.Margins it also returns the table of
// every state's margin (DenseTable), which can be saved and looked up.
// When ctx is cancelled it returns ctx.Err() (wrapped) and nothing proved.
func DenseSolve(ctx context.Context, g *rules.Game, opt DenseOptions) (Result, *DenseTable, error) {
	start := time.Now()
	res := Result{Moves: map[rules.Move]float64{}}
	d, root, need, err := newDenseSolve(ctx, g, opt, start)
	if err != nil {
		return res, nil, err
	}
	// The bitmaps are most of the heap: keep the collector from letting
	// garbage grow to their size. (The limit is the process's: a small
	// solve, whose garbage the collector's default pace keeps below
	// need+256 MB anyway, leaves it alone, so that the solves of a server
	// or of players in parallel do not change it under each other.)
	if need > 256<<20 {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(need) + 256<<20))
	}
	moves, ws, err := denseWatches(g, d.ix, root)
	if err != nil {
		return res, nil, err
	}
	var cleanup []func() // what the value function needs until the result is read
	defer func() {
		for _, f := range slices.Backward(cleanup) {
			f()
		}
	}()
	value, tab, err := d.solveWatched(g.Rules(), opt, ws, &cleanup)
	if err != nil {
		return res, nil, err
	}
	denseResult(&res, g, d.ix, moves, ws, value)
	res.Nodes = int64(d.ix.total)
	res.Elapsed = time.Since(start)
	res.Complete = true
	return res, tab, nil
}

// newDenseSolve checks that the dense solver takes g's rules, history
// and position, and makes the solver of its index with the bitmaps (and
// the margins) allocated; it returns the position's state and the bytes
// the solve needs.
func newDenseSolve(ctx context.Context, g *rules.Game, opt DenseOptions, start time.Time) (d *dsolver, root, need uint64, err error) {
	r := g.Rules()
	if !denseApplies(r) {
		return nil, 0, 0, fmt.Errorf("dense solve of %s: %w", r.String(), ErrUnsupported)
	}
	if err := denseFreshHistory(g); err != nil {
		return nil, 0, 0, err
	}
	if o := g.Outcome(); o.Over() {
		return nil, 0, 0, fmt.Errorf("dense solve: the game is over (%v): nothing to solve: %w", o, ErrUnsupported)
	}
	ix := newDindex(r)
	pos := g.Position()
	b, w, f, _ := pos.Line()
	root, ok := ix.index(b, w, f, pos.ToMove() == rules.White)
	if !ok {
		return nil, 0, 0, fmt.Errorf("dense solve: the position's forbidden points are not the captures of a placement (a set-up position): %w", ErrUnsupported)
	}
	if ix.kind == denseSlide && !opt.Margins {
		ix.slideCone(b, w) // no table: only the states the position can reach
	}
	need = denseBytes(ix, opt.Margins, opt.Spill)
	if opt.MemoryMB > 0 && need > uint64(opt.MemoryMB)<<20 {
		return nil, 0, 0, fmt.Errorf("%d states need %d MB: %w", ix.total, need>>20, ErrMemory)
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = 1
	}
	d = &dsolver{ix: ix, ctx: ctx, jobs: jobs, start: start, progress: opt.Progress, lastRep: start}
	d.setAttacker(false)
	d.bm = make([]uint64, denseWords(ix))
	hugePages(d.bm)
	d.summary = make([]uint64, (d.words()+denseBlock*64-1)/(denseBlock*64))
	if opt.Margins {
		d.margin = make([]int8, ix.total)
		hugePages(d.margin)
	}
	return d, root, need, nil
}

// denseWatches returns the legal moves of g's position and the watched
// states: the root (state root) and the position after each move, a
// finished one with its outcome as its value.
func denseWatches(g *rules.Game, ix *dindex, root uint64) ([]rules.Move, []watch, error) {
	pos := g.Position()
	moves := g.LegalMoves(nil)
	ws := []watch{{i: root, v: denseNoValue}}
	for _, m := range moves {
		c, err := pos.Play(m)
		if err != nil {
			return nil, nil, fmt.Errorf("dense solve: the kernel refused its own legal move %v: %w", m, err)
		}
		if c.Over() { // its outcome is its value
			ws = append(ws, watch{v: half(c.Outcome().Margin), fixed: true})
			continue
		}
		cb, cw, cf, _ := c.Line()
		ci, _ := ix.index(cb, cw, cf, c.ToMove() == rules.White)
		ws = append(ws, watch{i: ci, v: denseNoValue})
	}
	return moves, ws, nil
}

// solveWatched runs Black's pass, then White's: with margins every
// threshold; without, first only the last one, which tells the sign of
// every state, and every threshold again only if a watched state is not a
// draw. It returns the value of a state as the result reads it (values,
// with the table under opt.Margins), and appends to cleanup what must run
// once the result is read.
func (d *dsolver) solveWatched(r rules.Rules, opt DenseOptions, ws []watch, cleanup *[]func()) (func(uint64) (int32, bool), *DenseTable, error) {
	known := func() []bool {
		in := make([]bool, len(ws))
		for k := range ws {
			in[k] = ws[k].v != denseNoValue
		}
		return in
	}
	if err := d.pass(false, opt.Margins, ws); err != nil {
		return nil, nil, denseCut(d, err)
	}
	if !opt.Margins && d.ix.slideSwaps() {
		// White's won set is Black's with the colours swapped (dense_slide.go).
		return d.slideSwapped(ws), nil, nil
	}
	var plus *dbits // Black's won set: the states worth more than 0
	if !opt.Margins {
		var err error
		if plus, err = d.keep(opt.Spill, opt.SpillDir); err != nil {
			return nil, nil, err
		}
		if f := plus.file; f != nil {
			*cleanup = append(*cleanup, func() { f.Close() })
		}
		if err := d.refine(false, ws, make([]bool, len(ws))); err != nil {
			return nil, nil, denseCut(d, err)
		}
	}
	d.clear()
	before := known()
	if err := d.pass(true, opt.Margins, ws); err != nil {
		return nil, nil, denseCut(d, err)
	}
	if !opt.Margins {
		if err := d.refine(true, ws, before); err != nil {
			return nil, nil, denseCut(d, err)
		}
	}
	return d.values(r, opt, ws, plus, cleanup)
}

// values returns the value of a state as the result reads it after both
// passes (ok false: not needed, the state is not on the principal
// variation's value), from the margins, from the two won sets (White's in
// the bitmap, Black's in plus), or from one more pass.
func (d *dsolver) values(r rules.Rules, opt DenseOptions, ws []watch, plus *dbits, cleanup *[]func()) (func(uint64) (int32, bool), *DenseTable, error) {
	rootV := ws[0].v
	switch {
	case opt.Margins:
		return func(i uint64) (int32, bool) { return int32(d.margin[i]), true }, &DenseTable{rules: r, ix: d.ix, margins: d.margin}, nil
	case rootV == denseNoValue || rootV == 0:
		// The bitmap holds White's won set: the states worth less than 0;
		// plus Black's: more than 0. That tells the draws, the value of
		// the principal variation.
		return func(i uint64) (int32, bool) {
			if plus.has(i) || d.won(i) {
				return 0, false
			}
			return 0, true
		}, nil, nil
	case d.ix.slideSigned():
		// Every state with an empty slot, as every state of the principal
		// variation, is worth 1, 0 or -1: Black's won set (plus) holds
		// those worth 1, White's (the bitmap) those worth -1.
		return func(i uint64) (int32, bool) {
			if rootV > 0 && plus.has(i) || rootV < 0 && d.won(i) {
				return rootV, true
			}
			return 0, false
		}, nil, nil
	}
	// The principal variation's value is not 0: one more pass tells the
	// states worth exactly that.
	if plus.file != nil {
		plus.file.Close()
	}
	plus = nil // the closures above hold the variable: let the collector have the set
	is, done, err := d.exactly(rootV, opt.Spill, opt.SpillDir)
	if err != nil {
		return nil, nil, denseCut(d, err)
	}
	*cleanup = append(*cleanup, done)
	return func(i uint64) (int32, bool) {
		if is(i) {
			return rootV, true
		}
		return 0, false
	}, nil, nil
}

// denseCut wraps the error of a cut-off dense solve.
func denseCut(d *dsolver, err error) error {
	return fmt.Errorf("dense solve cut off after %d states handled: %w", d.handled.Load(), err)
}

// denseFreshHistory returns ErrDenseHistory when the history of g has used
// up a position other than the current one.
func denseFreshHistory(g *rules.Game) error {
	rep := g.Rules().Repetition
	counts := map[uint64]int{}
	for i := 0; i < g.Len(); i++ {
		counts[g.PositionAt(i).Hash()]++
	}
	cur := g.Position().Hash()
	for h, c := range counts {
		if h != cur && c+1 >= rep {
			return ErrDenseHistory
		}
	}
	return nil
}

// denseResult fills res for the position of g from the values of states
// (Black's margin, half points; false when not known).
func denseResult(res *Result, g *rules.Game, ix *dindex, moves []rules.Move, ws []watch, value func(uint64) (int32, bool)) {
	pos := g.Position()
	sign := int32(1)
	if pos.ToMove() == rules.White {
		sign = -1
	}
	val := func(x watch) int32 {
		if x.v == denseNoValue {
			return 0
		}
		return x.v
	}
	best := int32(-1 << 30)
	for k, m := range moves {
		v := val(ws[k+1])
		res.Moves[m] = float64(v)/2 + 0
		best = max(best, sign*v)
	}
	for _, m := range moves {
		if sign*half(res.Moves[m]) == best {
			res.Best = append(res.Best, m)
		}
	}
	res.Value = float64(val(ws[0]))/2 + 0
	res.Outcome = winner(res.Value)
	if len(res.Best) > 0 {
		res.PV = densePV(g, ix, res.Best[0], val(ws[0]), value)
	}
}

// densePV follows moves that keep the value v (half points) from g's
// position, first the move first, centre-first among equals, until the
// game ends, a position repeats, a value is not known, or the line is 4n+8
// moves long (as Solve's principal variations do).
func densePV(g *rules.Game, ix *dindex, first rules.Move, v int32, value func(uint64) (int32, bool)) []rules.Move {
	n := ix.n
	order := make([]int, 0, n)
	for dd := 0; dd < n; dd++ {
		for _, p := range []int{(n-1)/2 - dd, n/2 + dd} {
			if p >= 0 && p < n && !slices.Contains(order, p) {
				order = append(order, p)
			}
		}
	}
	seen := map[uint64]bool{}
	for i := 0; i <= g.Len(); i++ {
		seen[g.PositionAt(i).Hash()] = true
	}
	line := []rules.Move{first}
	pos, _ := g.Position().Play(first)
	var cands []rules.Move
	for len(line) < 4*n+8 && !pos.Over() && !seen[pos.Hash()] {
		seen[pos.Hash()] = true
		b, w, f, _ := pos.Line()
		white := pos.ToMove() == rules.White
		cands = cands[:0]
		if ix.kind == denseSlide {
			cands = pos.LegalMoves(cands) // slides, by the slot they start from
		} else {
			pts := ix.legalFor(b, w, f, white)
			for _, p := range order {
				if pts>>p&1 != 0 {
					cands = append(cands, rules.Place(p))
				}
			}
		}
		next := rules.NoMove
		for _, m := range cands {
			c, _ := pos.Play(m)
			cv, ok := half(c.Outcome().Margin), true
			if !c.Over() {
				cb, cw, cf, _ := c.Line()
				ci, _ := ix.index(cb, cw, cf, !white)
				cv, ok = value(ci)
			}
			if ok && cv == v {
				next = m
				pos = c
				break
			}
		}
		if next == rules.NoMove {
			break
		}
		line = append(line, next)
	}
	return line
}
