package server

import (
	"net/http"
	"testing"
)

// TestBrowserSafeEye: a game under the safe-eye rule (alak size=5
// safe=eye) played through the page: after 1 5 3 4 Black's eye on 2 is
// offered for a declaration; the "Declare a safe point" button makes the
// next click declare it, the server plays *2 through the kernel, and both
// pages show the safe point and the end (White has no legal move, 2-2).
func TestBrowserSafeEye(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	b := newBrowser(t, h)
	ada, bo := h.client().signUp("ada"), h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=5 safe=eye", "color": "x", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("bo joins: %d", code)
	}
	for i, m := range []string{"1", "5", "3", "4"} {
		c := ada
		if i%2 == 1 {
			c = bo
		}
		if code, _, e := c.move(g.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %d %s: %d %+v", i+1, m, code, e)
		}
	}
	tb := b.user("ada")
	tb.signInAs(ada)
	tb.open("/g/" + g.ID)
	tb.waitStatus("Your move")
	tb.wait("the declare button", `!document.querySelector('#declare').hidden`)
	// Before the button: the click on 2 would place a stone (2 is a target).
	if tb.count(point("2")+".target") != 1 {
		t.Fatalf("point 2 is not offered%s", tb.state())
	}
	tb.click(`#declare`)
	tb.wait("declaring", `document.querySelector('#declare').getAttribute('aria-pressed') === 'true'`)
	if n := tb.count("#board .pt.target"); n != 1 || tb.count(point("2")+".target") != 1 {
		t.Fatalf("declaring: %d targets, want only Black's eye 2%s", n, tb.state())
	}
	tb.play("2")
	tb.waitMoves("1", "5", "3", "4", "*2")
	tb.waitStatus("White had no legal move")
	if tb.count(point("2")+".safe") != 1 || tb.count("#board .pt.sx") != 2 {
		t.Errorf("the board does not show the safe point 2 and Black's 2 stones%s", tb.state())
	}
	if got := ada.game(g.ID); got.Board != "x*xoo" {
		t.Errorf("the server's board %q, want x*xoo", got.Board)
	}
}
