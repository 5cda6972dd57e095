package server

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"alak/notation"
	"alak/player"
	"alak/rules"
	"alak/server/store"
	"alak/session"
	"alak/wire"
)

// gameState is a game as one request sees it: the stored row and log, and
// the session rebuilt from them, which checks every move with the kernel;
// once a change is committed, ev is the new state's event (its view, built
// once for the answer and the streams).
type gameState struct {
	row store.Game
	// stored is the row as the store holds it (as read, or as this
	// process last wrote it): an action changes row, and the commit
	// writes the columns in which row differs from stored.
	stored store.Game
	log    []store.Entry
	sess   *session.Session
	r      rules.Rules
	clock  Clock
	// firstMove is the time each player of a live game has for their
	// first move (Config.FirstMove).
	firstMove time.Duration
	ev        event
	// rulesText is the rules in sentences, for the view (the same for
	// every state of the game: made once, when the state is rebuilt).
	rulesText string
	// chat is the players' messages and mutes (around.go).
	chat store.Chat
	// tournament is a tournament's game's tournament and round (nil for
	// other games).
	tournament *wire.TournamentRef
	// conds are each seat's conditional moves as this process last read
	// or stored them, by seat (Black, White): conditional.go.
	conds [2]condSeat
}

// lockGame serialises the changes this process makes to one game, so that
// two requests for the same game do not race to a conflict. Across
// processes the store's version check does the same.
func (s *Server) lockGame(id string) func() {
	v, _ := s.locks.LoadOrStore(id, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// loadGame reads a game and rebuilds its session.
func (s *Server) loadGame(ctx context.Context, id string) (*gameState, error) {
	if len(id) > 40 {
		return nil, errNotFound
	}
	row, log, err := s.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	st, err := s.rebuild(row, log)
	if err != nil {
		return nil, err
	}
	if st.chat, err = s.store.Chat(ctx, id); err != nil {
		return nil, err
	}
	if st.tournament, err = s.gameTournament(ctx, row); err != nil {
		return nil, err
	}
	// The players' names, which the game's views show: read (or found in
	// the cache) now, so that a store that cannot read one fails the
	// request instead of a view showing the seat empty.
	for _, id := range []int64{row.Black.AccountID, row.White.AccountID} {
		if id != 0 {
			if _, err := s.playerView(ctx, id); err != nil {
				return nil, err
			}
		}
	}
	return st, nil
}

// rebuild replays the log: moves are played, takebacks pop them, and the
// end the players decided (a resignation, time, agreement, an abort) and
// the offers waiting are set again.
func (s *Server) rebuild(row store.Game, log []store.Entry) (*gameState, error) {
	r, err := rules.Parse(row.Rules)
	if err != nil {
		return nil, fmt.Errorf("game %s: stored rules: %w", row.ID, err)
	}
	clock, err := ParseClock(row.Clock)
	if err != nil {
		return nil, fmt.Errorf("game %s: stored clock: %w", row.ID, err)
	}
	start, err := rules.NewPosition(r)
	if err != nil {
		return nil, err
	}
	if row.Start != "" {
		if start, err = rules.ParsePosition(r, row.Start); err != nil {
			return nil, fmt.Errorf("game %s: stored start: %w", row.ID, err)
		}
	}
	var moves []rules.Move
	for _, e := range log {
		if e.Move == "" {
			if e.Undo > len(moves) {
				return nil, fmt.Errorf("game %s: entry %d takes back %d of %d moves", row.ID, e.N, e.Undo, len(moves))
			}
			moves = moves[:len(moves)-e.Undo]
			continue
		}
		m, err := r.ParseMoveText(e.Move)
		if err != nil {
			return nil, fmt.Errorf("game %s: entry %d: %w", row.ID, e.N, err)
		}
		moves = append(moves, m)
	}
	g := rules.NewGameFrom(start)
	for i, m := range moves {
		if err := g.Play(m); err != nil {
			return nil, fmt.Errorf("game %s: stored move %d: %w", row.ID, i+1, err)
		}
	}
	st := &gameState{row: row, stored: row, log: log, r: r, clock: clock, firstMove: s.cfg.FirstMove, rulesText: notation.RulesText(r)}
	st.sess = session.New(g, s.seat(row, row.Black, 0), s.seat(row, row.White, 1), session.Options{MoveTime: s.cfg.BotMoveTime})
	if err := st.restoreEnd(); err != nil {
		return nil, fmt.Errorf("game %s: %w", row.ID, err)
	}
	return st, nil
}

// restoreEnd sets the session's offers and the end the players decided,
// which the log does not hold.
func (st *gameState) restoreEnd() error {
	s := st.sess
	if c, err := rules.ParseColor(st.row.DrawOffer); err == nil && !s.Over() {
		if _, err := s.OfferDraw(c); err != nil {
			return err
		}
	}
	if c, err := rules.ParseColor(st.row.Takeback); err == nil && !s.Over() {
		if _, err := s.RequestTakeback(c); err != nil {
			return err
		}
	}
	if st.row.State != store.StateFinished && st.row.State != store.StateAborted || s.Over() {
		return nil
	}
	winner, _ := rules.ParseColor(st.row.Winner)
	switch st.row.Reason {
	case rules.Resigned.String():
		return s.Resign(winner.Opp())
	case rules.Timeout.String():
		return s.Timeout(winner.Opp())
	case rules.Agreement.String():
		return s.AgreeDraw()
	case rules.Aborted.String():
		return s.Abort(rules.Black)
	}
	return fmt.Errorf("finished by %q, which the moves do not give", st.row.Reason)
}

// seat builds the session's seat of a stored seat: a person by name, or a
// computer player built on demand from its spec (NewUntrusted: no process,
// no file).
func (s *Server) seat(row store.Game, seat store.Seat, side int) session.Seat {
	if seat.Bot != "" {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%d", row.ID, side)
		return session.Seat{Name: "computer " + seat.Bot, Player: &botPlayer{s: s, spec: seat.Bot, seed: h.Sum64()}}
	}
	return session.Seat{Name: fmt.Sprintf("#%d", seat.AccountID)}
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
			pf.UseTables(b.s.tables.solver)
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

// seatOf returns the colour account a plays in the game, or false.
func (st *gameState) seatOf(a *store.Account) (rules.Color, bool) {
	if a == nil {
		return rules.None, false
	}
	switch a.ID {
	case st.row.Black.AccountID:
		return rules.Black, true
	case st.row.White.AccountID:
		return rules.White, true
	}
	return rules.None, false
}

// change is what an action did: the log entries it adds.
type change struct {
	entries []store.Entry
	after   func() // runs once the change is committed (mail, a computer's move)
	reply   error  // answered once the change is committed (a move too late: the game was lost on time)
}

// act applies an action to a game: under the game's lock it takes the
// game's state (as this process's last change left it, else read from the
// store), settles a clock that has run out, runs f, syncs the row with the
// session, and commits with the store's version check. The change is
// acknowledged (and published) only once it is stored; act returns the new
// state's event, whose view is the answer.
//
// A cached state is stale when another process changed the game since.
// The commit then fails with store.ErrConflict, or f refuses on the old
// state (a ply that is no longer the game's, a turn that is over): either
// way, when nothing was committed, the action is run once more on the game
// read from the store, and that answer is the one given. So a stale cache
// never costs a legitimate move nor changes a refusal.
func (s *Server) act(ctx context.Context, id string, f func(st *gameState, now time.Time) (*change, error)) (event, error) {
	unlock := s.lockGame(id)
	defer unlock()
	st := s.caches.states.take(id)
	cached := st != nil
	if !cached {
		var err error
		if st, err = s.loadGame(ctx, id); err != nil {
			return event{}, err
		}
	}
	ev, committed, err := s.actOn(ctx, st, f)
	if cached && !committed && err != nil {
		s.caches.reruns.Add(1)
		if st, err = s.loadGame(ctx, id); err != nil {
			return event{}, err
		}
		ev, _, err = s.actOn(ctx, st, f)
	}
	return ev, err
}

// actOn is act on a state, under the game's lock; it reports whether a
// change was committed (an error may come with one: a move too late
// commits the loss on time).
func (s *Server) actOn(ctx context.Context, st *gameState, f func(st *gameState, now time.Time) (*change, error)) (event, bool, error) {
	now := s.now()
	if st.overdue(now) {
		// The player to move ran out of time before this request: that is
		// the result, whatever the request was.
		if err := s.commitTimeout(ctx, st, now); err != nil {
			return event{}, false, err
		}
		if st.row.State == store.StateAborted {
			return event{}, true, apiErr(wire.Conflict, "game_over", "the game is aborted: %s did not make a first move within %s", colorWord(st.sess.ToMove()), shortDuration(st.firstMove))
		}
		return event{}, true, apiErr(wire.Conflict, "game_over", "the game is over: %s ran out of time", colorWord(st.sess.Outcome().Winner.Opp()))
	}
	ch, err := f(st, now)
	if err != nil {
		return event{}, false, err
	}
	if err := s.commit(ctx, st, now, ch.entries); err != nil {
		return event{}, false, err
	}
	if ch.after != nil {
		ch.after()
	}
	return st.ev, true, ch.reply
}

// overdue reports whether the player to move has run out of time, or of
// the time for their first move.
func (st *gameState) overdue(now time.Time) bool {
	return st.row.State == store.StateActive && !st.row.Deadline.IsZero() && !now.Before(st.row.Deadline)
}

// firstMoveDue reports whether the player to move in a live game has yet to
// make their first move: Black from the start (or the join), White from
// Black's first move. Their clock does not run then; they have
// gameState.firstMove for the move, after which the game is aborted
// (no result, not rated), as a player may abort it until then.
func (st *gameState) firstMoveDue() bool {
	return st.clock.Kind == ClockLive && st.row.State == store.StateActive && st.sess.Ply() < 2
}

// commitTimeout ends a game on time and stores it: a loss on time, or an
// abort when the time that ran out was for a first move.
func (s *Server) commitTimeout(ctx context.Context, st *gameState, now time.Time) error {
	c := st.sess.ToMove()
	if st.firstMoveDue() {
		if err := st.sess.Abort(c); err != nil {
			return err
		}
		if err := s.commit(ctx, st, st.row.Deadline, nil); err != nil {
			return err
		}
		s.metrics.adjudications.Add(1)
		return nil
	}
	if err := st.sess.Timeout(c); err != nil {
		return err
	}
	if c == rules.Black {
		st.row.BlackLeft = 0
	} else {
		st.row.WhiteLeft = 0
	}
	if err := s.commit(ctx, st, st.row.Deadline, nil); err != nil {
		return err
	}
	s.metrics.adjudications.Add(1)
	return nil
}

// commit syncs the row with the session, stores it with the entries,
// builds the new state's view once, publishes it, and keeps the state in
// the cache for the game's next change; the features' hooks (gameHooks)
// run once it is stored and once it is published. It runs under the
// game's lock.
func (s *Server) commit(ctx context.Context, st *gameState, now time.Time, entries []store.Entry) error {
	prev := st.row
	row := st.row
	row.Version++
	row.Updated = now
	row.Ply = st.sess.Ply()
	row.Entries += len(entries)
	row.DrawOffer = st.sess.DrawOffer().Letter()
	row.Takeback = st.sess.TakebackRequest().Letter()
	if o := st.sess.Outcome(); o.Over() && row.State == store.StateActive {
		row.State = store.StateFinished
		if o.Reason == rules.Aborted {
			row.State = store.StateAborted
		}
		row.Result, row.Reason = notation.ResultString(o), o.Reason.String()
		row.Winner = o.Winner.Letter()
		if row.Winner == "" {
			row.Winner = "draw"
			if o.Reason == rules.Aborted {
				row.Winner = "none"
			}
		}
		row.Ended, row.Deadline = now, time.Time{}
	}
	for i := range entries {
		entries[i].GameID = row.ID
		entries[i].N = prev.Entries + i
	}
	if err := s.store.Update(ctx, row, st.stored, entries); err != nil {
		if errors.Is(err, store.ErrConflict) {
			s.metrics.conflicts.Add(1)
		} else {
			s.metrics.dbErrors.Add(1)
		}
		return err
	}
	st.row, st.stored = row, row
	st.log = append(st.log, entries...)
	ended := prev.State == store.StateActive && row.State != store.StateActive
	s.hooks.stored.run(ctx, st, ended)
	st.ev = s.event(ctx, st)
	s.publish(st)
	s.caches.states.put(st)
	s.hooks.published.run(ctx, st, ended)
	return nil
}

// gameHooks is what the features do when the game core stores a change
// of a game (commit), registered once by New: the core calls them in the
// order registered, and never names the features.
type gameHooks struct {
	// stored run once the change is stored, before it is published.
	stored hookList
	// published run once the change is published and cached.
	published hookList
}

// hookList is hooks in the order they run.
type hookList []gameHook

// gameHook is one feature's hook: f runs after every change, or with
// endOnly after a change that ended the game only.
type gameHook struct {
	endOnly bool
	f       func(ctx context.Context, st *gameState)
}

// onChange registers f to run after every change; onEnd, after a change
// that ended the game only (the game was active and is not any more).
func (l *hookList) onChange(f func(ctx context.Context, st *gameState)) {
	*l = append(*l, gameHook{f: f})
}

func (l *hookList) onEnd(f func(ctx context.Context, st *gameState)) {
	*l = append(*l, gameHook{endOnly: true, f: f})
}

// run calls the hooks for a change of st, which ended the game or not.
func (l hookList) run(ctx context.Context, st *gameState, ended bool) {
	for _, h := range l {
		if ended || !h.endOnly {
			h.f(ctx, st)
		}
	}
}

// startTurn sets the clock for the player to move from now: in a live
// game, before their first move, the deadline is the first move's.
func (st *gameState) startTurn(now time.Time) {
	st.row.TurnStart = now
	switch st.clock.Kind {
	case ClockLive:
		if st.firstMoveDue() {
			st.row.Deadline = now.Add(st.firstMove)
			return
		}
		left := st.row.BlackLeft
		if st.sess.ToMove() == rules.White {
			left = st.row.WhiteLeft
		}
		st.row.Deadline = now.Add(left)
	case ClockDays:
		st.row.Deadline = now.Add(st.clock.perMove())
	default:
		st.row.Deadline = time.Time{}
	}
}

// spend charges the mover's clock for the turn that ends now; it reports
// false when the mover's time ran out. A first move costs nothing (and
// earns no increment): the clock starts after it.
func (st *gameState) spend(c rules.Color, now time.Time) bool {
	if st.clock.Kind != ClockLive || st.firstMoveDue() {
		return true
	}
	left := &st.row.BlackLeft
	if c == rules.White {
		left = &st.row.WhiteLeft
	}
	*left -= now.Sub(st.row.TurnStart)
	if *left <= 0 {
		*left = 0
		return false
	}
	*left += st.clock.Increment
	return true
}

// entry is a log entry made now by account by (0: the computer).
func (st *gameState) entry(move string, undo int, by int64, now time.Time) store.Entry {
	return store.Entry{Move: move, Undo: undo, By: by, At: now, BlackLeft: st.row.BlackLeft, WhiteLeft: st.row.WhiteLeft}
}

// playMove plays m for c, charging the clock, and returns its entry.
func (s *Server) playMove(st *gameState, c rules.Color, m rules.Move, by int64, now time.Time) (*change, error) {
	if err := st.sess.Legal(m); err != nil {
		return nil, moveRefused(st.r, err)
	}
	paused := st.paused()
	if !st.spend(c, now) {
		if err := st.sess.Timeout(c); err != nil {
			return nil, err
		}
		return &change{reply: apiErr(wire.Conflict, "game_over", "the move came after your time ran out: the game is lost on time")}, nil
	}
	if err := st.sess.Play(c, m); err != nil {
		return nil, moveRefused(st.r, err)
	}
	st.startTurn(now)
	if paused {
		st.pause(now)
	}
	e := st.entry(st.r.MoveText(m), 0, by, now)
	ch := &change{entries: []store.Entry{e}, after: func() {
		s.metrics.moves.Add(1) // stored: after is called once the change is committed
		s.afterMove(st)
	}}
	s.conditionalReply(st, c, m, now, ch)
	return ch, nil
}

// afterMove runs once a move is stored: the computer's reply when it is to
// move, and the your-turn mail.
func (s *Server) afterMove(st *gameState) {
	if st.row.State != store.StateActive {
		return
	}
	seat := st.row.Black
	if st.sess.ToMove() == rules.White {
		seat = st.row.White
	}
	if seat.Bot != "" {
		s.bots.schedule(st.row.ID, st.row.Version)
		return
	}
	if st.clock.Kind == ClockDays {
		s.mailYourTurn(st, seat.AccountID)
	}
}

func colorWord(c rules.Color) string {
	if c == rules.White {
		return "White (o)"
	}
	return "Black (x)"
}
