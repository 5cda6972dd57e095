package server

import (
	"net/http"
	"strings"
	"testing"

	"alak/wire"
)

// signUpBot makes a bot account with c and returns a client that plays
// it by bearer token.
func (c *client) signUpBot(name string) *client {
	c.h.t.Helper()
	var out wire.Account
	if code := c.do("POST", "/api/accounts", map[string]any{"name": name, "password": "correct horse", "bot": true}, &out); code != http.StatusCreated || !out.Bot {
		c.h.t.Fatalf("bot sign-up of %s: %d %+v", name, code, out)
	}
	return c.newToken(name, "correct horse")
}

// TestBotAccounts: a bot account is made with "bot": true, gets
// no page session (the sign-up sets no cookie, POST /api/login is refused
// with 403 bot_account) and plays by bearer token; it is shown as a bot in
// /api/me, a game's players, the lists, the profile and the leaderboard;
// it takes a person's open challenge only when allow_bots was given, and
// a challenge addressed to it by name as anyone; its games are rated.
func TestBotAccounts(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	browser := h.client()
	var made wire.Account
	if code := browser.do("POST", "/api/accounts", map[string]any{"name": "walker", "password": "correct horse", "bot": true}, &made); code != http.StatusCreated || !made.Bot || made.Name != "walker" {
		t.Fatalf("bot sign-up: %d %+v", code, made)
	}
	if browser.signedIn() {
		t.Errorf("a bot's sign-up started a page session")
	}
	if code, e, _ := browser.call("POST", "/api/login", `{"name":"walker","password":"correct horse"}`); code != http.StatusForbidden || e != "bot_account" {
		t.Errorf("a bot signing in to the page: %d %s, want 403 bot_account", code, e)
	}
	if browser.signedIn() {
		t.Errorf("a bot's refused sign-in started a page session")
	}
	bot := browser.newToken("walker", "correct horse")
	var me wire.Me
	if code := bot.do("GET", "/api/me", nil, &me); code != http.StatusOK || !me.Bot || me.Name != "walker" {
		t.Errorf("/api/me of the bot: %d %+v", code, me)
	}
	var person wire.Me
	if ada.do("GET", "/api/me", nil, &person); person.Bot || person.Name != "ada" {
		t.Errorf("/api/me of a person says bot")
	}

	// A person's open challenge: not for bots unless allowed.
	closed := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "open", "clock": "none"})
	if code, e, _ := bot.call("POST", "/api/games/"+closed.ID+"/join", ""); code != http.StatusForbidden || e != "bots_not_allowed" {
		t.Errorf("a bot taking a people-only open challenge: %d %s, want 403 bots_not_allowed", code, e)
	}
	var open wire.Created
	if code := ada.do("POST", "/api/games", map[string]any{"rules": "alak size=6", "color": "x", "opponent": "open", "clock": "none", "allow_bots": true}, &open); code != http.StatusCreated {
		t.Fatalf("an open challenge allowing bots: %d", code)
	}
	var lobby struct{ Games []wire.Summary }
	ada.do("GET", "/api/lobby", nil, &lobby)
	allows := map[string]bool{}
	for _, g := range lobby.Games {
		allows[g.ID] = g.AllowBots
	}
	if want := map[string]bool{closed.ID: false, open.ID: true}; allows[closed.ID] != false || allows[open.ID] != true || len(allows) != 2 {
		t.Errorf("the lobby's allow_bots: %v, want %v", allows, want)
	}
	if code, e, _ := bot.call("POST", "/api/games/"+open.ID+"/join", ""); code != http.StatusOK {
		t.Fatalf("a bot taking an open challenge that allows bots: %d %s", code, e)
	}
	// A person takes the people-only one as before.
	if code, e, _ := h.client().signUp("bo").call("POST", "/api/games/"+closed.ID+"/join", ""); code != http.StatusOK {
		t.Errorf("a person taking an open challenge: %d %s", code, e)
	}

	// The game: the bot is shown as one, the person not; it is rated.
	v := ada.game(open.ID)
	if !v.Players["o"].Bot || v.Players["o"].Name != "walker" || v.Players["x"].Bot || !v.Rated || !v.AllowBots {
		t.Errorf("the game's view: players %+v, rated %v, allow_bots %v; want o the bot walker, rated", v.Players, v.Rated, v.AllowBots)
	}
	for i, m := range seedAlak6 {
		c := ada
		if i%2 == 1 {
			c = bot
		}
		if code, _, e := c.move(open.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %d %s: %d %+v", i+1, m, code, e)
		}
	}
	if v := ada.game(open.ID); v.State != "finished" || v.SGFResult != "B+3" {
		t.Fatalf("after seed 002's game: %s, result %s; want finished B+3 (seed 002: 3-0 for Black)", v.State, v.SGFResult)
	}
	var mine struct{ Finished []wire.Summary }
	bot.do("GET", "/api/me/games", nil, &mine)
	if len(mine.Finished) != 1 || !mine.Finished[0].Players["o"].Bot || mine.Finished[0].Players["x"].Bot {
		t.Errorf("the bot's games list: %+v; want the game with o shown as a bot", mine)
	}
	type profile struct {
		Name string `json:"name"`
		Bot  bool   `json:"bot"`
	}
	var bp, ap profile
	if h.client().do("GET", "/api/players/walker", nil, &bp); !bp.Bot {
		t.Errorf("the bot's profile: %+v, want bot", bp)
	}
	if h.client().do("GET", "/api/players/ada", nil, &ap); ap.Bot || ap.Name != "ada" {
		t.Errorf("a person's profile says bot")
	}
	var board wire.Leaderboard
	h.client().do("GET", "/api/leaderboard?pool=alak", nil, &board)
	bots := map[string]bool{}
	for _, l := range board.Players {
		bots[l.Name] = l.Bot
	}
	if len(bots) != 2 || !bots["walker"] || bots["ada"] {
		t.Errorf("the leaderboard's bots: %v, want walker a bot and ada not", bots)
	}

	// A challenge by name is for the bot as for anyone.
	named := ada.create(map[string]string{"rules": "alak size=6", "color": "o", "opponent": "walker", "clock": "none"})
	if code, e, _ := bot.call("POST", "/api/games/"+named.ID+"/join", ""); code != http.StatusOK {
		t.Errorf("a bot taking a challenge addressed to it: %d %s", code, e)
	}
}

// TestDeclineReason: a decline may say why, {"reason": TEXT}:
// the challenger's game then gives "declined: TEXT" as its reason; a
// reason too long or with a control character is refused (422
// bad_reason), and the challenge stays; a decline without a body is
// "declined" as before.
func TestDeclineReason(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bot := h.client().signUpBot("walker")
	g := ada.create(map[string]string{"rules": "alak size=6", "opponent": "walker", "clock": "none"})
	for _, bad := range []string{`{"reason":"` + strings.Repeat("a", 201) + `"}`, `{"reason":"two\nlines"}`} {
		if code, e, _ := bot.call("POST", "/api/games/"+g.ID+"/decline", bad); code != http.StatusUnprocessableEntity || e != "bad_reason" {
			t.Errorf("decline with %.40s: %d %s, want 422 bad_reason", bad, code, e)
		}
	}
	if v := ada.game(g.ID); v.State != "waiting" {
		t.Fatalf("after refused declines the challenge is %s", v.State)
	}
	if code, e, _ := bot.call("POST", "/api/games/"+g.ID+"/decline", `{"reason":"this engine plays only alak size=11"}`); code != http.StatusOK {
		t.Fatalf("decline with a reason: %d %s", code, e)
	}
	if v := ada.game(g.ID); v.State != "expired" || v.Reason == nil || *v.Reason != "declined: this engine plays only alak size=11" {
		t.Errorf("the declined game: %s, reason %v", v.State, v.Reason)
	}
	g2 := ada.create(map[string]string{"rules": "alak size=6", "opponent": "walker", "clock": "none"})
	bot.call("POST", "/api/games/"+g2.ID+"/decline", "")
	if v := ada.game(g2.ID); v.Reason == nil || *v.Reason != "declined" {
		t.Errorf("declined without a body: reason %v, want declined", v.Reason)
	}
}
