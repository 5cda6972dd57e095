package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestBrowserReplayBeforePositions: a finished game's page shows the
// replay's buttons at once, and loads the positions they step through
// afterwards; a click before they have come (here they never come: the
// browser blocks /positions) does nothing. It threw "Cannot read
// properties of null (reading 'positions')" before, which the tab's
// console check fails on.
func TestBrowserReplayBeforePositions(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	ada, bo := h.client().signUp("ada"), h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("bo joins: %d", code)
	}
	if code, _, e := ada.move(g.ID, "4", 0); code != http.StatusOK {
		t.Fatalf("ada plays 4: %d %+v", code, e)
	}
	if code := bo.do("POST", "/api/games/"+g.ID+"/resign", map[string]any{"ply": 1}, nil); code != http.StatusOK {
		t.Fatalf("bo resigns: %d", code)
	}
	tb := b.user("ada")
	tb.do("blocking the positions", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{
			{URLPattern: "*://*:*/api/games/*/positions", Block: true}}})
		return err
	}))
	tb.open("/g/" + g.ID)
	tb.wait("the replay's buttons", `!document.querySelector('#replay').hidden`)
	tb.wait("the positions' failure", `document.querySelector('#notice').textContent !== ''`)
	for _, step := range []string{"first", "prev", "next", "last"} {
		tb.click(`#replay button[data-step=` + step + `]`)
	}
	if v := tb.eval(`document.querySelector('#replay-at').textContent`); v != "" {
		t.Errorf("the replay says %q with no positions loaded", v)
	}
}
