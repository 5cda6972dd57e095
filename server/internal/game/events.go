package game

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"alak/server/internal/httpx"
)

// Event is one state of a game, as the stream sends it.
type Event struct {
	ID      string // PLY.VERSION
	Version int
	Data    []byte // the wire.Game's JSON
	Frame   []byte // the whole event as a stream sends it (data is part of it)
	// Players are the accounts of Black and White, and private the
	// frames their streams send in place of frame when the game has
	// messages, which only the players see (ViewParts.Private).
	Players [2]int64
	Private [2][]byte
}

// NewEvent makes the event of a state: its view's JSON, within the frame
// every stream sends, written once.
func NewEvent(id string, version int, view []byte) Event {
	head := eventHead(id)
	frame := make([]byte, 0, len(head)+len(view)+2)
	frame = append(append(append(frame, head...), view...), "\n\n"...)
	return Event{ID: id, Version: version, Data: frame[len(head) : len(head)+len(view)], Frame: frame}
}

// eventHead is what comes before the view in the frame of event id.
func eventHead(id string) string {
	return "id: " + id + "\nretry: 2000\ndata: "
}

// Broker hands each game's new states to the streams watching it. A
// Watcher holds the latest state only: a slow reader skips states, never
// falls behind (every event is a whole snapshot).
type Broker struct {
	mu       sync.Mutex
	watchers map[string]map[*Watcher]bool
	present  map[int64]int  // open streams by account: who is on the site
	latest   map[string]int // the version last published of each watched game
}

// Watcher is one stream watching a game. Its own goroutine (HandleEvents)
// writes what it is handed; a change's request may write the change's
// event to it itself (writeNow).
type Watcher struct {
	ch      chan Event // capacity 1: the latest event, for the stream's goroutine
	account int64

	// mu is held while the stream is written to, by its goroutine or by
	// writeNow; it guards the fields below.
	mu   sync.Mutex
	out  *Stream  // the stream, from its headers to its handler's return; nil outside
	conn net.Conn // its connection, when the server tells it (ConnContext)
	sent int      // the version last sent: a stream never goes back
}

func NewBroker() *Broker {
	return &Broker{watchers: map[string]map[*Watcher]bool{}, present: map[int64]int{}, latest: map[string]int{}}
}

func (b *Broker) Watch(game string, account int64) *Watcher {
	w := &Watcher{ch: make(chan Event, 1), account: account}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.watchers[game] == nil {
		b.watchers[game] = map[*Watcher]bool{}
	}
	b.watchers[game][w] = true
	if account != 0 {
		b.present[account]++
	}
	return w
}

func (b *Broker) Unwatch(game string, w *Watcher) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.watchers[game], w)
	if len(b.watchers[game]) == 0 {
		delete(b.watchers, game)
		delete(b.latest, game)
	}
	if w.account != 0 {
		if b.present[w.account]--; b.present[w.account] <= 0 {
			delete(b.present, w.account)
		}
	}
}

// publish hands ev to every Watcher of the game, replacing a state the
// Watcher has not read yet, but to the streams of account first (0:
// none): those (at most cap(firsts)) are appended to firsts, for the
// caller to write ev to itself (writeNow), outside the Broker's lock.
func (b *Broker) Publish(game string, ev Event, first int64, firsts []*Watcher) []*Watcher {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.watchers[game]) == 0 {
		return firsts
	}
	b.latest[game] = max(b.latest[game], ev.Version) // each stream skips what it has sent
	for w := range b.watchers[game] {
		if first != 0 && w.account == first && len(firsts) < cap(firsts) {
			firsts = append(firsts, w)
			continue
		}
		w.give(ev)
	}
	return firsts
}

// give hands the Watcher ev, in place of a state it has not read yet.
func (w *Watcher) give(ev Event) {
	select {
	case w.ch <- ev:
	default:
		select { // drop the unread state, keep the newer
		case <-w.ch:
		default:
		}
		w.ch <- ev
	}
}

// open makes the stream writable by writeNow: its headers are out, and it
// has sent what Last-Event-ID names (sent).
func (w *Watcher) open(out *Stream, conn net.Conn, sent int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.out, w.conn, w.sent = out, conn, sent
}

// shut ends writeNow's writes, before the stream's handler returns (the
// response may not be written after).
func (w *Watcher) shut() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.out, w.conn = nil, nil
}

// send writes ev unless the stream has sent it or a later state.
func (w *Watcher) send(ev Event) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sendLocked(ev)
}

func (w *Watcher) sendLocked(ev Event) error {
	if ev.Version <= w.sent {
		return nil
	}
	if ev.Frame == nil { // an event made without newEvent
		ev = NewEvent(ev.ID, ev.Version, ev.Data)
	}
	if err := w.out.Write(ev.FrameFor(w.account)); err != nil {
		return err
	}
	w.sent = ev.Version
	return nil
}

// keepAlive writes the keep-alive comment.
func (w *Watcher) keepAlive() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.out.Write(KeepAlive)
}

// writeNowMax bounds the events writeNow writes: a socket with nothing
// queued takes this much without waiting (Linux gives a TCP socket
// 16 kB of send buffer to start with, 4 kB at the least; the kernel
// doubles what it is given).
const writeNowMax = 8 << 10

// writeNow writes ev to the stream from the calling goroutine, when that
// cannot wait: the stream is open and nothing else is writing to it, its
// socket has nothing queued (sendQueueEmpty: what the client has not
// acknowledged yet is queued), and the event is small. It reports whether
// the stream has the event; when it does not, the caller hands it to the
// stream's goroutine.
//
// This is how a change's event reaches the player to move: the request
// that committed the change writes it before its own answer, without
// waking the stream's goroutine and waiting for the scheduler to run it
// (docs/load-tail.md: under contention that wait was the tail of both the
// event and the answer). A client that reads has an empty queue by the
// time its opponent moves; one that stopped reading has data queued,
// and its stream's goroutine writes to it, and cuts it off, as before.
func (w *Watcher) writeNow(ev Event) bool {
	if !w.mu.TryLock() {
		return false // the stream's goroutine is writing: it takes ev next
	}
	defer w.mu.Unlock()
	if ev.Version <= w.sent && w.out != nil {
		return true
	}
	if w.out == nil || len(ev.FrameFor(w.account)) > writeNowMax || !sendQueueEmpty(w.conn) {
		return false
	}
	return w.sendLocked(ev) == nil
}

// watched reports whether a stream of this process watches the game.
func (b *Broker) Watched(game string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.watchers[game]) > 0
}

// published returns the version last published of a watched game.
func (b *Broker) Published(game string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.latest[game]
}

// games lists the games this process's streams watch.
func (b *Broker) Games() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]string, 0, len(b.watchers))
	for g := range b.watchers {
		out = append(out, g)
	}
	return out
}

// online reports whether the account has a stream open.
func (b *Broker) Online(account int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.present[account] > 0
}

// Publish sends a game's new state to this process's watchers and tells
// the other processes (when there is a Notifier) that it changed.
func (c *Core) Publish(st *State) {
	c.PublishLocal(st, st.ToMoveAccount())
	if c.cfg.Notifier != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := c.cfg.Notifier.Notify(ctx, st.Row.ID, st.Row.Ply, st.Row.Version); err != nil {
			c.log.Warn("notifying the other processes", "game", st.Row.ID, "err", err)
		}
	}
}

// PublishLocal sends a game's state to this process's watchers: the event
// commit built, or for a state read from the store, one built now. The
// streams of account first (0: none), the player to move, are written to
// by the calling goroutine itself where that cannot wait (writeNow), so
// that a move's event is in the opponent's socket before the mover's
// answer leaves; the other streams' goroutines write it.
func (c *Core) PublishLocal(st *State, first int64) {
	if !c.Broker.Watched(st.Row.ID) {
		return
	}
	if st.Event.Data == nil || st.Event.Version != st.Row.Version {
		st.Event = c.EventOf(context.Background(), st)
	}
	if st.Event.Data == nil {
		return
	}
	var firsts [4]*Watcher // a player's tabs; more are handed the event
	for _, w := range c.Broker.Publish(st.Row.ID, st.Event, first, firsts[:0]) {
		if !w.writeNow(st.Event) {
			c.metrics.LeadMissed.Add(1)
			w.give(st.Event)
		}
	}
}

// ConnOf is the connection r came on, or nil (no ConnContext): an event
// stream looks at its socket to see whether a write to it can wait
// (Watcher.writeNow); without it a change's event is handed to each
// stream's goroutine, and may leave after the change's answer.
func ConnOf(r *http.Request) net.Conn {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	return c
}

// republisher reads again the games other processes changed, on a few
// workers, so that the notifications are followed as fast as they come
// (one at a time, each read would wait for the one before); a game
// notified again while it waits is read once, at its latest.
type republisher struct {
	s       *Core
	ctx     context.Context
	mu      sync.Mutex
	pending map[string]bool
	queue   chan string
}

// republishWorkers is how many games are read again at once.
const republishWorkers = 4

func (c *Core) startRepublisher(ctx context.Context) *republisher {
	rp := &republisher{s: c, ctx: ctx, pending: map[string]bool{}, queue: make(chan string, 4096)}
	for range republishWorkers {
		c.cfg.Spawn(rp.work)
	}
	return rp
}

// soon asks for the game to be read again and published.
func (rp *republisher) soon(game string) {
	rp.mu.Lock()
	if rp.pending[game] {
		rp.mu.Unlock()
		return
	}
	rp.pending[game] = true
	rp.mu.Unlock()
	select {
	case rp.queue <- game:
	default: // the queue is full: read it now
		rp.take(game)
		rp.s.republish(rp.ctx, game)
	}
}

func (rp *republisher) take(game string) {
	rp.mu.Lock()
	delete(rp.pending, game)
	rp.mu.Unlock()
}

func (rp *republisher) work() {
	for {
		select {
		case <-rp.ctx.Done():
			return
		case game := <-rp.queue:
			rp.take(game) // a notification from now on asks again
			rp.s.republish(rp.ctx, game)
		}
	}
}

// VersionOf reads the version out of an event id, PLY.VERSION; -1 when it
// is not one.
func VersionOf(id string) int {
	_, v, ok := strings.Cut(strings.TrimSpace(id), ".")
	if !ok || len(v) > 9 {
		return -1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// HandleEvents is GET /api/games/{id}/events: Server-Sent Events, one
// "data:" snapshot (the wire.Game) per change, with "id: PLY.VERSION". A
// client that reconnects with Last-Event-ID (or ?last=) is sent the current
// state at once when it has moved on since; otherwise the first event is
// the current state. A comment line every 15 s (Config.StreamKeepAlive)
// keeps proxies from closing the stream. A client that does not take a
// write within Config.StreamWriteTimeout is cut off.
//
// The stream watches the game before it reads its state, so that no change
// falls between the two. The state is the one this process's cache holds
// when it has the game (its last change here, or the last read after
// another process's notification, which also drops an older one), else it
// is read from the store: a stream is as current as the notifications
// make it, whichever way it starts.
func (c *Core) HandleEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if len(id) > 40 {
		httpx.WriteError(c.log, w, r, ErrNotFound)
		return
	}
	if _, ok := w.(http.Flusher); !ok {
		httpx.WriteError(c.log, w, r, fmt.Errorf("streaming unsupported"))
		return
	}
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("last")
	}
	var acct int64
	if a := httpx.Account(r); a != nil {
		acct = a.ID
	}
	wt := c.Broker.Watch(id, acct)
	defer c.Broker.Unwatch(id, wt)
	first, ok := c.States.Event(id)
	if !ok {
		st, err := c.Load(r.Context(), id)
		if err != nil {
			httpx.WriteError(c.log, w, r, err)
			return
		}
		if first = c.EventOf(r.Context(), st); first.Data == nil {
			httpx.WriteError(c.log, w, r, fmt.Errorf("game %s: encoding its state failed", id))
			return
		}
	}
	// Every write within the stream write timeout (sse.go).
	stream, err := c.OpenStream(w, r, "event stream", "game", id)
	if err != nil { // the headers
		return
	}
	defer stream.Close()

	sent := VersionOf(last)
	if sent > first.Version { // a client from the future (a restored backup): start again
		sent = -1
	}
	wt.open(stream, ConnOf(r), sent)
	defer wt.shut()
	if err := wt.send(first); err != nil {
		return
	}
	tick := time.NewTicker(c.cfg.StreamKeepAlive)
	defer tick.Stop()
	for {
		var err error
		select {
		case <-r.Context().Done():
			return
		case <-c.cfg.Done:
			return
		case ev := <-wt.ch:
			err = wt.send(ev)
		case <-tick.C:
			err = wt.keepAlive()
		}
		if err != nil {
			return
		}
	}
}

// KeepAlive is the comment a stream sends when it has had nothing to send
// for a while.
var KeepAlive = []byte(": keep-alive\n\n")

// abort closes a stream's connection at once, with a reset: closed the
// usual way, the kernel would keep its unsent data, and keep offering it
// to the client that does not read, for minutes. Over HTTP/2 (no
// connection of its own) the stream just ends.
func abort(rc *http.ResponseController) {
	conn, _, err := rc.Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

// FrameFor is the frame the stream of account sends.
func (ev Event) FrameFor(account int64) []byte {
	if account != 0 {
		for i, p := range ev.Players {
			if p == account && ev.Private[i] != nil {
				return ev.Private[i]
			}
		}
	}
	return ev.Frame
}

// Spectators counts the streams of this process open on the game that are
// not its players' (anonymous ones included).
func (b *Broker) Spectators(game string, players ...int64) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for w := range b.watchers[game] {
		if w.account == 0 || !slices.Contains(players, w.account) {
			n++
		}
	}
	return n
}

// StreamsIdle reports whether every stream of account watching game is
// idle: open, nothing being written to it, and nothing in its socket that
// the client has not acknowledged, so that the next event can be written
// by the change's request itself (writeNow). The tests of the events'
// order wait for it.
func (b *Broker) StreamsIdle(game string, account int64) bool {
	b.mu.Lock()
	ws := slices.Collect(maps.Keys(b.watchers[game]))
	b.mu.Unlock()
	idle := true
	for _, w := range ws {
		if w.account != account {
			continue
		}
		if !w.mu.TryLock() {
			idle = false
			continue
		}
		idle = idle && w.out != nil && sendQueueEmpty(w.conn)
		w.mu.Unlock()
	}
	return idle
}
