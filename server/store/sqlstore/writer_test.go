package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"alak/server/store"
	"alak/server/store/sqlitestore"
	"alak/server/store/sqlstore"
)

func open(t *testing.T, gc sqlstore.GroupCommit) *sqlstore.Store {
	t.Helper()
	s, err := sqlitestore.OpenGroupCommit(context.Background(), filepath.Join(t.TempDir(), "alak.db"), gc)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGroupCommitSavepoints: writes committed in one batch, of which some
// fail after a statement that succeeded: each failing write is rolled back
// alone, to its savepoint, and the others are committed.
func TestGroupCommitSavepoints(t *testing.T) {
	const n = 12
	// The batch waits long enough to take every write below.
	s := open(t, sqlstore.GroupCommit{MaxBatch: n, MaxWait: 2 * time.Second})
	defer s.Close()
	ctx := context.Background()
	refused := errors.New("refused after its insert")
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = s.Write(ctx, func(ctx context.Context, tx *sql.Tx) error {
				if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (name, name_key, created_ms) VALUES (?, ?, 1)`,
					fmt.Sprint("a", i), fmt.Sprint("a", i)); err != nil {
					return err
				}
				if i%3 == 0 {
					return refused
				}
				return nil
			})
		})
	}
	wg.Wait()
	if batches, writes := s.WriterStats(); batches != 1 || writes != n {
		t.Fatalf("%d writes in %d batches, want %d in 1", writes, batches, n)
	}
	for i, err := range errs {
		_, got := s.AccountByName(ctx, fmt.Sprint("a", i))
		switch {
		case i%3 == 0 && (!errors.Is(err, refused) || !errors.Is(got, store.ErrNotFound)):
			t.Errorf("write %d: %v, and the account: %v; want refused and not found", i, err, got)
		case i%3 != 0 && (err != nil || got != nil):
			t.Errorf("write %d: %v, and the account: %v; want both nil", i, err, got)
		}
	}
}

// TestGroupCommitBatches: under concurrent writes the writer commits
// several in one transaction, and every write is answered.
func TestGroupCommitBatches(t *testing.T) {
	s := open(t, sqlstore.DefaultGroupCommit)
	defer s.Close()
	ctx := context.Background()
	const n = 400
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := s.CreateAccount(ctx, store.Account{Name: fmt.Sprint("b", i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	batches, writes := s.WriterStats()
	t.Logf("%d writes in %d batches", writes, batches)
	if writes != n || batches >= n {
		t.Errorf("%d writes in %d batches: no two committed together", writes, batches)
	}
}

// TestGroupCommitClose: writes sent while the store closes are answered,
// either made or refused, and none is left waiting.
func TestGroupCommitClose(t *testing.T) {
	s := open(t, sqlstore.DefaultGroupCommit)
	ctx := context.Background()
	var wg sync.WaitGroup
	var mu sync.Mutex
	made := map[string]bool{}
	for i := range 200 {
		wg.Go(func() {
			name := fmt.Sprint("c", i)
			if _, err := s.CreateAccount(ctx, store.Account{Name: name}); err == nil {
				mu.Lock()
				made[name] = true
				mu.Unlock()
			}
		})
	}
	time.Sleep(time.Millisecond)
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	s, err := sqlitestore.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for name := range made {
		if _, err := s.AccountByName(ctx, name); err != nil {
			t.Errorf("account %s, answered as made: %v", name, err)
		}
	}
}

// TestGroupCommitGoneCaller: a write whose caller has gone before the
// writer reaches it is not made.
func TestGroupCommitGoneCaller(t *testing.T) {
	s := open(t, sqlstore.DefaultGroupCommit)
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.CreateAccount(ctx, store.Account{Name: "gone"}); !errors.Is(err, context.Canceled) {
		t.Errorf("a write with its context ended: %v", err)
	}
	if _, err := s.AccountByName(context.Background(), "gone"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the account of a gone caller: %v", err)
	}
}

// TestGroupCommitIdleWaits: a write marked store.Idle that was waiting
// before another write is made after it: the writer takes the idle one
// only when nothing else waits. (The order is seen in the writes' own
// statements, while the writer is held by a first write.)
func TestGroupCommitIdleWaits(t *testing.T) {
	s := open(t, sqlstore.DefaultGroupCommit)
	defer s.Close()
	ctx := context.Background()
	var mu sync.Mutex
	var order []string
	held := make(chan struct{})
	write := func(ctx context.Context, name string, hold chan struct{}) error {
		return s.Write(ctx, func(ctx context.Context, tx *sql.Tx) error {
			if hold != nil {
				close(held)
				<-hold
			}
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			return nil
		})
	}
	hold := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { write(ctx, "first", hold) })
	waitFor := func(what string, ok func(jobs, idle int) bool) {
		t.Helper()
		for range 1_000_000 { // each look a yield: no clock
			if ok(s.Waiting()) {
				return
			}
			runtime.Gosched()
		}
		t.Fatalf("%s never waited for the writer", what)
	}
	<-held // the writer is in the first write
	wg.Go(func() { write(store.Idle(ctx), "idle", nil) })
	waitFor("the idle write", func(jobs, idle int) bool { return jobs+idle == 1 })
	wg.Go(func() { write(ctx, "move", nil) })
	waitFor("the other write", func(jobs, idle int) bool { return jobs+idle == 2 })
	close(hold)
	wg.Wait()
	if want := []string{"first", "move", "idle"}; !slices.Equal(order, want) {
		t.Errorf("the writes were made in the order %v, want %v", order, want)
	}
}

// TestGroupCommitOwnConnection: with every reader's connection of the
// pool taken (long reads), a write is made without waiting for one: the
// writer has a connection of its own. The pool's count of waits tells a
// writer that waits (no clock).
func TestGroupCommitOwnConnection(t *testing.T) {
	s := open(t, sqlstore.DefaultGroupCommit)
	defer s.Close()
	ctx := context.Background()
	if _, err := s.CreateAccount(ctx, store.Account{Name: "first"}); err != nil {
		t.Fatal(err)
	}
	var held []*sql.Conn
	for range sqlitestore.Connections {
		c, err := s.DB().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	waits := s.DB().Stats().WaitCount
	done := make(chan error, 1)
	go func() {
		_, err := s.CreateAccount(ctx, store.Account{Name: "second"})
		done <- err
	}()
	for i := 0; ; i++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return
		default:
		}
		if s.DB().Stats().WaitCount > waits {
			t.Fatal("the write waits for a connection the readers hold")
		}
		if i == 10_000_000 {
			t.Fatal("the write was neither made nor waiting for a connection")
		}
		runtime.Gosched()
	}
}

// BenchmarkUpdate is Store.Update on SQLite (WAL, synchronous=FULL) from
// 8 goroutines at once per CPU, each moving its own game: the group
// commit's throughput, and its mean batch (writes/batch).
func BenchmarkUpdate(b *testing.B) {
	for _, gc := range []sqlstore.GroupCommit{
		{MaxBatch: 1},
		{MaxBatch: 128},
		{MaxBatch: 128, MaxWait: time.Millisecond},
	} {
		b.Run(fmt.Sprintf("batch=%d,wait=%v", gc.MaxBatch, gc.MaxWait), func(b *testing.B) {
			s, err := sqlitestore.OpenGroupCommit(context.Background(), filepath.Join(b.TempDir(), "alak.db"), gc)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			var next sync.Mutex
			id := 0
			b.SetParallelism(8)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				next.Lock()
				g := store.Game{ID: fmt.Sprint("g", id), Rules: "alak", Preset: "alak", Size: "11", Clock: "none", State: store.StateActive,
					Kind: store.KindNamed, Color: "x", Version: 1, Created: time.Now(), Updated: time.Now()}
				id++
				next.Unlock()
				if err := s.CreateGame(ctx, g); err != nil {
					b.Error(err)
					return
				}
				for pb.Next() {
					n := g
					n.Version++
					n.Ply++
					n.Entries++
					if err := s.Update(ctx, n, g, []store.Entry{{Move: "3", At: time.Now()}}); err != nil {
						b.Error(err)
						return
					}
					g = n
				}
			})
			batches, writes := s.WriterStats()
			b.ReportMetric(float64(writes)/float64(batches), "writes/batch")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
		})
	}
}
