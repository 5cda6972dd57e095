package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/server/store"
	"alak/server/store/sqlitestore"
	"alak/wire"
)

// testClock is a clock the tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// harness is a real server on loopback over a real SQLite file.
type harness struct {
	t     *testing.T
	path  string
	clock *testClock
	cfg   Config
	st    store.Store
	srv   *Server
	http  *httptest.Server
}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "alak.db"), clock: &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}}
	if cfg.Now == nil {
		cfg.Now = h.clock.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.SweepEvery == 0 {
		cfg.SweepEvery = time.Hour // the tests sweep by hand
	}
	h.cfg = cfg
	h.start()
	t.Cleanup(h.stop)
	return h
}

func (h *harness) start() {
	st, err := sqlitestore.Open(context.Background(), freshDB(h.t, h.path))
	if err != nil {
		h.t.Fatal(err)
	}
	srv, err := New(h.cfg, st)
	if err != nil {
		h.t.Fatal(err)
	}
	h.st, h.srv = st, srv
	h.http = serveHTTP(srv)
	h.srv.cfg.BaseURL = h.http.URL
}

// serveHTTP serves srv's handler on loopback as alak serve does (with the
// ConnContext its event streams use).
func serveHTTP(srv *Server) *httptest.Server {
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.Config.ConnContext = ConnContext
	ts.Start()
	return ts
}

func (h *harness) stop() {
	if h.srv == nil {
		return
	}
	h.srv.Close()
	h.http.Close()
	h.st.Close()
	h.srv = nil
}

// restart stops the server and starts a new one on the same database.
func (h *harness) restart() {
	h.stop()
	h.start()
}

// client is one browser or script: a cookie jar, or a bearer token.
type client struct {
	h     *harness
	c     *http.Client
	token string
}

func (h *harness) client() *client {
	jar, _ := cookiejar.New(nil)
	return &client{h: h, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// roundTrip sends a request as c (its cookies, its bearer token) with
// the body and the headers, and returns the answer and its whole body.
func (c *client) roundTrip(method, path string, body io.Reader, header map[string]string) (*http.Response, []byte) {
	c.h.t.Helper()
	req, err := http.NewRequest(method, c.h.http.URL+path, body)
	if err != nil {
		c.h.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.c.Do(req)
	if err != nil {
		c.h.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, data
}

// openEvents opens the event stream of game id with a client of no
// account; cancel ends it, as the end of the test does.
func openEvents(t *testing.T, h *harness, id string) (*http.Response, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", h.http.URL+"/api/games/"+id+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp, cancel
}

// jsonHeader marks a request's body as JSON.
var jsonHeader = map[string]string{"Content-Type": "application/json"}

// do sends a request with a JSON body (nil: none) and decodes the answer
// into out (nil: ignored); it returns the status.
func (c *client) do(method, path string, body, out any) int {
	c.h.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.h.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	resp, data := c.roundTrip(method, path, rd, jsonHeader)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			c.h.t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode
}

// errBody is an error answer.
type errBody struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

func (c *client) signUp(name string) *client {
	c.h.t.Helper()
	if code := c.do("POST", "/api/accounts", map[string]string{"name": name, "password": "correct horse"}, nil); code != http.StatusCreated {
		c.h.t.Fatalf("sign-up of %s: %d", name, code)
	}
	return c
}

func (c *client) create(req map[string]string) wire.Created {
	c.h.t.Helper()
	var out wire.Created
	var e errBody
	code := c.do("POST", "/api/games", req, &out)
	if code != http.StatusCreated {
		c.do("POST", "/api/games", req, &e)
		c.h.t.Fatalf("create %v: %d %+v", req, code, e)
	}
	return out
}

func (c *client) game(id string) wire.Game {
	c.h.t.Helper()
	var v wire.Game
	if code := c.do("GET", "/api/games/"+id, nil, &v); code != http.StatusOK {
		c.h.t.Fatalf("get %s: %d", id, code)
	}
	return v
}

func (c *client) move(id, move string, ply int) (int, wire.Game, errBody) {
	c.h.t.Helper()
	var raw json.RawMessage
	code := c.do("POST", "/api/games/"+id+"/moves", map[string]any{"move": move, "ply": ply}, &raw)
	var v wire.Game
	var e errBody
	if code == http.StatusOK {
		json.Unmarshal(raw, &v)
	} else {
		json.Unmarshal(raw, &e)
	}
	return code, v, e
}

// seedAlak6 is seed 002's Alak-6 game (Baljeu, 2001): it ends 3-0 for
// Black, White to move and unable to place.
var seedAlak6 = []string{"1", "4", "5", "6", "2", "3", "5", "1", "2", "6", "4", "3", "1", "5", "4"}

func TestAlak6ThroughTheAPI(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "days:3", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	players := []*client{ada, bo}
	for i, m := range seedAlak6 {
		code, v, e := players[i%2].move(g.ID, m, i)
		if code != http.StatusOK || v.Ply != i+1 {
			t.Fatalf("move %d %s: %d %+v", i+1, m, code, e)
		}
	}
	v := ada.game(g.ID)
	// Seed 002's end: xx/X//, 3-0, White to move and unable to place.
	if v.State != store.StateFinished || !v.Over || *v.Result != "3-0" || *v.Winner != "x" || v.Board != "xx-x--" ||
		v.Diagram != "xx/X//" || v.SGFResult != "B+3" || len(v.Moves) != 15 {
		t.Errorf("end: state %s over %v result %v winner %v board %s diagram %s sgf %s", v.State, v.Over, *v.Result, *v.Winner, v.Board, v.Diagram, v.SGFResult)
	}
	// The SGF download is the project's record of it.
	resp, err := http.Get(h.http.URL + "/api/games/" + g.ID + "/sgf")
	if err != nil {
		t.Fatal(err)
	}
	sgf, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(sgf), "RE[B+3]") || !strings.Contains(string(sgf), "PB[ada]") || !strings.Contains(string(sgf), ";B[da]") {
		t.Errorf("sgf: %s", sgf)
	}
}

func TestMoveRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	eve := h.client().signUp("eve")
	anon := h.client()
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "bo"})
	// Before the opponent joined.
	if code, _, e := ada.move(g.ID, "1", 0); code != http.StatusConflict || e.Code != "not_started" {
		t.Errorf("a move before the join: %d %+v", code, e)
	}
	if code := eve.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusForbidden {
		t.Errorf("eve took bo's challenge: %d", code)
	}
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	cases := []struct {
		name string
		c    *client
		move string
		ply  int
		code int
		want string
	}{
		{"not signed in", anon, "1", 0, http.StatusUnauthorized, "not_signed_in"},
		{"not a player", eve, "1", 0, http.StatusForbidden, "not_your_game"},
		{"wrong side", bo, "1", 0, http.StatusForbidden, "not_your_turn"},
		{"future ply", ada, "1", 5, http.StatusConflict, "stale_ply"},
		{"not a point", ada, "9", 0, http.StatusUnprocessableEntity, "bad_move"},
		{"a slide on placement rules", ada, "1-2", 0, http.StatusUnprocessableEntity, "bad_move"},
	}
	for _, c := range cases {
		code, _, e := c.c.move(g.ID, c.move, c.ply)
		if code != c.code || e.Code != c.want || e.Error == "" {
			t.Errorf("%s: %d %+v, want %d %s", c.name, code, e, c.code, c.want)
		}
	}
	if code, _, _ := ada.move(g.ID, "1", 0); code != http.StatusOK {
		t.Fatalf("the first move: %d", code)
	}
	// The same request again (a retry after a lost answer): refused, not
	// applied twice.
	if code, _, e := ada.move(g.ID, "1", 0); code != http.StatusConflict || e.Code != "stale_ply" {
		t.Errorf("a repeated move: %d %+v", code, e)
	}
	if code, _, e := bo.move(g.ID, "1", 1); code != http.StatusUnprocessableEntity || !strings.Contains(e.Error, "occupied") {
		t.Errorf("an occupied point: %d %+v", code, e)
	}
	// Nobody else can resign, offer or accept for a player.
	for _, path := range []string{"resign", "draw", "takeback", "abort"} {
		if code := eve.do("POST", "/api/games/"+g.ID+"/"+path, nil, nil); code != http.StatusForbidden {
			t.Errorf("eve's %s: %d", path, code)
		}
	}
	if code := bo.do("POST", "/api/games/"+g.ID+"/draw", map[string]bool{"accept": true}, nil); code != http.StatusConflict {
		t.Errorf("accepting a draw nobody offered: %d", code)
	}
	v := ada.game(g.ID)
	if v.Ply != 1 || len(v.Moves) != 1 {
		t.Errorf("after the refusals: ply %d moves %v", v.Ply, v.Moves)
	}
}

func TestInvitationsAndGuests(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	host := h.client() // a guest
	g := host.create(map[string]string{"rules": "golf", "color": "x", "clock": "live:5m+3s", "opponent": "link"})
	if !strings.Contains(g.Invite, "?invite=") {
		t.Fatalf("no invitation link: %+v", g)
	}
	secret := g.Invite[strings.Index(g.Invite, "=")+1:]
	guest := h.client()
	if code := guest.do("POST", "/api/games/"+g.ID+"/join", map[string]string{"invite": "wrong"}, nil); code != http.StatusForbidden {
		t.Errorf("a wrong invitation: %d", code)
	}
	var v wire.Game
	if code := guest.do("POST", "/api/games/"+g.ID+"/join", map[string]string{"invite": secret}, &v); code != http.StatusOK || v.State != store.StateActive {
		t.Fatalf("join by link: %d %s", code, v.State)
	}
	if !v.Players["x"].Guest || !v.Players["o"].Guest {
		t.Errorf("players %+v", v.Players)
	}
	// Golf, SEEDS.md: 4 5 then 8 7 from xxxx___oooo.
	if code, _, e := host.move(g.ID, "4-5", 0); code != http.StatusOK {
		t.Fatalf("4-5: %d %+v", code, e)
	}
	if code, v, e := guest.move(g.ID, "8 7", 1); code != http.StatusOK || v.Diagram != "xxx-x-O-ooo" {
		t.Fatalf("8 7: %d %+v %s", code, e, v.Diagram)
	}
	// A guest cannot play correspondence or open challenges.
	var e errBody
	if code := h.client().do("POST", "/api/games", map[string]string{"clock": "days:3", "opponent": "link"}, &e); code != http.StatusForbidden {
		t.Errorf("a guest's correspondence game: %d %+v", code, e)
	}
	// A challenge nobody takes expires.
	late := h.client().signUp("late").create(map[string]string{"opponent": "open"})
	h.clock.Add(2 * time.Hour)
	h.srv.sweepOnce(false)
	if v := host.game(late.ID); v.State != store.StateExpired {
		t.Errorf("an open challenge after 2 hours: %s", v.State)
	}
}

func TestEveryPresetAgainstTheComputer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	c := h.client()
	for _, preset := range []string{"alak", "traditional", "tromp-taylor", "alterigo size=5x5", "dewdney", "golf"} {
		g := c.create(map[string]string{"rules": preset, "color": "x", "clock": "none", "opponent": "computer:level:2"})
		v := c.game(g.ID)
		if v.State != store.StateActive || len(v.Legal) == 0 {
			t.Fatalf("%s: %s, %d legal moves", preset, v.State, len(v.Legal))
		}
		move := fmt.Sprint(v.Legal[0])
		if code, _, e := c.move(g.ID, move, 0); code != http.StatusOK {
			t.Fatalf("%s %s: %d %+v", preset, move, code, e)
		}
		// The computer answers by itself.
		deadline := time.Now().Add(20 * time.Second)
		for c.game(g.ID).Ply < 2 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if v := c.game(g.ID); v.Ply != 2 || v.ToMove != "x" {
			t.Errorf("%s: the computer did not answer: ply %d", preset, v.Ply)
		}
	}
}

func TestCorrespondenceTimeout(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:2", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	ada.move(g.ID, "2", 0)
	h.clock.Add(47 * time.Hour)
	h.srv.sweepOnce(false)
	if v := ada.game(g.ID); v.State != store.StateActive {
		t.Fatalf("after 47 hours of 48: %s", v.State)
	}
	// Nobody is connected; the server's sweep ends it, also after a
	// restart.
	h.restart()
	h.clock.Add(2 * time.Hour)
	h.srv.sweepOnce(false)
	v := ada.game(g.ID)
	if v.State != store.StateFinished || *v.Winner != "x" || *v.Reason != "time" || v.SGFResult != "B+T" {
		t.Errorf("after 49 hours: %s %v %v %s", v.State, v.Winner, v.Reason, v.SGFResult)
	}
	if code, _, e := bo.move(g.ID, "4", 1); code != http.StatusConflict || e.Code != "game_over" {
		t.Errorf("a move after the flag: %d %+v", code, e)
	}
}

func TestLiveClock(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "live:1m+2s", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	// The first moves are not timed (TestFirstMoveClock).
	ada.move(g.ID, "5", 0)
	bo.move(g.ID, "4", 1)
	h.clock.Add(10 * time.Second)
	_, v, _ := ada.move(g.ID, "7", 2)
	// Fischer: 60 s - 10 s + 2 s.
	if v.Clock.XMillis != 52000 || v.Clock.OMillis != 60000 || v.Clock.Running != "o" {
		t.Errorf("clock after 10 s: %+v", v.Clock)
	}
	// White thinks past its minute: the move comes too late.
	h.clock.Add(61 * time.Second)
	code, _, e := bo.move(g.ID, "3", 3)
	if code != http.StatusConflict || e.Code != "game_over" {
		t.Errorf("a move after the flag fell: %d %+v", code, e)
	}
	v = ada.game(g.ID)
	if v.State != store.StateFinished || *v.Winner != "x" || *v.Reason != "time" || v.Clock.OMillis != 0 {
		t.Errorf("after White's flag: %s %v %v %+v", v.State, *v.Winner, *v.Reason, v.Clock)
	}
}

func TestRestartMidGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "live:5m", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	players := []*client{ada, bo}
	for i, m := range seedAlak6[:7] {
		players[i%2].move(g.ID, m, i)
		h.clock.Add(time.Second)
	}
	before := ada.game(g.ID)
	h.restart() // the cookies and every acknowledged move survive
	after := ada.game(g.ID)
	if after.Ply != 7 || after.Diagram != before.Diagram || after.Clock != before.Clock {
		t.Fatalf("after a restart: %+v\nbefore: %+v", after, before)
	}
	for i, m := range seedAlak6[7:] {
		if code, _, e := players[(i+7)%2].move(g.ID, m, i+7); code != http.StatusOK {
			t.Fatalf("move %d after the restart: %d %+v", i+8, code, e)
		}
	}
	if v := ada.game(g.ID); *v.Result != "3-0" {
		t.Errorf("result %v", *v.Result)
	}
}

func TestOffersThroughTheAPI(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "bo", "clock": "none"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	ada.move(g.ID, "2", 0)
	// A takeback asked and refused, then asked and granted.
	var v wire.Game
	ada.do("POST", "/api/games/"+g.ID+"/takeback", nil, &v)
	if v.TakebackRequest == nil || *v.TakebackRequest != "x" {
		t.Fatalf("takeback request %+v", v.TakebackRequest)
	}
	v = wire.Game{}
	bo.do("POST", "/api/games/"+g.ID+"/takeback", map[string]bool{"accept": false}, &v)
	if v.TakebackRequest != nil || v.Ply != 1 {
		t.Errorf("declined: %v ply %d", *v.TakebackRequest, v.Ply)
	}
	ada.do("POST", "/api/games/"+g.ID+"/takeback", nil, nil)
	v = wire.Game{}
	bo.do("POST", "/api/games/"+g.ID+"/takeback", map[string]bool{"accept": true}, &v)
	if v.Ply != 0 {
		t.Errorf("granted: ply %d", v.Ply)
	}
	// The log keeps the move and the takeback.
	_, log, _ := h.st.Game(context.Background(), g.ID)
	if len(log) != 2 || log[1].Undo != 1 {
		t.Errorf("log %+v", log)
	}
	ada.move(g.ID, "3", 0)
	bo.move(g.ID, "5", 1)
	if code := ada.do("POST", "/api/games/"+g.ID+"/abort", nil, nil); code != http.StatusConflict {
		t.Errorf("abort after the second move: %d", code)
	}
	ada.do("POST", "/api/games/"+g.ID+"/draw", nil, nil)
	v = wire.Game{}
	bo.do("POST", "/api/games/"+g.ID+"/draw", map[string]bool{"accept": true}, &v)
	if v.State != store.StateFinished || *v.Result != "draw by agreement" || v.SGFResult != "0" {
		t.Errorf("agreed draw: %s %v %s", v.State, *v.Result, v.SGFResult)
	}
	// A restart rebuilds the agreed end from the row.
	h.restart()
	if v := ada.game(g.ID); *v.Reason != "agreement" || v.Ply != 2 {
		t.Errorf("after a restart: %v ply %d", *v.Reason, v.Ply)
	}
}

// TestEvents: a spectator's stream sees each move as it is made, and a
// stream resumed with Last-Event-ID gets the current state at once.
func TestEvents(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "bo", "clock": "none"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := stream(t, ctx, h.http.URL+"/api/games/"+g.ID+"/events", "")
	first := <-events
	if first.view.Ply != 0 || first.id != "0.2" {
		t.Fatalf("first event %s ply %d", first.id, first.view.Ply)
	}
	ada.move(g.ID, "1", 0)
	bo.move(g.ID, "4", 1)
	seen := map[int]bool{}
	for len(seen) < 2 {
		select {
		case ev := <-events:
			seen[ev.view.Ply] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("no events for the moves; saw %v", seen)
		}
	}
	cancel()
	// Resume from the first state: the current one comes at once.
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	resumed := stream(t, ctx2, h.http.URL+"/api/games/"+g.ID+"/events", first.id)
	select {
	case ev := <-resumed:
		if ev.view.Ply != 2 || ev.view.Diagram != "x--O--" {
			t.Errorf("resumed at ply %d %s", ev.view.Ply, ev.view.Diagram)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a resumed stream sent nothing")
	}
}

type streamEvent struct {
	id   string
	view wire.Game
}

// stream reads a game's event stream into a channel until ctx ends.
func stream(t *testing.T, ctx context.Context, url, last string) <-chan streamEvent {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if last != "" {
		req.Header.Set("Last-Event-ID", last)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan streamEvent, 16)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev streamEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(line[6:]), &ev.view)
			case line == "" && ev.id != "":
				select {
				case out <- ev:
				case <-ctx.Done():
					return
				}
				ev = streamEvent{}
			}
		}
	}()
	return out
}

func TestAccounts(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{LoginRate: 3})
	ada := h.client().signUp("ada")
	var e errBody
	if code := h.client().do("POST", "/api/accounts", map[string]string{"name": "ADA", "password": "another one"}, &e); code != http.StatusConflict || e.Code != "name_taken" {
		t.Errorf("a second ada: %d %+v", code, e)
	}
	for _, bad := range []map[string]string{{"name": "a", "password": "long enough"}, {"name": "ok_name", "password": "short"}, {"name": "open", "password": "long enough"},
		{"name": "<script>", "password": "long enough"}} {
		if code := h.client().do("POST", "/api/accounts", bad, &e); code != http.StatusUnprocessableEntity {
			t.Errorf("%v: %d %+v", bad, code, e)
		}
	}
	// Password guessing is rate-limited: 3 tries a minute for a name (and
	// an address), then 429, right or wrong.
	guesser := h.client()
	codes := []int{}
	for _, pw := range []string{"guess 1", "guess 2", "guess 3", "correct horse"} {
		codes = append(codes, guesser.do("POST", "/api/login", map[string]string{"name": "ada", "password": pw}, nil))
	}
	if fmt.Sprint(codes) != "[401 401 401 429]" {
		t.Errorf("guesses: %v", codes)
	}
	h.clock.Add(time.Minute) // the limit refills
	var tok struct{ Token string }
	if code := h.client().do("POST", "/api/tokens", map[string]string{"name": "ada", "password": "correct horse"}, &tok); code != http.StatusCreated || len(tok.Token) < 40 {
		t.Fatalf("token: %d %+v", code, tok)
	}
	bot := h.client()
	bot.token = tok.Token
	var me wire.Me
	if code := bot.do("GET", "/api/me", nil, &me); code != http.StatusOK || me.Name != "ada" {
		t.Errorf("me with the token: %d %+v", code, me)
	}
	bot.token = "nope"
	if code := bot.do("GET", "/api/me", nil, &e); code != http.StatusUnauthorized || e.Code != "bad_token" {
		t.Errorf("a bad token: %d %+v", code, e)
	}
	ada.do("POST", "/api/logout", nil, nil)
	if code := ada.do("GET", "/api/me", nil, nil); code != http.StatusUnauthorized {
		t.Errorf("after logout: %d", code)
	}
}

// TestCrossOrigin: a state-changing request from another site's page is
// refused; the same from the page itself, or from a script, is not.
func TestCrossOrigin(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	send := func(site, origin string) int {
		req, _ := http.NewRequest("POST", h.http.URL+"/api/accounts", strings.NewReader(`{"name":"`+fmt.Sprintf("u%d", len(site)+len(origin))+`","password":"long enough"}`))
		if site != "" {
			req.Header.Set("Sec-Fetch-Site", site)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := send("cross-site", "https://evil.example"); code != http.StatusForbidden {
		t.Errorf("cross-site: %d", code)
	}
	if code := send("same-origin", h.http.URL); code != http.StatusCreated {
		t.Errorf("same-origin: %d", code)
	}
	if code := send("", ""); code != http.StatusCreated {
		t.Errorf("a script: %d", code)
	}
}

func TestHealthAndLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	resp, err := http.Get(h.http.URL + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	c := h.client().signUp("ada")
	var e errBody
	big := map[string]string{"rules": strings.Repeat("x", 20000)}
	if code := c.do("POST", "/api/games", big, &e); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 20 kB body: %d %+v", code, e)
	}
	if code := c.do("POST", "/api/games", map[string]any{"rules": "alak", "extra": 1}, &e); code != http.StatusBadRequest || e.Code != "bad_json" {
		t.Errorf("an unknown field: %d %+v", code, e)
	}
	for _, bad := range []map[string]string{{"rules": "alak size=1000"}, {"rules": "chess"}, {"clock": "live:10h"}, {"clock": "days:4"},
		{"color": "purple"}, {"opponent": "computer:gtp:/bin/sh"}, {"opponent": "computer:perfect:table=/etc"}, {"opponent": "nobody"}} {
		code := c.do("POST", "/api/games", bad, &e)
		if code != http.StatusUnprocessableEntity && code != http.StatusNotFound {
			t.Errorf("%v: %d %+v", bad, code, e)
		}
		if len(e.Error) > 400 {
			t.Errorf("%v: a long answer: %s", bad, e.Error)
		}
	}
}
