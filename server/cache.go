package server

import (
	"sync"
	"sync/atomic"
	"time"

	"alak/server/store"
	"alak/wire"
)

// caches keep what the move path would otherwise read from the store at
// every request. Each stays right with several processes on one database:
//
//   - names: an account's name (or guest number) never changes, so it is
//     kept for good;
//   - tokens: a token's account is kept for tokenTTL; signing out in this
//     process forgets the token at once, but another process may still
//     honour it until its entry there is tokenTTL old (docs/load.md);
//   - states: each game's state (row, log, session) as this process's last
//     change left it, used by act only under the game's lock and checked
//     by the store's version check at the commit: when another process
//     changed the game meanwhile, the commit fails with store.ErrConflict
//     and act runs the action again on the game read from the store.
//
// The zero value is ready to use.
type caches struct {
	names  nameCache
	tokens tokenCache
	states stateCache
	// reruns counts the actions run again on the stored game because the
	// cached state was stale.
	reruns atomic.Int64
}

// Bounds of the caches: beyond them, entries are dropped.
const (
	maxNames  = 100_000
	maxTokens = 100_000
	maxStates = 5_000
	tokenTTL  = 10 * time.Second
)

// nameCache keeps accounts' names as players are shown.
type nameCache struct {
	mu sync.RWMutex
	m  map[int64]wire.Seat
}

func (c *nameCache) get(id int64) (wire.Seat, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	pv, ok := c.m[id]
	return pv, ok
}

func (c *nameCache) put(id int64, pv wire.Seat) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxNames {
		c.m = map[int64]wire.Seat{}
	}
	c.m[id] = pv
}

// tokenCache keeps the account of a token (by the token's hash) for
// tokenTTL, and never past the token's expiry.
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
	until := now.Add(tokenTTL)
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

// stateCache keeps each game's state as this process last committed it.
// A state is taken out while a change is made on it (under the game's
// lock), and put back once that change is committed: no state in the
// cache is ever being changed, and one whose change failed is dropped.
type stateCache struct {
	mu sync.Mutex
	m  map[string]*State
}

// take removes and returns the game's state, or nil.
func (c *stateCache) take(id string) *State {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.m[id]
	delete(c.m, id)
	return st
}

// put keeps a state just committed, in place of the game's earlier one.
func (c *stateCache) put(st *State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*State{}
	}
	if _, ok := c.m[st.Row.ID]; !ok && len(c.m) >= maxStates {
		for id := range c.m { // any one: map order is random
			delete(c.m, id)
			break
		}
	}
	c.m[st.Row.ID] = st
}

// event returns the event of the game's cached state: its view as last
// committed in this process, or as last read after another's change.
func (c *stateCache) event(id string) (Event, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.m[id]
	if !ok || st.Event.Data == nil || st.Event.Version != st.Row.Version {
		return Event{}, false
	}
	return st.Event, true
}

// stale drops the game's state if it is older than version (another
// process changed the game).
func (c *stateCache) stale(id string, version int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[id]; ok && st.Row.Version < version {
		delete(c.m, id)
	}
}
