package game

import (
	"sync"

	"alak/wire"
)

// The core keeps what the move path would otherwise read from the store
// at every request. Each stays right with several processes on one
// database:
//
//   - names: an account's name (or guest number) never changes, so it is
//     kept for good;
//   - states: each game's state (row, log, session) as this process's last
//     change left it, used by Act only under the game's lock and checked
//     by the store's version check at the commit: when another process
//     changed the game meanwhile, the commit fails with store.ErrConflict
//     and Act runs the action again on the game read from the store.

// Bounds of the caches: beyond them, entries are dropped.
const (
	maxNames  = 100_000
	maxStates = 5_000
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

// StateCache keeps each game's state as this process last committed it.
// A state is taken out while a change is made on it (under the game's
// lock), and put back once that change is committed: no state in the
// cache is ever being changed, and one whose change failed is dropped.
type StateCache struct {
	mu sync.Mutex
	m  map[string]*State
}

// Take removes and returns the game's state, or nil.
func (c *StateCache) Take(id string) *State {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.m[id]
	delete(c.m, id)
	return st
}

// Put keeps a state just committed, in place of the game's earlier one.
func (c *StateCache) Put(st *State) {
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

// Event returns the event of the game's cached state: its view as last
// committed in this process, or as last read after another's change.
func (c *StateCache) Event(id string) (Event, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.m[id]
	if !ok || st.Event.Data == nil || st.Event.Version != st.Row.Version {
		return Event{}, false
	}
	return st.Event, true
}

// Stale drops the game's state if it is older than version (another
// process changed the game).
func (c *StateCache) Stale(id string, version int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[id]; ok && st.Row.Version < version {
		delete(c.m, id)
	}
}
