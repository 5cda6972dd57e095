// Package game is the play server's game core: a game's state (State: the
// stored row and log, and the session rebuilt from them, which checks
// every move with the kernel), loading and rebuilding it (Core.Load),
// acting on a game under its lock and committing the change with the
// store's version check (Core.Act, Core.Commit, Core.PlayMove), the
// clocks (Clock), the end of a game whose clock ran out (Core.Settle) and
// the mark of a correspondence turn whose player is warned that time runs
// out (Core.Warn), the game's view and its event (Core.View,
// Core.EventOf), its SGF record (Core.Record), the event streams that
// carry each change to the watchers of this process and, through a
// Notifier, of the others (Broker, Core.HandleEvents, Core.Listen), and
// the process's heartbeat, which lets a process starting after an outage
// give the running clocks the time nobody served them back (Core.Resume,
// Core.Heartbeat, Core.RecordStop).
//
// The core names none of the features built on it. The server registers
// them when it builds the core: Hooks run when a game is loaded, a move
// played, a change stored or published, a game ended; ViewParts add the
// features' parts to a game's view.
//
//	core := game.New(game.Config{Store: st, Now: time.Now, FirstMove: 30 * time.Second})
//	core.Hooks.Published.OnEnd(func(ctx context.Context, st *game.State) { ... })
//	ev, err := core.Act(ctx, id, func(st *game.State, now time.Time) (*game.Change, error) {
//		c, err := st.Player(account)
//		...
//		return core.PlayMove(st, c, m, account.ID, now)
//	})
//
// The core takes the store's roles it uses (Store: the games, a game's
// messages, the accounts).
//
// Files: core.go (the core, its configuration, the hooks and view
// parts), games.go (the state, loading, acting, committing, settling,
// warning), clock.go (time controls), view.go (the view and the event of
// a state), sgf.go (the SGF record), events.go (the broker and the game's
// event stream), sse.go (the writing side of every event stream),
// notify.go (other processes' changes), cache.go (the states and names
// kept between requests), downtime.go (the heartbeat and the clocks given
// back after an outage).
package game
