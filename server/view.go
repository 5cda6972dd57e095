package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/server/store"
	"alak/session"
)

// GameView is a game as the API and the event stream send it: the
// session's snapshot (the fields of alak replay --json, and the rest of
// session.Snapshot) with the game's id, rules, players, moves, clocks and
// state. Its "rules" is the whole rules string ("alak size=11"), as
// POST /api/games takes it; the preset alone is in "preset".
type GameView struct {
	session.Snapshot
	ID        string                `json:"id"`
	Rules     string                `json:"rules"`
	Preset    string                `json:"preset"`
	State     string                `json:"state"` // waiting, active, finished, aborted, expired
	Kind      string                `json:"kind"`  // named, open, link, computer
	Players   map[string]PlayerView `json:"players"`
	Moves     []string              `json:"moves"` // every move on the board, in the one move form
	Notation  []string              `json:"notation"`
	Clock     ClockView             `json:"clock"`
	Version   int                   `json:"version"`
	EventID   string                `json:"event_id"` // the id of this state's event: PLY.VERSION
	SGFResult string                `json:"sgf_result,omitempty"`
	Created   time.Time             `json:"created"`
	Updated   time.Time             `json:"updated"`
	Expires   *time.Time            `json:"expires,omitempty"`
	RulesText string                `json:"rules_text"`
}

// PlayerView is one seat.
type PlayerView struct {
	Name     string `json:"name,omitempty"` // "" while the seat is empty
	Computer bool   `json:"computer,omitempty"`
	Guest    bool   `json:"guest,omitempty"`
}

// ClockView is the time control and where each clock stands.
type ClockView struct {
	Spec      string `json:"spec"`  // "none", "live:5m+3s", "days:3"
	Words     string `json:"words"` // "5m + 3s", "3 days a move"
	XMillis   int64  `json:"x_ms"`  // live: each player's time left at the start of the current turn
	OMillis   int64  `json:"o_ms"`
	Running   string `json:"running,omitempty"`    // whose clock runs: "x", "o", or "" when none does
	TurnStart int64  `json:"turn_start,omitempty"` // when the running clock started, ms since 1970
	Deadline  int64  `json:"deadline,omitempty"`   // when the player to move loses on time, ms since 1970
	// FirstMoveDeadline: in a live game whose player to move has yet to
	// make their first move, when the game is aborted unless they move, ms
	// since 1970. No clock runs then (running, turn_start and deadline
	// are absent).
	FirstMoveDeadline int64 `json:"first_move_deadline,omitempty"`
}

// botName names a computer seat by its spec, which is canonical (stored
// as the player package built it): "mcts:time=1s,playouts=300000" is
// computer (mcts time=1s playouts=300000).
func botName(spec string) string {
	return "computer (" + strings.Join(strings.FieldsFunc(spec, func(r rune) bool { return r == ':' || r == ',' || r == ' ' }), " ") + ")"
}

// eventID is the id of a state in the event stream: the ply, then the
// game's version, which grows with every change (moves, offers, the end).
func eventID(row store.Game) string {
	return strconv.Itoa(row.Ply) + "." + strconv.Itoa(row.Version)
}

// view builds the game's view.
func (s *Server) view(ctx context.Context, st *gameState) GameView {
	row := st.row
	v := GameView{Snapshot: st.sess.Snapshot(), ID: row.ID, Rules: row.Rules, Preset: row.Preset, State: row.State,
		Kind: row.Kind, Players: map[string]PlayerView{}, Moves: []string{}, Notation: []string{}, Version: row.Version,
		EventID: eventID(row), SGFResult: row.Result, Created: row.Created, Updated: row.Updated,
		RulesText: st.rulesText}
	if !row.Expires.IsZero() && row.State == store.StateWaiting {
		e := row.Expires
		v.Expires = &e
	}
	for _, m := range st.sess.Moves() {
		v.Moves = append(v.Moves, st.r.MoveText(m))
		v.Notation = append(v.Notation, notation.FormatMove(st.r, m))
	}
	for i, seat := range []store.Seat{row.Black, row.White} {
		key := []string{"x", "o"}[i]
		switch {
		case seat.Bot != "":
			v.Players[key] = PlayerView{Name: botName(seat.Bot), Computer: true}
		case seat.AccountID != 0:
			if pv, err := s.playerView(ctx, seat.AccountID); err == nil {
				v.Players[key] = pv
			}
		default:
			v.Players[key] = PlayerView{}
		}
	}
	v.Clock = ClockView{Spec: st.clock.String(), Words: st.clock.Words(), XMillis: row.BlackLeft.Milliseconds(), OMillis: row.WhiteLeft.Milliseconds()}
	switch {
	case st.firstMoveDue():
		v.Clock.FirstMoveDeadline = row.Deadline.UnixMilli()
	case row.State == store.StateActive && st.clock.Kind != "none":
		v.Clock.Running = sym(st.sess.ToMove())
		v.Clock.TurnStart, v.Clock.Deadline = row.TurnStart.UnixMilli(), row.Deadline.UnixMilli()
	}
	return v
}

// playerView is how an account is shown as a player: its name, or
// guest-ID. Names never change, so each is read from the store once.
func (s *Server) playerView(ctx context.Context, id int64) (PlayerView, error) {
	if pv, ok := s.caches.names.get(id); ok {
		return pv, nil
	}
	a, err := s.store.AccountByID(ctx, id)
	if err != nil {
		return PlayerView{}, err
	}
	pv := PlayerView{Name: displayName(a), Guest: a.Guest()}
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
	return newEvent(eventID(st.row), st.row.Version, data)
}

// writeEvent answers with an event's view, as writeJSON would.
func writeEvent(w http.ResponseWriter, ev event) {
	if ev.data == nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "the game could not be encoded", "code": "internal"})
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
