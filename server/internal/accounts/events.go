package accounts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// An account's event stream: GET /api/me/events tells a
// program (a bot) what concerns its account, so that it needs no other
// stream to find its games:
//
//   - challenge: a game addressed to the account (a named challenge or a
//     rematch offered to it) waits for its answer, POST
//     /api/games/{id}/join or .../decline;
//   - game_start: a game where the account sits is active;
//   - game_end: such a game is over (finished or aborted);
//   - ready: after the first look, what was pending has been sent (a page
//     tells from it a game that starts while it is open from one that
//     was under way when it connected: web/static/api.js).
//
// The stream is a view of the store, not a log: at every look it lists
// the account's waiting challenges, active games and last ended games,
// and sends what it has not sent yet. So on connecting it sends what is
// still pending (every waiting challenge and every active game), and a
// client that reconnects with Last-Event-ID is also sent the games that
// ended since (a margin before, so that a game committed by another
// process just before is not missed): a reconnecting bot misses nothing,
// and may be told a thing twice (each event names its game; acting on
// one twice is harmless: a second join is refused as not waiting).
//
// It looks when a game of the account changes state in this process (the
// hooks in commit and at a game's creation), when another process tells
// of a change (Notifier: every stream looks, at most every
// accountLookGap), and at least every accountLookEvery.

const (
	// accountLookEvery is how often a stream looks without being woken
	// (a notification lost between processes).
	accountLookEvery = 5 * time.Second
	// accountLookGap is the least time between two looks of a stream.
	accountLookGap = 100 * time.Millisecond
	// accountEndMargin is how far before the Last-Event-ID a reconnecting
	// stream looks for ended games.
	accountEndMargin = 30 * time.Second
	// accountMaxGames bounds each list a look reads (the store caps a list
	// at 200): a bot with more active games at once is told of the 200
	// changed last.
	accountMaxGames = 200
)

// Account event types.
const (
	evChallenge = "challenge"
	evGameStart = "game_start"
	evGameEnd   = "game_end"
	evReady     = "ready"
)

// readyFrame is the frame of the ready event.
var readyFrame = []byte("event: " + evReady + "\ndata: {\"type\":\"" + evReady + "\"}\n\n")

// accountHub is the open account streams of this process, by account:
// each has a channel of capacity one that wakes it. The zero value is
// ready to use.
type accountHub struct {
	mu sync.Mutex
	m  map[int64]map[chan struct{}]bool
	// every is how often a stream looks unwoken: accountLookEvery when
	// zero (the tests set an hour, to see that the wakes do the work).
	every time.Duration
}

// lookEvery is how often a stream looks without being woken.
func (h *accountHub) lookEvery() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.every > 0 {
		return h.every
	}
	return accountLookEvery
}

// setLookEvery sets it.
func (h *accountHub) setLookEvery(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.every = d
}

func (h *accountHub) add(account int64) chan struct{} {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[int64]map[chan struct{}]bool{}
	}
	if h.m[account] == nil {
		h.m[account] = map[chan struct{}]bool{}
	}
	h.m[account][ch] = true
	return ch
}

func (h *accountHub) remove(account int64, ch chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.m[account], ch)
	if len(h.m[account]) == 0 {
		delete(h.m, account)
	}
}

// wake wakes the streams of the accounts (0s are skipped).
func (h *accountHub) wake(accounts ...int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, a := range accounts {
		for ch := range h.m[a] {
			poke(ch)
		}
	}
}

// Wake wakes the streams of the accounts (0s are skipped): a game of
// theirs was created or changed state.
func (s *Accounts) Wake(accounts ...int64) { s.streams.wake(accounts...) }

// WakeAll wakes every stream (another process changed a game).
func (s *Accounts) WakeAll() { s.streams.wakeAll() }

// SetStreamLookEvery sets how often a stream looks unwoken (tests set an
// hour, to see that the wakes do the work).
func (s *Accounts) SetStreamLookEvery(d time.Duration) { s.streams.setLookEvery(d) }

// wakeAll wakes every stream (another process changed a game).
func (h *accountHub) wakeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, chs := range h.m {
		for ch := range chs {
			poke(ch)
		}
	}
}

func poke(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// GameChanged is commit's hook: the streams of a game's accounts look
// when its state may have changed (a challenge taken, declined or
// expired, a game over). The actions change the row's state before
// commit sees it, so the state before is not known there: every commit
// of a game that is not active, or active before its first move (just
// started), wakes them; the moves of a game under way, the common case,
// do not.
func (s *Accounts) GameChanged(row store.Game) {
	if row.State == store.StateActive && row.Ply > 0 {
		return
	}
	s.streams.wake(row.Creator, row.Opponent, row.Black.AccountID, row.White.AccountID)
}

// lastEventTime reads a Last-Event-ID (or ?last=) of the account stream:
// milliseconds since 1970; zero when there is none or it is not one.
func lastEventTime(r *http.Request) time.Time {
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("last")
	}
	n, err := strconv.ParseInt(strings.TrimSpace(last), 10, 64)
	if err != nil || n <= 0 || len(last) > 20 {
		return time.Time{}
	}
	return time.UnixMilli(n)
}

// HandleAccountEvents is GET /api/me/events.
func (s *Accounts) HandleAccountEvents(w http.ResponseWriter, r *http.Request) {
	a, err := httpx.RequireAccount(r)
	if err != nil {
		s.c.WriteError(w, r, err)
		return
	}
	if _, ok := w.(http.Flusher); !ok {
		s.c.WriteError(w, r, fmt.Errorf("streaming unsupported"))
		return
	}
	since := lastEventTime(r)
	if !since.IsZero() {
		since = since.Add(-accountEndMargin)
	}
	// Woken from now on: a change made while the first look reads is
	// looked at again.
	wake := s.streams.add(a.ID)
	defer s.streams.remove(a.ID, wake)
	stream, err := s.c.Core.OpenStream(w, r, "account event stream", "account", a.ID)
	if err != nil {
		return
	}
	defer stream.Close()
	look := accountLook{s: s, me: a.ID, since: since, sent: map[string]string{}}
	tick := time.NewTicker(s.c.StreamKeepAlive)
	defer tick.Stop()
	every := time.NewTimer(0)
	defer every.Stop()
	var last time.Time
	ready := false // the ready event sent
	for {
		var err error
		select {
		case <-r.Context().Done():
			return
		case <-s.c.Done:
			return
		case <-wake:
			if gap := accountLookGap - time.Since(last); gap > 0 {
				select { // several changes at once: one look
				case <-time.After(gap):
				case <-r.Context().Done():
					return
				}
			}
			every.Reset(0)
			continue
		case <-every.C:
			last = time.Now()
			var frames []byte
			frames, err = look.run(r.Context())
			if err != nil {
				s.c.Log.WarnContext(r.Context(), "account event stream: reading the account's games", "account", a.ID, "err", err)
				err = nil // the next look tries again
			} else {
				if !ready {
					frames, ready = append(frames, readyFrame...), true
				}
				if len(frames) > 0 {
					err = stream.Write(frames)
				}
			}
			every.Reset(s.streams.lookEvery())
		case <-tick.C:
			err = stream.Write(game.KeepAlive)
		}
		if err != nil {
			return
		}
	}
}

// accountLook is one stream's memory: what it sent of each game.
type accountLook struct {
	s     *Accounts
	me    int64
	since time.Time         // ended games from then on are told (zero: only those seen here)
	sent  map[string]string // game id → the last event type sent
}

// run reads the account's games and returns the frames of what changed
// since the last look: the ends first, then challenges, then starts, each
// the oldest first.
func (l *accountLook) run(ctx context.Context) ([]byte, error) {
	s := l.s
	now := s.c.Now()
	challenges, err := s.c.Store.Games(ctx, store.Filter{States: []string{store.StateWaiting}, Kind: store.KindNamed,
		Opponent: l.me, Live: now, Limit: accountMaxGames})
	if err != nil {
		return nil, err
	}
	active, err := s.c.Store.Games(ctx, store.Filter{Player: l.me, States: []string{store.StateActive}, Limit: accountMaxGames})
	if err != nil {
		return nil, err
	}
	var ended []store.Game
	if !l.since.IsZero() || len(l.sent) > 0 {
		if ended, err = s.c.Store.Games(ctx, store.Filter{Player: l.me, States: []string{store.StateFinished, store.StateAborted}, Limit: 50}); err != nil {
			return nil, err
		}
	}
	names := map[int64]wire.Seat{}
	id := strconv.FormatInt(now.UnixMilli(), 10)
	var out []byte
	emit := func(typ string, g store.Game) {
		if l.sent[g.ID] == typ {
			return
		}
		l.sent[g.ID] = typ
		ev := wire.AccountEvent{Type: typ, Summary: s.c.Summary(ctx, g, l.me, names), Color: l.color(g), Position: g.Start}
		if t, err := s.c.Tournament(ctx, g); err == nil {
			ev.Tournament = t // a tournament's game: its name and round
		}
		data, err := json.Marshal(ev)
		if err != nil {
			s.c.Log.Error("encoding an account event", "game", g.ID, "err", err)
			return
		}
		out = append(out, "event: "+typ+"\nid: "+id+"\ndata: "...)
		out = append(append(out, data...), "\n\n"...)
	}
	byCreated := func(a, b store.Game) int { return a.Created.Compare(b.Created) }
	slices.SortFunc(ended, byCreated)
	for _, g := range ended {
		told := l.sent[g.ID] == evChallenge || l.sent[g.ID] == evGameStart
		if told || (!l.since.IsZero() && !g.Ended.Before(l.since) && l.sent[g.ID] == "") {
			emit(evGameEnd, g)
		}
	}
	slices.SortFunc(challenges, byCreated)
	waiting := map[string]bool{}
	for _, g := range challenges {
		waiting[g.ID] = true
		emit(evChallenge, g)
	}
	slices.SortFunc(active, byCreated)
	for _, g := range active {
		emit(evGameStart, g)
	}
	// A challenge that is gone without starting (declined, withdrawn,
	// expired) is forgotten; a game told as over is kept until it falls
	// out of the ended list, so that it is not told again.
	inEnded := map[string]bool{}
	for _, g := range ended {
		inEnded[g.ID] = true
	}
	for gid, typ := range l.sent {
		if (typ == evChallenge && !waiting[gid]) || (typ == evGameEnd && !inEnded[gid]) {
			delete(l.sent, gid)
		}
	}
	return out, nil
}

// color is the account's colour in the game: its seat, or for a
// challenge not yet taken the colour opposite the creator's choice.
func (l *accountLook) color(g store.Game) string {
	switch {
	case g.Black.AccountID == l.me:
		return "x"
	case g.White.AccountID == l.me:
		return "o"
	case g.Color == "x":
		return "o"
	case g.Color == "o":
		return "x"
	}
	return "random"
}
