package store

import (
	"context"
	"time"
)

// Bucket is a token bucket of the limits kept in the store: Burst
// tokens when full, one more every Every. A bucket the store has never
// seen, or has forgotten, is full.
type Bucket struct {
	Key   string // at most 200 bytes, without NUL
	Burst int
	Every time.Duration
}

// Limits are token buckets and marks kept in the database, so that every
// server process on one database counts the same attempts (the sign-in
// limits: server/internal/accounts/auth.go holds the policy, which
// buckets an attempt spends). Times are the caller's clock.
type LimitStore interface {
	// TakeTokens spends one token of each bucket of take when each of
	// them, and each bucket of need, holds one at now; otherwise it spends
	// none and returns how long until all of them would (more than 0).
	// The check and the spending are one transaction: processes taking
	// from one bucket at once never spend more than it holds.
	TakeTokens(ctx context.Context, now time.Time, take, need []Bucket) (time.Duration, error)
	// SetMark marks key until then (a zero until clears the mark).
	SetMark(ctx context.Context, key string, until time.Time) error
	// Marked reports whether key is marked at now.
	Marked(ctx context.Context, key string, now time.Time) (bool, error)
	// PruneLimits forgets the buckets full again at now (a bucket
	// forgotten is full) and the marks past.
	PruneLimits(ctx context.Context, now time.Time) error
}
