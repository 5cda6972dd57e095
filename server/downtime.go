package server

import (
	"context"
	"fmt"
	"time"

	"alak/server/store"
)

// Downtime. A server process writes a heartbeat to the store every
// Config.Heartbeat, and a last one when it stops cleanly. A process that
// starts when no other is alive (none has beaten within staleBeats
// heartbeats without a clean stop) knows that nobody served the games
// from the last beat of any process until now: the store moves every
// running live clock on by that time (its turn's start and its deadline),
// so the server's downtime is charged to nobody, and the deadlines of
// correspondence games too when it exceeded daysShiftAfter. A process
// that starts while another serves the same database (several processes
// on PostgreSQL) shifts nothing: the games were served all along.
//
// After a clean stop the time given back is exact. After a crash it is
// the time since the crashed process's last beat, up to a heartbeat more
// than the downtime; and a process restarted within staleBeats heartbeats
// of a crash takes the crashed one for alive and gives nothing back, so
// up to that much (10 s by default) is charged as before.

// staleBeats is how many heartbeats a process may miss before it is taken
// as gone.
const staleBeats = 5

// daysShiftAfter: a downtime longer than this moves the correspondence
// deadlines too.
const daysShiftAfter = time.Hour

// resume registers the process in the store and gives the running clocks
// back the time no process served them.
func (s *Server) resume() error {
	s.proc = newID()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	down, err := s.store.Resume(ctx, store.Resume{Process: s.proc, Now: s.now(), Stale: staleBeats * s.cfg.Heartbeat, DaysAfter: daysShiftAfter})
	if err != nil {
		return fmt.Errorf("registering the process in the store: %w", err)
	}
	if down > 0 {
		s.log.Info("no process served the games for a while: their running clocks are given the time back",
			"downtime", down.Round(time.Millisecond).String(), "correspondence", down > daysShiftAfter)
	}
	return nil
}

// heartbeat records every Config.Heartbeat that the process is alive.
func (s *Server) heartbeat() {
	tick := time.NewTicker(s.cfg.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := s.store.Beat(ctx, s.proc, s.now(), false); err != nil {
			s.log.Warn("heartbeat", "err", err)
		}
		cancel()
	}
}

// RecordStop records the process's clean stop in the store: the downtime
// counts from it. Close calls it once the background work is over; a
// caller that still answers requests after Close (alak serve finishes
// those under way while it shuts down) calls it again when the last is
// answered, so that a move made then is not given back the time between.
func (s *Server) RecordStop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.store.Beat(ctx, s.proc, s.now(), true); err != nil {
		s.log.Warn("recording the stop", "err", err)
	}
}
