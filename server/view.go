package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"alak/notation"
	"alak/player"
	"alak/rules"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// botName names a computer seat by its spec, which is canonical (stored
// as the player package built it): a level's spec by the level's name, as
// the create form offers it ("alphabeta:time=3s,depth=2" is computer
// (Casual)), any other by its words ("mcts:time=500ms,playouts=300000" is
// computer (mcts time=500ms playouts=300000)).
func botName(spec string) string {
	if n, ok := levelSpecs()[spec]; ok {
		return "computer (" + player.LevelName(n) + ")"
	}
	return "computer (" + strings.Join(strings.FieldsFunc(spec, func(r rune) bool { return r == ':' || r == ',' || r == ' ' }), " ") + ")"
}

// eventID is the id of a state in the event stream: the ply, then the
// game's version, which grows with every change (moves, offers, the end).
func eventID(row store.Game) string {
	return strconv.Itoa(row.Ply) + "." + strconv.Itoa(row.Version)
}

// view builds the game's view.
func (s *Server) view(ctx context.Context, st *gameState) wire.Game {
	row := st.row
	v := wire.Game{Snapshot: st.sess.Snapshot(), ID: row.ID, Rules: row.Rules, Preset: row.Preset, State: row.State,
		Kind: row.Kind, Players: map[string]wire.Seat{}, Moves: []string{}, Notation: []string{}, Version: row.Version,
		EventID: eventID(row), SGFResult: row.Result, Created: row.Created, Updated: row.Updated,
		RulesText: st.rulesText, GameRatings: s.ratings.Game(ctx, row), AllowBots: row.AllowBots}
	if !row.Expires.IsZero() && row.State == store.StateWaiting {
		e := row.Expires
		v.Expires = &e
	}
	if row.State == store.StateExpired && row.Reason != "" { // why nobody plays it: "declined: ..."
		why := row.Reason
		v.Reason = &why
	}
	for _, m := range st.sess.Moves() {
		v.Moves = append(v.Moves, st.r.MoveText(m))
		v.Notation = append(v.Notation, notation.Human.Encode(st.r, m))
	}
	for i, seat := range []store.Seat{row.Black, row.White} {
		key := []string{"x", "o"}[i]
		switch {
		case seat.AccountID != 0: // a house bot's seat has a spec too, and is shown by its account
			if pv, err := s.playerView(ctx, seat.AccountID); err == nil {
				v.Players[key] = pv
			}
		case seat.Bot != "":
			v.Players[key] = wire.Seat{Name: botName(seat.Bot), Computer: true}
		default:
			v.Players[key] = wire.Seat{}
		}
	}
	v.Invitee = s.invitee(ctx, row)
	v.Clock = wire.Clock{Spec: st.clock.String(), Words: st.clock.Words(), XMillis: row.BlackLeft.Milliseconds(), OMillis: row.WhiteLeft.Milliseconds()}
	switch {
	case st.firstMoveDue():
		v.Clock.FirstMoveDeadline = row.Deadline.UnixMilli()
	case st.paused():
		v.Clock.Paused, v.Clock.Vacation = true, s.vacationUntil(ctx, st)
	case row.State == store.StateActive && st.clock.Kind != ClockNone:
		v.Clock.Running = st.sess.ToMove().Letter()
		v.Clock.TurnStart, v.Clock.Deadline = row.TurnStart.UnixMilli(), row.Deadline.UnixMilli()
	}
	v.Rematch = s.rematchView(ctx, st)
	v.Tournament = st.tournament
	return v
}

// playerView is how an account is shown as a player: its name, or
// guest-ID. Names never change, so each is read from the store once.
func (s *Server) playerView(ctx context.Context, id int64) (wire.Seat, error) {
	if pv, ok := s.caches.names.get(id); ok {
		return pv, nil
	}
	a, err := s.store.AccountByID(ctx, id)
	if err != nil {
		return wire.Seat{}, err
	}
	pv := accountPlayerView(a)
	s.caches.names.put(id, pv)
	return pv, nil
}

// event builds the state's event: its view in JSON, the answer to the
// change and what the streams send.
func (s *Server) event(ctx context.Context, st *gameState) event {
	data, err := json.Marshal(s.view(ctx, st))
	if err != nil {
		s.log.Error("encoding a game", "game", st.row.ID, "err", err)
		return event{id: eventID(st.row), version: st.row.Version}
	}
	ev := newEvent(eventID(st.row), st.row.Version, data)
	s.chatFrames(ctx, &ev, st)
	return ev
}

// writeEvent answers with an event's view, as writeJSON would.
func writeEvent(w http.ResponseWriter, ev event) {
	if ev.data == nil {
		httpx.WriteJSON(w, http.StatusInternalServerError, wire.Error{Code: "internal", Error: "the game could not be encoded"})
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(ev.data)
	w.Write([]byte{'\n'})
}

// toMoveAccount is the account to move in an active game (0 for a
// computer or when nobody is to move).
func (st *gameState) toMoveAccount() int64 {
	if st.row.State != store.StateActive {
		return 0
	}
	if st.sess.ToMove() == rules.White {
		return st.row.White.AccountID
	}
	return st.row.Black.AccountID
}
