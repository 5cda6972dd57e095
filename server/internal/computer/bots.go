package computer

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"alak/player"
	"alak/rules"
	"alak/server/internal/game"
	"alak/server/store"
	"alak/session"
	"alak/solve"
)

// Config is what the computer takes of the server.
type Config struct {
	// Core is the game core: the computer's moves are played through it.
	Core *game.Core
	// Accounts and Games are the store's roles the house bots use: their
	// accounts, and the challenges addressed to them.
	Accounts store.AccountStore
	Games    store.GameStore
	// Tables is the server's solver (package tables): a perfect seat
	// answers from it.
	Tables *solve.Tables
	Log    *slog.Logger
	Now    func() time.Time
	// MoveTime bounds one computer move (Config.BotMoveTime of the server).
	MoveTime time.Duration
	// Queue is how many games may wait for the computer's move.
	Queue int
	// Done is closed when the server stops: the workers and the house
	// bots' look for challenges end.
	Done <-chan struct{}
	// Spawn runs f in the server's goroutines, which Close waits for.
	Spawn func(f func())
	// Perfect counts a perfect seat's move by how it was made: the
	// player's report before and after it (the server's metrics).
	Perfect func(before, after player.Report)
	// SeatAndStart seats account a in a waiting game and starts it (the
	// join's own step): a house bot takes a challenge through it.
	SeatAndStart func(ctx context.Context, st *game.State, a *store.Account, now time.Time) (*game.Change, error)
	// YourTurn mails the player of account of a correspondence game that
	// it is their turn.
	YourTurn func(st *game.State, account int64)
}

// Bots plays the computer's moves: a bounded queue of games where a
// computer is to move, and a few workers (Work). A computer's move is
// computed outside the game's lock, on the state of one version, and
// played only if the game is still at that version; the periodic sweep
// of the server schedules again any game a full queue or a restart left
// waiting. With StartHouseBots, it also keeps the house bots
// (housebots.go).
type Bots struct {
	cfg   Config
	queue chan botJob
	// pending is the jobs queued or being played: the sweep schedules
	// every game where a computer is to move, again each second, and a
	// move taking longer than that (a loaded machine, a long move time)
	// would otherwise be computed again by another worker, its result
	// thrown away as a conflict.
	mu      sync.Mutex
	pending map[botJob]bool
	// house is the house bots, nil until StartHouseBots.
	house *houseBots
}

type botJob struct {
	id      string
	version int
}

// New returns the computer of cfg; Work runs one of its workers.
func New(cfg Config) *Bots {
	return &Bots{cfg: cfg, queue: make(chan botJob, cfg.Queue), pending: map[botJob]bool{}}
}

// Schedule asks for the computer's move in game id at version, unless it
// is queued or being played already; a full queue drops it (the sweep
// finds the game again).
func (b *Bots) Schedule(id string, version int) {
	j := botJob{id, version}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pending[j] {
		return
	}
	select {
	case b.queue <- j:
		b.pending[j] = true
	default:
		b.cfg.Log.Warn("the computer's queue is full; the sweep will take the game", "game", id)
	}
}

// Depth is how many games wait for the computer's move.
func (b *Bots) Depth() int { return len(b.queue) }

// Work plays queued moves until the server stops.
func (b *Bots) Work() {
	for {
		select {
		case <-b.cfg.Done:
			return
		case j := <-b.queue:
			b.play(j)
		}
	}
}

// finished takes job j off the pending ones: it may be scheduled again.
func (b *Bots) finished(j botJob) {
	b.mu.Lock()
	delete(b.pending, j)
	b.mu.Unlock()
}

func (b *Bots) play(j botJob) {
	defer b.finished(j)
	cfg := b.cfg
	ctx, cancel := context.WithTimeout(context.Background(), cfg.MoveTime+5*time.Second)
	defer cancel()
	st, err := cfg.Core.Load(ctx, j.id)
	if err != nil {
		cfg.Log.Error("loading a game for the computer", "game", j.id, "err", err)
		return
	}
	if st.Row.Version != j.version || !st.BotToMove() {
		return // moved on since: a later job, or none, is due
	}
	m, err := st.Sess.Reply(ctx) // plays on this copy only
	st.Sess.Close()
	if err != nil {
		cfg.Log.Error("the computer could not move", "game", j.id, "err", err)
		return
	}
	_, err = cfg.Core.Act(ctx, j.id, func(cur *game.State, now time.Time) (*game.Change, error) {
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
		return cfg.Core.PlayMove(cur, c, m, 0, now)
	})
	if err != nil && !errors.Is(err, store.ErrConflict) {
		cfg.Log.Error("playing the computer's move", "game", j.id, "err", err)
	}
}

// Player is the player of a computer seat (game.Hooks.Computer).
func (b *Bots) Player(spec string, seed uint64) session.Player {
	return &botPlayer{b: b, spec: spec, seed: seed}
}

// botPlayer is a computer seat: its player is built at its first move. A
// perfect player (perfect, or a level that is perfect) answers from the
// server's table of the game's rules when it has one (Config.Tables),
// and its moves are counted by how they were made (Config.Perfect).
type botPlayer struct {
	b    *Bots
	spec string
	seed uint64
	p    player.Player
}

func (p *botPlayer) Name() string { return p.spec }

func (p *botPlayer) Move(ctx context.Context, g *rules.Game) (rules.Move, error) {
	if p.p == nil {
		pl, err := player.NewUntrusted(p.spec, p.seed+uint64(g.Len()))
		if err != nil {
			return rules.NoMove, err
		}
		if pf, ok := pl.(*player.Perfect); ok {
			pf.UseTables(p.b.cfg.Tables)
			pf.UseStrong() // past the tables: proofs of the reachable positions, else search
		}
		p.p = pl
	}
	rep, ok := p.p.(player.Reporter)
	if !ok {
		return p.p.Move(ctx, g)
	}
	before := rep.Report()
	m, err := p.p.Move(ctx, g)
	p.b.cfg.Perfect(before, rep.Report())
	return m, err
}

func (p *botPlayer) Close() error {
	if p.p == nil {
		return nil
	}
	return p.p.Close()
}

// AfterMove runs once a move is stored in a game that goes on
// (game.Hooks.Turn): the computer's reply when it is to move, and by
// correspondence the your-turn mail (Config.YourTurn).
func (b *Bots) AfterMove(st *game.State) {
	seat := st.Row.Black
	if st.Sess.ToMove() == rules.White {
		seat = st.Row.White
	}
	if seat.Bot != "" {
		b.Schedule(st.Row.ID, st.Row.Version)
		return
	}
	if st.Clock.Kind == game.ClockDays {
		b.cfg.YourTurn(st, seat.AccountID)
	}
}
