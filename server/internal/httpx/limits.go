package httpx

import (
	"sync"
	"time"

	"golang.org/x/time/rate"

	"alak/wire"
)

// Limiters rate-limits attempts by key (an address, a name, an account):
// a token bucket a key, of burst attempts refilled at every per second.
type Limiters struct {
	mu    sync.Mutex
	every rate.Limit
	burst int
	m     map[string]*limiterEntry
}

type limiterEntry struct {
	l    *rate.Limiter
	seen time.Time
}

// NewLimiters returns limiters of burst attempts a key, refilled at every
// per second.
func NewLimiters(every rate.Limit, burst int) *Limiters {
	return &Limiters{every: every, burst: burst, m: map[string]*limiterEntry{}}
}

// PerMinute returns limiters of n attempts a minute, after a burst of n.
func PerMinute(n int) *Limiters {
	return NewLimiters(rate.Limit(float64(n)/60), n)
}

// entry returns key's entry, made if need be, forgetting keys idle for an
// hour so that the table stays small. l.mu must be held.
func (l *Limiters) entry(key string, now time.Time) *limiterEntry {
	if len(l.m) > 10000 {
		for k, e := range l.m {
			if now.Sub(e.seen) > time.Hour {
				delete(l.m, k)
			}
		}
	}
	e := l.m[key]
	if e == nil {
		e = &limiterEntry{l: rate.NewLimiter(l.every, l.burst)}
		l.m[key] = e
	}
	e.seen = now
	return e
}

// Wait returns how long key must wait for its next attempt: 0 when it may
// try now. It takes nothing.
func (l *Limiters) Wait(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return BucketWait(l.entry(key, now).l, now)
}

// BucketWait is how long until the bucket holds one attempt.
func BucketWait(b *rate.Limiter, now time.Time) time.Duration {
	tokens := b.TokensAt(now)
	if tokens >= 1 {
		return 0
	}
	if b.Limit() <= 0 {
		return time.Hour
	}
	return time.Duration((1 - tokens) / float64(b.Limit()) * float64(time.Second))
}

// Take spends one attempt of key; false when there is none left.
func (l *Limiters) Take(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.entry(key, now).l.AllowN(now, 1)
}

// Allow spends one attempt of key, or returns how long it must wait.
func (l *Limiters) Allow(key string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.entry(key, now)
	if e.l.AllowN(now, 1) {
		return 0, true
	}
	return max(BucketWait(e.l, now), time.Second), false
}

// Limit is one bucket of an attempt that several limits count.
type Limit struct {
	L   *Limiters
	Key string
}

// AllowAll spends one attempt of every limit when each has one; otherwise
// it spends none (as far as a concurrent request leaves it) and returns
// the longest wait.
func AllowAll(now time.Time, ls ...Limit) (time.Duration, bool) {
	var most time.Duration
	for _, x := range ls {
		most = max(most, x.L.Wait(x.Key, now))
	}
	if most > 0 {
		return most, false
	}
	for _, x := range ls {
		if !x.L.Take(x.Key, now) { // another request took the last one meanwhile
			return max(x.L.Wait(x.Key, now), time.Second), false
		}
	}
	return 0, true
}

// TooMany is a refusal for the rate whose Retry-After is wait, rounded up
// to seconds.
func TooMany(wait time.Duration, format string, a ...any) *Error {
	e := Errf(wire.RateLimited, "rate_limited", format, a...)
	e.RetryAfter = wait
	return e
}
