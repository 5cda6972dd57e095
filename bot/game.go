package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"
	"time"

	"alak/player"
	"alak/rules"
	"alak/wire"
)

// clockMargin is kept back from the clock's deadline: the move has to
// travel to the server and be stored before it.
const clockMargin = 150 * time.Millisecond

// thought is the end of one move's thinking: the ply and the version of
// the state it was for, and its error (nil once the move was sent, or the
// game moved on).
type thought struct {
	ply, version int
	err          error
}

// gamePlay is one game the bridge plays: its state as last seen, the
// engine's player and the thinking under way.
type gamePlay struct {
	b     *Bridge
	id    string
	color string // the bot's seat, x or o
	r     rules.Rules
	start rules.Position
	ready bool          // r and start are read
	p     player.Player // built at the first move, closed at the end

	busy     bool               // a move is being thought about (by p: one at a time)
	busyPly  int                // the ply it is for
	cancel   context.CancelFunc // ends it
	failures int                // failed moves in a row at this ply
	// answered is the version of the last state whose turn was answered
	// (the move sent, or the game found to have moved on): the state may
	// still be the latest seen for a moment, and is not thought about
	// again.
	answered int
}

// play plays game id until it ends or ctx ends. The game's state comes
// from its event stream (reopened after a lost connection: its first event
// is the state then); a move is thought about whenever it is the bot's
// turn, and the thinking is cut off when the state says the turn is over
// (a time loss, a resignation, the game aborted).
func (b *Bridge) play(ctx context.Context, id string) {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	gp := &gamePlay{b: b, id: id, answered: -1}
	defer func() {
		if gp.p != nil {
			if err := gp.p.Close(); err != nil {
				b.log.Warn("stopping the engine", "game", id, "err", err)
			}
		}
	}()
	views := make(chan wire.Game, 1)
	go gp.follow(ctx, views)
	done := make(chan thought, 1)
	var retry <-chan time.Time
	var last *wire.Game
	for {
		select {
		case <-ctx.Done():
			if gp.busy {
				gp.cancel()
				<-done // the player is closed only once it has stopped
			}
			return
		case v := <-views:
			last = &v
		case t := <-done:
			gp.busy = false
			gp.cancel()
			if t.err != nil && ctx.Err() == nil {
				gp.failures++
				wait := min(time.Duration(1<<min(gp.failures-1, 5))*time.Second, 30*time.Second)
				b.log.Warn("no move sent", "game", id, "ply", t.ply, "err", t.err, "retry_in", wait)
				retry = time.After(wait)
				continue
			}
			gp.failures, gp.answered = 0, max(gp.answered, t.version)
		case <-retry:
			retry = nil
		}
		if last == nil {
			continue
		}
		if gameEnded(last) {
			if gp.busy {
				gp.cancel()
				<-done
				gp.busy = false
			}
			b.report(gp, last)
			return
		}
		if last.State == "waiting" {
			continue // a state from before the join: the next one seats the bot
		}
		if gp.color == "" {
			if gp.color = seatOf(last.Players, b.me.Name); gp.color == "" {
				b.log.Warn("the bot has no seat in the game; leaving it", "game", id)
				return
			}
		}
		mine := last.State == "active" && last.ToMove == gp.color
		if gp.busy {
			if !mine || gp.busyPly != last.Ply {
				gp.cancel() // the turn is over: the result comes on done
			}
			continue
		}
		if mine && retry == nil && last.Version > gp.answered {
			v := *last
			mctx, cancel := context.WithCancel(ctx)
			gp.busy, gp.busyPly, gp.cancel = true, v.Ply, cancel
			go func() { done <- thought{v.Ply, v.Version, gp.move(mctx, &v)} }()
		}
	}
}

// follow sends the game's states to views (the latest only) until the
// game ends or ctx ends, reopening the stream after a lost connection.
func (gp *gamePlay) follow(ctx context.Context, views chan wire.Game) {
	b := gp.b
	wait := b.cfg.Retry
	for ctx.Err() == nil {
		ended := false
		err := b.api.Stream(ctx, "/api/games/"+url.PathEscape(gp.id)+"/events", b.cfg.Idle, func(ev Event) error {
			var g wire.Game
			if err := json.Unmarshal([]byte(ev.Data), &g); err != nil {
				return fmt.Errorf("an event that is not a game's state: %w", err)
			}
			wait = b.cfg.Retry
			select { // keep the latest state only
			case <-views:
			default:
			}
			views <- g
			if gameEnded(&g) {
				ended = true
				return errGameEnded
			}
			return nil
		})
		if ended || ctx.Err() != nil {
			return
		}
		var ae *APIError
		if errors.As(err, &ae) && ae.Permanent() {
			b.log.Error("the game's event stream is refused; leaving the game", "game", gp.id, "err", err)
			return
		}
		b.log.Warn("the game's event stream was lost; reconnecting", "game", gp.id, "err", err, "wait", wait)
		if !sleep(ctx, wait) {
			return
		}
		wait = min(2*wait, b.cfg.MaxRetry)
	}
}

var errGameEnded = errors.New("the game is over")

// move thinks about the bot's move in state v and sends it. It returns nil
// once the move was sent, or when the game moved on meanwhile (the next
// state decides).
func (gp *gamePlay) move(ctx context.Context, v *wire.Game) error {
	g, err := gp.rebuild(ctx, v)
	if err != nil {
		return err
	}
	if gp.p == nil {
		h := fnv.New64a()
		h.Write([]byte(gp.id))
		if gp.p, err = gp.b.cfg.Engine.player(gp.b.cfg.Seed ^ h.Sum64()); err != nil {
			return err
		}
	}
	mctx := ctx
	if spec, _, _ := strings.Cut(v.Clock.Spec, ":"); spec == "live" {
		left := clockLeft(v, time.Now())
		mine := left[0]
		if gp.color == "o" {
			mine = left[1]
		}
		limit := mine // until the clock's deadline, or the first move's
		first := v.Clock.FirstMoveDeadline > 0
		if first {
			limit = min(limit, time.Until(time.UnixMilli(v.Clock.FirstMoveDeadline)))
		}
		// An engine is stopped at the limit, less the way to the server.
		deadline := time.Now().Add(limit - max(clockMargin, limit/20))
		if e, ok := gp.p.(*player.GTP); ok {
			e.TimeLeft(left[0], left[1])
		} else {
			_, inc := liveClock(v.Clock.Spec)
			budget := moveBudget(mine, inc)
			if first { // no clock runs: a built-in player takes half the first move's time at most
				budget = min(budget, limit/2)
			}
			deadline = time.Now().Add(min(budget, limit-max(clockMargin, limit/20)))
		}
		var cancel context.CancelFunc
		mctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	m, err := gp.p.Move(mctx, g)
	if err != nil {
		if ctx.Err() != nil {
			return nil // the turn ended while the engine thought
		}
		return fmt.Errorf("the engine gave no move: %w", err)
	}
	text := gp.r.MoveText(m)
	wait := 200 * time.Millisecond
	for {
		err := gp.b.api.Move(ctx, gp.id, text, v.Ply)
		switch code := codeOf(err); {
		case err == nil:
			gp.b.log.Debug("move sent", "game", gp.id, "ply", v.Ply, "move", text)
			return nil
		case ctx.Err() != nil:
			return nil
		case code == "stale_ply" || code == "not_your_turn" || code == "game_over" || code == "not_started":
			return nil // the game moved on: the next state decides
		}
		var ae *APIError
		if errors.As(err, &ae) && ae.Permanent() {
			return fmt.Errorf("move %s refused: %w", text, err)
		}
		// Not sent, or perhaps sent and its answer lost: the ply makes a
		// second application impossible, so send it again.
		gp.b.log.Warn("sending a move failed; sending it again", "game", gp.id, "move", text, "err", err, "wait", wait)
		if !sleep(ctx, wait) {
			return nil
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// rebuild replays the game of state v: its rules (and start) read once.
func (gp *gamePlay) rebuild(ctx context.Context, v *wire.Game) (*rules.Game, error) {
	if !gp.ready {
		r, err := rules.Parse(v.Rules)
		if err != nil {
			return nil, fmt.Errorf("the game's rules %q: %w", v.Rules, err)
		}
		start, err := gp.b.start0(ctx, gp.id, r)
		if err != nil {
			return nil, fmt.Errorf("the game's start: %w", err)
		}
		gp.r, gp.start, gp.ready = r, start, true
	}
	g := rules.NewGameFrom(gp.start)
	for i, s := range v.Moves {
		m, err := gp.r.ParseMoveText(s)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return nil, fmt.Errorf("the game's move %d, %q: %w", i+1, s, err)
		}
	}
	if g.Len() != v.Ply {
		return nil, fmt.Errorf("the game shows %d moves at ply %d", g.Len(), v.Ply)
	}
	return g, nil
}

// clockLeft is each player's time left on a live clock at now: the one
// running until its deadline, the other as the clock says.
func clockLeft(v *wire.Game, now time.Time) [2]time.Duration {
	left := [2]time.Duration{time.Duration(v.Clock.XMillis) * time.Millisecond, time.Duration(v.Clock.OMillis) * time.Millisecond}
	if v.Clock.Deadline > 0 {
		running := time.UnixMilli(v.Clock.Deadline).Sub(now)
		switch v.Clock.Running {
		case "x":
			left[0] = running
		case "o":
			left[1] = running
		}
	}
	return [2]time.Duration{max(left[0], 0), max(left[1], 0)}
}

// liveClock reads "live:5m+3s": the time and the increment.
func liveClock(spec string) (base, inc time.Duration) {
	s, ok := strings.CutPrefix(spec, "live:")
	if !ok {
		return 0, 0
	}
	b, i, _ := strings.Cut(s, "+")
	base, _ = time.ParseDuration(b)
	if i != "" {
		inc, _ = time.ParseDuration(i)
	}
	return base, inc
}

// report logs a game's end and hands it to Config.Result.
func (b *Bridge) report(gp *gamePlay, v *wire.Game) {
	color := gp.color
	if color == "" {
		color = seatOf(v.Players, b.me.Name)
	}
	res := Result{Game: v.ID, Rules: v.Rules, Color: color, State: v.State, Result: v.SGFResult, Moves: len(v.Moves), Rated: v.Rated}
	if res.Game == "" {
		res.Game = gp.id
	}
	if opp, ok := v.Players[map[string]string{"x": "o", "o": "x"}[color]]; ok {
		res.Opponent = opp.Name
	}
	if v.Winner != nil {
		res.Winner = *v.Winner
	}
	if v.Reason != nil {
		res.Reason = *v.Reason
	}
	switch res.Winner {
	case color:
		res.Score = 1
	case "draw":
		res.Score = 0.5
	}
	b.mu.Lock()
	b.ended[gp.id] = true
	b.mu.Unlock()
	b.log.Info("game over", "game", res.Game, "color", res.Color, "opponent", res.Opponent, "result", res.Result, "winner", res.Winner, "reason", res.Reason, "moves", res.Moves)
	if b.cfg.Result != nil {
		b.cfg.Result(res)
	}
}
