package around

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/time/rate"

	"alak/rules"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/internal/pages"
	"alak/server/store"
	"alak/wire"
)

// Around a game: a rematch after a game, the messages between
// its players, and the games in progress to watch, with their spectators.
// docs/api.md describes the calls.

// Bounds of the messages.
const (
	maxMessageChars = 500 // characters of one message, once trimmed
	maxMessages     = 200 // messages in one game
	messagesBurst   = 5   // messages a player may write at once, then
	messagesPerMin  = 5   // this many a minute
	watchListed     = 50  // games on the watch list
)

// Config is what the rematches, the messages and the watch list take of
// the server.
type Config struct {
	// Store is the store's role of the rematches and the messages; Games
	// its games' role (a rematch's game, the games in progress).
	Store store.AroundStore
	Games store.GameStore
	// Core is the game core: a rematch, a message and a mute are changes
	// of a game made through it, and the views are its.
	Core *game.Core
	// Pages draws the watch page.
	Pages *pages.Pages
	Log   *slog.Logger
	Now   func() time.Time
	// NewID returns a new game's id.
	NewID func() string
	// ChallengeLife is how long a live rematch offer waits (the server's
	// Config.ChallengeLife); by correspondence it waits 7 days.
	ChallengeLife time.Duration
	// SeatAndStart seats account a in a waiting game and starts it (the
	// join's own step): an accepted rematch starts through it.
	SeatAndStart func(ctx context.Context, st *game.State, a *store.Account, now time.Time) (*game.Change, error)
	// GameCreated tells the account streams of a new game; Schedule asks
	// the computer for its move in a game at a version.
	GameCreated func(g store.Game)
	Schedule    func(id string, version int)
	// SeatNames reads into names the players of the games' seats, and
	// Summary is a game as the lists show it to account me, with those
	// names (the watch list is one of the lists).
	SeatNames func(ctx context.Context, names map[int64]wire.Seat, games ...[]store.Game) error
	Summary   func(ctx context.Context, g store.Game, me int64, names map[int64]wire.Seat) wire.Summary
}

// Service is the rematches, the messages and the watch list. Its methods
// are safe for concurrent use.
type Service struct {
	cfg      Config
	messages *httpx.Limiters // the messages' rate limits, by account
}

// New returns the rematches, messages and watch list of cfg.
func New(cfg Config) *Service {
	return &Service{cfg: cfg, messages: httpx.NewLimiters(rate.Limit(float64(messagesPerMin)/60), messagesBurst)}
}

// Routes registers the rematch, message, mute and watch calls and the
// watch page on mux.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/games/{id}/rematch", s.handleRematch)
	mux.HandleFunc("POST /api/games/{id}/messages", s.handleMessage)
	mux.HandleFunc("POST /api/games/{id}/mute", s.handleMute)
	mux.HandleFunc("GET /api/watch", s.handleWatch)
	mux.HandleFunc("GET /watch", func(w http.ResponseWriter, r *http.Request) {
		s.cfg.Pages.Render(w, r, "watch", pages.Page{Title: "games to watch", Page: "watch"})
	})
}

// writeError answers err as JSON with its kind's status (httpx.WriteError).
func (s *Service) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(s.cfg.Log, w, r, err)
}

// Rematches.
//
// POST /api/games/{id}/rematch by a player of a game that is over offers
// the opponent a new game with the same rules, start, clock (and
// ratedness), colours swapped: 201 {"id"}. Against the computer the new
// game starts at once. The opponent's same call accepts it: the new game
// starts, 200 {"id"}. Every offer, acceptance and refusal is a new state of
// the old game (its view's "rematch"), so both pages hear of it on the old
// game's stream. The offerer's call again answers the same game (200); so
// does either player's once it has started. An offer is a challenge to
// the opponent by name (a guest too, while they keep their cookie), listed
// in their games, which expires as a live challenge does (Config.
// ChallengeLife; a week by correspondence); {"decline": true} from the
// opponent refuses it, and once refused or expired, a player may offer
// again.

func (s *Service) handleRematch(w http.ResponseWriter, r *http.Request) {
	var req wire.RematchRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("id")
	var out wire.Rematch
	status := http.StatusOK
	_, err = s.cfg.Core.Act(r.Context(), id, func(st *game.State, now time.Time) (*game.Change, error) {
		c, ok := st.SeatOf(a)
		if !ok {
			return nil, httpx.Errf(wire.Forbidden, "not_a_player", "only the players of a game can ask for its rematch")
		}
		if st.Row.State != store.StateFinished && st.Row.State != store.StateAborted {
			return nil, httpx.Errf(wire.Conflict, "not_over", "the game is %s: a rematch follows a game that is over", st.Row.State)
		}
		prev, err := s.cfg.Store.Rematch(r.Context(), id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if prev != "" {
			rg, _, err := s.cfg.Games.Game(r.Context(), prev)
			if err != nil {
				return nil, err
			}
			out.ID = prev
			switch {
			case req.Decline && rg.State == store.StateWaiting && rg.Creator != a.ID:
				if _, err := s.endRematch(r.Context(), prev, a); err != nil {
					return nil, err
				}
				return &game.Change{}, nil
			case req.Decline:
				return nil, httpx.Errf(wire.Conflict, "no_offer", "there is no rematch offered to you to decline")
			case rg.State == store.StateWaiting && rg.Creator == a.ID:
				return &game.Change{}, nil // offered again: the same offer
			case rg.State == store.StateWaiting:
				if _, err := s.acceptRematch(r.Context(), prev, a); err != nil {
					return nil, err
				}
				return &game.Change{}, nil
			case rg.State != store.StateExpired:
				return &game.Change{}, nil // accepted already: the game to go to
			}
		}
		if req.Decline {
			return nil, httpx.Errf(wire.Conflict, "no_offer", "there is no rematch offered to you to decline")
		}
		g, err := s.rematchGame(st, a, c, now)
		if err != nil {
			return nil, err
		}
		if err := s.cfg.Store.LinkRematch(r.Context(), id, g, prev); err != nil {
			if errors.Is(err, store.ErrConflict) {
				return nil, httpx.Errf(wire.Conflict, "try_again", "the opponent asked for a rematch at the same time: try again")
			}
			return nil, err
		}
		out.ID, status = g.ID, http.StatusCreated
		s.cfg.Log.InfoContext(r.Context(), "rematch offered", "game", id, "rematch", g.ID, "kind", g.Kind)
		return &game.Change{After: func() {
			s.cfg.GameCreated(g)
			if g.State != store.StateActive {
				return
			}
			if nst, err := s.cfg.Core.Load(context.Background(), g.ID); err == nil && nst.BotToMove() {
				s.cfg.Schedule(g.ID, g.Version)
			}
		}}, nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, status, map[string]string{"id": out.ID})
}

// rematchGame builds the rematch of st's game offered by a, who played c:
// every field that defines the game copied, the colours swapped.
func (s *Service) rematchGame(st *game.State, a *store.Account, c rules.Color, now time.Time) (store.Game, error) {
	old := st.Row
	g := store.Game{ID: s.cfg.NewID(), Rules: old.Rules, Start: old.Start, Preset: old.Preset, Size: old.Size, Clock: old.Clock,
		Color: c.Opp().Letter(), Creator: a.ID, State: store.StateWaiting, Version: 1, WarnedEntry: -1, Created: now, Updated: now}
	// Ratedness is kept; the seats' ratings are taken when the rematch
	// starts (acceptRematch), as at a join.
	// A house bot's seat (a computer's spec with an account) is rated.
	g.Rated = old.Rated && (old.Black.Bot == "" || old.Black.AccountID != 0) && (old.White.Bot == "" || old.White.AccountID != 0)
	if st.Clock.Kind == game.ClockLive {
		g.BlackLeft, g.WhiteLeft = st.Clock.Initial, st.Clock.Initial
	}
	opp := old.Black
	if c == rules.Black {
		opp = old.White
	}
	me := store.Seat{AccountID: a.ID}
	if c == rules.Black { // the offerer takes White
		g.White, g.Black = me, opp
	} else {
		g.Black, g.White = me, opp
	}
	if opp.Bot != "" && opp.AccountID == 0 { // a house bot is challenged by name, below, and takes it
		g.Kind, g.State = store.KindComputer, store.StateActive
		nst, err := s.cfg.Core.Rebuild(g, nil)
		if err != nil {
			return g, err
		}
		nst.StartTurn(now)
		g.TurnStart, g.Deadline = nst.Row.TurnStart, nst.Row.Deadline
		return g, nil
	}
	// The opponent is seated when they accept.
	if c == rules.Black {
		g.Black = store.Seat{}
	} else {
		g.White = store.Seat{}
	}
	life := s.cfg.ChallengeLife
	if st.Clock.Kind == game.ClockDays {
		life = 7 * 24 * time.Hour
	}
	g.Kind, g.Opponent, g.Expires = store.KindNamed, opp.AccountID, now.Add(life)
	return g, nil
}

// acceptRematch seats a, the opponent the rematch was offered to, and
// starts the game.
func (s *Service) acceptRematch(ctx context.Context, id string, a *store.Account) (game.Event, error) {
	return s.cfg.Core.Act(ctx, id, func(st *game.State, now time.Time) (*game.Change, error) {
		row := &st.Row
		if row.State != store.StateWaiting {
			return nil, httpx.Errf(wire.Conflict, "not_waiting", "the rematch is %s", row.State)
		}
		if row.Kind != store.KindNamed || row.Opponent != a.ID {
			return nil, httpx.Errf(wire.Forbidden, "not_for_you", "this rematch is offered to another player")
		}
		return s.cfg.SeatAndStart(ctx, st, a, now)
	})
}

// endRematch is the refusal of a rematch by the player it was offered to.
func (s *Service) endRematch(ctx context.Context, id string, a *store.Account) (game.Event, error) {
	return s.cfg.Core.Act(ctx, id, func(st *game.State, now time.Time) (*game.Change, error) {
		row := &st.Row
		if row.State != store.StateWaiting || row.Opponent != a.ID {
			return nil, httpx.Errf(wire.Conflict, "no_offer", "there is no rematch offered to you to decline")
		}
		row.State, row.Reason, row.Ended = store.StateExpired, "declined", now
		return &game.Change{}, nil
	})
}

// RematchView is the rematch of a game that is over, for its view.
func (s *Service) RematchView(ctx context.Context, st *game.State) *wire.Rematch {
	if st.Row.State != store.StateFinished && st.Row.State != store.StateAborted {
		return nil
	}
	id, err := s.cfg.Store.Rematch(ctx, st.Row.ID)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.cfg.Log.Warn("reading a rematch", "game", st.Row.ID, "err", err)
		}
		return nil
	}
	rg, _, err := s.cfg.Games.Game(ctx, id)
	if err != nil {
		s.cfg.Log.Warn("reading a rematch", "game", id, "err", err)
		return nil
	}
	v := &wire.Rematch{ID: id, State: rg.State}
	switch rg.Creator {
	case st.Row.Black.AccountID:
		v.By = "x"
	case st.Row.White.AccountID:
		v.By = "o"
	}
	return v
}

// Messages between the players.
//
// POST /api/games/{id}/messages {"text"}: a player's line to the other
// (at most maxMessageChars characters once trimmed, no control
// characters; messagesBurst at once, then messagesPerMin a minute;
// maxMessages a game). The players' views (their event streams, GET
// /api/games/{id}) carry "messages" and "muted"; nobody else's do. Each
// message is a new state of the game, so that the streams of every
// process send it. POST /api/games/{id}/mute {"muted": true} hides the
// opponent's messages from the player, in this game (stored by seat).

// checkMessage returns the text as stored: trimmed, within bounds, with no
// control characters.
func checkMessage(text string) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", httpx.Errf(wire.BadInput, "empty_message", "the message is empty: write some text")
	}
	if !utf8.ValidString(text) {
		return "", httpx.Errf(wire.BadInput, "bad_text", "the message is not UTF-8 text")
	}
	if n := utf8.RuneCountInString(text); n > maxMessageChars {
		return "", httpx.Errf(wire.BadInput, "too_long", "the message is %d characters: at most %d", n, maxMessageChars)
	}
	if i := strings.IndexFunc(text, unicode.IsControl); i >= 0 {
		return "", httpx.Errf(wire.BadInput, "bad_text", "the message holds a control character (%q): one line of text, without tabs", text[i:i+utf8.RuneLen([]rune(text[i:])[0])])
	}
	return text, nil
}

// decodeMessage reads a message request's body: the fuzz test's entry.
func decodeMessage(body []byte) (string, error) {
	var req wire.MessageRequest
	if err := httpx.DecodeBytes(body, &req); err != nil {
		return "", err
	}
	return checkMessage(req.Text)
}

func (s *Service) handleMessage(w http.ResponseWriter, r *http.Request) {
	var req wire.MessageRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	text, err := checkMessage(req.Text)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if wait, ok := s.messages.Allow(strconv.FormatInt(a.ID, 10), s.cfg.Now()); !ok {
		s.writeError(w, r, httpx.TooMany(wait, "too many messages (%d a minute): wait %s", messagesPerMin, httpx.WaitWords(wait)))
		return
	}
	var m *store.Message
	var out wire.Message
	_, err = s.cfg.Core.Act(r.Context(), r.PathValue("id"), func(st *game.State, now time.Time) (*game.Change, error) {
		c, ok := st.SeatOf(a)
		if !ok {
			return nil, httpx.Errf(wire.Forbidden, "not_a_player", "only the players of a game write to each other")
		}
		if m == nil { // stored once: a second run (a stale cache) finds it in the state read again
			if len(st.Chat.Messages) >= maxMessages {
				return nil, httpx.Errf(wire.Conflict, "too_many_messages", "this game has its %d messages: no more", maxMessages)
			}
			stored, err := s.cfg.Store.AddMessage(r.Context(), store.Message{GameID: st.Row.ID, Color: c.Letter(), By: a.ID, Text: text, At: now})
			if err != nil {
				return nil, err
			}
			m = &stored
		}
		if !slices.ContainsFunc(st.Chat.Messages, func(x store.Message) bool { return x.ID == m.ID }) {
			st.Chat.Messages = append(st.Chat.Messages, *m)
		}
		out = s.messageView(r.Context(), st, *m)
		return &game.Change{}, nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, out)
}

func (s *Service) handleMute(w http.ResponseWriter, r *http.Request) {
	var req wire.MuteRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Muted == nil {
		s.writeError(w, r, httpx.Errf(wire.BadInput, "bad_mute", `write {"muted": true} to hide the opponent's messages, {"muted": false} to show them`))
		return
	}
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	_, err = s.cfg.Core.Act(r.Context(), r.PathValue("id"), func(st *game.State, now time.Time) (*game.Change, error) {
		c, ok := st.SeatOf(a)
		if !ok {
			return nil, httpx.Errf(wire.Forbidden, "not_a_player", "only the players of a game mute each other")
		}
		if err := s.cfg.Store.SetMute(r.Context(), st.Row.ID, c.Letter(), *req.Muted); err != nil {
			return nil, err
		}
		st.Chat.Muted = slices.DeleteFunc(st.Chat.Muted, func(x string) bool { return x == c.Letter() })
		if *req.Muted {
			st.Chat.Muted = append(st.Chat.Muted, c.Letter())
		}
		return &game.Change{}, nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, wire.Muted{Muted: *req.Muted})
}

// messageView is a message as the players see it, the writer by the name
// of the account in the seat now.
func (s *Service) messageView(ctx context.Context, st *game.State, m store.Message) wire.Message {
	seat := st.Row.Black
	if m.Color == "o" {
		seat = st.Row.White
	}
	v := wire.Message{Color: m.Color, Text: m.Text, At: m.At}
	if pv, err := s.cfg.Core.PlayerView(ctx, seat.AccountID); err == nil {
		v.From = pv.Name
	}
	return v
}

// ChatFor is what the player of seat c sees of the messages: all, or only
// their own when they muted the other.
func (s *Service) ChatFor(ctx context.Context, st *game.State, c string) (msgs []wire.Message, muted bool) {
	muted = slices.Contains(st.Chat.Muted, c)
	msgs = []wire.Message{}
	for _, m := range st.Chat.Messages {
		if muted && m.Color != c {
			continue
		}
		msgs = append(msgs, s.messageView(ctx, st, m))
	}
	return msgs, muted
}

// withChat adds the player's messages to a view's JSON object.
func (s *Service) withChat(ctx context.Context, data []byte, st *game.State, c string) []byte {
	msgs, muted := s.ChatFor(ctx, st, c)
	js, err := json.Marshal(msgs)
	if err != nil || len(data) < 2 || data[len(data)-1] != '}' {
		return data
	}
	var b bytes.Buffer
	b.Grow(len(data) + len(js) + 40)
	b.Write(data[:len(data)-1])
	fmt.Fprintf(&b, `,"messages":%s,"muted":%t}`, js, muted)
	return b.Bytes()
}

// ChatFrames gives the event its players' frames when the game has
// messages: the view with them, which no other stream is sent.
func (s *Service) ChatFrames(ctx context.Context, ev *game.Event, st *game.State) {
	ev.Players = [2]int64{st.Row.Black.AccountID, st.Row.White.AccountID}
	if ev.Data == nil || len(st.Chat.Messages) == 0 {
		return
	}
	for i, c := range []string{"x", "o"} {
		if ev.Players[i] != 0 {
			ev.Private[i] = game.NewEvent(ev.ID, ev.Version, s.withChat(ctx, ev.Data, st, c)).Frame
		}
	}
}

// WriteGame answers GET /api/games/{id}: the view, with the spectators
// and, for a player, the messages.
func (s *Service) WriteGame(w http.ResponseWriter, r *http.Request, st *game.State) {
	v := s.cfg.Core.View(r.Context(), st)
	n := s.cfg.Core.Broker.Spectators(st.Row.ID, st.Row.Black.AccountID, st.Row.White.AccountID)
	v.Spectators = &n
	data, err := json.Marshal(v)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if c, ok := st.SeatOf(httpx.Account(r)); ok {
		data = s.withChat(r.Context(), data, st, c.Letter())
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(data)
	w.Write([]byte{'\n'})
}

// QuoteLastMessage is the your-turn mail's quote of the opponent's last
// message to the player of account, unless they muted it.
func (s *Service) QuoteLastMessage(st *game.State, account int64) string {
	var c string
	switch account {
	case st.Row.Black.AccountID:
		c = "x"
	case st.Row.White.AccountID:
		c = "o"
	default:
		return ""
	}
	if slices.Contains(st.Chat.Muted, c) {
		return ""
	}
	for i := len(st.Chat.Messages) - 1; i >= 0; i-- {
		if m := st.Chat.Messages[i]; m.Color != c {
			v := s.messageView(context.Background(), st, m)
			return fmt.Sprintf("\n\n%s wrote: %s", v.From, m.Text)
		}
	}
	return ""
}

// Games to watch.

// handleWatch is GET /api/watch: the games in progress that are not by
// correspondence, the most recently changed first, with their spectators.
func (s *Service) handleWatch(w http.ResponseWriter, r *http.Request) {
	games, err := s.cfg.Games.Games(r.Context(), store.Filter{States: []string{store.StateActive}, Limit: 200})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var me int64
	if a := httpx.Account(r); a != nil {
		me = a.ID
	}
	var listed []store.Game
	for _, g := range games {
		if !game.ByDays(g.Clock) && len(listed) < watchListed {
			listed = append(listed, g)
		}
	}
	names := map[int64]wire.Seat{}
	if err := s.cfg.SeatNames(r.Context(), names, listed); err != nil {
		s.writeError(w, r, err)
		return
	}
	out := []wire.WatchGame{}
	for _, g := range listed {
		out = append(out, wire.WatchGame{Summary: s.cfg.Summary(r.Context(), g, me, names),
			Spectators: s.cfg.Core.Broker.Spectators(g.ID, g.Black.AccountID, g.White.AccountID)})
	}
	httpx.WriteJSON(w, http.StatusOK, wire.WatchList{Games: out})
}
