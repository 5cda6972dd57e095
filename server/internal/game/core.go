package game

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"alak/rules"
	"alak/server/store"
	"alak/session"
	"alak/wire"
)

// Store is the part of the store the core uses: the games and their logs,
// a game's messages (the view shows them to its players) and the
// accounts (the players' names).
type Store interface {
	store.GameStore
	store.AroundStore
	store.AccountStore
}

// Config is what the core takes from the server that builds it.
type Config struct {
	// Store holds the games; Log the server's logger; Now its clock.
	Store Store
	Log   *slog.Logger
	Now   func() time.Time
	// FirstMove is how long each player of a live game has for their
	// first move; BotMoveTime bounds one computer move (the server's
	// Config says more of each).
	FirstMove   time.Duration
	BotMoveTime time.Duration
	// Heartbeat is how often the process records in the store that it is
	// alive (downtime.go).
	Heartbeat time.Duration
	// StreamWriteTimeout and StreamKeepAlive bound the event streams'
	// writes and space their keep-alives (Stream).
	StreamWriteTimeout time.Duration
	StreamKeepAlive    time.Duration
	// Notifier carries changes between processes sharing the store; nil
	// for a single process.
	Notifier Notifier
	// Metrics are the counters the core adds to; the server exposes them.
	Metrics *Metrics
	// Done is closed when the server stops: the streams end, the
	// republishing workers (Listen) return. Spawn runs f in the server's
	// background work, which the server waits for when it closes.
	Done  <-chan struct{}
	Spawn func(f func())
}

// Metrics are the counters of the core, read by the server's metrics.
type Metrics struct {
	// Moves stored (by people and by the computer), changes refused by the
	// store's version check, other failed writes of a change, games ended
	// on time by the server.
	Moves, Conflicts, DBErrors, Adjudications atomic.Int64
	// Streams open; streams closed because the client did not read them;
	// events of the player to move handed to their stream's goroutine
	// rather than written by the change's request itself.
	Streams, SlowStreams, LeadMissed atomic.Int64
}

// Core is the game core: it loads a game and rebuilds its session,
// serialises the changes this process makes to one game, acts on a game
// and commits the change with the store's version check, builds the
// game's view and event once per change, and hands it to the event
// streams of this process and, through the Notifier, of the others. The
// features that react to a game (mail, the computer, tournaments,
// ratings, messages, vacation, conditional moves) register Hooks and
// ViewParts when the server is built: the core never names them. Its
// methods are safe for concurrent use once the hooks are set.
type Core struct {
	store   Store
	log     *slog.Logger
	now     func() time.Time
	cfg     Config
	metrics *Metrics

	// Hooks are what the features do when a game changes; Parts the
	// parts of a game's view the features make. Set before the first
	// request, never after.
	Hooks Hooks
	Parts ViewParts

	// Broker hands each game's new states to the streams watching it.
	Broker *Broker
	// States is each game's state as this process last committed it
	// (cache.go).
	States StateCache
	// Reruns counts the actions run again on the stored game because the
	// cached state was stale.
	Reruns atomic.Int64

	names nameCache
	locks sync.Map // game id → *sync.Mutex
	// proc is this process's id among those serving the store, given by
	// Resume (downtime.go).
	proc string
}

// New returns a core on cfg.Store; its hooks are set by the caller
// before it serves a request.
func New(cfg Config) *Core {
	if cfg.Metrics == nil {
		cfg.Metrics = &Metrics{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Spawn == nil {
		cfg.Spawn = func(f func()) { go f() }
	}
	return &Core{store: cfg.Store, log: cfg.Log, now: cfg.Now, cfg: cfg, metrics: cfg.Metrics, Broker: NewBroker()}
}

// Hooks are what the features do when the core loads, changes or stores
// a game, set once by the server: the core calls each at one point of its
// work, in the order of that work, and never names the features. A nil
// hook does nothing.
type Hooks struct {
	// Stored run once a change is stored, before it is published.
	Stored HookList
	// Published run once a change is published and cached.
	Published HookList
	// Tournament reads the tournament and round of a tournament's game
	// (nil for other games), when a game is loaded: its view shows them.
	Tournament func(ctx context.Context, row store.Game) (*wire.TournamentRef, error)
	// Computer is the player of a computer seat of the given spec, built
	// on demand (seed: the seat's own, from the game and the side).
	Computer func(spec string, seed uint64) session.Player
	// Played runs when a move m of mover is played on a state, before the
	// change is committed: it may add to the change (a conditional
	// reply: more entries, an After).
	Played func(st *State, mover rules.Color, m rules.Move, now time.Time, ch *Change)
	// Turn runs once a move is stored in a game that goes on: the
	// computer's reply when it is to move, the your-turn mail.
	Turn func(st *State)
	// Notified runs for every change another process tells of (through
	// the Notifier), before the game's streams here are brought up to it.
	Notified func(game string)
}

// ViewParts are the parts of a game's view (wire.Game) that the features
// make, each called at its place in View, in the view's order. A nil part
// is left out.
type ViewParts struct {
	// Account is how an account is shown as a player.
	Account func(a store.Account) wire.Seat
	// ComputerName names a computer seat by its spec.
	ComputerName func(spec string) string
	// Ratings is the seats' ratings and, once the game is rated, their
	// changes.
	Ratings func(ctx context.Context, row store.Game) wire.GameRatings
	// Invitee names the player a named challenge was made to.
	Invitee func(ctx context.Context, row store.Game) string
	// Vacation gives, for a paused game, the seats on vacation and until
	// when.
	Vacation func(ctx context.Context, st *State) wire.SeatTimes
	// Rematch is the rematch offered or made after the game.
	Rematch func(ctx context.Context, st *State) *wire.Rematch
	// Private gives the event the frames that only its players' streams
	// send (the view with their messages).
	Private func(ctx context.Context, ev *Event, st *State)
}
