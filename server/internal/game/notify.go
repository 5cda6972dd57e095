package game

import (
	"context"
	"time"
)

// Notifier carries "game G is now at version V" between the server
// processes that share one database (PostgreSQL's LISTEN/NOTIFY, package
// pgstore). A process that hears of a change reads the game from the
// database and hands it to its own watchers; the notification itself
// carries nothing else, so a lost one costs only a late update, which a
// resynchronisation repairs.
type Notifier interface {
	// Notify tells every process (this one included) that the game changed.
	Notify(ctx context.Context, game string, ply, version int) error
	// Listen calls changed for every notification until ctx ends. After
	// its connection was lost and made again it calls resync, since
	// notifications may have been missed meanwhile.
	Listen(ctx context.Context, changed func(game string, ply, version int), resync func()) error
}

// Listen follows the other processes' changes (Config.Notifier) for the
// games this process's streams watch, until ctx ends; each change runs
// Hooks.Notified.
func (c *Core) Listen(ctx context.Context) {
	rp := c.startRepublisher(ctx)
	changed := func(game string, ply, version int) {
		c.States.Stale(game, version)
		if c.Hooks.Notified != nil {
			c.Hooks.Notified(game)
		}
		if c.Broker.Watched(game) && version > c.Broker.Published(game) {
			rp.soon(game)
		}
	}
	resync := func() {
		for _, game := range c.Broker.Games() {
			rp.soon(game)
		}
	}
	for {
		err := c.cfg.Notifier.Listen(ctx, changed, resync)
		if ctx.Err() != nil {
			return
		}
		c.log.Warn("listening for other processes' changes failed; again in a second", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// republish reads a game and hands it to the watchers; the state read is
// the game's freshest, kept for this process's next change of it.
func (c *Core) republish(ctx context.Context, game string) {
	unlock := c.LockGame(game)
	defer unlock()
	st, err := c.Load(ctx, game)
	if err != nil {
		c.log.Warn("reading a game another process changed", "game", game, "err", err)
		return
	}
	c.PublishLocal(st, st.ToMoveAccount())
	c.States.Put(st)
}
