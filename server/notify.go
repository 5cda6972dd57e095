package server

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

// listen follows the other processes' changes for the games this process's
// streams watch.
func (s *Server) listen() {
	ctx := contextOf(s.done)
	rp := s.startRepublisher(ctx)
	changed := func(game string, ply, version int) {
		s.caches.states.stale(game, version)
		s.accountEvents.wakeAll() // an account stream looks whether it concerns it
		if s.broker.watched(game) && version > s.broker.published(game) {
			rp.soon(game)
		}
	}
	resync := func() {
		for _, game := range s.broker.games() {
			rp.soon(game)
		}
	}
	for {
		err := s.cfg.Notifier.Listen(ctx, changed, resync)
		if ctx.Err() != nil {
			return
		}
		s.log.Warn("listening for other processes' changes failed; again in a second", "err", err)
		select {
		case <-s.done:
			return
		case <-time.After(time.Second):
		}
	}
}

// republish reads a game and hands it to the watchers; the state read is
// the game's freshest, kept for this process's next change of it.
func (s *Server) republish(ctx context.Context, game string) {
	unlock := s.lockGame(game)
	defer unlock()
	st, err := s.loadGame(ctx, game)
	if err != nil {
		s.log.Warn("reading a game another process changed", "game", game, "err", err)
		return
	}
	s.publishLocal(st, s.toMove(st))
	s.caches.states.put(st)
}
