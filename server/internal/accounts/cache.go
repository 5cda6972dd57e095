package accounts

import (
	"sync"
	"time"

	"alak/server/store"
)

// The token cache keeps what the request path would otherwise read from
// the store at every request: a token's account is kept for TokenTTL;
// signing out in this process forgets the token at once, but another
// process may still honour it until its entry there is TokenTTL old
// (docs/load.md). The game core keeps the players' names and the games'
// states (server/internal/game/cache.go).

// Bounds of the cache: beyond them, entries are dropped.
const (
	maxTokens = 100_000
	TokenTTL  = 10 * time.Second
)

// tokenCache keeps the account of a token (by the token's hash) for
// TokenTTL, and never past the token's expiry. The zero value is ready to
// use.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]tokenEntry
}

type tokenEntry struct {
	a     store.Account
	until time.Time // the earlier of the token's expiry and the end of the TTL
}

func (c *tokenCache) get(hash string, now time.Time) (store.Account, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[hash]
	if !ok || !now.Before(e.until) {
		return store.Account{}, false
	}
	return e.a, true
}

func (c *tokenCache) put(hash string, a store.Account, expires, now time.Time) {
	until := now.Add(TokenTTL)
	if expires.Before(until) {
		until = expires
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]tokenEntry{}
	}
	if len(c.m) >= maxTokens {
		for h, e := range c.m {
			if !now.Before(e.until) {
				delete(c.m, h)
			}
		}
		if len(c.m) >= maxTokens {
			clear(c.m)
		}
	}
	c.m[hash] = tokenEntry{a: a, until: until}
}

// forget drops a token (signed out).
func (c *tokenCache) forget(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, hash)
}

// forgetAccount drops every token of an account (its settings changed).
func (c *tokenCache) forgetAccount(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, e := range c.m {
		if e.a.ID == id {
			delete(c.m, h)
		}
	}
}
