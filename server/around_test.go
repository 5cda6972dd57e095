package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"alak/wire"
)

// Around a game: rematches, messages between the players,
// spectators and the games to watch, end to end over the API on SQLite and
// PostgreSQL.

// playerGame is GET /api/games/{id} as a player reads it: the view, and
// the messages only the players are sent.
type playerGame struct {
	wire.Game
	Messages []wire.Message `json:"messages"`
	Muted    bool           `json:"muted"`
}

// rawGame is a game's JSON as sent, and whether it holds the messages.
func (c *client) rawGame(id string) (playerGame, string) {
	c.h.t.Helper()
	resp, data := c.roundTrip("GET", "/api/games/"+id, nil, nil)
	if resp.StatusCode != http.StatusOK {
		c.h.t.Fatalf("GET %s: %d %s", id, resp.StatusCode, data)
	}
	var v playerGame
	if err := json.Unmarshal(data, &v); err != nil {
		c.h.t.Fatal(err)
	}
	return v, string(data)
}

// rematch asks for the rematch of game id and returns the status and the
// new game's id.
func (c *client) rematch(id string, body any) (int, string) {
	c.h.t.Helper()
	var out struct {
		ID   string `json:"id"`
		Code string `json:"code"`
	}
	code := c.do("POST", "/api/games/"+id+"/rematch", body, &out)
	if out.ID == "" {
		out.ID = out.Code
	}
	return code, out.ID
}

// rawStream reads a game's event stream as c (its cookies) and sends each
// event's data line.
func (c *client) rawStream(ctx context.Context, id string) <-chan string {
	c.h.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.h.http.URL+"/api/games/"+id+"/events", nil)
	resp, err := c.c.Do(req)
	if err != nil {
		c.h.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		c.h.t.Fatalf("stream of %s: %d", id, resp.StatusCode)
	}
	out := make(chan string, 64)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				select {
				case out <- line:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// awaitData waits for an event whose data holds want.
func awaitData(t *testing.T, events <-chan string, want string) string {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case d := <-events:
			if strings.Contains(d, want) {
				return d
			}
		case <-deadline:
			t.Fatalf("no event with %s", want)
		}
	}
}

// TestRematchThroughTheAPI: a rematch offered by Black and accepted, then
// of that game offered by White and accepted, each with the same rules,
// start and clock and the colours swapped; an offer repeated; an offer
// declined and made again; refusals.
func TestRematchThroughTheAPI(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(t *testing.T, h *harness) {
		ada := h.client().signUp("ada")
		bo := h.client().signUp("bo")
		carl := h.client().signUp("carl")
		const rulesSpec = "alak size=7 edge=off"
		g := ada.create(map[string]string{"rules": rulesSpec, "position": "x-----o", "to_move": "x", "color": "x", "clock": "live:5m+3s", "opponent": "bo"})
		if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
			t.Fatalf("bo joins: %d", code)
		}
		if code, _ := ada.rematch(g.ID, nil); code != http.StatusConflict {
			t.Errorf("a rematch of a game in progress: %d, want 409", code)
		}
		if code := ada.do("POST", "/api/games/"+g.ID+"/resign", nil, nil); code != http.StatusOK {
			t.Fatalf("ada resigns: %d", code)
		}
		first := ada.game(g.ID)
		if code, _ := carl.rematch(g.ID, nil); code != http.StatusForbidden {
			t.Errorf("a rematch asked by someone else: %d, want 403", code)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		boSees := bo.rawStream(ctx, g.ID)
		awaitData(t, boSees, `"state":"finished"`)

		// Offered by Black (ada), repeated, accepted by bo.
		code, r1 := ada.rematch(g.ID, map[string]any{})
		if code != http.StatusCreated {
			t.Fatalf("ada offers a rematch: %d %s", code, r1)
		}
		awaitData(t, boSees, `"rematch":{"id":"`+r1+`","by":"x","state":"waiting"}`)
		if code, again := ada.rematch(g.ID, nil); code != http.StatusOK || again != r1 {
			t.Errorf("the offer repeated: %d %s, want 200 %s", code, again, r1)
		}
		offer := bo.game(r1)
		if offer.State != "waiting" || offer.Kind != "named" || offer.Players["o"].Name != "ada" || offer.Players["x"].Name != "" {
			t.Errorf("the offer: state %s kind %s players %+v", offer.State, offer.Kind, offer.Players)
		}
		if code, acc := bo.rematch(g.ID, nil); code != http.StatusOK || acc != r1 {
			t.Fatalf("bo accepts: %d %s, want 200 %s", code, acc, r1)
		}
		awaitData(t, boSees, `"rematch":{"id":"`+r1+`","by":"x","state":"active"}`)
		second := ada.game(r1)
		if second.State != "active" || second.Players["x"].Name != "bo" || second.Players["o"].Name != "ada" {
			t.Errorf("the rematch: %s, x %s o %s; want active, bo Black, ada White", second.State, second.Players["x"].Name, second.Players["o"].Name)
		}
		// The same game: rules, start and clock as the first.
		if second.Rules != first.Rules || second.Clock.Spec != first.Clock.Spec || second.Clock.XMillis != 5*60*1000 || second.Diagram != "x-----o" {
			t.Errorf("the rematch is %s %s %d ms %s; the first was %s %s, x-----o", second.Rules, second.Clock.Spec, second.Clock.XMillis, second.Diagram, first.Rules, first.Clock.Spec)
		}
		if code, again := bo.rematch(g.ID, nil); code != http.StatusOK || again != r1 {
			t.Errorf("asked again once started: %d %s", code, again)
		}

		// Offered by White (ada again, White now), accepted: colours back.
		if code := bo.do("POST", "/api/games/"+r1+"/resign", nil, nil); code != http.StatusOK {
			t.Fatalf("bo resigns: %d", code)
		}
		code, r2 := ada.rematch(r1, nil)
		if code != http.StatusCreated || r2 == r1 {
			t.Fatalf("ada (White) offers: %d %s", code, r2)
		}
		if code, acc := bo.rematch(r1, nil); code != http.StatusOK || acc != r2 {
			t.Fatalf("bo accepts: %d %s", code, acc)
		}
		third := bo.game(r2)
		if third.State != "active" || third.Players["x"].Name != "ada" || third.Players["o"].Name != "bo" || third.Rules != first.Rules {
			t.Errorf("the third game: %s, x %s o %s, %s", third.State, third.Players["x"].Name, third.Players["o"].Name, third.Rules)
		}

		// Declined, then offered again: a new game.
		if code := ada.do("POST", "/api/games/"+r2+"/resign", nil, nil); code != http.StatusOK {
			t.Fatalf("ada resigns: %d", code)
		}
		if code, _ := ada.rematch(r2, map[string]bool{"decline": true}); code != http.StatusConflict {
			t.Errorf("declining when nothing is offered: %d, want 409", code)
		}
		code, r3 := bo.rematch(r2, nil)
		if code != http.StatusCreated {
			t.Fatalf("bo offers: %d", code)
		}
		if code, _ := bo.rematch(r2, map[string]bool{"decline": true}); code != http.StatusConflict {
			t.Errorf("the offerer declining their own offer: %d, want 409", code)
		}
		if code, _ := ada.rematch(r2, map[string]bool{"decline": true}); code != http.StatusOK {
			t.Fatalf("ada declines: %d", code)
		}
		if v := ada.game(r3); v.State != "expired" {
			t.Errorf("the declined rematch: %s", v.State)
		}
		if v := ada.game(r2); v.Rematch == nil || v.Rematch.State != "expired" || v.Rematch.By != "o" {
			t.Errorf("the declined rematch from the old game: %+v", v.Rematch)
		}
		code, r4 := ada.rematch(r2, nil)
		if code != http.StatusCreated || r4 == r3 {
			t.Errorf("offered again after a refusal: %d %s (the refused one %s)", code, r4, r3)
		}
	})
}

// TestRematchAgainstTheComputer: the rematch starts at once, colours
// swapped, the computer seated; a guest's rematch of a game with a guest
// works while the guest keeps their cookie.
func TestRematchAgainstTheComputer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	guest := h.client()
	g := guest.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "computer:random"})
	if code := guest.do("POST", "/api/games/"+g.ID+"/resign", nil, nil); code != http.StatusOK {
		t.Fatalf("resigning: %d", code)
	}
	code, r := guest.rematch(g.ID, nil)
	if code != http.StatusCreated {
		t.Fatalf("rematch: %d %s", code, r)
	}
	v := guest.game(r)
	if v.State != "active" || v.Kind != "computer" || !v.Players["x"].Computer || v.Players["o"].Name != guest.game(g.ID).Players["x"].Name {
		t.Errorf("the rematch against the computer: %s %s %+v", v.State, v.Kind, v.Players)
	}

	// A guest invited by link offers the rematch; the account accepts.
	ada := h.client().signUp("ada")
	link := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "link"})
	invitee := h.client()
	if code := invitee.do("POST", "/api/games/"+link.ID+"/join", map[string]string{"invite": link.Invite[strings.Index(link.Invite, "=")+1:]}, nil); code != http.StatusOK {
		t.Fatalf("the guest joins: %d", code)
	}
	if code := ada.do("POST", "/api/games/"+link.ID+"/resign", nil, nil); code != http.StatusOK {
		t.Fatalf("ada resigns: %d", code)
	}
	code, r = invitee.rematch(link.ID, nil)
	if code != http.StatusCreated {
		t.Fatalf("the guest offers: %d %s", code, r)
	}
	if code, acc := ada.rematch(link.ID, nil); code != http.StatusOK || acc != r {
		t.Fatalf("ada accepts: %d %s", code, acc)
	}
	if v := ada.game(r); v.State != "active" || v.Players["x"].Name != invitee.game(link.ID).Players["o"].Name || v.Players["o"].Name != "ada" {
		t.Errorf("the guest's rematch: %s %+v", v.State, v.Players)
	}
}

// TestMessagesThroughTheAPI: a message reaches the opponent by the event
// stream and GET, never a spectator; muting hides the opponent's; the
// bounds on a message and the rate.
func TestMessagesThroughTheAPI(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(t *testing.T, h *harness) {
		ada := h.client().signUp("ada")
		bo := h.client().signUp("bo")
		carl := h.client().signUp("carl")
		anon := h.client()
		g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "bo"})
		if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
			t.Fatalf("bo joins: %d", code)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		boSees, carlSees := bo.rawStream(ctx, g.ID), carl.rawStream(ctx, g.ID)
		anonSees := anon.rawStream(ctx, g.ID)
		<-boSees
		<-carlSees
		<-anonSees

		const hello = `good luck <b>bo</b> & "friends"`
		var m wire.Message
		if code := ada.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": "  " + hello + "\n"}, &m); code != http.StatusCreated || m.Text != hello || m.From != "ada" || m.Color != "x" {
			t.Fatalf("ada writes: %d %+v", code, m)
		}
		// bo's stream sends it (as JSON text: never markup), the
		// spectators' streams send the new state without it.
		d := awaitData(t, boSees, `"messages":[`)
		var ev playerGame
		json.Unmarshal([]byte(d), &ev)
		if len(ev.Messages) != 1 || ev.Messages[0].Text != hello || ev.Messages[0].From != "ada" {
			t.Errorf("bo's event: %+v", ev.Messages)
		}
		for name, events := range map[string]<-chan string{"carl": carlSees, "anonymous": anonSees} {
			d := awaitData(t, events, `"version":`+strconv.Itoa(ev.Version)+`,`)
			if strings.Contains(d, "messages") || strings.Contains(d, "good luck") {
				t.Errorf("%s's stream carries the message: %s", name, d)
			}
		}
		if v, _ := bo.rawGame(g.ID); len(v.Messages) != 1 || v.Messages[0].Text != hello {
			t.Errorf("bo's GET: %+v", v.Messages)
		}
		for name, c := range map[string]*client{"carl": carl, "anonymous": anon} {
			if _, raw := c.rawGame(g.ID); strings.Contains(raw, "messages") || strings.Contains(raw, "good luck") {
				t.Errorf("%s's GET carries the message", name)
			}
		}
		if code := carl.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": "hi"}, nil); code != http.StatusForbidden {
			t.Errorf("a spectator writes: %d, want 403", code)
		}
		if code := anon.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": "hi"}, nil); code != http.StatusUnauthorized {
			t.Errorf("an anonymous reader writes: %d, want 401", code)
		}

		// Bounds: 500 characters (not bytes) once trimmed; no control
		// characters; not empty. Refusals cost no rate.
		for _, bad := range []string{strings.Repeat("é", 501), "   ", "", "two\nlines", "a\ttab", "bell\a", "nul\x00"} {
			var e errBody
			if code := ada.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": bad}, &e); code != http.StatusUnprocessableEntity {
				t.Errorf("%q: %d %+v, want 422", bad, code, e)
			}
		}
		if code := ada.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": strings.Repeat("é", 500)}, nil); code != http.StatusCreated {
			t.Errorf("500 characters: %d", code)
		}

		// Muting: bo no longer sees ada's messages, but his own; ada sees all.
		if code := bo.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": "thanks"}, nil); code != http.StatusCreated {
			t.Fatalf("bo writes: %d", code)
		}
		if code := bo.do("POST", "/api/games/"+g.ID+"/mute", map[string]bool{"muted": true}, nil); code != http.StatusOK {
			t.Fatalf("bo mutes: %d", code)
		}
		d = awaitData(t, boSees, `"muted":true`)
		if strings.Contains(d, "good luck") || !strings.Contains(d, "thanks") {
			t.Errorf("bo's stream once muted: %s", d)
		}
		if v, _ := bo.rawGame(g.ID); !v.Muted || len(v.Messages) != 1 || v.Messages[0].Text != "thanks" {
			t.Errorf("bo's GET once muted: %v %+v", v.Muted, v.Messages)
		}
		if v, _ := ada.rawGame(g.ID); v.Muted || len(v.Messages) != 3 {
			t.Errorf("ada's GET: %v, %d messages, want 3", v.Muted, len(v.Messages))
		}
		if code := bo.do("POST", "/api/games/"+g.ID+"/mute", map[string]bool{"muted": false}, nil); code != http.StatusOK {
			t.Fatalf("bo unmutes: %d", code)
		}
		if v, _ := bo.rawGame(g.ID); v.Muted || len(v.Messages) != 3 {
			t.Errorf("bo's GET once unmuted: %v, %d messages", v.Muted, len(v.Messages))
		}

		// The rate: ada has written 2 of her 5; the 6th within the minute
		// is refused with the wait, and allowed once it has passed.
		for i := range 3 {
			if code := ada.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": "again " + strconv.Itoa(i)}, nil); code != http.StatusCreated {
				t.Fatalf("message %d: %d", i+3, code)
			}
		}
		resp, body := ada.roundTrip("POST", "/api/games/"+g.ID+"/messages", strings.NewReader(`{"text":"one too many"}`), jsonHeader)
		wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		// 5 a minute: the next one 12 s after the last taken (the clock
		// has not moved).
		if resp.StatusCode != http.StatusTooManyRequests || wait != 12 {
			t.Fatalf("the 6th message: %d, Retry-After %q, %s; want 429 after 12 s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
		h.clock.Add(12 * time.Second)
		if code := ada.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": "later"}, nil); code != http.StatusCreated {
			t.Errorf("after the wait: %d", code)
		}
	})
}

// TestSpectatorsAndWatch: the streams that are not the players' are
// counted on the game and on the watch list, which lists the live games in
// progress only.
func TestSpectatorsAndWatch(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(t *testing.T, h *harness) {
		ada := h.client().signUp("ada")
		bo := h.client().signUp("bo")
		live := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "live:5m+3s", "opponent": "bo"})
		bo.do("POST", "/api/games/"+live.ID+"/join", nil, nil)
		corr := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "days:3", "opponent": "bo"})
		bo.do("POST", "/api/games/"+corr.ID+"/join", nil, nil)
		over := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "computer:random"})
		ada.do("POST", "/api/games/"+over.ID+"/resign", nil, nil)
		h.clock.Add(time.Second) // the latest changed
		bot := bo.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "computer:random"})

		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// Two players' streams and three spectators' (one signed in, two not).
		for _, c := range []*client{ada, bo, h.client().signUp("carl"), h.client(), h.client()} {
			<-c.rawStream(ctx, live.ID)
		}
		<-h.client().rawStream(ctx, bot.ID)
		if v, _ := bo.rawGame(live.ID); v.Spectators == nil || *v.Spectators != 3 {
			n := -1
			if v.Spectators != nil {
				n = *v.Spectators
			}
			t.Errorf("spectators of the live game: %d, want 3 (-1: none given)", n)
		}
		var list struct{ Games []wire.WatchGame }
		if code := h.client().do("GET", "/api/watch", nil, &list); code != http.StatusOK {
			t.Fatalf("/api/watch: %d", code)
		}
		got := map[string]int{}
		for _, g := range list.Games {
			got[g.ID] = g.Spectators
		}
		if len(got) != 2 || got[live.ID] != 3 || got[bot.ID] != 1 {
			t.Errorf("the watch list: %v, want %s with 3 and %s with 1 (not the correspondence game, nor the finished one)", got, live.ID, bot.ID)
		}
		if resp, page := h.client().roundTrip("GET", "/watch", nil, nil); resp.StatusCode != http.StatusOK || !strings.Contains(string(page), `watch.js"`) || !strings.Contains(string(page), `<h1>Games to watch</h1>`) {
			t.Errorf("the watch page: %d", resp.StatusCode)
		}
		if list.Games[0].ID != bot.ID {
			t.Errorf("the watch list's first game: %s, want the latest changed, %s", list.Games[0].ID, bot.ID)
		}
	})
}

// TestYourTurnMailQuotesTheLastMessage: the your-turn mail quotes the
// opponent's last message, and not once the player muted it.
func TestYourTurnMailQuotesTheLastMessage(t *testing.T) {
	t.Parallel()
	sink := newSMTPSink(t)
	h := newHarness(t, Config{SMTP: sink.url()})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	bo.setEmail("bo@example.org")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	ada.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": "first"}, nil)
	ada.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": "your move, <bo>"}, nil)
	if code, _, e := ada.move(g.ID, "2", 0); code != http.StatusOK {
		t.Fatalf("ada's move: %d %+v", code, e)
	}
	checkMail(t, sink.next(t), "bo@example.org", "alak: your move in game "+g.ID, "Your opponent played 2.\n\nada wrote: your move, <bo>\n")
	bo.do("POST", "/api/games/"+g.ID+"/mute", map[string]bool{"muted": true}, nil)
	bo.move(g.ID, "4", 1)
	ada.move(g.ID, "6", 2)
	m := sink.next(t)
	checkMail(t, m, "bo@example.org", "alak: your move in game "+g.ID, "Your opponent played 6.")
	if strings.Contains(m.body, "wrote") {
		t.Errorf("a muted message quoted:\n%s", m.body)
	}
}

// TestMessagesAndRematchAcrossProcesses: with two processes on one
// PostgreSQL, a message written through one reaches the opponent's stream
// on the other, and so does a rematch offer on the old game's stream.
func TestMessagesAndRematchAcrossProcesses(t *testing.T) {
	t.Parallel()
	ps := pgProcesses(t, 2, &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)})
	a, b := ps[0], ps[1]
	ada := a.client().signUp("ada")
	bo := a.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.on(b).do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("bo joins: %d", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	boSees := bo.on(b).rawStream(ctx, g.ID)
	awaitData(t, boSees, `"state":"active"`)
	if code := ada.do("POST", "/api/games/"+g.ID+"/messages", map[string]string{"text": "from process a"}, nil); code != http.StatusCreated {
		t.Fatalf("ada writes: %d", code)
	}
	awaitData(t, boSees, `"text":"from process a"`)
	if code := ada.do("POST", "/api/games/"+g.ID+"/resign", nil, nil); code != http.StatusOK {
		t.Fatalf("ada resigns: %d", code)
	}
	code, r := ada.rematch(g.ID, nil)
	if code != http.StatusCreated {
		t.Fatalf("ada offers: %d", code)
	}
	awaitData(t, boSees, `"rematch":{"id":"`+r+`","by":"x","state":"waiting"}`)
	if code, acc := bo.on(b).rematch(g.ID, nil); code != http.StatusOK || acc != r {
		t.Fatalf("bo accepts through the other process: %d %s", code, acc)
	}
}
