package server

import (
	"net/http"
	"strings"
	"testing"

	"alak/wire"
)

// TestBrowserBots: the pages mark bot accounts: a game's cards
// (a house bot, as served and as game.js redraws them), the leaderboard,
// the profile and the lobby, where a bot's open challenge says so; the
// home page's form lets a person's open challenge welcome bots, and a bot
// account can then take it.
func TestBrowserBots(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{HouseBots: true})
	b := newBrowser(t, h)
	ada := h.client().signUp("ada")
	walker := h.client().signUpBot("walker")
	tb := b.user("ada")
	tb.signInAs(ada)

	// A game against a house bot, lost by ada's resignation: rated.
	g := ada.create(map[string]string{"rules": "alak", "color": "x", "opponent": "alak-novice", "clock": "none"})
	tb.open("/g/" + g.ID)
	tb.wait("the house bot's card", `(() => { const n = document.querySelector('.player[data-color=o] .name'); return n.textContent === 'alak-novicebot' && n.querySelector('a') && n.querySelector('.bot-tag') })()`)
	if got := tb.eval(`document.querySelector('.player[data-color=x] .name').textContent`); got != "ada" {
		t.Errorf("ada's card: %q, want ada without a bot mark", got)
	}
	if code := ada.do("POST", "/api/games/"+g.ID+"/resign", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	// The page as served (before game.js) marks the bot too.
	_, page := h.client().roundTrip("GET", "/g/"+g.ID, nil, nil)
	if !strings.Contains(string(page), `alak-novice</a><small class="bot-tag"`) {
		t.Errorf("the served game page does not mark the house bot")
	}

	tb.open("/leaderboard?pool=alak")
	tb.wait("the leaderboard", `document.querySelectorAll('#board-rows tr').length === 2`)
	if got := tb.eval(`[...document.querySelectorAll('#board-rows tr')].map((r) => r.children[1].textContent).sort().join(',')`); got != "ada,alak-novicebot" {
		t.Errorf("the leaderboard's names: %q, want ada and alak-novice marked bot", got)
	}
	tb.open("/p/alak-novice")
	tb.wait("the profile's stats", `document.querySelector('#player-stats').textContent.startsWith('A bot, playing through the API.')`)

	// A bot's open challenge in the lobby says who makes it.
	var open wire.Created
	if code := walker.do("POST", "/api/games", map[string]any{"rules": "alak", "color": "x", "opponent": "open", "clock": "days:3"}, &open); code != http.StatusCreated {
		t.Fatalf("the bot's open challenge: %d", code)
	}
	tb.open("/")
	tb.wait("the lobby", `document.querySelector('#lobby').textContent.includes('walker (bot) plays Black')`)
	// The form offers the house bots by name.
	if got := tb.eval(`[...document.querySelectorAll('#house-bots option')].map((o) => o.value).join(' ')`); got != strings.Join(h.srv.bots.HouseBotNames(), " ") || !strings.HasPrefix(got, "alak-beginner ") || !strings.HasSuffix(got, " alak-perfect") {
		t.Errorf("the form's house bots: %q", got)
	}
	if got := tb.eval(`document.querySelector('#house-bots-note').textContent`); got != "The house bots take every challenge at once, rated: alak-beginner (the weakest) to alak-perfect." {
		t.Errorf("the form's note on the house bots: %q", got)
	}

	// Ada's open challenge from the form, bots welcome: the bot takes it.
	tb.createGame("alak", "9", "x", "open")
	tb.wait("the bots' choice", `!document.querySelector('#new-game input[name=allow_bots]').closest('.sub').hidden`)
	tb.click(`#new-game input[name=allow_bots]`)
	tb.clickTo(`#new-game button[type=submit]`, "/g/")
	id := strings.TrimPrefix(tb.eval(`location.pathname`), "/g/")
	if v := ada.game(id); !v.AllowBots || v.Kind != "open" {
		t.Fatalf("the form's open challenge: kind %s, allow_bots %v", v.Kind, v.AllowBots)
	}
	if code, e, _ := walker.call("POST", "/api/games/"+id+"/join", ""); code != http.StatusOK {
		t.Fatalf("the bot taking the challenge that welcomes bots: %d %s", code, e)
	}
	tb.wait("the bot's card after it joined", `document.querySelector('.player[data-color=o] .name').textContent === 'walkerbot'`)

	// A challenge the bot declines with a reason: ada's page says it (and
	// a decline without one is told as a decline, not as an expiry).
	named := ada.create(map[string]string{"rules": "golf", "opponent": "walker", "clock": "none"})
	tb.open("/g/" + named.ID)
	walker.call("POST", "/api/games/"+named.ID+"/decline", `{"reason":"this engine plays only alak"}`)
	tb.waitStatus("The challenge was declined or withdrawn: this engine plays only alak.")
	plain := ada.create(map[string]string{"rules": "golf", "opponent": "walker", "clock": "none"})
	walker.call("POST", "/api/games/"+plain.ID+"/decline", "")
	tb.open("/g/" + plain.ID)
	tb.waitStatus("The challenge was declined or withdrawn.")
}
