package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"alak/rules"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/server/store/sqlitestore"
	"alak/wire"
)

// sharedHarness is a harness for a fuzz target or a benchmark: one server
// on one SQLite file for every input, stopped when tb ends. Each input
// works through with(t).
func sharedHarness(tb testing.TB, cfg Config) *harness {
	tb.Helper()
	return sharedHarnessOn(tb, cfg, nil)
}

// sharedHarnessOn is sharedHarness with the server's store wrapped by
// wrap (nil: not wrapped).
func sharedHarnessOn(tb testing.TB, cfg Config, wrap func(store.Store) store.Store) *harness {
	tb.Helper()
	h := &harness{path: filepath.Join(tb.TempDir(), "alak.db"), clock: &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}}
	if cfg.Now == nil {
		cfg.Now = h.clock.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.SweepEvery == 0 {
		cfg.SweepEvery = time.Hour
	}
	if cfg.GameRate == 0 {
		cfg.GameRate = 1 << 20 // fuzzers and benchmarks make a game an input
	}
	h.cfg = cfg
	st, err := sqlitestore.Open(context.Background(), freshDB(tb, h.path))
	if err != nil {
		tb.Fatal(err)
	}
	var served store.Store = st
	if wrap != nil {
		served = wrap(st)
	}
	srv, err := New(h.cfg, served)
	if err != nil {
		tb.Fatal(err)
	}
	h.st, h.srv = st, srv
	h.http = serveHTTP(srv)
	h.srv.cfg.BaseURL = h.http.URL
	tb.Cleanup(h.stop)
	return h
}

// with returns the harness as seen by test t (its helpers fail t).
func (h *harness) with(t *testing.T) *harness {
	c := *h
	c.t = t
	return &c
}

// on returns the client as seen by harness h.
func (c *client) on(h *harness) *client {
	d := *c
	d.h = h
	return &d
}

// FuzzDecode: decodeBytes, the parsing of every request body, never
// panics, and refuses with a 400 or accepts; what it accepts is one JSON
// value (or nothing), so trailing data is refused.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		``, ` `, `{}`, `null`, `[]`, `{"move": "3", "ply": 2}`, `{"move": "3", "ply": 2} {}`, `{"move": 3}`,
		`{"ply": 1e400}`, `{"ply": -1}`, `{"ply": 9223372036854775808}`, `{"accept": true, "ply": 0}`,
		`{"name":"ada","password":"correct horse","email":"a@b"}`, `{"rules":"alak size=11","color":"x","clock":"live:5m+3s","opponent":"computer:level:5"}`,
		`{"email": null, "confirm_moves": false, "password": "12345678"}`, `{"invite": "\u0000\ud800"}`, `{"extra": 1}`,
		`{}]`, `{}}`, `{"move":"3","ply":1}]`, `"\xff"`, `{"move": "` + strings.Repeat("9", 100) + `"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		// The request types of the API: the named ones, and the shapes of
		// the bodies that handlers declare inline (PUT /api/me, join, the
		// offers and answers).
		targets := []any{
			new(wire.Credentials), new(wire.CreateRequest), new(wire.MoveRequest),
			new(struct {
				Email        *string `json:"email"`
				ConfirmMoves *bool   `json:"confirm_moves"`
				Password     *string `json:"password"`
			}),
			new(struct {
				Invite string `json:"invite"`
			}),
			new(struct {
				Accept *bool `json:"accept"`
				Ply    *int  `json:"ply"`
			}),
		}
		for _, v := range targets {
			err := httpx.DecodeBytes(body, v)
			if err == nil {
				if s := strings.TrimSpace(string(body)); s != "" && !json.Valid(body) {
					t.Errorf("%T: accepted %q, which is not one JSON value", v, body)
				}
				continue
			}
			var ae *httpx.Error
			if !errors.As(err, &ae) || ae.Kind.Status() != http.StatusBadRequest || ae.Code != "bad_json" || ae.Msg == "" {
				t.Errorf("%T: %q: %#v, want a 400 bad_json", v, body, err)
			}
			if len(ae.Msg) > 400 {
				t.Errorf("%T: a long answer: %s", v, ae.Msg)
			}
		}
	})
}

// fuzzRules are the games FuzzMoveHTTP plays: every preset, so that every
// move form (points, grid vertices, slides, passes) is read.
var fuzzRules = []string{"alak size=6", "alak size=11", "traditional size=7", "tromp-taylor size=5", "alterigo size=4x4", "dewdney size=9", "golf"}

// fuzzClocks are the time controls FuzzMoveHTTP plays under (the harness's
// clock stands still, so no time runs out).
var fuzzClocks = []string{"none", "live:5m+3s", "days:3"}

// legalText is a snapshot's legal move as a request writes it.
func legalText(m any) string {
	if f, ok := m.(float64); ok {
		return strconv.Itoa(int(f))
	}
	return fmt.Sprint(m)
}

// FuzzMoveHTTP: a move request with any text and any ply, from the player
// to move, the other player or a stranger, after a few legal moves of a
// new game of any preset, is answered 200, 400, 403, 409 or 422 (413 for a
// raw body over the limit), never 500; and the stored game stays
// consistent: its log replays with the rules kernel to the stored ply,
// holds one entry per accepted move and no other, and the same request
// sent again is not applied twice.
func FuzzMoveHTTP(f *testing.F) {
	base := sharedHarness(f, Config{})
	type seed struct {
		pick, prefix uint8
		move         string
		ply          int
		who          uint8
	}
	for _, s := range []seed{
		{0, 0, "1", 0, 0}, {0, 3, "2", 0, 0}, {0, 5, "resign", 0, 0}, {0, 2, "pass", 0, 0}, {1, 0, "c", 0, 0}, {1, 0, "C1", 0, 0},
		{1, 4, "12", 0, 0}, {1, 0, "0", 0, 0}, {1, 0, "-1", 0, 0}, {2, 1, "pass", 0, 0}, {3, 6, "pass", 0, 0}, {4, 0, "B2", 0, 0},
		{4, 0, "b2", 0, 0}, {4, 0, "Z9", 0, 0}, {5, 0, "1-4", 0, 0}, {6, 0, "4-5", 0, 0}, {6, 0, "4 5", 0, 0}, {6, 1, "8 7", 0, 0},
		{6, 0, "4-5", 0, 1}, {0, 0, "1", 5, 2}, {0, 0, "1", -1, 2}, {0, 0, "1", 1, 0}, {0, 0, "1", 0, 4},
		{0, 0, `{"move":"1","ply":0}`, 0, 8}, {0, 0, `{"move":"1"}`, 0, 8}, {0, 0, `{"move":"1","ply":0}]`, 0, 8},
		{0, 0, `{"move":"1","ply":0.5}`, 0, 8}, {0, 0, "", 0, 8}, {0, 0, "\u00a0", 0, 0}, {0, 0, " 1 ", 0, 0},
		{0, 0, "resign", 0, 1}, {2, 0, "resign", 0, 16}, {1, 0, "pass", 0, 16},
	} {
		f.Add(s.pick, s.prefix, s.move, s.ply, s.who)
	}
	// Three accounts, made once (their passwords cost argon2 time): two
	// players and a stranger.
	x, o, eve := sharedAccount(f, base, "xavier"), sharedAccount(f, base, "olga"), sharedAccount(f, base, "eve")
	f.Fuzz(func(t *testing.T, pick, prefix uint8, move string, ply int, who uint8) {
		h := base.with(t)
		x, o, eve := x.on(h), o.on(h), eve.on(h)
		spec := fuzzRules[int(pick)%len(fuzzRules)]
		g := x.create(map[string]string{"rules": spec, "color": "x", "clock": fuzzClocks[int(who>>4)%len(fuzzClocks)], "opponent": "olga"})
		if code := o.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
		entries := 0 // the moves answered 200 that add an entry
		v := x.game(g.ID)
		for i := 0; i < int(prefix)%10 && !v.Over; i++ {
			m := legalText(v.Legal[(int(prefix)*7+i)%len(v.Legal)])
			mover := map[string]*client{"x": x, "o": o}[v.ToMove]
			code, after, e := mover.move(g.ID, m, v.Ply)
			if code != http.StatusOK || after.Ply != v.Ply+1 {
				t.Fatalf("%s: the legal move %s at ply %d: %d %+v", spec, m, v.Ply, code, e)
			}
			entries++
			v = after
		}
		sender := map[string]*client{"x": x, "o": o}[v.ToMove]
		if who&1 != 0 {
			sender = map[string]*client{"x": o, "o": x}[v.ToMove]
		}
		if who&4 != 0 {
			sender = eve
		}
		sent := v.Ply + ply%3
		if who&2 != 0 {
			sent = ply
		}
		var body any = map[string]any{"move": move, "ply": sent}
		if who&8 != 0 {
			body = json.RawMessage(move)
		}
		send := func() (int, wire.Game, errBody) {
			code, raw := postRaw(t, sender, "/api/games/"+g.ID+"/moves", body)
			var gv wire.Game
			var e errBody
			if code == http.StatusOK {
				if err := json.Unmarshal(raw, &gv); err != nil {
					t.Fatalf("a 200 that is not a game: %s", raw)
				}
			} else if err := json.Unmarshal(raw, &e); err != nil || e.Code == "" || e.Error == "" {
				t.Fatalf("%d without an error body: %s", code, raw)
			}
			return code, gv, e
		}
		code, after, e := send()
		switch code {
		case http.StatusOK:
			if raw, ok := body.(json.RawMessage); ok {
				var req wire.MoveRequest
				if httpx.DecodeBytes(raw, &req) != nil || req.Ply == nil {
					t.Fatalf("accepted %q", raw)
				}
				sent = *req.Ply
			}
			if sender == eve || sent != v.Ply {
				t.Errorf("%s %q at ply %d (game at %d) by %d: accepted", spec, move, sent, v.Ply, who)
			}
			switch {
			case after.Ply == v.Ply+1:
				entries++
			case after.Ply == v.Ply && after.Reason != nil && *after.Reason == rules.Resigned.String():
			default:
				t.Errorf("%s %q: 200 at ply %d from %d, reason %v", spec, move, after.Ply, v.Ply, after.Reason)
			}
			// The same request again: not applied twice.
			if again, _, e := send(); again != http.StatusConflict {
				t.Errorf("%s %q sent twice: %d %+v", spec, move, again, e)
			}
		case http.StatusBadRequest, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity:
		case http.StatusRequestEntityTooLarge:
			if len(move) <= httpx.MaxBody {
				t.Errorf("413 for %d bytes", len(move))
			}
		default:
			t.Errorf("%s %q at ply %d (game at %d) by %d: %d %+v", spec, move, sent, v.Ply, who, code, e)
		}
		if sender == eve && code != http.StatusForbidden && code != http.StatusBadRequest && code != http.StatusRequestEntityTooLarge {
			t.Errorf("a stranger's move: %d %+v", code, e)
		}
		checkStored(t, h, g.ID, entries)
	})
}

// sharedAccount signs up an account on a shared harness and returns its
// client (a cookie jar), for each input to use through on.
func sharedAccount(tb testing.TB, base *harness, name string) *client {
	tb.Helper()
	c := base.with(nil).client()
	resp, err := c.c.Post(base.http.URL+"/api/accounts", "application/json", strings.NewReader(`{"name":"`+name+`","password":"correct horse"}`))
	if err != nil {
		tb.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		tb.Fatalf("sign-up of %s: %d", name, resp.StatusCode)
	}
	return c
}

// postRaw posts body (JSON-encoded, or a json.RawMessage as it is) and
// returns the status and the answer.
func postRaw(t *testing.T, c *client, path string, body any) (int, []byte) {
	t.Helper()
	var data []byte
	if raw, ok := body.(json.RawMessage); ok {
		data = raw
	} else {
		var err error
		if data, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest("POST", c.h.http.URL+path, strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.c.Do(req)
	if err != nil {
		t.Fatalf("POST %s %q: %v", path, data, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

// checkStored replays a game's stored log with the rules kernel: every
// entry plays (or takes back) legally, the moves come to the stored ply,
// the log has the entries expected, and the API shows the same moves.
func checkStored(t *testing.T, h *harness, id string, entries int) {
	t.Helper()
	row, log, err := h.st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != entries || row.Entries != entries {
		t.Fatalf("%d entries stored (row: %d), %d moves accepted", len(log), row.Entries, entries)
	}
	r, err := rules.Parse(row.Rules)
	if err != nil {
		t.Fatal(err)
	}
	start, err := rules.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	var moves []rules.Move
	for i, e := range log {
		if e.N != i {
			t.Fatalf("entry %d numbered %d", i, e.N)
		}
		if e.Move == "" {
			moves = moves[:len(moves)-e.Undo]
			continue
		}
		m, err := r.ParseMoveText(e.Move)
		if err != nil {
			t.Fatalf("entry %d %q: %v", i, e.Move, err)
		}
		moves = append(moves, m)
	}
	g := rules.NewGameFrom(start)
	var texts []string
	for i, m := range moves {
		if err := g.Play(m); err != nil {
			t.Fatalf("stored move %d %s: %v", i+1, r.MoveText(m), err)
		}
		texts = append(texts, r.MoveText(m))
	}
	if g.Len() != row.Ply {
		t.Fatalf("the log replays to ply %d, the row says %d", g.Len(), row.Ply)
	}
	v := (&client{h: h, c: http.DefaultClient}).game(id)
	if !slices.Equal(v.Moves, texts) && len(texts)+len(v.Moves) > 0 || v.Ply != row.Ply || v.Version != row.Version {
		t.Fatalf("the API shows %v at ply %d version %d; stored %v at ply %d version %d", v.Moves, v.Ply, v.Version, texts, row.Ply, row.Version)
	}
}

// FuzzEventsResume: a stream resumed with any Last-Event-ID (in the header
// or as ?last=) answers 200, and its first event is the game's current
// state, whole, unless the client named the current version: then the
// first event is the next change. (A change is published by hand after
// the answer's headers, so the test waits for an event, never for a
// silence.)
func FuzzEventsResume(f *testing.F) {
	base := sharedHarness(f, Config{})
	x, o := sharedAccount(f, base, "xavier"), sharedAccount(f, base, "olga")
	id, cur := fuzzGame(f, base, x, o)
	for _, seed := range []string{"", cur.EventID, "0.2", "3.4", "3.6", "3.1000", "99.999999999", " 3.5 ", "3.5\t", "x", "3.", ".5", "5",
		"3.-5", "3.+5", "3.05", "3.5.5", "\u00a03.5", "3.5\u0085"} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	client := &http.Client{}
	f.Fuzz(func(t *testing.T, last string, query bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		u := base.http.URL + "/api/games/" + id + "/events"
		if query {
			u += "?last=" + url.QueryEscape(last)
		}
		req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
		if err != nil {
			t.Skip(err)
		}
		if !query {
			req.Header.Set("Last-Event-ID", last)
		}
		resp, err := client.Do(req)
		if err != nil {
			if ctx.Err() == nil && strings.Contains(err.Error(), "invalid header field value") {
				t.Skip("not a header value")
			}
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("%q: %d %s", last, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		// The stream is registered once its headers are out: publish a
		// change the stream has not seen.
		marker := game.Event{ID: "marker", Version: cur.Version + 1, Data: []byte(`{"marker":true}`)}
		base.srv.core.Broker.Publish(id, marker, 0, nil)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var evID, data string
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "id: "); ok {
				evID = v
			}
			if v, ok := strings.CutPrefix(line, "data: "); ok {
				data = v
			}
			if line == "" && data != "" {
				break
			}
		}
		if data == "" {
			t.Fatalf("%q: no event: %v", last, sc.Err())
		}
		sent := game.VersionOf(last)
		if sent == cur.Version {
			if evID != marker.ID {
				t.Errorf("%q names the current version: the first event is %s, want the next change", last, evID)
			}
			return
		}
		if evID != cur.EventID {
			t.Fatalf("%q (version %d): the first event is %s, want the current state %s", last, sent, evID, cur.EventID)
		}
		var v wire.Game
		if err := json.Unmarshal([]byte(data), &v); err != nil || v.EventID != evID || v.Version != cur.Version || v.Ply != cur.Ply || v.Diagram != cur.Diagram {
			t.Errorf("%q: the first event %s: %.200s (%v)", last, evID, data, err)
		}
	})
}

// fuzzGame makes a game between x and o at ply 3 (version 5), for the
// stream fuzz.
func fuzzGame(f *testing.F, base *harness, x, o *client) (string, wire.Game) {
	f.Helper()
	post := func(c *client, path, body string) []byte {
		req, _ := http.NewRequest("POST", base.http.URL+path, strings.NewReader(body))
		resp, err := c.c.Do(req)
		if err != nil {
			f.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode/100 != 2 {
			f.Fatalf("POST %s: %d %s", path, resp.StatusCode, out)
		}
		return out
	}
	var g wire.Created
	json.Unmarshal(post(x, "/api/games", `{"rules":"alak size=7","color":"x","clock":"none","opponent":"olga"}`), &g)
	post(o, "/api/games/"+g.ID+"/join", `{}`)
	var v wire.Game
	for i, m := range []string{"2", "4", "6"} {
		json.Unmarshal(post([]*client{x, o}[i%2], "/api/games/"+g.ID+"/moves", fmt.Sprintf(`{"move":%q,"ply":%d}`, m, i)), &v)
	}
	if v.Ply != 3 || v.Version != 5 || v.EventID != "3.5" {
		f.Fatalf("the game: ply %d version %d event %s", v.Ply, v.Version, v.EventID)
	}
	return g.ID, v
}
