package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"alak/server/store"
)

// Group commit on a single-writer database (SQLite): every write of the
// store goes through one goroutine, the writer, which takes the writes
// waiting at that moment (and those that come within GroupCommit.MaxWait,
// up to GroupCommit.MaxBatch) and makes them in one transaction, each in a
// savepoint of its own. A write that fails (a version check, a name taken)
// is rolled back to its savepoint alone and answered with its own error;
// the others are answered once the transaction has committed, so the
// batch costs one commit, and one fsync, and no caller is answered nil
// before its write is durable. If the commit fails, every write of the
// batch is answered with that error: none of them was applied.
//
// Writers of one process no longer wait for each other in SQLite's
// busy_timeout back-offs (sleeps of 1 to 100 ms); another process writing
// to the same file still takes turns with this one that way.
//
// The writer has a connection of its own, taken from the pool once and
// kept: it never waits behind the readers for one (with the pool's
// connections all reading, a batch of moves waited for a reader to
// finish).
//
// A write whose context is marked store.Idle waits until no other write
// does: the writer takes it only when it finds nothing else waiting (the
// writes that come meanwhile join its batch), so that a heavy write nobody
// waits on (a finished game's explorer counts, dozens of rows) is never
// committed in front of a move.

// GroupCommit bounds the batches of a single-writer database.
type GroupCommit struct {
	// MaxBatch is the most writes in one transaction.
	MaxBatch int
	// MaxWait is how long the writer waits, after the first write of a
	// batch, for more; 0 takes only the writes already waiting (the
	// batch then grows by itself while a commit is under way).
	MaxWait time.Duration
}

// DefaultGroupCommit is the store's group commit unless told otherwise.
var DefaultGroupCommit = GroupCommit{MaxBatch: 128, MaxWait: 0}

// errClosed answers the writes made after Close.
var errClosed = errors.New("the store is closed")

// writeFunc is one write: its statements, run in tx.
type writeFunc func(ctx context.Context, tx *sql.Tx) error

type job struct {
	ctx context.Context
	fn  writeFunc
	err chan error // capacity 1: the answer
}

type writer struct {
	s    *Store
	conn *sql.Conn // the writer's own; nil until the first batch, and after an error
	gc   GroupCommit
	jobs chan *job
	idle chan *job // store.Idle's writes
	quit chan struct{}
	done chan struct{}
	stop sync.Once

	batches, writes atomic.Int64
}

func newWriter(s *Store, gc GroupCommit) *writer {
	if gc.MaxBatch <= 0 {
		gc.MaxBatch = DefaultGroupCommit.MaxBatch
	}
	w := &writer{s: s, gc: gc, jobs: make(chan *job, 4*gc.MaxBatch), idle: make(chan *job, gc.MaxBatch), quit: make(chan struct{}), done: make(chan struct{})}
	if c, err := s.db.Conn(context.Background()); err == nil { // else the first batch takes one
		w.conn = c
	}
	go w.run()
	return w
}

// do hands fn to the writer and waits for its answer. A write whose
// context ends before the writer reaches it is not made (ctx.Err()); once
// it is under way the answer is waited for, so that it is always known
// whether the write was made.
func (w *writer) do(ctx context.Context, fn writeFunc) error {
	j := &job{ctx: ctx, fn: fn, err: make(chan error, 1)}
	queue := w.jobs
	if store.IsIdle(ctx) {
		queue = w.idle
	}
	select {
	case queue <- j:
	case <-ctx.Done():
		return ctx.Err()
	case <-w.quit:
		return errClosed
	}
	select {
	case err := <-j.err:
		return err
	case <-w.done:
		select {
		case err := <-j.err:
			return err
		default:
			return errClosed
		}
	}
}

// close stops the writer once the batch under way is committed; the writes
// still waiting are refused.
func (w *writer) close() {
	w.stop.Do(func() { close(w.quit) })
	<-w.done
}

func (w *writer) run() {
	defer close(w.done)
	defer func() {
		if w.conn != nil {
			w.conn.Close()
		}
	}()
	batch := make([]*job, 0, w.gc.MaxBatch)
	for {
		var j *job
		select { // the writes that wait first, then an idle one
		case <-w.quit:
			w.refuse()
			return
		case j = <-w.jobs:
		default:
			select {
			case <-w.quit:
				w.refuse()
				return
			case j = <-w.jobs:
			case j = <-w.idle:
			}
		}
		batch = w.gather(append(batch[:0], j))
		w.commit(batch)
		clear(batch) // let the jobs go
	}
}

// refuse answers the writes still waiting once the writer stops.
func (w *writer) refuse() {
	for {
		select {
		case j := <-w.jobs:
			j.err <- errClosed
		case j := <-w.idle:
			j.err <- errClosed
		default:
			return
		}
	}
}

// gather adds to the batch the writes waiting, and those that come within
// MaxWait, up to MaxBatch.
func (w *writer) gather(batch []*job) []*job {
	var timeout <-chan time.Time
	if w.gc.MaxWait > 0 {
		t := time.NewTimer(w.gc.MaxWait)
		defer t.Stop()
		timeout = t.C
	}
	for len(batch) < w.gc.MaxBatch {
		select {
		case j := <-w.jobs:
			batch = append(batch, j)
			continue
		default:
		}
		if timeout == nil {
			break
		}
		select {
		case j := <-w.jobs:
			batch = append(batch, j)
		case <-timeout:
			return batch
		}
	}
	return batch
}

// commit makes a batch of writes in one transaction and answers each.
func (w *writer) commit(batch []*job) {
	w.batches.Add(1)
	w.writes.Add(int64(len(batch)))
	errs := make([]error, len(batch))
	answer := func() {
		for i, j := range batch {
			j.err <- errs[i]
		}
	}
	defer answer()
	// The statements run under a context of their own: an interrupted
	// statement may roll back the whole transaction, the other callers'
	// writes with it. A caller that has gone is skipped before its write.
	ctx := context.Background()
	tx, err := w.begin(ctx)
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		return
	}
	// fail ends the batch without committing: every write gets err (those
	// skipped or refused keep their own answer, which stays true).
	fail := func(err error) {
		tx.Rollback()
		for i := range errs {
			if errs[i] == nil || !skipped(errs[i]) {
				errs[i] = err
			}
		}
	}
	single := len(batch) == 1
	for i, j := range batch {
		if err := j.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		if single {
			errs[i] = j.fn(ctx, tx)
			break
		}
		if err := w.exec(ctx, tx, qSavepoint); err != nil {
			fail(fmt.Errorf("batch of %d writes: %w", len(batch), err))
			return
		}
		if errs[i] = j.fn(ctx, tx); errs[i] != nil {
			if err := w.exec(ctx, tx, qRollbackTo); err != nil {
				// SQLite rolls a transaction back by itself after some
				// errors (a full disk, I/O): nothing of the batch stays.
				fail(fmt.Errorf("batch of %d writes: after %v: %w", len(batch), errs[i], err))
				return
			}
		}
		if err := w.exec(ctx, tx, qRelease); err != nil {
			fail(fmt.Errorf("batch of %d writes: %w", len(batch), err))
			return
		}
	}
	if single && errs[0] != nil {
		tx.Rollback()
		return
	}
	if err := tx.Commit(); err != nil {
		fail(fmt.Errorf("committing a batch of %d writes: %w", len(batch), err))
	}
}

// begin starts a batch's transaction on the writer's connection, taking
// one from the pool for good if it has none: after an error the
// connection is given back (closed if it is broken) and the next batch
// takes a new one.
func (w *writer) begin(ctx context.Context) (*sql.Tx, error) {
	if w.conn == nil {
		c, err := w.s.db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		w.conn = c
	}
	tx, err := w.conn.BeginTx(ctx, nil)
	if err != nil {
		w.conn.Close()
		w.conn = nil
	}
	return tx, err
}

// skipped reports whether err is the answer of a write that was not
// attempted because its caller had gone.
func skipped(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

func (w *writer) exec(ctx context.Context, tx *sql.Tx, query string) error {
	st, err := w.s.on(ctx, tx, query)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(ctx)
	return err
}

// WriterStats reports how many transactions the writer committed (or
// tried) and how many writes they held: writes/batches is the mean batch.
// Both are 0 on a database without a single writer.
func (s *Store) WriterStats() (batches, writes int64) {
	if s.w == nil {
		return 0, 0
	}
	return s.w.batches.Load(), s.w.writes.Load()
}
