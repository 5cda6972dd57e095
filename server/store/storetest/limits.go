package storetest

import (
	"sync"
	"testing"
	"time"

	"alak/server/store"
)

// testLimits: the limits kept in the store are token buckets as
// golang.org/x/time/rate's (a burst, then one token every Every), spent
// all or none, and shared: callers taking from one bucket at once (as
// several server processes do) never spend more than it holds.
func testLimits(t *testing.T, s store.Store) {
	defer s.Close()
	a := store.Bucket{Key: "a", Burst: 3, Every: 10 * time.Second}
	b := store.Bucket{Key: "b", Burst: 1, Every: time.Minute}
	take := func(now time.Time, take, need []store.Bucket) time.Duration {
		t.Helper()
		w, err := s.TakeTokens(ctx, now, take, need)
		must(t, err)
		return w
	}
	// A burst of 3, then a wait until one token is back.
	for i := range 3 {
		if w := take(at, []store.Bucket{a}, nil); w != 0 {
			t.Fatalf("attempt %d of a burst of 3: wait %v", i+1, w)
		}
	}
	if w := take(at, []store.Bucket{a}, nil); w != 10*time.Second {
		t.Errorf("the 4th at once: wait %v, want 10s", w)
	}
	if w := take(at.Add(4*time.Second), []store.Bucket{a}, nil); w != 6*time.Second {
		t.Errorf("4 s later: wait %v, want 6s", w)
	}
	if w := take(at.Add(10*time.Second), []store.Bucket{a}, nil); w != 0 {
		t.Errorf("10 s later: wait %v, want none", w)
	}
	// A clock behind the one that spent (another process's) refills
	// nothing: the bucket is as the other left it.
	if w := take(at.Add(5*time.Second), []store.Bucket{a}, nil); w != 10*time.Second {
		t.Errorf("a clock 5 s behind: wait %v, want 10s", w)
	}
	// All or none: b spent, then a and b together are refused and a is
	// not spent; b needed (not spent) refuses a alone.
	later := at.Add(time.Hour) // a full again
	if w := take(later, []store.Bucket{b}, nil); w != 0 {
		t.Fatalf("b's one token: wait %v", w)
	}
	if w := take(later, []store.Bucket{a, b}, nil); w != time.Minute {
		t.Errorf("a and b, b empty: wait %v, want 1m", w)
	}
	if w := take(later, []store.Bucket{a}, []store.Bucket{b}); w != time.Minute {
		t.Errorf("a needing b, b empty: wait %v, want 1m", w)
	}
	for i := range 3 {
		if w := take(later, []store.Bucket{a}, nil); w != 0 {
			t.Errorf("a after the refusals, attempt %d: wait %v (a refused attempt spent a token)", i+1, w)
		}
	}
	// Needing a bucket does not spend it.
	c := store.Bucket{Key: "c", Burst: 1, Every: time.Minute}
	d := store.Bucket{Key: "d", Burst: 5, Every: time.Minute}
	if w := take(later, []store.Bucket{d}, []store.Bucket{c}); w != 0 {
		t.Errorf("d needing a full c: wait %v", w)
	}
	if w := take(later, []store.Bucket{c}, nil); w != 0 {
		t.Errorf("c after being needed: wait %v (needing spent it)", w)
	}
	// Forgetting the full buckets keeps the others.
	must(t, s.PruneLimits(ctx, later.Add(time.Second)))
	if w := take(later.Add(time.Second), []store.Bucket{c}, nil); w == 0 {
		t.Error("c, spent a second ago, is full after the pruning")
	}
	if _, err := s.TakeTokens(ctx, at, []store.Bucket{{Key: "e", Burst: 0, Every: time.Second}}, nil); err == nil {
		t.Error("a bucket of burst 0 taken")
	}

	// Many callers at once on one bucket of 10, at one instant: 10 taken.
	shared := store.Bucket{Key: "shared", Burst: 10, Every: time.Hour}
	var wg sync.WaitGroup
	var mu sync.Mutex
	taken, refused := 0, 0
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := s.TakeTokens(ctx, at, []store.Bucket{shared, {Key: "addr", Burst: 100, Every: time.Second}}, nil)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Error(err)
			case w == 0:
				taken++
			default:
				refused++
			}
		}()
	}
	wg.Wait()
	if taken != 10 || refused != 30 {
		t.Errorf("40 callers at once on a bucket of 10: %d taken, %d refused", taken, refused)
	}

	// Marks.
	marked := func(key string, now time.Time) bool {
		t.Helper()
		m, err := s.Marked(ctx, key, now)
		must(t, err)
		return m
	}
	if marked("m", at) {
		t.Error("a key never marked is marked")
	}
	must(t, s.SetMark(ctx, "m", at.Add(time.Hour)))
	must(t, s.SetMark(ctx, "n", at.Add(time.Hour)))
	if !marked("m", at) || !marked("m", at.Add(59*time.Minute)) || marked("m", at.Add(time.Hour)) {
		t.Error("a mark until an hour later: not marked within the hour, or marked after")
	}
	must(t, s.SetMark(ctx, "m", time.Time{}))
	if marked("m", at) || !marked("n", at) {
		t.Error("clearing m's mark: m still marked, or n's mark gone")
	}
	must(t, s.PruneLimits(ctx, at.Add(2*time.Hour)))
	if marked("n", at) {
		t.Error("a mark past at the pruning is kept")
	}
}
