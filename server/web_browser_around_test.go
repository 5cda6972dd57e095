package server

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestBrowserRematchAndMessages: two players, each in a browser context of
// their own. A message one sends shows on the other's page as text (markup
// in it is not made into elements); once the game is over, one clicks
// Rematch on the end screen, the other's page says so and accepts, and both
// pages move to the new game, colours swapped. A third person finds the
// game on the watch page.
func TestBrowserRematchAndMessages(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	b := newBrowser(t, h)
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("bo joins: %d", code)
	}
	pa, pb := b.user("ada"), b.user("bo")
	pa.signInAs(ada)
	pb.signInAs(bo)
	pa.open("/g/" + g.ID)
	pb.open("/g/" + g.ID)
	pa.wait("the messages box", `!document.querySelector('#chat').hidden`)

	// A message, with markup that must stay text.
	const text = `good luck <i id="x">bo</i>`
	pa.eval(`document.querySelector('#chat-text').value = ` + jsString(text))
	pa.click(`#chat-form button[type=submit]`)
	pb.wait("ada's message", `[...document.querySelectorAll('#chat-list li .text')].some((e) => e.textContent === `+jsString(text)+`)`)
	if n := pb.count(`#chat-list i`); n != 0 {
		t.Errorf("the message's markup made %d elements on bo's page", n)
	}
	pa.wait("her own message", `document.querySelector('#chat-list').textContent.includes('good luck')`)

	// The games to watch list the game, with its players and spectators.
	watcher := b.user("carl")
	watcher.open("/watch")
	watcher.wait("the game on the watch list", `(() => { const tr = document.querySelector('#watch-rows tr[data-game="`+g.ID+`"]'); return tr && tr.textContent.includes('ada') && tr.textContent.includes('bo') && tr.textContent.includes('1500?') && tr.querySelector('.spectators').textContent === '0'; })()`)

	// The end screen: Rematch, New game and Download SGF.
	pa.play("1")
	pb.waitMoves("1")
	if code := bo.do("POST", "/api/games/"+g.ID+"/resign", nil, nil); code != http.StatusOK {
		t.Fatalf("bo resigns: %d", code)
	}
	for _, p := range []*tab{pa, pb} {
		p.wait("the end screen", `!document.querySelector('#end-actions').hidden && !document.querySelector('#rematch').hidden && !document.querySelector('#new-game').hidden && !document.querySelector('#sgf').hidden`)
	}
	pa.click(`#rematch`)
	pa.wait("the offer said", `document.querySelector('#rematch-note').textContent.includes('waiting for bo')`)
	pb.wait("the offer", `document.querySelector('#rematch').textContent === 'Accept the rematch' && document.querySelector('#rematch-note').textContent.includes('offered by ada')`)
	pb.clickTo(`#rematch`, "/g/")
	next := pb.eval(`location.pathname`)
	if next == "/g/"+g.ID {
		t.Fatalf("bo stayed on the old game")
	}
	// ada's page follows the old game's stream to the new game.
	deadline := time.Now().Add(waitFor)
	for pa.eval(`location.pathname`) != next {
		if time.Now().After(deadline) {
			t.Fatalf("ada's page did not follow to %s%s", next, pa.state())
		}
		time.Sleep(50 * time.Millisecond)
	}
	pa.ready()
	pa.wait("ada plays White", `document.querySelector('.player[data-color="o"] .role').textContent.includes('you')`)
	pb.wait("bo plays Black, to move", `document.querySelector('.player[data-color="x"] .role').textContent.includes('you') && statusText().startsWith('Your move')`)
	v := ada.game(strings.TrimPrefix(next, "/g/"))
	if v.State != "active" || v.Players["x"].Name != "bo" || v.Players["o"].Name != "ada" {
		t.Errorf("the rematch: %s %+v", v.State, v.Players)
	}
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`)
	return "'" + r.Replace(s) + "'"
}
