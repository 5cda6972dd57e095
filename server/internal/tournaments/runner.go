package tournaments

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"alak/rules"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/internal/pages"
	"alak/server/store"
	"alak/tournament"
	"alak/wire"
)

// Tournaments run themselves: the runner pairs a round, creates
// its games, follows their ends and pairs the next, until the pairing
// (package tournament) names a winner. It runs after a tournament game
// ends (on the process that ended it), after a start or a withdrawal, and
// on every sweep for each running tournament, so a round whose last game
// ended on a process that stopped before pairing is paired by the next
// sweep of any process.
//
// Every decision is the pure function tournament.Next of the stored state,
// and it is stored with the games it creates in one transaction, at the
// tournament's version (store.UpdateTournament): two processes deciding
// at once compute the same step, one stores it, the other's change is
// refused, and it reads the state again, where the step is done.

// MaxTries is how many games a slot gets: an aborted game is replayed,
// twice; the third abort forfeits the game of the player who was to move
// (ply 0: X never moved; ply 1: O never moved).
const MaxTries = 3

// Config is what the tournaments take of the server.
type Config struct {
	// Store is the store's tournaments role.
	Store store.TournamentStore
	// Core is the game core: a tournament's games are built, loaded and
	// ended through it, its players' names read from it, its event
	// streams opened by it.
	Core *game.Core
	// Pages draws the tournaments' pages.
	Pages *pages.Pages
	Log   *slog.Logger
	Now   func() time.Time
	// NewID returns a new game's id.
	NewID func() string
	// BaseURL is where players reach the server, for a tournament's URL:
	// read at each use, as the server's configuration holds it (its
	// tests set it once their listener has an address).
	BaseURL func() string
	// SweepEvery is the server's sweep: the runner's sweep and a
	// tournament stream's reading are never more often.
	SweepEvery time.Duration
	// StreamKeepAlive is how often an idle tournament stream sends a
	// comment.
	StreamKeepAlive time.Duration
	// Done is closed when the server stops: the runner and the streams end.
	Done <-chan struct{}
	// Games and GamesAt bound the new games (and tournaments) by account
	// and by address; the server's game creation spends from them too.
	Games, GamesAt *httpx.Limiters
	// TakeSeats records the ratings of a new game's seats (package
	// ratings), Seed a player's rating in a preset's pool, rounded as the
	// API shows it, and Ratable whether a tournament's rules can be rated.
	TakeSeats func(ctx context.Context, g *store.Game) error
	Seed      func(ctx context.Context, account int64, preset string) (float64, error)
	Ratable   func(rules string) bool
	// GameCreated tells the players' account streams of a new game;
	// YourTurn mails the player of account of a correspondence game that
	// it is their turn.
	GameCreated func(g store.Game)
	YourTurn    func(st *game.State, account int64)
}

// Service is the tournaments' runner and API in this process. Its methods
// are safe for concurrent use.
type Service struct {
	cfg   Config
	locks sync.Map // tournament id → *sync.Mutex: one runner at a time here
	names sync.Map // tournament id → name (names never change)
	kick  chan string
	// subs are the event streams by tournament, each told (a full
	// channel of capacity 1: at most one wake-up waiting) when this
	// process changed the tournament or one of its games.
	mu   sync.Mutex
	subs map[string]map[chan struct{}]bool
	// toggles counts each account's joins and leaves of tournaments,
	// which every watcher of the tournament is sent.
	toggles *httpx.Limiters
}

// An account's joins and leaves of tournaments, all together: a burst of
// ToggleBurst, then one every ToggleEvery.
const (
	ToggleBurst = 10
	ToggleEvery = 6 * time.Second
)

// New returns the tournaments of cfg; Work runs them.
func New(cfg Config) *Service {
	return &Service{cfg: cfg, kick: make(chan string, 256), subs: map[string]map[chan struct{}]bool{},
		toggles: httpx.NewLimiters(rate.Every(ToggleEvery), ToggleBurst)}
}

func (s *Service) lock(id string) func() {
	v, _ := s.locks.LoadOrStore(id, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

func (s *Service) watch(id string) chan struct{} {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subs[id] == nil {
		s.subs[id] = map[chan struct{}]bool{}
	}
	s.subs[id][ch] = true
	return ch
}

func (s *Service) unwatch(id string, ch chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.subs[id], ch)
	if len(s.subs[id]) == 0 {
		delete(s.subs, id)
	}
}

// changed wakes the streams of a tournament.
func (s *Service) changed(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.subs[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// GameEnded is called once a game's end is published (a hook of the
// game core): a game of a tournament that has just ended (finished or
// aborted) has its tournament run soon, on the runner's goroutine. A full
// queue drops it: the sweep runs it anyway.
func (s *Service) GameEnded(row store.Game) {
	if row.Kind != store.KindTournament {
		return
	}
	select {
	case s.kick <- row.ID:
	default:
	}
}

// tournamentSweep is how often each process runs every running
// tournament and starts the open ones whose time has come (at least, and
// Config.SweepEvery when longer). A game's end runs its tournament at
// once; the sweep is for a process that stopped between a game's end and
// the pairing, and for start times.
const tournamentSweep = 30 * time.Second

// Work runs the tournaments whose games ended, at the start and
// then on every tournament sweep the running ones and the open ones whose
// start time has come, until the server stops (Config.Done).
func (s *Service) Work() {
	tick := time.NewTicker(max(s.cfg.SweepEvery, tournamentSweep))
	defer tick.Stop()
	s.Sweep()
	for {
		select {
		case <-s.cfg.Done:
			return
		case game := <-s.kick:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			slots, err := s.cfg.Store.TournamentGames(ctx, []string{game})
			if err != nil {
				s.cfg.Log.Error("finding the tournament of a game", "game", game, "err", err)
			}
			for _, sl := range slots {
				s.changed(sl.TournamentID)
				if err := s.runTournament(ctx, sl.TournamentID); err != nil {
					s.cfg.Log.Error("running a tournament", "tournament", sl.TournamentID, "err", err)
				}
			}
			cancel()
		case <-tick.C:
			s.Sweep()
		}
	}
}

// Sweep starts the open tournaments whose start time has come and runs
// the running ones.
func (s *Service) Sweep() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	now := s.cfg.Now()
	open, err := s.cfg.Store.Tournaments(ctx, store.TournamentOpen, 200)
	if err != nil {
		s.cfg.Log.Error("listing the open tournaments", "err", err)
		return
	}
	for _, t := range open {
		if t.Starts.IsZero() || now.Before(t.Starts) {
			continue
		}
		if err := s.startTournament(ctx, t.ID, 0); err != nil && !isAPIError(err) {
			s.cfg.Log.Error("starting a tournament at its time", "tournament", t.ID, "err", err)
		}
	}
	running, err := s.cfg.Store.Tournaments(ctx, store.TournamentRunning, 200)
	if err != nil {
		s.cfg.Log.Error("listing the running tournaments", "err", err)
		return
	}
	for _, t := range running {
		if err := s.runTournament(ctx, t.ID); err != nil {
			s.cfg.Log.Error("running a tournament", "tournament", t.ID, "err", err)
		}
	}
}

func isAPIError(err error) bool {
	var ae *httpx.Error
	return errors.As(err, &ae)
}

// pairingState is the tournament as package tournament reads it, with
// the accounts of its players' names.
type pairingState struct {
	state tournament.State
	ids   map[string]int64
	names map[int64]string
}

// slotOutcome is a slot's result: a forfeit stored, a bye, or its game's.
func slotOutcome(sl store.TournamentGame) (tournament.Outcome, bool) {
	switch sl.Forfeit {
	case "x":
		return tournament.XWins, true
	case "o":
		return tournament.OWins, true
	case "both":
		return tournament.BothLose, true
	}
	if sl.O == 0 {
		return tournament.XWins, false
	}
	if sl.State == store.StateFinished {
		switch sl.Winner {
		case "x":
			return tournament.XWins, false
		case "o":
			return tournament.OWins, false
		case "draw":
			return tournament.Draw, false
		}
	}
	return tournament.Pending, false
}

func outcomeForfeit(o tournament.Outcome) string {
	switch o {
	case tournament.XWins:
		return "x"
	case tournament.OWins:
		return "o"
	case tournament.BothLose:
		return "both"
	}
	return ""
}

// allAtOnce: a correspondence round robin starts all its games at once
// (as Little Golem does); live ones go round by round.
func allAtOnce(t store.Tournament) bool {
	return game.ByDays(t.Clock) && (t.Format == string(tournament.FormatRoundRobin) || t.Format == string(tournament.FormatDoubleRoundRobin))
}

func newPairingState(t store.Tournament, players []store.TournamentPlayer, slots []store.TournamentGame) pairingState {
	ps := pairingState{ids: map[string]int64{}, names: map[int64]string{}}
	ps.state = tournament.State{ID: t.ID, Format: tournament.Format(t.Format), Rounds: t.Rounds, AllAtOnce: allAtOnce(t)}
	for _, p := range players {
		ps.ids[p.Name], ps.names[p.AccountID] = p.AccountID, p.Name
		ps.state.Players = append(ps.state.Players, tournament.Player{Name: p.Name, Rating: p.Rating, Withdrawn: p.Withdrawn})
	}
	for _, sl := range slots {
		o, forfeit := slotOutcome(sl)
		ps.state.Games = append(ps.state.Games, tournament.Game{Round: sl.Round, Slot: sl.Slot, X: ps.names[sl.X], O: ps.names[sl.O],
			Outcome: o, Forfeit: forfeit})
	}
	return ps
}

// runTournament brings a running tournament up to date: replays or
// forfeits its aborted games, records the forfeits of withdrawn players,
// pairs what is to be paired, and finishes it. Each change is one
// transaction at the tournament's version; a conflict (another process
// changed it first) reads it again.
func (s *Service) runTournament(ctx context.Context, id string) error {
	unlock := s.lock(id)
	defer unlock()
	for range 10 {
		t, players, slots, err := s.cfg.Store.Tournament(ctx, id)
		if err != nil {
			return err
		}
		if t.State != store.TournamentRunning {
			return nil
		}
		ch, forfeited, err := s.plan(ctx, t, players, slots)
		if err != nil || ch == nil {
			return err
		}
		err = s.cfg.Store.UpdateTournament(ctx, *ch)
		if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrDuplicate) {
			continue
		}
		if err != nil {
			return err
		}
		s.tournamentChanged(ctx, ch, forfeited)
	}
	return nil
}

// plan decides the tournament's next change, or nil when there is none.
// forfeited lists the games still being played whose slot the change
// decides (a withdrawn player's), to be ended once it is stored.
func (s *Service) plan(ctx context.Context, t store.Tournament, players []store.TournamentPlayer, slots []store.TournamentGame) (*store.TournamentChange, []forfeitedGame, error) {
	now := s.cfg.Now()
	ch := &store.TournamentChange{T: t, Expect: t.Version}
	ch.T.Version++
	// Aborted games first: replayed, or forfeited after MaxTries.
	for _, sl := range slots {
		if sl.GameID == "" || sl.Forfeit != "" || sl.State != store.StateAborted {
			continue
		}
		if sl.Tries < MaxTries {
			g, err := s.tournamentGame(ctx, t, sl.X, sl.O, now)
			if err != nil {
				return nil, nil, err
			}
			ch.Games = append(ch.Games, g)
			sl.GameID, sl.Tries = g.ID, sl.Tries+1
		} else {
			sl.Forfeit = "o" // X, to move at ply 0, never moved
			if sl.Ply%2 == 1 {
				sl.Forfeit = "x"
			}
		}
		ch.Set = append(ch.Set, sl)
	}
	if len(ch.Set) > 0 {
		return ch, nil, nil
	}
	ps := newPairingState(t, players, slots)
	step, err := tournament.Next(ps.state)
	if err != nil {
		return nil, nil, fmt.Errorf("tournament %s: pairing: %w", t.ID, err)
	}
	have := map[[2]int]store.TournamentGame{}
	for _, sl := range slots {
		have[[2]int{sl.Round, sl.Slot}] = sl
	}
	var forfeited []forfeitedGame
	for _, f := range step.Forfeits {
		sl, ok := have[[2]int{f.Round, f.Slot}]
		if !ok || sl.Forfeit != "" {
			continue
		}
		sl.Forfeit = outcomeForfeit(f.Outcome)
		ch.Set = append(ch.Set, sl)
		if sl.GameID != "" && sl.State == store.StateActive {
			forfeited = append(forfeited, forfeitedGame{id: sl.GameID, forfeit: sl.Forfeit})
		}
	}
	for _, g := range step.Games {
		if _, ok := have[[2]int{g.Round, g.Slot}]; ok {
			continue
		}
		sl := store.TournamentGame{Round: g.Round, Slot: g.Slot, X: ps.ids[g.X], O: ps.ids[g.O]}
		switch {
		case g.Bye():
		case g.Outcome != tournament.Pending:
			sl.Forfeit = outcomeForfeit(g.Outcome)
		default:
			ng, err := s.tournamentGame(ctx, t, sl.X, sl.O, now)
			if err != nil {
				return nil, nil, err
			}
			ch.Games = append(ch.Games, ng)
			sl.GameID, sl.Tries = ng.ID, 1
		}
		ch.Pair = append(ch.Pair, sl)
		ch.T.Round = max(ch.T.Round, g.Round)
	}
	ch.T.Round = max(ch.T.Round, step.Round)
	if step.Finished {
		ch.T.State, ch.T.Winner, ch.T.Ended = store.TournamentFinished, step.Winner, now
	}
	if len(ch.Set) == 0 && len(ch.Pair) == 0 && ch.T.State == t.State && ch.T.Round == t.Round {
		return nil, nil, nil
	}
	return ch, forfeited, nil
}

// RefuseAbort refuses a player's abort of a tournament game: its
// aborts are the first move's time running out, whose replays end in a
// forfeit by the player who did not move; an abort at will would let
// either player hand the other that forfeit.
func RefuseAbort(st *game.State) error {
	if st.Row.Kind != store.KindTournament {
		return nil
	}
	return httpx.Errf(wire.Conflict, "tournament_game", "a tournament game cannot be called off: play it or resign it (a live game whose player makes no first move in time is aborted and replayed)")
}

// forfeitedGame is a game being played whose slot a withdrawal decided.
type forfeitedGame struct {
	id      string
	forfeit string // the colour that wins: x, o, or both (both players withdrew)
}

// tournamentGame builds a new game of the tournament between x (Black)
// and o, started now.
func (s *Service) tournamentGame(ctx context.Context, t store.Tournament, x, o int64, now time.Time) (store.Game, error) {
	r, err := rules.Parse(t.Rules)
	if err != nil {
		return store.Game{}, fmt.Errorf("tournament %s: stored rules: %w", t.ID, err)
	}
	clock, err := game.ParseClock(t.Clock)
	if err != nil {
		return store.Game{}, fmt.Errorf("tournament %s: stored clock: %w", t.ID, err)
	}
	g := store.Game{ID: s.cfg.NewID(), Rules: t.Rules, Preset: r.Preset, Size: r.SizeString(), Black: store.Seat{AccountID: x},
		White: store.Seat{AccountID: o}, Creator: x, Color: "x", Kind: store.KindTournament, Clock: clock.String(),
		State: store.StateActive, Version: 1, WarnedEntry: -1, Created: now, Updated: now, Rated: t.Rated}
	if clock.Kind == game.ClockLive {
		g.BlackLeft, g.WhiteLeft = clock.Initial, clock.Initial
	}
	if err := s.cfg.TakeSeats(ctx, &g); err != nil {
		return store.Game{}, err
	}
	st, err := s.cfg.Core.Rebuild(g, nil)
	if err != nil {
		return store.Game{}, err
	}
	st.StartTurn(now)
	g.TurnStart, g.Deadline = st.Row.TurnStart, st.Row.Deadline
	return g, nil
}

// tournamentChanged follows a stored change: the games a withdrawal
// decided are ended (their player resigns them), the players' account
// streams are told of the new games at once (their pages go to them: a
// live game's first move has seconds), the players of new correspondence
// games are mailed, the tournament's streams are told.
func (s *Service) tournamentChanged(ctx context.Context, ch *store.TournamentChange, forfeited []forfeitedGame) {
	t := ch.T
	for _, f := range forfeited {
		s.endForfeited(ctx, f)
	}
	for _, g := range ch.Games {
		s.cfg.GameCreated(g)
		if game.ByDays(g.Clock) {
			if st, err := s.cfg.Core.Load(ctx, g.ID); err == nil {
				s.cfg.YourTurn(st, g.Black.AccountID)
			}
		}
	}
	if len(ch.Pair) > 0 || len(ch.Games) > 0 {
		s.cfg.Log.Info("tournament paired", "tournament", t.ID, "round", t.Round, "slots", len(ch.Pair), "games", len(ch.Games))
	}
	if t.State == store.TournamentFinished {
		s.cfg.Log.Info("tournament finished", "tournament", t.ID, "winner", t.Winner)
	}
	s.changed(t.ID)
}

// endForfeited ends a game a withdrawal decided: the withdrawn player
// resigns it (both withdrawn: Black does), so it stops asking for moves.
// The slot's forfeit is what counts for the tournament.
func (s *Service) endForfeited(ctx context.Context, f forfeitedGame) {
	loser := rules.Black
	if f.forfeit == "x" {
		loser = rules.White
	}
	_, err := s.cfg.Core.Act(ctx, f.id, func(st *game.State, now time.Time) (*game.Change, error) {
		if st.Row.State != store.StateActive {
			return nil, httpx.Errf(wire.Conflict, "game_over", "the game is over")
		}
		if err := st.Sess.Resign(loser); err != nil {
			return nil, err
		}
		return &game.Change{}, nil
	})
	if err != nil && !isAPIError(err) {
		s.cfg.Log.Error("ending a forfeited tournament game", "game", f.id, "err", err)
	}
}
