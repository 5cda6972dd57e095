package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"alak/server/internal/accounts"
	"alak/server/store/sqlstore"
	"alak/wire"
)

// These tests are the rows of docs/security.md's "Stolen credentials and
// password changes" and "Password guessing" tables.

// call sends a request as c with a JSON body ("" for none) and returns the
// status, the error code and the Retry-After header.
func (c *client) call(method, path, body string) (status int, code, retryAfter string) {
	c.h.t.Helper()
	resp, raw := c.roundTrip(method, path, strings.NewReader(body), jsonHeader)
	var e errBody
	if resp.StatusCode >= 400 {
		if err := json.Unmarshal(raw, &e); err != nil {
			c.h.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
	}
	return resp.StatusCode, e.Code, resp.Header.Get("Retry-After")
}

// newToken signs in name for a bearer token, as c, and returns a client
// that sends it from c's address.
func (c *client) newToken(name, password string) *client {
	c.h.t.Helper()
	var tok struct{ Token string }
	if code := c.do("POST", "/api/tokens", map[string]string{"name": name, "password": password}, &tok); code != http.StatusCreated {
		c.h.t.Fatalf("token for %s: %d", name, code)
	}
	bot := *c
	bot.c = &http.Client{Transport: c.c.Transport, Timeout: c.c.Timeout} // no cookies
	bot.token = tok.Token
	return &bot
}

// signedIn reports whether c's credential (cookie or token) still signs in.
func (c *client) signedIn() bool {
	c.h.t.Helper()
	code, _, _ := c.call("GET", "/api/me", "")
	return code == http.StatusOK
}

// TestPasswordChangeRevokes: changing the password takes the current one
// (403 wrong_password, counted as a sign-in attempt), and ends every other
// session and every token of the account, in this process at once and in
// another process on the same database within accounts.TokenTTL; signing out with
// a bearer token, or DELETE /api/tokens/current, revokes it.
func TestPasswordChangeRevokes(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		a := newHarness(t, Config{})
		testPasswordChangeRevokes(t, a, twin(t, a))
	})
	t.Run("postgres", func(t *testing.T) {
		ps := pgProcesses(t, 2, &testClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)})
		testPasswordChangeRevokes(t, ps[0], ps[1])
	})
}

func testPasswordChangeRevokes(t *testing.T, a, b *harness) {
	ada := a.client().signUp("ada") // the owner's browser: changes the password
	thief := a.client()             // a second browser (a stolen session)
	thief.do("POST", "/api/login", map[string]string{"name": "ada", "password": "correct horse"}, nil)
	bot := a.client().newToken("ada", "correct horse")
	botOnB := a.client().newToken("ada", "correct horse").on(b)
	unseenOnB := a.client().newToken("ada", "correct horse").on(b)
	bo := a.client().signUp("bo")
	boBot := a.client().newToken("bo", "correct horse")
	for name, c := range map[string]*client{"ada": ada, "thief": thief, "bot": bot, "bot on b": botOnB, "bo": bo, "bo's bot": boBot} {
		if !c.signedIn() {
			t.Fatalf("%s is not signed in before the change", name)
		}
	}

	// A script signs out its token: POST /api/logout, or
	// DELETE /api/tokens/current; the token is then refused on both
	// processes (b has not seen it).
	for _, call := range []string{"POST /api/logout", "DELETE /api/tokens/current"} {
		tok := a.client().newToken("ada", "correct horse")
		method, path, _ := strings.Cut(call, " ")
		if code, e, _ := tok.call(method, path, ""); code != http.StatusOK {
			t.Errorf("%s with a token: %d %s", call, code, e)
		}
		if tok.signedIn() || tok.on(b).signedIn() {
			t.Errorf("the token after %s: still signed in", call)
		}
	}
	if code, e, _ := ada.call("DELETE", "/api/tokens/current", ""); code != http.StatusUnauthorized || e != "no_token" {
		t.Errorf("DELETE /api/tokens/current with a cookie: %d %s, want 401 no_token", code, e)
	}
	if !ada.signedIn() {
		t.Errorf("DELETE /api/tokens/current with a cookie signed the browser out")
	}

	// Without the current password, with a wrong one: refused, nothing changed.
	for _, body := range []string{`{"password":"stolen cookie"}`, `{"password":"stolen cookie","current_password":"a guess"}`} {
		if code, e, _ := thief.call("PUT", "/api/me", body); code != http.StatusForbidden || e != "wrong_password" {
			t.Errorf("%s with a stolen cookie: %d %s, want 403 wrong_password", body, code, e)
		}
	}
	if !bot.signedIn() || !ada.signedIn() {
		t.Errorf("a refused change signed someone out")
	}
	if code := a.client().do("POST", "/api/login", map[string]string{"name": "ada", "password": "stolen cookie"}, nil); code != http.StatusUnauthorized {
		t.Errorf("the thief's password after a refused change: %d, want 401", code)
	}

	// The right current password: the change is made, and every other
	// credential of ada ends; bo's stay.
	body := `{"password":"a new horse","current_password":"correct horse","confirm_moves":true}`
	if code, e, _ := ada.call("PUT", "/api/me", body); code != http.StatusOK {
		t.Fatalf("the owner's change: %d %s", code, e)
	}
	for name, want := range map[string]bool{"ada (made the change)": true, "the other session": false, "the token": false,
		"a token b never saw": false, "bo": true, "bo's bot": true} {
		c := map[string]*client{"ada (made the change)": ada, "the other session": thief, "the token": bot,
			"a token b never saw": unseenOnB, "bo": bo, "bo's bot": boBot}[name]
		if got := c.signedIn(); got != want {
			t.Errorf("%s after the password change: signed in %v, want %v", name, got, want)
		}
	}
	var me wire.Me
	if ada.do("GET", "/api/me", nil, &me); !me.ConfirmMoves {
		t.Errorf("the other settings of the same request were not kept: %+v", me)
	}
	// The other process may honour a token it had cached for accounts.TokenTTL
	// (docs/security.md), not longer.
	a.clock.Add(accounts.TokenTTL)
	if botOnB.signedIn() {
		t.Errorf("a revoked token on the other process %v after the change: still signed in", accounts.TokenTTL)
	}
	// The sign-in limits are the processes' together: the attempts above,
	// all from one address on ada, have spent the burst; a minute refills
	// it.
	a.clock.Add(time.Minute)
	for pw, want := range map[string]int{"correct horse": http.StatusUnauthorized, "a new horse": http.StatusOK} {
		if code := b.client().do("POST", "/api/login", map[string]string{"name": "ada", "password": pw}, nil); code != want {
			t.Errorf("sign-in with %q after the change: %d, want %d", pw, code, want)
		}
	}

	// Wrong current passwords count as sign-in attempts: with the burst of
	// 10 (Config.LoginRate's default) spent, the right one is 429 too.
	a.clock.Add(time.Minute) // the attempts above refilled
	n := 0
	for range 10 {
		if code, _, _ := ada.call("PUT", "/api/me", `{"password":"guess guess","current_password":"a guess"}`); code == http.StatusForbidden {
			n++
		}
	}
	code, e, retry := ada.call("PUT", "/api/me", `{"password":"guess guess","current_password":"a new horse"}`)
	if n != 10 || code != http.StatusTooManyRequests || e != "rate_limited" || retry != "6" {
		t.Errorf("10 wrong current passwords: %d judged, then %d %s Retry-After %q; want 10, then 429 rate_limited Retry-After 6", n, code, e, retry)
	}
}

// TestSignInNoLockout: a guesser at 127.0.0.2 who guesses ada's password
// once every 6 s (the refill of the sign-in limit) for three minutes never
// keeps ada out from 127.0.0.3; the guesser's own 429s carry the real
// wait. A guesser spread over twelve addresses gets one judged guess from
// each, then the name's limit holds for those addresses, never for ada's.
func TestSignInNoLockout(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{hashCost: guessingCost(t)})
	h.client().signUp("ada")
	guesser := loopbackClient(t, h, "127.0.0.2")
	owner := loopbackClient(t, h, "127.0.0.3")
	login := func(c *client, password string) (int, string) {
		code, _, retry := c.call("POST", "/api/login", fmt.Sprintf(`{"name":"ada","password":%q}`, password))
		return code, retry
	}
	for i := range 10 {
		if code, _ := login(guesser, "a wrong guess"); code != http.StatusUnauthorized {
			t.Fatalf("guess %d of the burst: %d", i+1, code)
		}
	}
	// Retry-After is the real wait: one attempt every 6 s.
	for _, step := range []struct {
		wait  time.Duration
		code  int
		retry string
	}{{0, 429, "6"}, {time.Second, 429, "5"}, {4500 * time.Millisecond, 429, "1"}, {500 * time.Millisecond, 401, ""}, {0, 429, "6"}} {
		h.clock.Add(step.wait)
		if code, retry := login(guesser, "a wrong guess"); code != step.code || retry != step.retry {
			t.Errorf("the guesser after %v more: %d Retry-After %q, want %d %q", step.wait, code, retry, step.code, step.retry)
		}
	}
	for i := range 30 { // three minutes, a guess every 6 s
		h.clock.Add(6 * time.Second)
		if code, _ := login(guesser, "a wrong guess"); code != http.StatusUnauthorized {
			t.Fatalf("the guesser's guess %d at the refill rate: %d, want 401", i+1, code)
		}
		if i%10 == 9 {
			if code, retry := login(owner, "correct horse"); code != http.StatusOK {
				t.Fatalf("the owner from another address after %d guesses: %d (Retry-After %q), want 200", i+11, code, retry)
			}
		}
	}

	// Twelve addresses: one judged guess each, then 429 for each of them
	// (the name's wrong guesses, 10 a burst); the owner still signs in.
	h.clock.Add(time.Hour)
	var first, second []int
	for i := range 12 {
		c := loopbackClient(t, h, fmt.Sprintf("127.0.0.%d", 10+i))
		code, _ := login(c, "a wrong guess")
		first = append(first, code)
		code, _ = login(c, "a wrong guess")
		second = append(second, code)
	}
	if fmt.Sprint(first) != "[401 401 401 401 401 401 401 401 401 401 401 401]" {
		t.Errorf("first guesses from 12 addresses: %v, want 401 each", first)
	}
	// Each address guesses twice in turn: the name's 10 failures are
	// spent by the fifth address's second guess.
	if fmt.Sprint(second) != "[401 401 401 401 401 429 429 429 429 429 429 429]" {
		t.Errorf("second guesses from 12 addresses: %v, want 401 until the name's 10 failures are spent, then 429", second)
	}
	if code, retry := login(owner, "correct horse"); code != http.StatusOK {
		t.Errorf("the owner after the spread guessing: %d (Retry-After %q), want 200", code, retry)
	}
}

// TestGameAndInviteLimits: new games are limited per account (30 at once,
// then one every 2 s) and per address (60 at once); wrong invitations per
// address and per account (10, then one every 6 s), each 429 with the real
// Retry-After; a wrong invitation makes no guest.
func TestGameAndInviteLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	accounts := make([]*client, 3)
	for i := range accounts {
		accounts[i] = loopbackClient(t, h, "127.0.0.2").signUp(fmt.Sprintf("maker%d", i))
	}
	create := func(c *client) (int, string, string) {
		return c.call("POST", "/api/games", `{"opponent":"link","clock":"live:5m+3s"}`)
	}
	n := 0
	for range 40 {
		if code, _, _ := create(accounts[0]); code == http.StatusCreated {
			n++
		}
	}
	if code, e, retry := create(accounts[0]); n != 30 || code != 429 || e != "rate_limited" || retry != "2" {
		t.Errorf("one account: %d games made, then %d %s Retry-After %q; want 30, then 429 rate_limited Retry-After 2", n, code, e, retry)
	}
	n = 0
	for range 30 {
		if code, _, _ := create(accounts[1]); code == http.StatusCreated {
			n++
		}
	}
	// The address has made 60: a third account there is refused, one
	// elsewhere is not.
	if code, _, retry := create(accounts[2]); n != 30 || code != 429 || retry != "1" {
		t.Errorf("a third account at the address after 60 games: %d, Retry-After %q (second account made %d); want 429, 1", code, retry, n)
	}
	if code, e, _ := create(loopbackClient(t, h, "127.0.0.3").signUp("elsewhere")); code != http.StatusCreated {
		t.Errorf("an account at another address: %d %s", code, e)
	}
	h.clock.Add(2 * time.Second)
	if code, e, _ := create(accounts[0]); code != http.StatusCreated {
		t.Errorf("2 s later: %d %s", code, e)
	}

	// Wrong invitations, by a browser without an account at 127.0.0.4.
	g := loopbackClient(t, h, "127.0.0.5").signUp("host").create(map[string]string{"opponent": "link", "clock": "live:5m+3s"})
	accountsBefore := countAccounts(t, h)
	stranger := loopbackClient(t, h, "127.0.0.4")
	var codes []string
	for range 11 {
		code, e, retry := stranger.call("POST", "/api/games/"+g.ID+"/join", `{"invite":"a guess"}`)
		codes = append(codes, fmt.Sprint(code, e, retry))
	}
	want := strings.Repeat("403bad_invite ", 10) + "429rate_limited6"
	if strings.Join(codes, " ") != want {
		t.Errorf("wrong invitations from one address: %v\nwant %s", codes, want)
	}
	if n := countAccounts(t, h); n != accountsBefore {
		t.Errorf("11 wrong invitations made %d guest accounts, want none", n-accountsBefore)
	}
	// By account: a token used from two addresses shares one limit.
	tok := loopbackClient(t, h, "127.0.0.6").newToken("maker2", "correct horse")
	tokElsewhere := loopbackClient(t, h, "127.0.0.7")
	tokElsewhere.token = tok.token
	for range 10 {
		tok.call("POST", "/api/games/"+g.ID+"/join", `{"invite":"a guess"}`)
	}
	if code, e, retry := tokElsewhere.call("POST", "/api/games/"+g.ID+"/join", `{"invite":"a guess"}`); code != 429 || retry != "6" {
		t.Errorf("the account's 11th wrong invitation, from another address: %d %s Retry-After %q; want 429, 6", code, e, retry)
	}
	// The right invitation still works from an address that has not guessed.
	friend := loopbackClient(t, h, "127.0.0.8")
	invite := g.Invite[strings.Index(g.Invite, "invite=")+len("invite="):]
	if code, e, _ := friend.call("POST", "/api/games/"+g.ID+"/join", fmt.Sprintf(`{"invite":%q}`, invite)); code != http.StatusOK {
		t.Errorf("the right invitation: %d %s", code, e)
	}
}

// countAccounts counts the accounts in h's SQLite file.
func countAccounts(t *testing.T, h *harness) int {
	t.Helper()
	var n int
	if err := h.st.(*sqlstore.Store).DB().QueryRowContext(context.Background(), `SELECT COUNT(*) FROM accounts`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEmailWhiteSpace: an email holding any white space, line or
// paragraph separator, control or invisible formatting character is
// refused with 422 bad_email and a sentence naming it (docs/api.md: no
// space or line break); plain addresses are taken.
func TestEmailWhiteSpace(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	for _, email := range []string{"a\tb@example.org", "ab@example.org\t", "a\u2028b@example.org", "a@exa\u2029mple.org",
		"a\u0085b@example.org", "a\u00a0b@example.org", "a\u3000b@example.org", "a\u200bb@example.org", "a\u202eb@example.org",
		"a\x7fb@example.org", "a\x00b@example.org", "a\vb@example.org", "a\fb@example.org", "a b@example.org",
		"@example.org", "ada@", "ada.example.org"} {
		body, _ := json.Marshal(map[string]string{"email": email})
		code, e, _ := ada.call("PUT", "/api/me", string(body))
		if code != http.StatusUnprocessableEntity || e != "bad_email" {
			t.Errorf("email %q: %d %s, want 422 bad_email", email, code, e)
		}
	}
	// Invalid UTF-8 is refused by the JSON decoder before (400 bad_json);
	// checkEmail refuses it too (package accounts' TestCheckEmailUTF8).
	for _, email := range []string{"ada@example.org", "o'hara+alak@example.org", "jos\u00e9@example.org"} {
		if code, e, _ := ada.call("PUT", "/api/me", fmt.Sprintf(`{"email":%q}`, email)); code != http.StatusOK {
			t.Errorf("email %q: %d %s, want 200", email, code, e)
		}
	}
}
