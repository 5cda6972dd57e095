package server

import (
	"context"
	"errors"
	"time"

	"alak/player"
	"alak/rules"
	"alak/server/internal/game"
	"alak/server/store"
	"alak/session"
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
	st, err := s.core.Load(ctx, j.id)
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
	_, err = s.core.Act(ctx, j.id, func(cur *game.State, now time.Time) (*game.Change, error) {
		if cur.Row.Version != j.version {
			return nil, store.ErrConflict
		}
		c := cur.Sess.ToMove()
		if m == rules.Resign {
			if err := cur.Sess.Resign(c); err != nil {
				return nil, err
			}
			return &game.Change{}, nil
		}
		return s.core.PlayMove(cur, c, m, 0, now)
	})
	if err != nil && !errors.Is(err, store.ErrConflict) {
		s.log.Error("playing the computer's move", "game", j.id, "err", err)
	}
}

// computer is the player of a computer seat (game.Hooks.Computer).
func (s *Server) computer(spec string, seed uint64) session.Player {
	return &botPlayer{s: s, spec: spec, seed: seed}
}

// botPlayer is a computer seat: its player is built at its first move. A
// perfect player (perfect, or a level that is perfect) answers from the
// server's table of the game's rules when it has one (Config.TableDir),
// and its moves are counted by how they were made (alak_perfect_moves_total).
type botPlayer struct {
	s    *Server
	spec string
	seed uint64
	p    player.Player
}

func (b *botPlayer) Name() string { return b.spec }

func (b *botPlayer) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	if b.p == nil {
		p, err := player.NewUntrusted(b.spec, b.seed+uint64(g.Len()))
		if err != nil {
			return rules.NoMove, err
		}
		if pf, ok := p.(*player.Perfect); ok {
			pf.UseTables(b.s.tables)
			pf.UseStrong() // past the tables: proofs of the reachable positions, else search
		}
		b.p = p
	}
	rep, ok := b.p.(player.Reporter)
	if !ok {
		return b.p.Move(ctx, g)
	}
	before := rep.Report()
	m, err := b.p.Move(ctx, g)
	b.s.metrics.perfect.observe(before, rep.Report())
	return m, err
}

func (b *botPlayer) Close() error {
	if b.p == nil {
		return nil
	}
	return b.p.Close()
}

// afterMove runs once a move is stored in a game that goes on
// (game.Hooks.Turn): the computer's reply when it is to move, and by
// correspondence the your-turn mail.
func (s *Server) afterMove(st *game.State) {
	seat := st.Row.Black
	if st.Sess.ToMove() == rules.White {
		seat = st.Row.White
	}
	if seat.Bot != "" {
		s.bots.schedule(st.Row.ID, st.Row.Version)
		return
	}
	if st.Clock.Kind == game.ClockDays {
		s.mailYourTurn(st, seat.AccountID)
	}
}
