package game

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/session"
	"alak/wire"
)

// State is a game as one request sees it: the stored row and log, and
// the session rebuilt from them, which checks every move with the kernel;
// once a change is committed, ev is the new state's event (its view, built
// once for the answer and the streams).
type State struct {
	Row store.Game
	// Stored is the row as the store holds it (as read, or as this
	// process last wrote it): an action changes Row, and the commit
	// writes the columns in which Row differs from Stored.
	Stored store.Game
	Log    []store.Entry
	Sess   *session.Session
	Rules  rules.Rules
	Clock  Clock
	// FirstMove is the time each player of a live game has for their
	// first move (Config.FirstMove).
	FirstMove time.Duration
	Event     Event
	// RulesText is the rules in sentences, for the view (the same for
	// every state of the game: made once, when the state is rebuilt).
	RulesText string
	// Chat is the players' messages and mutes, which the view shows each
	// player (ViewParts.Private).
	Chat store.Chat
	// Tournament is a Tournament's game's Tournament and round (nil for
	// other games).
	Tournament *wire.TournamentRef
	// Conds are each seat's conditional moves as this process last read
	// or stored them, by seat (Black, White), kept with the state by the
	// conditional moves (package conditional).
	Conds [2]CondSeat
}

// CondSeat is a seat's conditional moves as this process last read or
// stored them, kept with the game's state (StateCache), so that a move of
// a game without a clock or by correspondence does not read the
// opponent's row again at every move (a read on every move was a
// twentieth of the server's CPU under load, and a connection of the
// readers' pool: docs/load-tail.md). The row changes only by this process's
// requests, under the game's lock, when the process is its database's
// only one: a server on SQLite, which owns its file (docs/deploy.md). A
// server with a Notifier (PostgreSQL, several processes) reads the row at
// every move, as another process may have changed it.
type CondSeat struct {
	Known bool // Row and Found are the store's
	Found bool // the seat has a row
	Row   store.Conditional
}

// LockGame serialises the changes this process makes to one game, so that
// two requests for the same game do not race to a conflict. Across
// processes the store's version check does the same.
func (c *Core) LockGame(id string) func() {
	v, _ := c.locks.LoadOrStore(id, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// Load reads a game and rebuilds its session.
func (c *Core) Load(ctx context.Context, id string) (*State, error) {
	if len(id) > 40 {
		return nil, ErrNotFound
	}
	row, log, err := c.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	st, err := c.Rebuild(row, log)
	if err != nil {
		return nil, err
	}
	if st.Chat, err = c.store.Chat(ctx, id); err != nil {
		return nil, err
	}
	if c.Hooks.Tournament != nil {
		if st.Tournament, err = c.Hooks.Tournament(ctx, row); err != nil {
			return nil, err
		}
	}
	// The players' names, which the game's views show: read (or found in
	// the cache) now, so that a store that cannot read one fails the
	// request instead of a view showing the seat empty.
	for _, id := range []int64{row.Black.AccountID, row.White.AccountID} {
		if id != 0 {
			if _, err := c.PlayerView(ctx, id); err != nil {
				return nil, err
			}
		}
	}
	return st, nil
}

// Rebuild replays the log: moves are played, takebacks pop them, and the
// end the players decided (a resignation, time, agreement, an abort) and
// the offers waiting are set again.
func (c *Core) Rebuild(row store.Game, log []store.Entry) (*State, error) {
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
	if (row.Black.Bot != "" || row.White.Bot != "") && c.Hooks.Computer == nil {
		return nil, fmt.Errorf("game %s: a computer seat, and no computer to play it (Hooks.Computer)", row.ID)
	}
	st := &State{Row: row, Stored: row, Log: log, Rules: r, Clock: clock, FirstMove: c.cfg.FirstMove, RulesText: notation.RulesText(r)}
	st.Sess = session.New(g, c.seat(row, row.Black, 0), c.seat(row, row.White, 1), session.Options{MoveTime: c.cfg.BotMoveTime})
	if err := st.restoreEnd(); err != nil {
		return nil, fmt.Errorf("game %s: %w", row.ID, err)
	}
	return st, nil
}

// restoreEnd sets the session's offers and the end the players decided,
// which the log does not hold.
func (st *State) restoreEnd() error {
	s := st.Sess
	if c, err := rules.ParseColor(st.Row.DrawOffer); err == nil && !s.Over() {
		if _, err := s.OfferDraw(c); err != nil {
			return err
		}
	}
	if c, err := rules.ParseColor(st.Row.Takeback); err == nil && !s.Over() {
		if _, err := s.RequestTakeback(c); err != nil {
			return err
		}
	}
	if st.Row.State != store.StateFinished && st.Row.State != store.StateAborted || s.Over() {
		return nil
	}
	winner, _ := rules.ParseColor(st.Row.Winner)
	switch st.Row.Reason {
	case rules.Resigned.String():
		return s.Resign(winner.Opp())
	case rules.Timeout.String():
		return s.Timeout(winner.Opp())
	case rules.Agreement.String():
		return s.AgreeDraw()
	case rules.Aborted.String():
		return s.Abort(rules.Black)
	}
	return fmt.Errorf("finished by %q, which the moves do not give", st.Row.Reason)
}

// seat builds the session's seat of a stored seat: a person by name, or
// the computer of its spec (Hooks.Computer), with a seed of the seat's
// own.
func (c *Core) seat(row store.Game, seat store.Seat, side int) session.Seat {
	if seat.Bot != "" {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%d", row.ID, side)
		return session.Seat{Name: "computer " + seat.Bot, Player: c.Hooks.Computer(seat.Bot, h.Sum64())}
	}
	return session.Seat{Name: fmt.Sprintf("#%d", seat.AccountID)}
}

// SeatOf returns the colour account a plays in the game, or false.
func (st *State) SeatOf(a *store.Account) (rules.Color, bool) {
	if a == nil {
		return rules.None, false
	}
	switch a.ID {
	case st.Row.Black.AccountID:
		return rules.Black, true
	case st.Row.White.AccountID:
		return rules.White, true
	}
	return rules.None, false
}

// Change is what an action did: the log entries it adds.
type Change struct {
	Entries []store.Entry
	After   func() // runs once the change is committed (mail, a computer's move)
	Reply   error  // answered once the change is committed (a move too late: the game was lost on time)
}

// Act applies an action to a game: under the game's lock it takes the
// game's state (as this process's last change left it, else read from the
// store), settles a clock that has run out, runs f, syncs the row with the
// session, and commits with the store's version check. The change is
// acknowledged (and published) only once it is stored; Act returns the new
// state's event, whose view is the answer.
//
// A cached state is stale when another process changed the game since.
// The commit then fails with store.ErrConflict, or f refuses on the old
// state (a ply that is no longer the game's, a turn that is over): either
// way, when nothing was committed, the action is run once more on the game
// read from the store, and that answer is the one given. So a stale cache
// never costs a legitimate move nor changes a refusal.
func (c *Core) Act(ctx context.Context, id string, f func(st *State, now time.Time) (*Change, error)) (Event, error) {
	unlock := c.LockGame(id)
	defer unlock()
	st := c.States.Take(id)
	cached := st != nil
	if !cached {
		var err error
		if st, err = c.Load(ctx, id); err != nil {
			return Event{}, err
		}
	}
	ev, committed, err := c.ActOn(ctx, st, f)
	if cached && !committed && err != nil {
		c.Reruns.Add(1)
		if st, err = c.Load(ctx, id); err != nil {
			return Event{}, err
		}
		ev, _, err = c.ActOn(ctx, st, f)
	}
	return ev, err
}

// ActOn is Act on a state, under the game's lock; it reports whether a
// change was committed (an error may come with one: a move too late
// commits the loss on time).
func (c *Core) ActOn(ctx context.Context, st *State, f func(st *State, now time.Time) (*Change, error)) (Event, bool, error) {
	now := c.now()
	if st.Overdue(now) {
		// The player to move ran out of time before this request: that is
		// the result, whatever the request was.
		if err := c.CommitTimeout(ctx, st, now); err != nil {
			return Event{}, false, err
		}
		if st.Row.State == store.StateAborted {
			return Event{}, true, httpx.Errf(wire.Conflict, "game_over", "the game is aborted: %s did not make a first move within %s", ColorWord(st.Sess.ToMove()), ShortDuration(st.FirstMove))
		}
		return Event{}, true, httpx.Errf(wire.Conflict, "game_over", "the game is over: %s ran out of time", ColorWord(st.Sess.Outcome().Winner.Opp()))
	}
	ch, err := f(st, now)
	if err != nil {
		return Event{}, false, err
	}
	if err := c.Commit(ctx, st, now, ch.Entries); err != nil {
		return Event{}, false, err
	}
	if ch.After != nil {
		ch.After()
	}
	return st.Event, true, ch.Reply
}

// Overdue reports whether the player to move has run out of time, or of
// the time for their first move.
func (st *State) Overdue(now time.Time) bool {
	return st.Row.State == store.StateActive && !st.Row.Deadline.IsZero() && !now.Before(st.Row.Deadline)
}

// FirstMoveDue reports whether the player to move in a live game has yet to
// make their first move: Black from the start (or the join), White from
// Black's first move. Their clock does not run then; they have
// State.FirstMove for the move, after which the game is aborted
// (no result, not rated), as a player may abort it until then.
func (st *State) FirstMoveDue() bool {
	return st.Clock.Kind == ClockLive && st.Row.State == store.StateActive && st.Sess.Ply() < 2
}

// CommitTimeout ends a game on time and stores it: a loss on time, or an
// abort when the time that ran out was for a first move.
func (c *Core) CommitTimeout(ctx context.Context, st *State, now time.Time) error {
	mover := st.Sess.ToMove()
	if st.FirstMoveDue() {
		if err := st.Sess.Abort(mover); err != nil {
			return err
		}
		if err := c.Commit(ctx, st, st.Row.Deadline, nil); err != nil {
			return err
		}
		c.metrics.Adjudications.Add(1)
		return nil
	}
	if err := st.Sess.Timeout(mover); err != nil {
		return err
	}
	if mover == rules.Black {
		st.Row.BlackLeft = 0
	} else {
		st.Row.WhiteLeft = 0
	}
	if err := c.Commit(ctx, st, st.Row.Deadline, nil); err != nil {
		return err
	}
	c.metrics.Adjudications.Add(1)
	return nil
}

// Settle ends a game whose clock ran out, or expires a challenge nobody
// took, if it is still so under the game's lock.
func (c *Core) Settle(ctx context.Context, id string, now time.Time) {
	unlock := c.LockGame(id)
	defer unlock()
	st, err := c.Load(ctx, id)
	if err != nil {
		c.log.Error("loading a game due", "game", id, "err", err)
		return
	}
	switch {
	case st.Overdue(now):
		err = c.CommitTimeout(ctx, st, now)
	case st.Row.State == store.StateWaiting && !st.Row.Expires.IsZero() && !now.Before(st.Row.Expires):
		st.Row.State, st.Row.Reason, st.Row.Ended = store.StateExpired, "nobody joined in time", now
		err = c.Commit(ctx, st, now, nil)
	default:
		return
	}
	switch {
	case errors.Is(err, store.ErrConflict):
		// Another process settled it, or a move came first.
	case err != nil:
		c.log.Error("settling a game", "game", id, "err", err)
	default:
		c.log.Info("game settled", "game", id, "state", st.Row.State, "reason", st.Row.Reason)
	}
}

// WarnBefore is how long before a correspondence deadline the player to
// move is told that time is running out.
const WarnBefore = 12 * time.Hour

// Warn marks the current entry of game id as warned about, under the
// game's lock, when its deadline is within WarnBefore of now and the
// entry was not warned about yet, and returns the game then, for the
// player to move to be told; nil otherwise. The sweep lists the games
// (store.GameStore.Warnable) before taking their lock: a move made since
// starts a new turn, whose deadline may be days away.
func (c *Core) Warn(ctx context.Context, id string) *State {
	unlock := c.LockGame(id)
	defer unlock()
	st, err := c.Load(ctx, id)
	now := c.now()
	if err != nil || st.Row.State != store.StateActive || st.Row.WarnedEntry >= st.Row.Entries ||
		st.Row.Deadline.IsZero() || st.Row.Deadline.After(now.Add(WarnBefore)) {
		return nil
	}
	st.Row.WarnedEntry = st.Row.Entries
	if err := c.Commit(ctx, st, now, nil); err != nil {
		return nil
	}
	return st
}

// Commit syncs the row with the session, stores it with the entries,
// builds the new state's view once, publishes it, and keeps the state in
// the cache for the game's next change; the features' hooks (Hooks)
// run once it is stored and once it is published. It runs under the
// game's lock.
func (c *Core) Commit(ctx context.Context, st *State, now time.Time, entries []store.Entry) error {
	prev := st.Row
	row := st.Row
	row.Version++
	row.Updated = now
	row.Ply = st.Sess.Ply()
	row.Entries += len(entries)
	row.DrawOffer = st.Sess.DrawOffer().Letter()
	row.Takeback = st.Sess.TakebackRequest().Letter()
	if o := st.Sess.Outcome(); o.Over() && row.State == store.StateActive {
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
	if err := c.store.Update(ctx, row, st.Stored, entries); err != nil {
		if errors.Is(err, store.ErrConflict) {
			c.metrics.Conflicts.Add(1)
		} else {
			c.metrics.DBErrors.Add(1)
		}
		return err
	}
	st.Row, st.Stored = row, row
	st.Log = append(st.Log, entries...)
	ended := prev.State == store.StateActive && row.State != store.StateActive
	c.Hooks.Stored.run(ctx, st, ended)
	st.Event = c.EventOf(ctx, st)
	c.Publish(st)
	c.States.Put(st)
	c.Hooks.Published.run(ctx, st, ended)
	return nil
}

// HookList is hooks in the order they run.
type HookList []hook

// hook is one feature's hook: f runs after every change, or with
// endOnly after a change that ended the game only.
type hook struct {
	endOnly bool
	f       func(ctx context.Context, st *State)
}

// OnChange registers f to run after every change; OnEnd, after a change
// that ended the game only (the game was active and is not any more).
func (l *HookList) OnChange(f func(ctx context.Context, st *State)) {
	*l = append(*l, hook{f: f})
}

func (l *HookList) OnEnd(f func(ctx context.Context, st *State)) {
	*l = append(*l, hook{endOnly: true, f: f})
}

// run calls the hooks for a change of st, which ended the game or not.
func (l HookList) run(ctx context.Context, st *State, ended bool) {
	for _, h := range l {
		if ended || !h.endOnly {
			h.f(ctx, st)
		}
	}
}

// StartTurn sets the clock for the player to move from now: in a live
// game, before their first move, the deadline is the first move's.
func (st *State) StartTurn(now time.Time) {
	st.Row.TurnStart = now
	switch st.Clock.Kind {
	case ClockLive:
		if st.FirstMoveDue() {
			st.Row.Deadline = now.Add(st.FirstMove)
			return
		}
		left := st.Row.BlackLeft
		if st.Sess.ToMove() == rules.White {
			left = st.Row.WhiteLeft
		}
		st.Row.Deadline = now.Add(left)
	case ClockDays:
		st.Row.Deadline = now.Add(st.Clock.PerMove())
	default:
		st.Row.Deadline = time.Time{}
	}
}

// spend charges the mover's clock for the turn that ends now; it reports
// false when the mover's time ran out. A first move costs nothing (and
// earns no increment): the clock starts after it.
func (st *State) spend(c rules.Color, now time.Time) bool {
	if st.Clock.Kind != ClockLive || st.FirstMoveDue() {
		return true
	}
	left := &st.Row.BlackLeft
	if c == rules.White {
		left = &st.Row.WhiteLeft
	}
	*left -= now.Sub(st.Row.TurnStart)
	if *left <= 0 {
		*left = 0
		return false
	}
	*left += st.Clock.Increment
	return true
}

// Entry is a log Entry made now by account by (0: the computer).
func (st *State) Entry(move string, undo int, by int64, now time.Time) store.Entry {
	return store.Entry{Move: move, Undo: undo, By: by, At: now, BlackLeft: st.Row.BlackLeft, WhiteLeft: st.Row.WhiteLeft}
}

// PlayMove plays m for color, charging the clock, and returns its entry.
func (c *Core) PlayMove(st *State, color rules.Color, m rules.Move, by int64, now time.Time) (*Change, error) {
	if err := st.Sess.Legal(m); err != nil {
		return nil, httpx.MoveRefused(st.Rules, err)
	}
	paused := st.Paused()
	if !st.spend(color, now) {
		if err := st.Sess.Timeout(color); err != nil {
			return nil, err
		}
		return &Change{Reply: httpx.Errf(wire.Conflict, "game_over", "the move came after your time ran out: the game is lost on time")}, nil
	}
	if err := st.Sess.Play(color, m); err != nil {
		return nil, httpx.MoveRefused(st.Rules, err)
	}
	st.StartTurn(now)
	if paused {
		st.Pause(now)
	}
	e := st.Entry(st.Rules.MoveText(m), 0, by, now)
	ch := &Change{Entries: []store.Entry{e}, After: func() {
		c.metrics.Moves.Add(1) // stored: After is called once the change is committed
		if st.Row.State == store.StateActive && c.Hooks.Turn != nil {
			c.Hooks.Turn(st)
		}
	}}
	if c.Hooks.Played != nil {
		c.Hooks.Played(st, color, m, now, ch)
	}
	return ch, nil
}

// ColorWord names a colour with its letter, for messages.
func ColorWord(c rules.Color) string {
	if c == rules.White {
		return "White (o)"
	}
	return "Black (x)"
}

// Player checks that a is a player of an active game and returns its colour.
func (st *State) Player(a *store.Account) (rules.Color, error) {
	c, ok := st.SeatOf(a)
	if !ok {
		return rules.None, httpx.Errf(wire.Forbidden, "not_your_game", "you are not a player of this game")
	}
	if st.Row.State != store.StateActive {
		if st.Row.State == store.StateWaiting {
			return c, httpx.Errf(wire.Conflict, "not_started", "the game has not started: it waits for an opponent")
		}
		return c, httpx.Errf(wire.Conflict, "game_over", "the game is over (%s)", st.Row.Reason)
	}
	return c, nil
}

// CheckTurn refuses a move or a command by c when it is not c's turn.
func (st *State) CheckTurn(c rules.Color) error {
	if tm := st.Sess.ToMove(); c != tm {
		return httpx.Errf(wire.NotYourTurn, "not_your_turn", "it is %s's turn", ColorWord(tm))
	}
	return nil
}

// CheckPly refuses a request made at another ply than the game's (409
// stale_ply): it was chosen on an older board, or sent twice.
func (st *State) CheckPly(ply int) error {
	if now := st.Sess.Ply(); ply != now {
		return httpx.Errf(wire.Conflict, "stale_ply", "the game has moved on (it is at ply %d, not %d): the request was made on an older board, or sent twice; look at the board again", now, ply)
	}
	return nil
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

// AccountOf is the account of seat c (0: the computer).
func (st *State) AccountOf(c rules.Color) int64 {
	if c == rules.White {
		return st.Row.White.AccountID
	}
	return st.Row.Black.AccountID
}

// Takeback is c's request to take back their last move (accept nil: a
// computer grants it at once) or, with accept, c's answer to the
// opponent's request. The moves taken back are one log entry, made by
// the player who asked, and the turn starts again from now (a game paused
// by a vacation stays paused); nothing taken back changes nothing.
func (st *State) Takeback(c rules.Color, accept *bool, now time.Time) (*Change, error) {
	before := st.Sess.Ply()
	var err error
	by := c
	if accept != nil {
		by = c.Opp()
		err = st.Sess.AnswerTakeback(c, *accept)
	} else {
		_, err = st.Sess.RequestTakeback(c)
	}
	if err != nil {
		return nil, err
	}
	undone := before - st.Sess.Ply()
	if undone == 0 {
		return &Change{}, nil
	}
	paused := st.Paused()
	st.StartTurn(now)
	if paused {
		st.Pause(now)
	}
	return &Change{Entries: []store.Entry{st.Entry("", undone, st.AccountOf(by), now)}}, nil
}

// ToMoveOf says who is to move in an active game from its row alone (no
// session rebuilt): the start may have White to move, and each ply
// changes the player.
func ToMoveOf(g store.Game) rules.Color {
	c := rules.Black
	if g.Start != "" {
		if f := strings.Fields(g.Start); len(f) > 1 && f[1] == "o" {
			c = rules.White
		}
	}
	if g.Ply%2 == 1 {
		c = c.Opp()
	}
	return c
}

// MyTurn reports, from its row alone, whether account me is to move in
// the active game g.
func MyTurn(g store.Game, me int64) bool {
	seat := g.Black
	if ToMoveOf(g) == rules.White {
		seat = g.White
	}
	return me != 0 && g.State == store.StateActive && seat.AccountID == me
}

// Paused reports whether the game's clock is stopped by a vacation: an
// active correspondence game without a deadline.
func (st *State) Paused() bool {
	return st.Clock.Kind == ClockDays && st.Row.State == store.StateActive && st.Row.Deadline.IsZero()
}

// Pause stops the game's deadline at now and keeps the time the player
// to move had left in their clock.
func (st *State) Pause(now time.Time) {
	left := max(st.Row.Deadline.Sub(now), 0)
	if st.Row.Deadline.IsZero() {
		left = st.Clock.PerMove()
	}
	st.Row.BlackLeft, st.Row.WhiteLeft = 0, 0
	if st.Sess.ToMove() == rules.White {
		st.Row.WhiteLeft = left
	} else {
		st.Row.BlackLeft = left
	}
	st.Row.Deadline = time.Time{}
}

// Resume starts the deadline again from now with the time kept.
func (st *State) Resume(now time.Time) {
	left := st.Row.BlackLeft
	if st.Sess.ToMove() == rules.White {
		left = st.Row.WhiteLeft
	}
	if left <= 0 || left > st.Clock.PerMove() {
		left = st.Clock.PerMove()
	}
	st.Row.Deadline = now.Add(left)
	st.Row.TurnStart = st.Row.Deadline.Add(-st.Clock.PerMove())
	st.Row.BlackLeft, st.Row.WhiteLeft = 0, 0
}
