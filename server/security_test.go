package server

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strings"
	"testing"
	"time"

	"alak/internal/testlong"
	"alak/notation"
	"alak/rules"
	"alak/server/internal/accounts"
	"alak/server/internal/analysis"
	"alak/server/internal/httpx"
	"alak/server/store/sqlitestore"
	"alak/wire"
)

// These tests are the attacks docs/security.md tables: each tries one, and
// checks what the server answers.

// answer is a status and an error code.
type answer struct {
	status int
	code   string
}

func (a answer) String() string { return fmt.Sprintf("%d %s", a.status, a.code) }

// send posts body (a JSON string; "" for none) to path as c, with the
// headers, and returns the status, the error code, and the raw answer.
func (c *client) send(method, path, body string, header map[string]string) (answer, []byte) {
	c.h.t.Helper()
	resp, raw := c.roundTrip(method, path, strings.NewReader(body), header)
	var e errBody
	json.Unmarshal(raw, &e)
	return answer{resp.StatusCode, e.Code}, raw
}

// TestAttackGameActions: every action on a game (a move, resign, a draw
// offer or answer, a takeback request or answer, abort) by someone not
// signed in, by a signed-in stranger (cookie or bearer token), by the
// wrong side, and with a stale or a future ply, is refused with the
// status and code of the table; afterwards the game is as it was.
func TestAttackGameActions(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	eve := h.client().signUp("eve")
	eveBot := h.client()
	eveBot.token = eve.bearer("eve")
	anon := h.client()
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "days:3", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	ada.move(g.ID, "2", 0)
	bo.move(g.ID, "8", 1) // ply 2, Black (ada) to move
	before := ada.game(g.ID)
	moves := "/api/games/" + g.ID + "/moves"
	path := func(action string) string { return "/api/games/" + g.ID + "/" + action }
	cases := []struct {
		name   string
		c      *client
		path   string
		body   string
		status int
		code   string
	}{
		{"move, not signed in", anon, moves, `{"move":"4","ply":2}`, 401, "not_signed_in"},
		{"move, a stranger", eve, moves, `{"move":"4","ply":2}`, 403, "not_your_game"},
		{"move, a stranger's token", eveBot, moves, `{"move":"4","ply":2}`, 403, "not_your_game"},
		{"move, the wrong side", bo, moves, `{"move":"4","ply":2}`, 403, "not_your_turn"},
		{"move, a stale ply", ada, moves, `{"move":"4","ply":1}`, 409, "stale_ply"},
		{"move, a future ply", ada, moves, `{"move":"4","ply":3}`, 409, "stale_ply"},
		{"move, a negative ply", ada, moves, `{"move":"4","ply":-1}`, 409, "stale_ply"},
		{"move, no ply", ada, moves, `{"move":"4"}`, 400, "no_ply"},
		{"move, the opponent's stone", ada, moves, `{"move":"8","ply":2}`, 422, "illegal_move"},
		{"resign, not signed in", anon, path("resign"), `{}`, 401, "not_signed_in"},
		{"resign, a stranger", eve, path("resign"), `{}`, 403, "not_your_game"},
		{"resign, a stranger's token", eveBot, path("resign"), `{}`, 403, "not_your_game"},
		{"resign, a stale ply", ada, path("resign"), `{"ply":1}`, 409, "stale_ply"},
		{"resign, a future ply", bo, path("resign"), `{"ply":9}`, 409, "stale_ply"},
		{"draw offer, a stranger", eve, path("draw"), `{}`, 403, "not_your_game"},
		{"draw offer, a stale ply", ada, path("draw"), `{"ply":0}`, 409, "stale_ply"},
		{"draw accepted, none offered", bo, path("draw"), `{"accept":true}`, 409, "not_now"},
		{"draw accepted, a stranger", eve, path("draw"), `{"accept":true}`, 403, "not_your_game"},
		{"takeback, not signed in", anon, path("takeback"), `{}`, 401, "not_signed_in"},
		{"takeback, a stranger", eve, path("takeback"), `{}`, 403, "not_your_game"},
		{"takeback, a future ply", bo, path("takeback"), `{"ply":3}`, 409, "stale_ply"},
		{"takeback granted, none asked", ada, path("takeback"), `{"accept":true}`, 409, "not_now"},
		{"abort, a stranger", eve, path("abort"), `{}`, 403, "not_your_game"},
		{"abort, after the second move", ada, path("abort"), `{}`, 409, "not_now"},
		{"decline, a stranger", eve, path("decline"), `{}`, 409, "not_waiting"},
		{"join, a stranger", eve, path("join"), `{}`, 409, "not_waiting"},
	}
	for _, c := range cases {
		got, raw := c.c.send("POST", c.path, c.body, nil)
		if got.status != c.status || got.code != c.code {
			t.Errorf("%s: %v %s, want %d %s", c.name, got, raw, c.status, c.code)
		}
	}
	// An offer of one side cannot be answered by that side: bo asks for a
	// takeback, then tries to grant it himself; ada offers a draw and
	// accepts it herself.
	if a, raw := bo.send("POST", path("takeback"), `{}`, nil); a.status != 200 {
		t.Fatalf("bo's takeback request: %v %s", a, raw)
	}
	if a, raw := bo.send("POST", path("takeback"), `{"accept":true}`, nil); a.status != 409 || a.code != "not_now" {
		t.Errorf("bo grants his own takeback: %v %s", a, raw)
	}
	bo.send("POST", path("takeback"), `{"accept":false}`, nil) // not his to answer: still refused
	ada.send("POST", path("takeback"), `{"accept":false}`, nil)
	if a, raw := ada.send("POST", path("draw"), `{}`, nil); a.status != 200 {
		t.Fatalf("ada's draw offer: %v %s", a, raw)
	}
	if a, raw := ada.send("POST", path("draw"), `{"accept":true}`, nil); a.status != 409 || a.code != "not_now" {
		t.Errorf("ada accepts her own draw offer: %v %s", a, raw)
	}
	bo.send("POST", path("draw"), `{"accept":false}`, nil)
	after := ada.game(g.ID)
	if after.Ply != before.Ply || after.State != before.State || fmt.Sprint(after.Moves) != fmt.Sprint(before.Moves) {
		t.Errorf("the game changed: %v %s %v, was %v %s %v", after.Ply, after.State, after.Moves, before.Ply, before.State, before.Moves)
	}
	_, log, _ := h.st.Game(context.Background(), g.ID)
	if len(log) != 2 {
		t.Errorf("the log holds %d entries, want the 2 moves", len(log))
	}
}

// TestAttackOtherPlayersCredentials: a's token or cookie on a game between
// b and c is refused (it names a, who is not a player); a signed-out
// cookie and an expired token are refused; and the database keeps only
// the hashes of tokens and cookies, never the secrets.
func TestAttackOtherPlayersCredentials(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	cy := h.client().signUp("cy")
	g := bo.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "none", "opponent": "cy"})
	cy.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	adaToken := ada.bearer("ada")
	withToken := h.client()
	withToken.token = adaToken
	var adaCookie string
	for _, ck := range ada.c.Jar.Cookies(mustURL(t, h.http.URL)) {
		if ck.Name == accounts.SessionCookie {
			adaCookie = ck.Value
		}
	}
	stolen := h.client() // another browser with a copy of ada's cookie
	stolen.c.Jar.SetCookies(mustURL(t, h.http.URL), []*http.Cookie{{Name: accounts.SessionCookie, Value: adaCookie, Path: "/"}})
	for _, c := range []struct {
		name string
		c    *client
	}{{"a's token", withToken}, {"a's cookie", stolen}} {
		for _, action := range []string{"moves", "resign", "draw", "takeback", "abort"} {
			if a, raw := c.c.send("POST", "/api/games/"+g.ID+"/"+action, `{"move":"1","ply":0}`, nil); a.status != 403 || a.code != "not_your_game" {
				if action == "moves" || a.code != "bad_json" { // the offers take no move: bad_json is a refusal too
					t.Errorf("%s, %s on b's game: %v %s", c.name, action, a, raw)
				}
			}
		}
	}
	// The copied cookie works for ada's own account until she signs out.
	if a, _ := stolen.send("GET", "/api/me", "", nil); a.status != 200 {
		t.Errorf("the copied cookie before sign-out: %v", a)
	}
	ada.do("POST", "/api/logout", nil, nil)
	if a, _ := stolen.send("GET", "/api/me", "", nil); a.status != 401 {
		t.Errorf("the copied cookie after sign-out: %v", a)
	}
	// Secrets are stored hashed.
	db := h.st.(interface{ DB() *sql.DB }).DB()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM tokens WHERE hash = ? OR hash = ?`, adaToken, adaCookie).Scan(&n); err != nil || n != 0 {
		t.Errorf("a secret stored as it is: %d %v", n, err)
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM tokens WHERE hash = ?`, accounts.HashSecret(adaToken)).Scan(&n); err != nil || n != 1 {
		t.Errorf("the token's hash: %d %v", n, err)
	}
	// A year and a day later the token has expired.
	h.clock.Add(366 * 24 * time.Hour)
	if a, _ := withToken.send("GET", "/api/me", "", nil); a.status != 401 || a.code != "bad_token" {
		t.Errorf("an expired token: %v", a)
	}
}

// TestAttackCrossOrigin: a browser's state-changing request from another
// site (Sec-Fetch-Site cross-site or same-site, or an Origin that is not
// the server's), carrying a valid session cookie, is refused 403 with a
// JSON sentence before it reaches the handler; the same from the page
// itself is played; reads are not refused; a script without those
// headers is not a browser and is not refused.
func TestAttackCrossOrigin(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "none", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	moves := "/api/games/" + g.ID + "/moves"
	for _, c := range []struct {
		name   string
		header map[string]string
	}{
		{"another site", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}},
		{"a sibling site", map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "https://evil." + strings.TrimPrefix(h.http.URL, "http://")}},
		{"an old browser's other origin", map[string]string{"Origin": "https://evil.example"}},
		{"a form from another site", map[string]string{"Sec-Fetch-Site": "cross-site", "Content-Type": "application/x-www-form-urlencoded"}},
	} {
		a, raw := ada.send("POST", moves, `{"move":"1","ply":0}`, c.header)
		if a.status != 403 || a.code != "cross_origin" {
			t.Errorf("%s: %v %s", c.name, a, raw)
		}
	}
	if a, _ := ada.send("GET", "/api/games/"+g.ID, "", map[string]string{"Sec-Fetch-Site": "cross-site"}); a.status != 200 {
		t.Errorf("a read from another site: %v", a)
	}
	if v := ada.game(g.ID); v.Ply != 0 {
		t.Fatalf("a cross-origin move was played: ply %d", v.Ply)
	}
	if a, raw := ada.send("POST", moves, `{"move":"1","ply":0}`, map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": h.http.URL}); a.status != 200 {
		t.Errorf("from the page itself: %v %s", a, raw)
	}
	script := h.client()
	script.token = bo.bearer("bo")
	if a, raw := script.send("POST", moves, `{"move":"9","ply":1}`, nil); a.status != 200 {
		t.Errorf("a script with a token: %v %s", a, raw)
	}
}

// loopbackClient is a client whose connections come from the loopback
// address ip (127.0.0.2, ...), as another machine would.
func loopbackClient(t *testing.T, h *harness, ip string) *client {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	jar, _ := cookiejar.New(nil)
	return &client{h: h, c: &http.Client{Jar: jar, Timeout: 2 * time.Minute, Transport: &http.Transport{DialContext: d.DialContext}}}
}

// TestAttackPasswordGuessing measures the sign-in limit under the default
// configuration (Config.LoginRate 10), with the server's clock: from one
// address against one name, 10 attempts are judged at once, then every
// attempt is 429 (even with the right password, on /api/login and
// /api/tokens alike) until the limit refills, one attempt every 6 s: a
// guesser trying once a second gets 10 attempts judged a minute (measured
// over a minute, three with ALAK_LONG=1). The name's limit holds from many
// addresses for those that guessed wrong, never for the owner's; the
// address's (20) over many names. Sign-ups: 5 accounts a minute from one
// address.
func TestAttackPasswordGuessing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{hashCost: guessingCost(t)})
	h.client().signUp("ada")
	guesser := h.client()
	login := func(c *client, path, name, password string) int {
		a, _ := c.send("POST", path, fmt.Sprintf(`{"name":%q,"password":%q}`, name, password), nil)
		return a.status
	}
	judged := 0
	for range 20 {
		if login(guesser, "/api/login", "ada", "a wrong guess") != 429 {
			judged++
		}
	}
	if judged != 10 {
		t.Errorf("at once: %d attempts judged before 429, want 10", judged)
	}
	if code := login(guesser, "/api/tokens", "ada", "correct horse"); code != 429 {
		t.Errorf("the right password while limited: %d, want 429", code)
	}
	// Guessing once a second for a minute or three.
	perMinute := make([]int, testlong.Size(t, 1, 3))
	for s := range 60 * len(perMinute) {
		h.clock.Add(time.Second)
		if code := login(guesser, "/api/login", "ada", "a wrong guess"); code != 429 {
			perMinute[s/60]++
		}
	}
	t.Logf("attempts judged (the rest 429), minute by minute while guessing once a second: %v", perMinute)
	for i, n := range perMinute {
		if n != 10 {
			t.Errorf("minute %d: %d attempts judged, want 10 (a refill every 6 s)", i+1, n)
		}
	}
	h.clock.Add(time.Hour)

	// One name from twelve addresses, a guess each: every one judged
	// (none of them had failed on the name). A second guess from each then
	// meets the name's limit, 10 wrong guesses from every address
	// together, which the first round spent; an address that has not
	// failed on the name is not refused by it.
	codes := []int{}
	spread := make([]*client, 12)
	for i := range spread {
		spread[i] = loopbackClient(t, h, fmt.Sprintf("127.0.0.%d", 10+i))
		codes = append(codes, login(spread[i], "/api/login", "ada", "a wrong guess"))
	}
	if fmt.Sprint(codes) != "[401 401 401 401 401 401 401 401 401 401 401 401]" {
		t.Errorf("one name from 12 addresses: %v", codes)
	}
	codes = codes[:0]
	for _, c := range spread {
		codes = append(codes, login(c, "/api/login", "ada", "a wrong guess"))
	}
	if fmt.Sprint(codes) != "[429 429 429 429 429 429 429 429 429 429 429 429]" {
		t.Errorf("one name from 12 addresses, again: %v", codes)
	}
	if code := login(loopbackClient(t, h, "127.0.0.30"), "/api/login", "ada", "correct horse"); code != 200 {
		t.Errorf("the owner from an address that has not failed, meanwhile: %d, want 200", code)
	}
	// One address over 22 names: the address's limit, twice one name's.
	other := loopbackClient(t, h, "127.0.0.40")
	codes = codes[:0]
	for i := range 22 {
		codes = append(codes, login(other, "/api/tokens", fmt.Sprintf("name%d", i), "a wrong guess"))
	}
	if fmt.Sprint(codes) != "["+strings.Repeat("401 ", 20)+"429 429]" {
		t.Errorf("one address over 22 names: %v", codes)
	}
	// Sign-ups.
	maker := loopbackClient(t, h, "127.0.0.50")
	codes = codes[:0]
	for i := range 7 {
		codes = append(codes, login(maker, "/api/accounts", fmt.Sprintf("new%d", i), "long enough"))
	}
	if fmt.Sprint(codes) != "[201 201 201 201 201 429 429]" {
		t.Errorf("sign-ups from one address: %v", codes)
	}
}

// TestTrustedProxyAddress: behind a trusted proxy the rate limits count
// the client's address from X-Forwarded-For, so two clients behind the
// proxy do not share a limit; from an address that is not a trusted proxy
// X-Forwarded-For is ignored, so a client cannot dodge the limit by
// writing one.
func TestTrustedProxyAddress(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	n := 0
	// guess tries a new name each time, so that only the address's limit
	// can refuse it.
	guess := func(c *client, xff string) int {
		n++
		a, _ := c.send("POST", "/api/login", fmt.Sprintf(`{"name":"nobody%d","password":"a wrong guess"}`, n), map[string]string{"X-Forwarded-For": xff})
		return a.status
	}
	proxy := h.client() // from 127.0.0.1, the trusted proxy
	for i := range 20 {
		if code := guess(proxy, "203.0.113.7"); code != 401 {
			t.Fatalf("guess %d of the first client behind the proxy: %d", i+1, code)
		}
	}
	if code := guess(proxy, "203.0.113.7"); code != 429 {
		t.Errorf("the first client's 21st guess: %d, want 429", code)
	}
	// Another client behind the proxy has a limit of its own; the address
	// counted is the last one before the proxy (the one it saw), not one
	// the client wrote before it.
	if code := guess(proxy, "198.51.100.1, 203.0.113.8"); code != 401 {
		t.Errorf("a second client behind the proxy: %d, want 401", code)
	}
	if code := guess(proxy, "203.0.113.9, 203.0.113.7"); code != 429 {
		t.Errorf("the first client again, behind a made-up address: %d, want 429", code)
	}
	// Not from the proxy: X-Forwarded-For is the client's own writing,
	// and ignored.
	direct := loopbackClient(t, h, "127.0.0.60")
	for i := range 20 {
		guess(direct, fmt.Sprintf("192.0.2.%d", i))
	}
	if code := guess(direct, "192.0.2.99"); code != 429 {
		t.Errorf("a client writing X-Forwarded-For: %d, want 429", code)
	}
}

// TestAttackInjection: SQL and HTML in every user string the server takes.
// Names are restricted (letters, digits, _ and -); rule strings go through
// rules.Parse; an email may hold a quote, which is stored as it is (the
// statements take parameters) but not a line break (mail headers); and
// every place a user string comes back escapes it: the API's JSON (<, >
// and & as \u003c ...), the pages (html/template), the SGF writer.
func TestAttackInjection(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	const sqlText = `x'); DROP TABLE games; --`
	const html = `<script>alert(1)</script>`
	for _, name := range []string{sqlText, html, `ada" onmouseover="x`, "ada\u202e", "ada\x00", "ad a"} {
		body, _ := json.Marshal(map[string]string{"name": name, "password": "long enough"})
		if a, raw := h.client().send("POST", "/api/accounts", string(body), nil); a.status != 422 || a.code != "bad_name" {
			t.Errorf("name %q: %v %s", name, a, raw)
		}
	}
	for _, rs := range []string{"alak size=11" + sqlText, "alak size=" + html, html, "alak komi=" + html} {
		a, raw := ada.send("POST", "/api/games", fmt.Sprintf(`{"rules":%q,"opponent":"open"}`, rs), nil)
		if a.status != 422 || a.code != "bad_rules" {
			t.Errorf("rules %q: %v %s", rs, a, raw)
		}
		if bytes.Contains(raw, []byte("<")) {
			t.Errorf("rules %q: the answer holds a raw <: %s", rs, raw)
		}
	}
	for _, email := range []string{"a@b.example\r\nBcc: x@evil.example", "a@b.example\nBcc: x@evil.example", "<a@b.example>", "a@b.example, c@d.example"} {
		if a, raw := ada.send("PUT", "/api/me", fmt.Sprintf(`{"email":%q}`, email), nil); a.status != 422 || a.code != "bad_email" {
			t.Errorf("email %q: %v %s", email, a, raw)
		}
	}
	quoted := `o'hara"--@example.org`
	if a, raw := ada.send("PUT", "/api/me", fmt.Sprintf(`{"email":%q}`, quoted), nil); a.status != 200 {
		t.Fatalf("email %q: %v %s", quoted, a, raw)
	}
	var me wire.Me
	ada.do("GET", "/api/me", nil, &me)
	if me.Email != quoted {
		t.Errorf("the email came back as %q", me.Email)
	}
	// The API echoes user text in errors: escaped.
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=9", "color": "x", "clock": "none", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/games/" + g.ID + "/moves", `{"move":"<b>1</b>","ply":0}`},
		{"GET", "/api/games?player=" + urlEscape(html), ""},
		{"GET", "/api/players/" + urlEscape(html), ""},
		{"GET", "/api/games/" + urlEscape(html), ""},
		{"POST", "/api/games", `{"opponent":"` + html + `"}`},
		{"POST", "/api/games", `{"opponent":"computer:` + html + `"}`},
		{"POST", "/api/games", `{"clock":"` + html + `"}`},
		{"POST", "/api/games", `{"rules":"alak size=5","position":"` + html + `"}`},
	} {
		a, raw := ada.send(c.method, c.path, c.body, nil)
		if a.status < 400 || bytes.ContainsAny(raw, "<>") {
			t.Errorf("%s %s %s: %v %s", c.method, c.path, c.body, a, raw)
		}
	}
	// The pages escape what they show of a request.
	for _, path := range []string{"/p/" + urlEscape(html), "/g/" + urlEscape(html), "/?name=" + urlEscape(html), "/archive?player=" + urlEscape(html) + "&preset=" + urlEscape(html)} {
		code, _, body := ada.get(path, nil)
		if strings.Contains(body, html) || strings.Contains(body, "<script>alert") {
			t.Errorf("%s: %d, the page holds the raw text", path, code)
		}
		if strings.HasPrefix(path, "/p/") && !strings.Contains(body, "&lt;script&gt;") {
			t.Errorf("%s: the missing page does not show the name escaped", path)
		}
	}
	// Nothing was dropped.
	var n int
	if err := h.st.(interface{ DB() *sql.DB }).DB().QueryRow(`SELECT COUNT(*) FROM games`).Scan(&n); err != nil || n != 1 {
		t.Errorf("games after the injections: %d %v", n, err)
	}
	// The SGF writer escapes ] and \ in names and comments.
	var buf bytes.Buffer
	rec := notation.Record{Rules: rules.MustPreset("alak"), Black: `a]b\c`, White: "w", Comments: map[int]string{0: `x]y`}}
	if err := notation.WriteSGF(&buf, rec); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `PB[a\]b\\c]`) || !strings.Contains(buf.String(), `C[x\]y]`) {
		t.Errorf("SGF: %s", buf.String())
	}
	rd, err := notation.ReadSGF(buf.Bytes())
	if err != nil || rd.Black != `a]b\c` {
		t.Errorf("SGF read back: %+v %v", rd.Black, err)
	}
}

func urlEscape(s string) string {
	return strings.NewReplacer("<", "%3C", ">", "%3E", "/", "%2F", "(", "%28", ")", "%29", " ", "%20").Replace(s)
}

// TestAttackBodies: a body over 16 kB is refused 413 after 16 kB are read
// (a 200 kB one of 100,000 nested arrays in an unknown field, sent on a
// raw connection, is answered before it is all sent); a deeply nested body
// under the limit is refused 400 and costs the decoder little memory;
// malformed bodies are refused 400 bad_json; a long id is 404.
func TestAttackBodies(t *testing.T) {
	// Not in parallel: it reads the whole process's allocations.
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	token := ada.bearer("ada")
	deep := `{"x":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`
	addr := strings.TrimPrefix(h.http.URL, "http://")
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Minute))
	fmt.Fprintf(conn, "POST /api/games HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", addr, token, len(deep))
	go io.WriteString(conn, deep) // the server answers before it is all read
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || !bytes.Contains(raw, []byte("too_large")) {
		t.Errorf("a 200 kB nested body: %d %s", resp.StatusCode, raw)
	}

	under := `{"x":` + strings.Repeat("[", 8000) + strings.Repeat("]", 8000) + `}`
	if a, raw := ada.send("POST", "/api/games", under, nil); a.status != 400 || a.code != "bad_json" {
		t.Errorf("16 kB of nesting: %v %.200s", a, raw)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		httpx.DecodeBytes([]byte(under), new(wire.CreateRequest))
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > 1<<20 {
		t.Errorf("decoding 16 kB of nesting allocates %d bytes", per)
	}
	for _, body := range []string{`{"move":`, `[]`, `"text"`, `{"ply":"1","move":"1"}`, `{"ply":1,"move":"1"}{}`, "{\"move\":\"\xff\xfe\",\"ply\":0", `{"ply":1e999}`, "\x00"} {
		if a, raw := ada.send("POST", "/api/games/nosuchgame/moves", body, nil); a.status != 400 || a.code != "bad_json" {
			t.Errorf("%q: %v %s", body, a, raw)
		}
	}
	if a, _ := ada.send("GET", "/api/games/"+strings.Repeat("a", 10_000), "", nil); a.status != 404 {
		t.Errorf("a 10 kB id: %v", a)
	}
}

// TestAttackHugeBoardsAndSearches: a rule string cannot ask for a board
// past the limits (lines of 64 points, grids of 19x19) nor a computer
// player past its bounds (3 s a move, 64 MB for perfect's table, 300,000
// playouts, no program, no file); the analysis queue takes 16 games and
// answers 503 busy beyond.
func TestAttackHugeBoardsAndSearches(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	for _, c := range []struct {
		req  string
		code int
	}{
		{`{"rules":"alak size=64","opponent":"open"}`, 201},
		{`{"rules":"alak size=65","opponent":"open"}`, 422},
		{`{"rules":"alak size=99999999999999999999","opponent":"open"}`, 422},
		{`{"rules":"alak size=-1","opponent":"open"}`, 422},
		{`{"rules":"alterigo size=19x19","opponent":"open"}`, 201},
		{`{"rules":"alterigo size=20x19","opponent":"open"}`, 422},
		{`{"rules":"alterigo size=64x64","opponent":"open"}`, 422},
		{`{"rules":"` + strings.Repeat("alak ", 41) + `","opponent":"open"}`, 422},
		{`{"rules":"alak size=9","position":"` + strings.Repeat("x", 501) + `","opponent":"open"}`, 422},
		{`{"opponent":"computer:perfect:mem=100000"}`, 422},
		{`{"opponent":"computer:perfect:nodes=100000000000"}`, 422},
		{`{"opponent":"computer:mcts:playouts=100000000"}`, 422},
		{`{"opponent":"computer:mcts:time=1h"}`, 422},
		{`{"opponent":"computer:alphabeta:depth=1000"}`, 422},
		{`{"opponent":"computer:gtp:/bin/sh"}`, 422},
		{`{"opponent":"computer:perfect:table=/etc/passwd"}`, 422},
	} {
		if a, raw := ada.send("POST", "/api/games", c.req, nil); a.status != c.code {
			t.Errorf("%s: %v %s, want %d", c.req, a, raw, c.code)
		}
	}
}

// TestAttackAnalysisQueue: the post-game analysis runs one game at a time
// from a queue of 16: asked for 17 finished games while the worker is
// busy, the server queues 16 (202) and answers 503 busy with a JSON
// sentence for the 17th; asking again for a queued game does not queue it
// twice.
func TestAttackAnalysisQueue(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/alak.db"
	st, err := sqlitestore.Open(context.Background(), freshDB(t, path))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock := &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	// No background analysis: a finished game it queued would take a place
	// of the queue this test fills itself.
	srv, err := New(Config{Now: clock.Now, SweepEvery: time.Hour, noBackgroundAnalysis: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, st)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	// A queue nobody works: the worker is busy with a long analysis.
	srv.analysis.Games = analysis.NewGames(analysis.Config{})
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	h := &harness{t: t, clock: clock, st: st, srv: srv, http: ts}
	ada := h.client()
	var ids []string
	for range analysis.GamesQueued + 1 {
		g := ada.create(map[string]string{"rules": "alak size=5", "color": "x", "clock": "none", "opponent": "computer:level:1"})
		if code := ada.do("POST", "/api/games/"+g.ID+"/resign", nil, nil); code != 200 {
			t.Fatalf("resign: %d", code)
		}
		ids = append(ids, g.ID)
	}
	for i, id := range ids {
		a, raw := ada.send("GET", "/api/games/"+id+"/analysis", "", nil)
		want := 202
		if i == analysis.GamesQueued {
			want = 503
		}
		if a.status != want {
			t.Errorf("analysis %d: %v %s, want %d", i+1, a, raw, want)
		}
		if want == 503 {
			checkServerError(t, "the 17th analysis", a.status, raw)
		}
	}
	if a, _ := ada.send("GET", "/api/games/"+ids[0]+"/analysis", "", nil); a.status != 202 || srv.analysis.Games.Depth() != analysis.GamesQueued {
		t.Errorf("asked again: %v, queue %d", a, srv.analysis.Games.Depth())
	}
}

// TestSessionCookieFlags: every session cookie the server sets (sign-up,
// sign-in, a guest's, the sign-out's clearing one) is HttpOnly (no script
// reads it), SameSite=Lax (not sent with another site's POST), Path=/, and
// Secure when the server's base URL is https (never sent in clear).
func TestSessionCookieFlags(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"https://alak.example", "http://127.0.0.1:8080"} {
		h := newHarness(t, Config{BaseURL: base})
		secure := strings.HasPrefix(base, "https")
		check := func(what string, resp *http.Response) {
			t.Helper()
			var found bool
			for _, ck := range resp.Cookies() {
				if ck.Name != accounts.SessionCookie {
					continue
				}
				found = true
				if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || ck.Secure != secure {
					t.Errorf("%s, %s: %s", base, what, ck.String())
				}
			}
			if !found {
				t.Errorf("%s, %s: no session cookie", base, what)
			}
		}
		post := func(path, body string, cookie *http.Cookie) *http.Response {
			req, _ := http.NewRequest("POST", h.http.URL+path, strings.NewReader(body))
			if cookie != nil {
				req.AddCookie(cookie)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp
		}
		signUp := post("/api/accounts", `{"name":"ada","password":"correct horse"}`, nil)
		check("sign-up", signUp)
		check("sign-in", post("/api/login", `{"name":"ada","password":"correct horse"}`, nil))
		check("a guest", post("/api/games", `{"opponent":"computer:level:1"}`, nil))
		out := post("/api/logout", ``, signUp.Cookies()[0])
		check("sign-out", out)
		if ck := out.Cookies()[0]; ck.MaxAge >= 0 || ck.Value != "" {
			t.Errorf("%s: the sign-out cookie is not a clearing one: %s", base, ck.String())
		}
	}
}

// TestAttackPasswordHashMemory: sign-ins from many addresses at once (each
// within its own rate limit; two more than the bound, ten with
// ALAK_LONG=1) never compute more password hashes at once than hashSlots
// holds, so memory stays at most cap(hashSlots) x 64 MiB
// whatever the burst; every attempt is still answered.
func TestAttackPasswordHashMemory(t *testing.T) {
	// Not in parallel: it reads accounts.HashesMost, the whole process's count.
	h := newHarness(t, Config{hashCost: accounts.RealCost}) // the server's cost, not the tests' (hashcost_test.go)
	h.client().signUp("ada")
	if a, err := h.st.AccountByName(context.Background(), "ada"); err != nil || !strings.HasPrefix(a.PassHash, "$argon2id$v=19$m=65536,t=3,p=2$") {
		t.Fatalf("ada's hash %.40s (%v): want argon2id over 64 MiB, 3 passes, 2 lanes", a.PassHash, err)
	}
	accounts.HashesMost.Store(0)
	bound := int64(max(2, runtime.NumCPU())) // one a core, at least two (server/internal/accounts/auth.go)
	// Two more sign-ins than the bound (4 on 2 cores), every one of them
	// judged; with ALAK_LONG=1 10, the name's limit.
	burst := testlong.Size(t, min(10, int(bound)+2), 10)
	codes := make(chan int, burst)
	clients := make([]*client, burst)
	for i := range clients {
		clients[i] = loopbackClient(t, h, fmt.Sprintf("127.0.1.%d", 10+i))
		// The burst's hashes take turns, seconds each under the race
		// detector on a loaded machine: the last answer may take minutes.
		clients[i].c.Timeout = 5 * time.Minute
	}
	for _, c := range clients {
		go func() { // no t.Fatal here: the test would wait for ever
			resp, err := c.c.Post(h.http.URL+"/api/login", "application/json", strings.NewReader(`{"name":"ada","password":"a wrong guess"}`))
			if err != nil {
				t.Errorf("a sign-in of the burst: %v", err)
				codes <- 0
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	for range burst {
		if code := <-codes; code != 401 {
			t.Errorf("a wrong password in the burst: %d, want 401", code)
		}
	}
	if most := accounts.HashesMost.Load(); most < 1 || most > bound {
		t.Errorf("hashes at once: %d, want 1 to %d", most, bound)
	}
	t.Logf("%d sign-ins at once: at most %d hashes at once (%d MiB)", burst, accounts.HashesMost.Load(), accounts.HashesMost.Load()*int64(accounts.RealCost.Memory)/1024)
}
