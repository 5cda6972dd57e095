package server

import (
	"context"
	"time"

	"alak/server/internal/game"
	"alak/server/store"
)

// sweep runs until the server stops: every Config.SweepEvery it settles
// the clocks that ran out (a loss on time, whether or not anyone is
// connected), expires challenges nobody took, mails the correspondence
// players whose time runs out, and schedules the computer's moves a full
// queue or a restart left waiting. Each settlement is a store update with
// the version check, so with several processes a game is adjudicated once.
func (s *Server) sweep() {
	tick := time.NewTicker(s.cfg.SweepEvery)
	defer tick.Stop()
	n := 0
	var pruned time.Time
	for {
		s.sweepOnce(n%10 == 0)
		n++
		if time.Since(pruned) >= pruneLimitsEvery {
			s.pruneLimits()
			pruned = time.Now()
		}
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
	}
}

// pruneLimitsEvery is how often the sweep forgets the sign-in limits'
// buckets that are full again and the marks that are past.
const pruneLimitsEvery = 10 * time.Minute

// pruneLimits forgets the limits' buckets full again and the marks past.
func (s *Server) pruneLimits() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.store.PruneLimits(ctx, s.now()); err != nil {
		s.log.Error("pruning the sign-in limits", "err", err)
	}
}

// sweepOnce does one round of sweep; bots says whether to look for games
// where the computer is to move.
func (s *Server) sweepOnce(bots bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	now := s.now()
	due, err := s.store.Due(ctx, now)
	if err != nil {
		s.log.Error("listing the games due", "err", err)
		s.metrics.DBErrors.Add(1)
	}
	for _, g := range due {
		s.core.Settle(ctx, g.ID, now)
	}
	s.countLiveGames(ctx)
	s.vacation.Sweep(ctx, now)
	if s.mail.Sends() {
		warn, err := s.store.Warnable(ctx, now.Add(game.WarnBefore))
		if err != nil {
			s.log.Error("listing the games to warn about", "err", err)
		}
		for _, g := range warn {
			s.warn(ctx, g.ID)
		}
	}
	if bots {
		active, err := s.store.Games(ctx, store.Filter{States: []string{store.StateActive}, Limit: 200})
		if err != nil {
			s.log.Error("listing the active games", "err", err)
		}
		for _, g := range active {
			if g.Black.Bot == "" && g.White.Bot == "" {
				continue
			}
			if st, err := s.core.Load(ctx, g.ID); err == nil && st.BotToMove() {
				s.bots.Schedule(g.ID, st.Row.Version)
			}
		}
	}
}

// warn mails the player to move in a correspondence game that time is
// running out, once per move (game.Core.Warn).
func (s *Server) warn(ctx context.Context, id string) {
	if st := s.core.Warn(ctx, id); st != nil {
		s.mailTimeRunningOut(st, st.ToMoveAccount())
	}
}
