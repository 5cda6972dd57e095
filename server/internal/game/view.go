package game

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"alak/notation"
	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// EventID is the id of a state in the event stream: the ply, then the
// game's version, which grows with every change (moves, offers, the end).
func EventID(row store.Game) string {
	return strconv.Itoa(row.Ply) + "." + strconv.Itoa(row.Version)
}

// View builds the game's view: the state's own parts, and the features'
// parts (ViewParts) at their places.
func (c *Core) View(ctx context.Context, st *State) wire.Game {
	row := st.Row
	v := wire.Game{Snapshot: st.Sess.Snapshot(), ID: row.ID, Rules: row.Rules, Preset: row.Preset, State: row.State,
		Kind: row.Kind, Players: make(map[string]wire.Seat, 2), Version: row.Version,
		EventID: EventID(row), SGFResult: row.Result, Created: row.Created, Updated: row.Updated,
		RulesText: st.RulesText, GameRatings: c.ratings(ctx, row), AllowBots: row.AllowBots}
	if !row.Expires.IsZero() && row.State == store.StateWaiting {
		e := row.Expires
		v.Expires = &e
	}
	if row.State == store.StateExpired && row.Reason != "" { // why nobody plays it: "declined: ..."
		why := row.Reason
		v.Reason = &why
	}
	moves := st.Sess.Moves()
	v.Moves, v.Notation = make([]string, 0, len(moves)), make([]string, 0, len(moves))
	for _, m := range moves {
		v.Moves = append(v.Moves, st.Rules.MoveText(m))
		v.Notation = append(v.Notation, notation.Human.Encode(st.Rules, m))
	}
	for i, seat := range []store.Seat{row.Black, row.White} {
		key := []string{"x", "o"}[i]
		switch {
		case seat.AccountID != 0: // a house bot's seat has a spec too, and is shown by its account
			if pv, err := c.PlayerView(ctx, seat.AccountID); err == nil {
				v.Players[key] = pv
			}
		case seat.Bot != "":
			v.Players[key] = wire.Seat{Name: c.computerName(seat.Bot), Computer: true}
		default:
			v.Players[key] = wire.Seat{}
		}
	}
	if c.Parts.Invitee != nil {
		v.Invitee = c.Parts.Invitee(ctx, row)
	}
	v.Clock = wire.Clock{Spec: st.Clock.String(), Words: st.Clock.Words(), XMillis: row.BlackLeft.Milliseconds(), OMillis: row.WhiteLeft.Milliseconds()}
	switch {
	case st.FirstMoveDue():
		v.Clock.FirstMoveDeadline = row.Deadline.UnixMilli()
	case st.Paused():
		v.Clock.Paused = true
		if c.Parts.Vacation != nil {
			v.Clock.Vacation = c.Parts.Vacation(ctx, st)
		}
	case row.State == store.StateActive && st.Clock.Kind != ClockNone:
		v.Clock.Running = st.Sess.ToMove().Letter()
		v.Clock.TurnStart, v.Clock.Deadline = row.TurnStart.UnixMilli(), row.Deadline.UnixMilli()
	}
	if c.Parts.Rematch != nil {
		v.Rematch = c.Parts.Rematch(ctx, st)
	}
	v.Tournament = st.Tournament
	return v
}

// PlayerView is how an account is shown as a player: its name, or
// guest-ID. Names never change, so each is read from the store once.
func (c *Core) PlayerView(ctx context.Context, id int64) (wire.Seat, error) {
	if pv, ok := c.names.get(id); ok {
		return pv, nil
	}
	a, err := c.store.AccountByID(ctx, id)
	if err != nil {
		return wire.Seat{}, err
	}
	pv := c.accountView(a)
	c.names.put(id, pv)
	return pv, nil
}

// EventOf builds the state's event: its view in JSON, the answer to the
// change and what the streams send. The view is encoded straight into the
// stream's frame (NewEvent's bytes, without a copy of the view), in a
// buffer the size of the state's last frame and a little more: a view
// grows by a move or so from one change to the next.
func (c *Core) EventOf(ctx context.Context, st *State) Event {
	id := EventID(st.Row)
	head := eventHead(id)
	buf := bytes.NewBuffer(make([]byte, 0, max(len(st.Event.Frame)+256, 2048)))
	buf.WriteString(head)
	// Encode writes what json.Marshal does, then a newline.
	if err := json.NewEncoder(buf).Encode(c.View(ctx, st)); err != nil {
		c.log.Error("encoding a game", "game", st.Row.ID, "err", err)
		return Event{ID: id, Version: st.Row.Version}
	}
	buf.WriteByte('\n')
	frame := buf.Bytes()
	ev := Event{ID: id, Version: st.Row.Version, Data: frame[len(head) : len(frame)-2], Frame: frame}
	if c.Parts.Private != nil {
		c.Parts.Private(ctx, &ev, st)
	}
	return ev
}

// WriteEvent answers with an event's view, as writeJSON would.
func WriteEvent(w http.ResponseWriter, ev Event) {
	if ev.Data == nil {
		httpx.WriteJSON(w, http.StatusInternalServerError, wire.Error{Code: "internal", Error: "the game could not be encoded"})
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(ev.Data)
	w.Write([]byte{'\n'})
}

// ToMoveAccount is the account to move in an active game (0 for a
// computer or when nobody is to move).
func (st *State) ToMoveAccount() int64 {
	if st.Row.State != store.StateActive {
		return 0
	}
	if st.Sess.ToMove() == rules.White {
		return st.Row.White.AccountID
	}
	return st.Row.Black.AccountID
}

// ratings is the view's ratings part (Parts.Ratings), none without it.
func (c *Core) ratings(ctx context.Context, row store.Game) wire.GameRatings {
	if c.Parts.Ratings == nil {
		return wire.GameRatings{}
	}
	return c.Parts.Ratings(ctx, row)
}

// computerName names a computer seat (Parts.ComputerName), by its spec
// without it.
func (c *Core) computerName(spec string) string {
	if c.Parts.ComputerName == nil {
		return spec
	}
	return c.Parts.ComputerName(spec)
}

// accountView shows an account as a player (Parts.Account), by its
// name without it.
func (c *Core) accountView(a store.Account) wire.Seat {
	if c.Parts.Account == nil {
		return wire.Seat{Name: a.Name}
	}
	return c.Parts.Account(a)
}
