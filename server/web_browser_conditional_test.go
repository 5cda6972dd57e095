package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestBrowserConditionalAndVacation: a player builds a conditional answer
// by playing the line on the editor's board and saves it; the opponent's
// move (through the API) brings the answer at once, seen on the page
// without a reload. Then the opponent goes on vacation and the page says
// until when, the clocks paused.
func TestBrowserConditionalAndVacation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	// The accounts are made 40 days ago: a month's vacation earned.
	h.clock.Add(time.Now().Add(-40 * day).Sub(h.clock.Now()).Truncate(time.Millisecond))
	b := newBrowser(t, h)
	ada, bo := h.client().signUp("ada"), h.client().signUp("bo")
	h.clock.Add(40 * day)
	ada.signInAgain("ada")
	bo.signInAgain("bo")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("bo joins: %d", code)
	}
	if code, _, e := ada.move(g.ID, "2", 0); code != http.StatusOK {
		t.Fatalf("ada plays 2: %d %+v", code, e)
	}
	tb := b.user("ada")
	tb.signInAs(ada)
	tb.open("/g/" + g.ID)
	tb.waitStatus("White to move: bo")
	tb.wait("the editor", `!document.querySelector('#cond').hidden && document.querySelector('#cond-board svg') !== null`)
	cpoint := func(name string) string { return fmt.Sprintf(`#cond-board g[data-name="%s"] .hit`, name) }
	tb.click(cpoint("4"))
	tb.wait("the line 4", `document.querySelector('#cond-line').textContent.includes('if White 4')`)
	tb.click(cpoint("6"))
	tb.wait("the line 4 6", `document.querySelector('#cond-line').textContent.includes('then Black 6')`)
	// The editor's board shows the position after the line: 2 and 6 Black's, 4 White's.
	if got := tb.eval(`[...document.querySelectorAll('#cond-board g[data-i]')].map((g) => g.classList.contains('sx') ? 'x' : g.classList.contains('so') ? 'o' : '-').join('')`); got != "-x-o-x-" {
		t.Errorf("the editor's board after 4 6: %s, want -x-o-x-", got)
	}
	tb.click("#cond-add")
	tb.wait("the tree", `document.querySelector('#cond-tree').textContent.includes('If White plays 4, play 6')`)
	tb.click("#cond-save")
	tb.wait("saved", `document.querySelector('#cond-say').textContent.startsWith('Saved')`)
	if _, v, _ := ada.conditional("GET", g.ID, nil); v.Tree["4"] == nil || v.Tree["4"].Move != "6" {
		t.Fatalf("the tree as stored: %+v", v)
	}
	if code, _, e := bo.move(g.ID, "4", 1); code != http.StatusOK {
		t.Fatalf("bo plays 4: %d %+v", code, e)
	}
	tb.waitMoves("2", "4", "6")
	tb.waitStatus("White to move: bo")
	tb.wait("the empty tree", `document.querySelector('#cond-tree').textContent.includes('No conditional moves')`)
	// bo goes on vacation: ada's page says until when.
	code, me, e := bo.vacation(true)
	if code != http.StatusOK || me.Until == nil {
		t.Fatalf("bo's vacation: %d %+v %+v", code, me.VacationStatus, e)
	}
	tb.waitStatus("The clock is paused: bo is on vacation until")
	clock := tb.eval(`document.querySelector('.player[data-color="o"] .clock').textContent`)
	if !strings.HasPrefix(clock, "on vacation until") {
		t.Errorf("bo's clock on ada's page: %q", clock)
	}
	// ada goes on vacation from the home page: the 7 days every account
	// starts with, and 40 days earned one month's 2.5; the page says the
	// rule.
	tb.open("/")
	tb.wait("the vacation form", `!document.querySelector('#vacation').hidden`)
	if got := tb.eval(`document.querySelector('#vacation .days').textContent`); got != "9.5 days of vacation left." {
		t.Errorf("ada's vacation before: %q, want 9.5 days left", got)
	}
	if got := tb.eval(`document.querySelector('#vacation .rule').textContent`); !strings.HasPrefix(got, "Every account starts with 7 days of vacation and earns 2.5 more at the end of each month") {
		t.Errorf("the vacation's rule on the page: %q", got)
	}
	tb.click("#vacation button")
	tb.wait("on vacation", `document.querySelector('#vacation .days').textContent.startsWith('On vacation until')`)
	if me := ada.meVacation(); !me.Vacation {
		t.Errorf("ada's /api/me after the button: %+v", me.VacationStatus)
	}
	if v := bo.game(g.ID); !v.Clock.Paused || v.Clock.Vacation.X == nil || v.Clock.Vacation.O == nil {
		t.Errorf("the game with both away: %+v", v.Clock)
	}
}
