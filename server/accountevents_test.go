package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"alak/wire"
)

// accountEvent is one event read from GET /api/me/events.
type accountEvent struct {
	typ, id string
	ev      wire.AccountEvent
}

// accountStream opens c's account stream (with Last-Event-ID last, "" for
// none) and reads its events but ready into a channel until ctx ends.
func (c *client) accountStream(ctx context.Context, last string) <-chan accountEvent {
	c.h.t.Helper()
	return c.accountStreamOf(ctx, last, false)
}

// accountStreamOf is accountStream, with the ready events when ready.
func (c *client) accountStreamOf(ctx context.Context, last string, ready bool) <-chan accountEvent {
	t := c.h.t
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.h.http.URL+"/api/me/events", nil)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if last != "" {
		req.Header.Set("Last-Event-ID", last)
	}
	resp, err := (&http.Client{Transport: c.c.Transport, Jar: c.c.Jar}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("account stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan accountEvent, 64)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev accountEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.typ = line[7:]
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "data: "):
				if err := json.Unmarshal([]byte(line[6:]), &ev.ev); err != nil {
					ev.typ = "undecodable: " + err.Error()
				}
			case line == "" && ev.typ == "ready" && !ready:
				ev = accountEvent{}
			case line == "" && ev.typ != "":
				select {
				case out <- ev:
				case <-ctx.Done():
					return
				}
				ev = accountEvent{}
			}
		}
	}()
	return out
}

// next reads the stream's next event, failing after 10 s.
func next(t *testing.T, events <-chan accountEvent) accountEvent {
	t.Helper()
	select {
	case ev := <-events:
		if ev.ev.Type != ev.typ {
			t.Fatalf("an event of type %q holds %+v", ev.typ, ev.ev)
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no account event within 10 s")
	}
	return accountEvent{}
}

// quiet checks that the stream sends nothing for a while.
func quiet(t *testing.T, events <-chan accountEvent, what string) {
	t.Helper()
	select {
	case ev := <-events:
		t.Errorf("%s: unexpected %s of %s", what, ev.typ, ev.ev.ID)
	case <-time.After(300 * time.Millisecond):
	}
}

func wantEvent(t *testing.T, got accountEvent, typ, game string) {
	t.Helper()
	if got.typ != typ || got.ev.ID != game {
		t.Fatalf("account event %s of %s (%+v), want %s of %s", got.typ, got.ev.ID, got.ev, typ, game)
	}
}

// TestAccountEvents: GET /api/me/events tells a bot, by bearer
// token, of a challenge addressed to it (with its rules, clock and the
// bot's colour), of its games' starts and ends; on connecting it replays
// what is pending (waiting challenges, active games), and reconnecting
// with Last-Event-ID also the games that ended while it was away.
func TestAccountEvents(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.srv.accounts.SetStreamLookEvery(time.Hour) // every event is woken for, none found by the periodic look
	ada := h.client().signUp("ada")
	bot := h.client().signUpBot("walker")
	if code, e, _ := h.client().call("GET", "/api/me/events", ""); code != http.StatusUnauthorized {
		t.Errorf("the account stream without a credential: %d %s, want 401", code, e)
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := bot.accountStream(ctx, "")
	quiet(t, events, "nothing pending")

	g1 := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "walker", "clock": "live:5m+3s"})
	ch := next(t, events)
	wantEvent(t, ch, "challenge", g1.ID)
	if ch.ev.Rules != "alak size=6" || ch.ev.Clock != "live:5m+3s" || ch.ev.Color != "o" || ch.ev.Players["x"].Name != "ada" || !ch.ev.Rated || ch.id == "" {
		t.Errorf("the challenge: %+v (id %q); want alak size=6, live:5m+3s, walker o against ada, rated", ch.ev, ch.id)
	}
	// Another player's challenge to someone else is not the bot's.
	h.client().signUp("bo")
	ada.create(map[string]string{"rules": "alak size=6", "opponent": "bo", "clock": "none"})
	quiet(t, events, "a challenge to someone else")

	if code, e, _ := bot.call("POST", "/api/games/"+g1.ID+"/join", ""); code != http.StatusOK {
		t.Fatalf("join: %d %s", code, e)
	}
	st := next(t, events)
	wantEvent(t, st, "game_start", g1.ID)
	if st.ev.State != "active" || st.ev.Color != "o" {
		t.Errorf("game_start: %+v", st.ev)
	}
	// A declined challenge is forgotten without an event.
	g2 := ada.create(map[string]string{"rules": "alak", "color": "random", "opponent": "walker", "clock": "days:3"})
	ch2 := next(t, events)
	wantEvent(t, ch2, "challenge", g2.ID)
	if ch2.ev.Color != "random" || ch2.ev.Clock != "days:3" {
		t.Errorf("a challenge with a random colour: %+v", ch2.ev)
	}
	bot.call("POST", "/api/games/"+g2.ID+"/decline", "")
	quiet(t, events, "a declined challenge")

	// The game ends: game_end, with the result.
	if code, e, _ := ada.call("POST", "/api/games/"+g1.ID+"/resign", ""); code != http.StatusOK {
		t.Fatalf("resign: %d %s", code, e)
	}
	end := next(t, events)
	wantEvent(t, end, "game_end", g1.ID)
	if end.ev.Winner != "o" || end.ev.Result != "W+R" {
		t.Errorf("game_end: winner %q result %q, want o W+R", end.ev.Winner, end.ev.Result)
	}

	// A minute on (past the margin of accountEndMargin), a bot away: a
	// game starts and ends, another starts, a challenge comes.
	h.clock.Add(time.Minute)
	g3 := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "walker", "clock": "none"})
	wantEvent(t, next(t, events), "challenge", g3.ID)
	bot.call("POST", "/api/games/"+g3.ID+"/join", "")
	ev3 := next(t, events)
	wantEvent(t, ev3, "game_start", g3.ID)
	last := ev3.id
	cancel()
	g4 := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "walker", "clock": "none"})
	bot.call("POST", "/api/games/"+g4.ID+"/join", "")
	ada.call("POST", "/api/games/"+g3.ID+"/resign", "")
	g5 := ada.create(map[string]string{"rules": "alak size=6", "color": "o", "opponent": "walker", "clock": "none"})

	// Reconnecting with Last-Event-ID: the end of g3 (not g1's, which
	// ended before the margin), the challenge g5, the start of g4 (ends,
	// challenges, starts).
	ctx2, cancel2 := context.WithCancel(context.Background())
	resumed := bot.accountStream(ctx2, last)
	wantEvent(t, next(t, resumed), "game_end", g3.ID)
	wantEvent(t, next(t, resumed), "challenge", g5.ID)
	if ev := next(t, resumed); ev.typ != "game_start" || ev.ev.ID != g4.ID || ev.ev.Color != "o" {
		t.Errorf("resumed: %s of %s as %s, want game_start of %s as o", ev.typ, ev.ev.ID, ev.ev.Color, g4.ID)
	}
	quiet(t, resumed, "after the replay")
	cancel2()

	// A new connection without Last-Event-ID: what is pending only.
	ctx3, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	fresh := bot.accountStreamOf(ctx3, "", true)
	wantEvent(t, next(t, fresh), "challenge", g5.ID)
	wantEvent(t, next(t, fresh), "game_start", g4.ID)
	// Then ready, once: what follows began after the connection.
	if ev := next(t, fresh); ev.typ != "ready" || ev.ev.ID != "" {
		t.Errorf("after the pending: %s %+v, want ready", ev.typ, ev.ev)
	}
	quiet(t, fresh, "a fresh stream after the pending")
	bot.call("POST", "/api/games/"+g5.ID+"/join", "")
	wantEvent(t, next(t, fresh), "game_start", g5.ID)
	quiet(t, fresh, "a fresh stream after a start")

	// Asked for gzip, the stream is sent plain, and its first event
	// leaves at once (a compressor would hold it back).
	ctx4, cancel4 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel4()
	req, _ := http.NewRequestWithContext(ctx4, "GET", h.http.URL+"/api/me/events", nil)
	req.Header.Set("Authorization", "Bearer "+bot.token)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ce := resp.Header.Get("Content-Encoding"); ce != "" {
		t.Errorf("the account stream asked for gzip is sent with Content-Encoding %q", ce)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "event: game_start\n" {
		t.Errorf("the plain stream's first line: %q, %v", line, err)
	}
}

// TestAccountEventsTournamentPairing: a tournament's pairing wakes its
// players' account streams, which tell them of their new games at once
// (the periodic look is set to an hour): a live game's first move has
// seconds, and the players' pages go to it on this event.
func TestAccountEventsTournamentPairing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{SignupRate: 100})
	h.srv.accounts.SetStreamLookEvery(time.Hour)
	ps := tourneyPlayers(h, 2)
	var out wire.Created
	if code := ps["p1"].do("POST", "/api/tournaments", map[string]any{"name": "Live", "rules": "alak size=7", "clock": "live:5m+3s", "format": "round-robin"}, &out); code != http.StatusCreated {
		t.Fatalf("creating the tournament: %d", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streams := map[string]<-chan accountEvent{}
	for _, n := range []string{"p1", "p2"} {
		if code := ps[n].do("POST", "/api/tournaments/"+out.ID+"/join", nil, nil); code != http.StatusOK {
			t.Fatalf("%s joins: %d", n, code)
		}
		streams[n] = ps[n].accountStreamOf(ctx, "", true)
		if ev := next(t, streams[n]); ev.typ != "ready" {
			t.Fatalf("%s's stream begins with %s, want ready (nothing pending)", n, ev.typ)
		}
	}
	if code := ps["p1"].do("POST", "/api/tournaments/"+out.ID+"/start", nil, nil); code != http.StatusOK {
		t.Fatalf("start: %d", code)
	}
	v := waitTournament(t, ps["p1"], out.ID, "the pairing", func(v wire.Tournament) bool { return len(v.Games) == 1 && v.Games[0].ID != "" })
	for n, events := range streams {
		ev := next(t, events)
		wantEvent(t, ev, "game_start", v.Games[0].ID)
		if ev.ev.Tournament == nil || ev.ev.Tournament.ID != out.ID || ev.ev.Clock != "live:5m+3s" {
			t.Errorf("%s's game_start: %+v, want the tournament's live game", n, ev.ev)
		}
	}
}

// TestAccountEventsAcrossProcesses: on PostgreSQL, a bot's
// stream on one process is told of what is done on another (the
// challenge, its start, its end): the other process's notification wakes
// it (the periodic look is set to an hour, so it is not what finds them).
func TestAccountEventsAcrossProcesses(t *testing.T) {
	t.Parallel()
	ps := pgProcesses(t, 2, &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)})
	a, b := ps[0], ps[1]
	for _, h := range ps {
		h.srv.accounts.SetStreamLookEvery(time.Hour)
	}
	ada := b.client().signUp("ada")
	bot := a.client().signUpBot("walker")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := bot.accountStream(ctx, "")
	quiet(t, events, "nothing pending")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "walker", "clock": "none"})
	wantEvent(t, next(t, events), "challenge", g.ID)
	if code, e, _ := bot.on(b).call("POST", "/api/games/"+g.ID+"/join", ""); code != http.StatusOK {
		t.Fatalf("join on the other process: %d %s", code, e)
	}
	wantEvent(t, next(t, events), "game_start", g.ID)
	ada.move(g.ID, "1", 0)
	quiet(t, events, "a move")
	ada.call("POST", "/api/games/"+g.ID+"/resign", "")
	wantEvent(t, next(t, events), "game_end", g.ID)
}
