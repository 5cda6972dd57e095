package server

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestBrowserReplayBeforePositions: a finished game's page shows the
// replay's buttons at once, and loads the positions they step through
// afterwards; a click before they have come (here they never come: the
// server in front refuses /positions) does nothing. It threw "Cannot read
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
	// The positions are refused by a front (a 503, as from a server
	// that cannot answer now).
	front := h.front(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/positions") {
				http.Error(w, "refused by the test", http.StatusServiceUnavailable)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	tb := b.user("ada")
	tb.openAt(front, "/g/"+g.ID)
	tb.wait("the replay's buttons", `!document.querySelector('#replay').hidden`)
	tb.wait("the positions' failure", `document.querySelector('#notice').textContent !== ''`)
	for _, step := range []string{"first", "prev", "next", "last"} {
		tb.click(`#replay button[data-step=` + step + `]`)
	}
	if v := tb.eval(`document.querySelector('#replay-at').textContent`); v != "" {
		t.Errorf("the replay says %q with no positions loaded", v)
	}
}
