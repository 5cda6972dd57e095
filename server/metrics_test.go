package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/server/internal/accounts"
	"alak/server/store"
	"alak/wire"
)

// scrape reads /metrics at url: each sample, named as the text format
// writes it (name{label="value",...}), and its value.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("/metrics: %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// TestMetrics: /metrics exposes the server's own counters, from a registry
// of its own: moves stored, move requests by outcome, the move latency
// histogram, open streams, live games counted by the sweep, time-outs, the
// queues, and Go's and the database pool's figures.
func TestMetrics(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	other := newHarness(t, Config{}) // a second server in the process counts apart
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "days:1", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	for i, c := range []*client{ada, bo} {
		if code, _, e := c.move(g.ID, []string{"1", "4"}[i], i); code != http.StatusOK {
			t.Fatalf("move %d: %d %+v", i, code, e)
		}
	}
	if code, _, _ := ada.move(g.ID, "6", 0); code != http.StatusConflict {
		t.Fatalf("a stale move: %d", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := stream(t, ctx, h.http.URL+"/api/games/"+g.ID+"/events", "")
	<-events
	h.srv.sweepOnce(false)

	m := scrape(t, h.http.URL)
	want := map[string]float64{
		"alak_moves_total": 2,
		`alak_move_requests_total{result="acknowledged"}`: 2,
		`alak_move_requests_total{result="refused"}`:      1,
		"alak_move_seconds_count":                         2,
		"alak_event_streams":                              1,
		"alak_games_active":                               1,
		"alak_adjudications_total":                        0,
		"alak_conflicts_total":                            0,
		"alak_db_errors_total":                            0,
		"alak_mails_total":                                0,
		`alak_queue_depth{queue="computer"}`:              0,
		`alak_queue_depth{queue="analysis"}`:              0,
		`alak_queue_depth{queue="mail"}`:                  0,
	}
	for k, v := range want {
		if got, ok := m[k]; !ok || got != v {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, v)
		}
	}
	for _, k := range []string{`alak_move_seconds_bucket{le="+Inf"}`, "go_goroutines", `go_sql_open_connections{db_name="alak"}`, "process_resident_memory_bytes"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %s", k)
		}
	}
	if n := scrape(t, other.http.URL)["alak_moves_total"]; n != 0 {
		t.Errorf("the other server counts %v moves", n)
	}

	// The correspondence clock runs out: the sweep adjudicates, and the
	// game is no longer live.
	h.clock.Add(25 * time.Hour)
	h.srv.sweepOnce(false)
	m = scrape(t, h.http.URL)
	if m["alak_adjudications_total"] != 1 || m["alak_games_active"] != 0 {
		t.Errorf("after the time-out: adjudications %v, active %v", m["alak_adjudications_total"], m["alak_games_active"])
	}
	cancel()
	deadline := time.Now().Add(10 * time.Second)
	for scrape(t, h.http.URL)["alak_event_streams"] != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the closed stream is still counted after 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestMetricsCountDatabaseErrors: a move the store fails to write is
// answered 500, counted as a database error and as a refused request, and
// not counted as a move.
func TestMetricsCountDatabaseErrors(t *testing.T) {
	t.Parallel()
	h, fs := faultHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "none", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	fs.setUpdate(func(ctx context.Context, _ store.Game, _ func(context.Context) error) error {
		return errors.New("disk I/O error")
	})
	if code, _, e := ada.move(g.ID, "1", 0); code != http.StatusInternalServerError || e.Code != "internal" || e.Error == "" {
		t.Errorf("a move the store failed: %d %+v", code, e)
	}
	m := scrape(t, h.http.URL)
	// (At least one database error: the server may try the write again.)
	if m["alak_db_errors_total"] < 1 || m["alak_moves_total"] != 0 || m[`alak_move_requests_total{result="refused"}`] != 1 {
		t.Errorf("db errors %v, moves %v, refused %v", m["alak_db_errors_total"], m["alak_moves_total"], m[`alak_move_requests_total{result="refused"}`])
	}
}

// TestMetricsElsewhere: with Config.MetricsElsewhere, Handler has no
// /metrics; MetricsHandler serves them.
func TestMetricsElsewhere(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{MetricsElsewhere: true})
	var e errBody
	if code := h.client().do("GET", "/metrics", nil, nil); code != http.StatusNotFound {
		t.Errorf("/metrics beside the API: %d %+v", code, e)
	}
	rec := &responseRecorder{header: http.Header{}}
	h.srv.MetricsHandler().ServeHTTP(rec, httpRequest(t, "GET", "/metrics"))
	if rec.status != http.StatusOK || !bytes.Contains(rec.body.Bytes(), []byte("alak_moves_total 0")) {
		t.Errorf("MetricsHandler: %d %.200s", rec.status, rec.body.String())
	}
}

// responseRecorder is a minimal http.ResponseWriter.
type responseRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *responseRecorder) Header() http.Header { return r.header }
func (r *responseRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
func (r *responseRecorder) WriteHeader(code int) { r.status = code }

func httpRequest(t *testing.T, method, path string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, "http://127.0.0.1"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// TestReadyz: /healthz answers 200 while the process serves; /readyz 200
// while the database answers, 503 with a JSON sentence when it does not
// answer within its timeout (a ping that hangs), and 200 again after.
func TestReadyz(t *testing.T) {
	t.Parallel()
	h, fs := faultHarness(t, Config{})
	get := func(path string) (int, map[string]string) {
		resp, err := http.Get(h.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]string
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	if code, _ := get("/readyz"); code != http.StatusOK {
		t.Errorf("readyz: %d", code)
	}
	fs.setPing(func(ctx context.Context, _ func(context.Context) error) error {
		<-ctx.Done() // a database that does not answer
		return ctx.Err()
	})
	if code, body := get("/readyz"); code != http.StatusServiceUnavailable || body["status"] == "" {
		t.Errorf("readyz with the database away: %d %v", code, body)
	}
	if code, _ := get("/healthz"); code != http.StatusOK {
		t.Errorf("healthz with the database away: %d", code)
	}
	fs.setPing(nil)
	if code, _ := get("/readyz"); code != http.StatusOK {
		t.Errorf("readyz with the database back: %d", code)
	}
}

// logCapture is a JSON log the tests read back.
type logCapture struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logCapture) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logCapture) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logCapture) records(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.String()), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a log line that is not JSON: %q", line)
		}
		out = append(out, rec)
	}
	return out
}

// TestLogsCarryRequestIDsAndNoSecrets: at the debug level, the log of a
// run with sign-up, sign-in (right and wrong), a token, bearer requests
// (good and bad), a password change, a guest's invitation (right and
// wrong), bad requests and a request the store fails holds none of the
// passwords, tokens, cookies or invitation secrets sent; and every line
// names its request, by the id the answer's X-Request-Id gave (the
// client's own when it is a short word).
func TestLogsCarryRequestIDsAndNoSecrets(t *testing.T) {
	t.Parallel()
	var logs logCapture
	h, fs := faultHarness(t, Config{Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	secrets := []string{"correct horse", "pw-wrong-guess-1", "pw-new-secret-2", "pw-in-bad-json-3"}
	ids := map[string]bool{}
	send := func(c *client, method, path, body string, header map[string]string) (int, http.Header, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, h.http.URL+path, strings.NewReader(body))
		for k, v := range header {
			req.Header.Set(k, v)
		}
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := c.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		ids[resp.Header.Get("X-Request-Id")] = true
		return resp.StatusCode, resp.Header, out
	}
	ada := h.client()
	if code, _, _ := send(ada, "POST", "/api/accounts", `{"name":"ada","password":"correct horse"}`, nil); code != http.StatusCreated {
		t.Fatalf("sign-up: %d", code)
	}
	bo := h.client()
	send(bo, "POST", "/api/accounts", `{"name":"bo","password":"correct horse"}`, nil)
	send(h.client(), "POST", "/api/login", `{"name":"ada","password":"pw-wrong-guess-1"}`, nil)
	send(h.client(), "POST", "/api/login", `{"name":"ada","password":"correct horse"}`, nil)
	_, _, body := send(h.client(), "POST", "/api/tokens", `{"name":"ada","password":"correct horse"}`, map[string]string{"X-Request-Id": "client-chosen-id.1"})
	var tok struct{ Token string }
	json.Unmarshal(body, &tok)
	if tok.Token == "" {
		t.Fatalf("no token: %s", body)
	}
	secrets = append(secrets, tok.Token)
	bot := h.client()
	bot.token = tok.Token
	if code, _, _ := send(bot, "GET", "/api/me", "", nil); code != http.StatusOK {
		t.Errorf("a bearer request: %d", code)
	}
	if code, _, _ := send(bot, "PUT", "/api/me", `{"password":"pw-new-secret-2","current_password":"correct horse"}`, nil); code != http.StatusOK {
		t.Errorf("a password change: %d", code)
	}
	forged := h.client()
	forged.token = "forged-token-that-is-not-known-0123456789"
	secrets = append(secrets, forged.token)
	send(forged, "GET", "/api/me", "", nil)
	send(h.client(), "POST", "/api/login", `{"name":"ada","password":"pw-in-bad-json-3"`, nil) // cut short
	send(h.client(), "POST", "/api/accounts", `{"name":"x","password":"pw-in-bad-json-3","extra":1}`, map[string]string{"X-Request-Id": "bad id\twith a tab"})
	// A guest's invitation, taken with a wrong secret and the right one.
	host := h.client()
	_, _, body = send(host, "POST", "/api/games", `{"rules":"alak size=7","opponent":"link","clock":"none"}`, nil)
	var g wire.Created
	json.Unmarshal(body, &g)
	invite := g.Invite[strings.Index(g.Invite, "=")+1:]
	secrets = append(secrets, invite)
	send(h.client(), "POST", "/api/games/"+g.ID+"/join", `{"invite":"wrong-invitation-secret-4"}`, nil)
	send(h.client(), "GET", "/g/"+g.ID+"?invite="+invite, "", nil)
	guest := h.client()
	send(guest, "POST", "/api/games/"+g.ID+"/join", `{"invite":"`+invite+`"}`, nil)
	// A move the store fails: logged as an error, with its request.
	_, _, body = send(bo, "POST", "/api/games", `{"rules":"alak size=9","color":"x","clock":"none","opponent":"ada"}`, nil)
	var g2 wire.Created
	json.Unmarshal(body, &g2)
	adaBot := h.client()
	adaBot.token = tok.Token
	send(adaBot, "POST", "/api/games/"+g2.ID+"/join", `{}`, nil)
	fs.setUpdate(func(context.Context, store.Game, func(context.Context) error) error {
		return errors.New("disk I/O error")
	})
	if code, _, _ := send(bo, "POST", "/api/games/"+g2.ID+"/moves", `{"move":"1","ply":0}`, nil); code != http.StatusInternalServerError {
		t.Errorf("a move the store failed: %d", code)
	}
	fs.setUpdate(nil)
	for _, c := range []*client{ada, host, guest, bo} {
		for _, ck := range c.c.Jar.Cookies(mustURL(t, h.http.URL)) {
			if ck.Name == accounts.SessionCookie {
				secrets = append(secrets, ck.Value)
			}
		}
	}
	if len(secrets) < 10 {
		t.Fatalf("only %d secrets gathered: %v", len(secrets), secrets)
	}

	text := logs.String()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("the log holds the secret %q", s)
		}
	}
	if !ids["client-chosen-id.1"] {
		t.Error("the client's X-Request-Id was not kept")
	}
	if ids["bad id\twith a tab"] {
		t.Error("an X-Request-Id with a tab was kept")
	}
	var failed, seen int
	for _, rec := range logs.records(t) {
		id, _ := rec["request"].(string)
		if id == "" || !ids[id] {
			t.Errorf("a line without its request's id: %v", rec)
			continue
		}
		seen++
		if rec["msg"] == "request failed" {
			failed++
		}
	}
	if failed != 1 || seen < 15 {
		t.Errorf("%d request lines, %d failures logged; the log:\n%s", seen, failed, text)
	}
}

// TestSMTPPasswordNotRepeated: a --smtp URL the server cannot use is
// refused with a message that does not repeat its password.
func TestSMTPPasswordNotRepeated(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"smtp://user:hunter2-secret@/", "http://user:hunter2-secret@mail.example:25", "smtp://user:hunter2-secret@%zz"} {
		_, err := New(Config{SMTP: u, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, nil)
		if err == nil {
			t.Errorf("%s: accepted", u)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error repeats the password: %v", u, err)
		}
	}
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestMetricsMail: with a mail server, a your-move mail is counted as
// queued and, once the mail server took it, as sent; a mail server that
// cannot be reached counts as failed.
func TestMetricsMail(t *testing.T) {
	t.Parallel()
	sink := newSMTPSink(t)
	h := newHarness(t, Config{SMTP: sink.url()})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	ada.setEmail("ada@example.org")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	sink.next(t) // ada's your-move mail
	deadline := time.Now().Add(30 * time.Second)
	for {
		m := scrape(t, h.http.URL)
		if m["alak_mails_sent_total"] == 1 {
			if m["alak_mails_total"] != 1 || m["alak_mails_failed_total"] != 0 || m[`alak_queue_depth{queue="mail"}`] != 0 {
				t.Errorf("queued %v, failed %v, waiting %v", m["alak_mails_total"], m["alak_mails_failed_total"], m[`alak_queue_depth{queue="mail"}`])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the mail the sink took is not counted as sent after 30 s: %v", m["alak_mails_sent_total"])
		}
		time.Sleep(10 * time.Millisecond)
	}

	// A mail server that is not there.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "smtp://" + ln.Addr().String() + "?from=alak@test.example"
	ln.Close()
	h2 := newHarness(t, Config{SMTP: gone})
	cy := h2.client().signUp("cy")
	dee := h2.client().signUp("dee")
	cy.setEmail("cy@example.org")
	g2 := cy.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "dee"})
	dee.do("POST", "/api/games/"+g2.ID+"/join", nil, nil)
	deadline = time.Now().Add(30 * time.Second)
	for scrape(t, h2.http.URL)["alak_mails_failed_total"] != 1 {
		if time.Now().After(deadline) {
			t.Fatal("a mail to an absent mail server is not counted as failed after 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
