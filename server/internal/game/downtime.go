package game

import (
	"context"
	"fmt"
	"time"

	"alak/server/store"
)

// Downtime. A server process writes a heartbeat to the store every
// Config.Heartbeat (Core.Heartbeat), and a last one when it stops cleanly. A process that
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

// Resume registers the process, proc its id among those serving the
// store, and gives the running clocks back the time no process served
// them. The server calls it once, before the first sweep of the clocks:
// a clock that ran out meanwhile is given its time back, not adjudicated.
func (c *Core) Resume(proc string) error {
	c.proc = proc
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	down, err := c.store.Resume(ctx, store.Resume{Process: c.proc, Now: c.now(), Stale: staleBeats * c.cfg.Heartbeat, DaysAfter: daysShiftAfter})
	if err != nil {
		return fmt.Errorf("registering the process in the store: %w", err)
	}
	if down > 0 {
		c.log.Info("no process served the games for a while: their running clocks are given the time back",
			"downtime", down.Round(time.Millisecond).String(), "correspondence", down > daysShiftAfter)
	}
	return nil
}

// Heartbeat records every Config.Heartbeat that the process is alive,
// until Config.Done is closed.
func (c *Core) Heartbeat() {
	tick := time.NewTicker(c.cfg.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-c.cfg.Done:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := c.store.Beat(ctx, c.proc, c.now(), false); err != nil {
			c.log.Warn("heartbeat", "err", err)
		}
		cancel()
	}
}

// RecordStop records the process's clean stop in the store: the downtime
// counts from it (the server's Close and RecordStop call it).
func (c *Core) RecordStop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.store.Beat(ctx, c.proc, c.now(), true); err != nil {
		c.log.Warn("recording the stop", "err", err)
	}
}
