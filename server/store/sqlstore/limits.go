package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"alak/server/store"
)

// The statements of the shared limits (store.Bucket). qLockBucket makes
// a bucket's row if it has none (full) and returns its tokens, locking it
// on PostgreSQL until the transaction ends (the no-op update takes the
// row's lock, so that processes taking from one bucket at once take
// turns); SQLite has one writer at a time.
var (
	qLockBucket = `INSERT INTO limit_buckets (key, tokens, at_ms, full_ms) VALUES (?, ?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET tokens = limit_buckets.tokens RETURNING tokens, at_ms`
	qSetBucket  = `UPDATE limit_buckets SET tokens = ?, at_ms = ?, full_ms = ? WHERE key = ?`
	qSetMark    = `INSERT INTO limit_marks (key, until_ms) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET until_ms = excluded.until_ms`
	qClearMark  = `DELETE FROM limit_marks WHERE key = ?`
	qPruneMarks = `DELETE FROM limit_marks WHERE until_ms <= ?`
	qPruneFull  = `DELETE FROM limit_buckets WHERE full_ms <= ?`
)

func init() {
	txQueries = append(txQueries, qLockBucket, qSetBucket, qSetMark, qClearMark, qPruneMarks, qPruneFull)
}

// checkBucket refuses a bucket that holds nothing or never refills.
func checkBucket(b store.Bucket) error {
	if b.Burst < 1 || b.Every < time.Millisecond || b.Key == "" || len(b.Key) > 200 {
		return fmt.Errorf("bucket %q: a burst of at least 1 and a refill of at least 1 ms, a key of 1 to 200 bytes", b.Key)
	}
	return nil
}

// bucketLevel is a bucket's tokens at now (ms), from its tokens at at.
func bucketLevel(b store.Bucket, tokens float64, at, now int64) float64 {
	if now > at {
		tokens += float64(now-at) / float64(b.Every.Milliseconds())
	}
	return math.Min(tokens, float64(b.Burst))
}

// TakeTokens spends one token of each bucket of take when every bucket of
// take and need holds one, in one transaction; otherwise it returns the
// wait for the emptiest.
func (s *Store) TakeTokens(ctx context.Context, now time.Time, take, need []store.Bucket) (time.Duration, error) {
	spend := map[string]bool{}
	all := map[string]store.Bucket{}
	for i, b := range append(append([]store.Bucket(nil), take...), need...) {
		if err := checkBucket(b); err != nil {
			return 0, err
		}
		if _, ok := all[b.Key]; !ok {
			all[b.Key] = b
		}
		spend[b.Key] = spend[b.Key] || i < len(take)
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys) // one locking order: two transactions wait, never deadlock
	t := now.UnixMilli()
	var wait time.Duration
	err := s.write(ctx, true, func(ctx context.Context, tx *sql.Tx) error {
		wait = 0
		level := map[string]float64{}
		for _, k := range keys {
			b := all[k]
			var tokens float64
			var at int64
			if err := s.row(ctx, tx, qLockBucket, k, float64(b.Burst), t, t).Scan(&tokens, &at); err != nil {
				return fmt.Errorf("limit %q: %w", k, err)
			}
			level[k] = bucketLevel(b, tokens, at, t)
			if level[k] < 1 {
				w := time.Duration(math.Ceil((1-level[k])*float64(b.Every.Milliseconds()))) * time.Millisecond
				wait = max(wait, w, time.Millisecond)
			}
		}
		if wait > 0 {
			return nil
		}
		for _, k := range keys {
			if !spend[k] {
				continue
			}
			b := all[k]
			left := level[k] - 1
			full := t + int64(math.Ceil((float64(b.Burst)-left)*float64(b.Every.Milliseconds())))
			if _, err := s.exec(ctx, tx, qSetBucket, left, t, full, k); err != nil {
				return fmt.Errorf("limit %q: %w", k, err)
			}
		}
		return nil
	})
	return wait, err
}

// SetMark marks key until then, or clears its mark (zero until).
func (s *Store) SetMark(ctx context.Context, key string, until time.Time) error {
	return s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if until.IsZero() {
			_, err = s.exec(ctx, tx, qClearMark, key)
		} else {
			_, err = s.exec(ctx, tx, qSetMark, key, until.UnixMilli())
		}
		return err
	})
}

// Marked reports whether key is marked at now.
func (s *Store) Marked(ctx context.Context, key string, now time.Time) (bool, error) {
	var until int64
	err := s.row(ctx, nil, `SELECT until_ms FROM limit_marks WHERE key = ?`, key).Scan(&until)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return until > now.UnixMilli(), nil
}

// PruneLimits deletes the buckets full again at now and the marks past.
func (s *Store) PruneLimits(ctx context.Context, now time.Time) error {
	return s.write(ctx, false, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := s.exec(ctx, tx, qPruneFull, now.UnixMilli()); err != nil {
			return err
		}
		_, err := s.exec(ctx, tx, qPruneMarks, now.UnixMilli())
		return err
	})
}
