package server

import (
	"context"
	"errors"
	"time"

	"alak/rules"
	"alak/server/store"
)

// bots plays the computer's moves: a bounded queue of games where a
// computer is to move, and a few workers. A computer's move is computed
// outside the game's lock, on the state of one version, and played only if
// the game is still at that version; the periodic sweep (Server.sweep)
// schedules again any game a full queue or a restart left waiting.
type bots struct {
	s     *Server
	queue chan botJob
}

type botJob struct {
	id      string
	version int
}

func newBots(s *Server, size int) *bots { return &bots{s: s, queue: make(chan botJob, size)} }

// schedule asks for the computer's move in game id at version; a full
// queue drops it (the sweep finds the game again).
func (b *bots) schedule(id string, version int) {
	select {
	case b.queue <- botJob{id, version}:
	default:
		b.s.log.Warn("the computer's queue is full; the sweep will take the game", "game", id)
	}
}

func (b *bots) depth() int { return len(b.queue) }

// work plays queued moves until the server stops.
func (b *bots) work() {
	for {
		select {
		case <-b.s.done:
			return
		case j := <-b.queue:
			b.play(j)
		}
	}
}

func (b *bots) play(j botJob) {
	s := b.s
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.BotMoveTime+5*time.Second)
	defer cancel()
	st, err := s.loadGame(ctx, j.id)
	if err != nil {
		s.log.Error("loading a game for the computer", "game", j.id, "err", err)
		return
	}
	if st.Row.Version != j.version || !st.BotToMove() {
		return // moved on since: a later job, or none, is due
	}
	m, err := st.Sess.Reply(ctx) // plays on this copy only
	st.Sess.Close()
	if err != nil {
		s.log.Error("the computer could not move", "game", j.id, "err", err)
		return
	}
	_, err = s.act(ctx, j.id, func(cur *State, now time.Time) (*Change, error) {
		if cur.Row.Version != j.version {
			return nil, store.ErrConflict
		}
		c := cur.Sess.ToMove()
		if m == rules.Resign {
			if err := cur.Sess.Resign(c); err != nil {
				return nil, err
			}
			return &Change{}, nil
		}
		return s.playMove(cur, c, m, 0, now)
	})
	if err != nil && !errors.Is(err, store.ErrConflict) {
		s.log.Error("playing the computer's move", "game", j.id, "err", err)
	}
}

// BotToMove reports whether a computer is to move in an active game.
func (st *State) BotToMove() bool {
	if st.Row.State != store.StateActive || st.Sess.Over() {
		return false
	}
	if st.Sess.ToMove() == rules.White {
		return st.Row.White.Bot != ""
	}
	return st.Row.Black.Bot != ""
}
