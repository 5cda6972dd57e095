package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"alak/server/store"
	"alak/wire"
)

const day = 24 * time.Hour

// signInAgain signs c in as name (its session ran out while the test
// clock moved by months).
func (c *client) signInAgain(name string) {
	c.h.t.Helper()
	if code := c.do("POST", "/api/login", map[string]string{"name": name, "password": "correct horse"}, nil); code != http.StatusOK {
		c.h.t.Fatalf("sign-in of %s: %d", name, code)
	}
}

// me reads /api/me.
func (c *client) meVacation() wire.MeVacation {
	c.h.t.Helper()
	var me wire.MeVacation
	if code := c.do("GET", "/api/me", nil, &me); code != http.StatusOK {
		c.h.t.Fatalf("GET /api/me: %d", code)
	}
	return me
}

// vacation asks for a vacation to start or end.
func (c *client) vacation(on bool) (int, wire.MeVacation, errBody) {
	c.h.t.Helper()
	var me wire.MeVacation
	var e errBody
	code := c.do("PUT", "/api/me", map[string]bool{"vacation": on}, &me)
	if code != http.StatusOK {
		c.do("GET", "/api/me", nil, &me)
		e = errBody{}
		c.do("PUT", "/api/me", map[string]bool{"vacation": on}, &e)
	}
	return code, me, e
}

// TestVacation: a new account has 7 days of vacation from the first day
// (it had none, the button disabled without a word); a correspondence
// game's clock stops while a player is on vacation (whoever is to move)
// and resumes with the time it had left; a live game's does not; the
// days are counted and run out, and the months' days come on top.
func TestVacation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	made := h.clock.Now()
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	cy := h.client().signUp("cy")
	// A new account has its 7 days, and is told when the first month's
	// come.
	if me := bo.meVacation(); me.Vacation || me.DaysLeft != 7 || me.Next == nil || !me.Next.Equal(made.AddDate(0, 1, 0)) {
		t.Errorf("/api/me on the first day: %+v, want 7 days left, the next credit a month on", me.VacationStatus)
	}
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:2", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	id := g.ID
	ada.move(id, "2", 0)
	h.clock.Add(10 * time.Hour)
	code, me, e := bo.vacation(true)
	if code != http.StatusOK || !me.Vacation || me.DaysLeft != 7 || me.Until == nil || !me.Until.Equal(h.clock.Now().Add(7*day)) {
		t.Fatalf("bo's vacation on the first day: %d %+v %+v; want on, 7 days left, until 7 days on", code, me.VacationStatus, e)
	}
	v := ada.game(id)
	if !v.Clock.Paused || v.Clock.Deadline != 0 || v.Clock.Running != "" || v.Clock.OMillis != (38*time.Hour).Milliseconds() ||
		v.Clock.Vacation.O == nil || !v.Clock.Vacation.O.Equal(*me.Until) || v.Clock.Vacation.X != nil {
		t.Errorf("the paused game as ada sees it: %+v", v.Clock)
	}
	var list struct{ Games []wire.Summary }
	ada.do("GET", "/api/me/games", nil, &list)
	if len(list.Games) != 1 {
		t.Errorf("ada's list: %+v", list)
	}
	for _, s := range list.Games {
		if s.ID == id && s.Deadline != nil {
			t.Errorf("ada's list gives the paused game a deadline: %v", s.Deadline)
		}
	}
	// Three days on, past the 2 days a move, the game goes on.
	h.clock.Add(3 * day)
	h.srv.sweepOnce(false)
	if v := ada.game(id); v.State != store.StateActive || !v.Clock.Paused {
		t.Fatalf("after 3 days on vacation: %s paused %v", v.State, v.Clock.Paused)
	}
	// bo moves while away: still paused, ada's whole 2 days kept.
	if code, v, e := bo.move(id, "4", 1); code != http.StatusOK || !v.Clock.Paused || v.Clock.XMillis != (48*time.Hour).Milliseconds() {
		t.Fatalf("bo's move on vacation: %d %+v %+v", code, e, v.Clock)
	}
	// A live game is never paused.
	live := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "live:5m", "opponent": "bo"})
	bo.do("POST", "/api/games/"+live.ID+"/join", nil, nil)
	ada.move(live.ID, "2", 0)
	if code, v, e := bo.move(live.ID, "4", 1); code != http.StatusOK || v.Clock.Paused || v.Clock.Running != "x" || v.Clock.Deadline == 0 {
		t.Errorf("a live game during the vacation: %d %+v %+v", code, e, v.Clock)
	}
	h.clock.Add(time.Hour)
	code, me, _ = bo.vacation(false)
	// 7 days less 3 days 1 hour: 3 days 23 hours, 3.9 days to the tenth.
	if code != http.StatusOK || me.Vacation || me.DaysLeft != 3.9 || me.Until != nil {
		t.Fatalf("back from vacation: %d %+v", code, me.VacationStatus)
	}
	v = ada.game(id)
	if v.Clock.Paused || v.Clock.Deadline != h.clock.Now().Add(48*time.Hour).UnixMilli() || v.Clock.Running != "x" {
		t.Errorf("resumed: %+v; want ada's 48 hours from now", v.Clock)
	}
	// The rest is used up by the sweep: the game resumes with its time left.
	h.clock.Add(5 * time.Hour)
	if code, _, _ := bo.vacation(true); code != http.StatusOK {
		t.Fatalf("the second vacation: %d", code)
	}
	if v := ada.game(id); !v.Clock.Paused || v.Clock.XMillis != (43*time.Hour).Milliseconds() {
		t.Errorf("paused again: %+v; want ada's 43 hours kept", v.Clock)
	}
	h.clock.Add(95 * time.Hour) // the 3 days 23 hours left
	h.srv.sweepOnce(false)
	if me := bo.meVacation(); me.Vacation || me.DaysLeft != 0 {
		t.Errorf("after the days ran out: %+v", me.VacationStatus)
	}
	if v := ada.game(id); v.Clock.Paused || v.Clock.Deadline != h.clock.Now().Add(43*time.Hour).UnixMilli() {
		t.Errorf("after the days ran out the game: %+v; want 43 hours from now", v.Clock)
	}
	// None left: refused, with the rule and the day the next days come.
	if code, _, e := bo.vacation(true); code != http.StatusConflict || e.Code != "no_vacation_left" ||
		!strings.Contains(e.Error, "2.5 more at the end of each month") || !strings.Contains(e.Error, made.AddDate(0, 1, 0).Format("2 January 2006")) {
		t.Errorf("a third vacation: %d %+v, want 409 no_vacation_left saying the rule and the next credit's day", code, e)
	}
	// Two months on: two months' 2.5 days for bo, and for cy, who never
	// went away, on top of the 7 days.
	h.clock.Add(made.AddDate(0, 2, 0).Sub(h.clock.Now()))
	bo.signInAgain("bo")
	cy.signInAgain("cy")
	if me := bo.meVacation(); me.DaysLeft != 5 {
		t.Errorf("bo after two months: %v days, want 5", me.DaysLeft)
	}
	if me := cy.meVacation(); me.DaysLeft != 12 || me.Next == nil || !me.Next.Equal(made.AddDate(0, 3, 0)) {
		t.Errorf("cy after two months: %v days, next %v; want 12, a month on", me.DaysLeft, me.Next)
	}
}

// TestVacationBothAndNewGames: a game whose both players are away stays
// paused until both are back, and a game that starts during a vacation
// starts paused.
func TestVacationBothAndNewGames(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	h.clock.Add(31 * day)
	ada.signInAgain("ada")
	bo.signInAgain("bo")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	for _, c := range []*client{ada, bo} {
		if code, _, e := c.vacation(true); code != http.StatusOK {
			t.Fatalf("a vacation: %d %+v", code, e)
		}
	}
	v := ada.game(g.ID)
	if !v.Clock.Paused || v.Clock.Vacation.X == nil || v.Clock.Vacation.O == nil {
		t.Errorf("both away: %+v", v.Clock)
	}
	bo.vacation(false)
	if v := ada.game(g.ID); !v.Clock.Paused {
		t.Errorf("bo back, ada away: %+v; want paused", v.Clock)
	}
	n := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "bo"})
	bo.do("POST", "/api/games/"+n.ID+"/join", nil, nil)
	if v := bo.game(n.ID); !v.Clock.Paused || v.Clock.XMillis != (72*time.Hour).Milliseconds() {
		t.Errorf("a game started while ada is away: %+v", v.Clock)
	}
	// A conditional answer played in a paused game leaves it paused, the
	// whole 3 days kept for the player to move.
	if code, _, e := bo.conditional("PUT", g.ID, map[string]any{"ply": 0, "tree": cond{"2": {Move: "4"}}}); code != http.StatusOK {
		t.Fatalf("bo's tree: %d %+v", code, e)
	}
	if code, v, e := ada.move(g.ID, "2", 0); code != http.StatusOK || len(v.Moves) != 2 || !v.Clock.Paused || v.Clock.XMillis != (72*time.Hour).Milliseconds() {
		t.Errorf("ada's move, bo's answer, on vacation: %d %+v %v %+v", code, e, v.Moves, v.Clock)
	}
	ada.vacation(false)
	for _, id := range []string{g.ID, n.ID} {
		if v := bo.game(id); v.Clock.Paused || v.Clock.Deadline != h.clock.Now().Add(72*time.Hour).UnixMilli() {
			t.Errorf("both back, game %s: %+v", id, v.Clock)
		}
	}
}
