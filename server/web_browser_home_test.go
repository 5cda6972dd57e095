package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto"
	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The first page, the phone and the notifications, in
// headless Chromium over the harness of web_browser_test.go.

// TestBrowserQuickStarts: "Play the computer" starts, in one click, a game
// on 11 points against the computer at the level the button names, the
// guest Black and to move; "Invite a friend" makes a link game whose
// invitation, opened in another browser, says who invites whom to which
// colour, and the inviter's page, left on the invitation, goes to the
// game when the friend joins.
func TestBrowserQuickStarts(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	ada, bob := b.user("ada"), b.user("bob")

	ada.open("/")
	if got := ada.eval(`document.querySelector('.intro .lead').textContent`); !strings.Contains(got, "One-dimensional Go") || !strings.Contains(got, "The Planiverse") || !strings.Contains(got, "1984") {
		t.Errorf("the home page's line says %q", got)
	}
	if lv := ada.eval(`document.querySelector('#new-game select[name=level] option:checked').textContent + ' | ' + document.querySelector('#level-note').textContent`); lv != "Casual | alpha-beta search, 2 moves deep" {
		t.Errorf("the form's level and its note: %q", lv)
	}
	if names := ada.eval(`[...document.querySelectorAll('#new-game select[name=level] option')].map((o) => o.textContent).join(' ')`); !strings.HasPrefix(names, "Beginner ") || !strings.HasSuffix(names, " Perfect") {
		t.Errorf("the levels are %q, want Beginner ... Perfect", names)
	}
	ada.clickTo(`#quick-computer`, "/g/")
	ada.waitStatus("Your move")
	if n := ada.count("#board .pt"); n != 11 {
		t.Errorf("the one-click game has %d points, want 11", n)
	}
	if got := ada.eval(`document.querySelector('.player[data-color="o"] .name').textContent + ' | ' + document.querySelector('#rules-name').textContent`); got != "computer (Casual) | alak" {
		t.Errorf("the one-click game: White %q, want the computer at level 3 (Casual: player.LevelName(3)) under alak", got)
	}
	ada.play("6")
	ada.wait("the computer's reply", `moveTexts().length === 2`)

	ada.open("/")
	ada.click(`#quick-friend`)
	ada.wait("the invitation", `!document.querySelector('#created').hidden && document.querySelector('#invite-link').value.includes('?invite=')`)
	invite := ada.eval(`document.querySelector('#invite-link').value`)
	id := invite[strings.Index(invite, "/g/")+3 : strings.Index(invite, "?")]
	g := h.client().game(id)
	creator, free := g.Players["x"].Name, "White"
	if creator == "" {
		creator, free = g.Players["o"].Name, "Black"
	}
	if me := ada.eval(`document.body.dataset.me`); creator != me || g.Kind != "link" || g.Rules != "alak" {
		t.Fatalf("the friend's game: %s by %q (the page's guest is %q) under %q", g.Kind, creator, me, g.Rules)
	}
	bob.do("opening the invitation", chromedp.Navigate(invite))
	bob.ready()
	bob.waitStatus(creator + " invites you to play " + free + ".")
	if bob.eval(`document.querySelector('.alerts').hidden`) != "true" {
		t.Errorf("the sound and notification switches are shown to someone not playing")
	}
	bob.click(`#join-button`)
	bob.waitStatus("You are " + free)
	bob.wait("the switches", `!document.querySelector('.alerts').hidden`)
	ada.waitPath("/g/" + id)
	ada.waitStatus("You are " + map[string]string{"White": "Black", "Black": "White"}[free])
}

// TestBrowserInviteFollows: the page that shows "Your invitation" goes to
// the game when the friend joins: a visitor's first game (the page had
// no account when it loaded: the game made the visitor a guest), live,
// and an account's game by correspondence, which other pages do not
// follow (such a game waits days for a move) but the invitation's does.
func TestBrowserInviteFollows(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	invited := func(tb *tab, clock string) string {
		tb.t.Helper()
		tb.createGame("alak", "7", "x", "link")
		tb.click(`#new-game input[name=clock][value=` + clock + `]`)
		tb.click(`#new-game button[type=submit]`)
		tb.wait("the invitation", `!document.querySelector('#created').hidden && document.querySelector('#invite-link').value.includes('?invite=')`)
		invite := tb.eval(`document.querySelector('#invite-link').value`)
		id, secret, _ := strings.Cut(invite[strings.Index(invite, "/g/")+3:], "?invite=")
		if code := h.client().signUp("friend-"+clock).do("POST", "/api/games/"+id+"/join", map[string]string{"invite": secret}, nil); code != http.StatusOK {
			t.Fatalf("the friend joins: %d", code)
		}
		return id
	}

	visitor := b.user("a visitor")
	id := invited(visitor, "live")
	visitor.waitPath("/g/" + id)
	visitor.waitStatus("Your move")

	cora := b.user("cora")
	cora.signInAs(h.client().signUp("cora"))
	id = invited(cora, "days")
	cora.waitPath("/g/" + id)
	cora.waitStatus("Your move")
}

// TestBrowserBadgeAndSound: the header's badge counts ada's games where it
// is her move and the challenges to her, and follows a move of her
// opponent on the game page she has open; the sound switch, once on, is
// remembered and sounds at the opponent's move; a challenge she made says
// whom it waits for, on its page and in her list.
func TestBrowserBadgeAndSound(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	ada, bob, cy := h.client().signUp("ada"), h.client().signUp("bob"), h.client().signUp("cy")
	ada.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "computer:level:1"}) // her move
	cy.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "ada"})               // a challenge to her
	vsBob := ada.create(map[string]string{"rules": "alak size=7", "color": "o", "opponent": "bob"})     // bob's move
	if code := bob.do("POST", "/api/games/"+vsBob.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("bob accepts: %d", code)
	}
	toCy := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "cy"})

	tb := b.user("ada")
	tb.signInAs(ada)
	tb.open("/")
	tb.wait("the badge", `(document.querySelector('#turns-badge') || {}).textContent === '2'`)
	if l := tb.eval(`document.querySelector('#turns-badge').getAttribute('aria-label')`); l != "1 game where it is your move, 1 challenge to you" {
		t.Errorf("the badge says %q", l)
	}
	tb.wait("the challenge to cy in the list", fmt.Sprintf(`[...document.querySelectorAll('#my-list li')].some((li) => li.querySelector('a[href="/g/%s"]') && li.textContent.includes('waiting for cy'))`, toCy.ID))

	tb.open("/g/" + toCy.ID)
	tb.waitStatus("Waiting for cy to accept")

	tb.open("/g/" + vsBob.ID)
	tb.waitStatus("Black to move: bob")
	if tb.eval(`document.querySelector('#sound-on').checked`) != "false" {
		t.Errorf("the sound is on before the player turned it on")
	}
	tb.click(`#sound-on`)
	tb.wait("the sound switch's note", `document.querySelector('.alerts').dataset.sounds === '1'`)
	tb.do("reloading", chromedp.Reload())
	tb.ready()
	if tb.eval(`document.querySelector('#sound-on').checked`) != "true" {
		t.Errorf("the sound switch is not remembered after a reload")
	}
	if code, _, e := bob.move(vsBob.ID, "4", 0); code != http.StatusOK {
		t.Fatalf("bob's move: %d %+v", code, e)
	}
	tb.waitStatus("Your move")
	tb.wait("the sound of bob's move", `document.querySelector('.alerts').dataset.sounds === '1'`)
	tb.wait("the badge after bob's move", `document.querySelector('#turns-badge').textContent === '3'`)
	// Her own move sounds nothing and takes the game off the badge.
	tb.play("2")
	tb.waitMoves("4", "2")
	tb.wait("the badge after her move", `document.querySelector('#turns-badge').textContent === '2'`)
	if s := tb.eval(`document.querySelector('.alerts').dataset.sounds`); s != "1" {
		t.Errorf("after her own move the page sounded %s times, want 1 (bob's move)", s)
	}
}

// TestBrowserPhone: on a 390×844 phone the home page's start button is
// above the fold and every visible control on the home page and on a
// game's page is at least 44 px tall; the points of an 11-point line are
// at least 24 px (WCAG 2.5.8) and the page does not scroll sideways.
func TestBrowserPhone(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	tb := b.user("phone")
	tb.do("a phone's screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateTouch, chromedp.EmulateMobile))
	// The controls: buttons, fields, lists, summaries, links styled as
	// buttons, the header's links and the links of the game lists, and the labels of radio buttons and
	// checkboxes (the target a finger touches). Inline links in sentences
	// are not controls (WCAG 2.5.8's exception).
	const small = `[...document.querySelectorAll('button, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, summary, a.button, header a, .games-list li > a, label:has(input[type=radio], input[type=checkbox])')]
		.filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
		.map((e) => [e.id || e.name || e.textContent.trim().slice(0, 30), e.getBoundingClientRect().height])
		.filter(([, h]) => h < 44).map(([n, h]) => n + ': ' + h.toFixed(1)).join('; ')`
	tb.open("/")
	if s := tb.eval(small); s != "" {
		t.Errorf("home page: controls under 44 px: %s", s)
	}
	if n := tb.eval(`document.querySelectorAll('button, select, input').length`); n == "0" {
		t.Fatalf("home page: no control measured")
	}
	if bottom, _ := strconv.ParseFloat(tb.eval(`document.querySelector('#quick-computer').getBoundingClientRect().bottom`), 64); bottom <= 0 || bottom > 844 {
		t.Errorf("the start button's bottom is at %.0f px, below the fold (844)", bottom)
	}
	tb.clickTo(`#quick-computer`, "/g/")
	tb.waitStatus("Your move")
	if s := tb.eval(small); s != "" {
		t.Errorf("game page: controls under 44 px: %s", s)
	}
	pts := tb.eval(`[...document.querySelectorAll('#board .hit')].map((r) => { const b = r.getBoundingClientRect(); return Math.min(b.width, b.height) }).reduce((a, b) => Math.min(a, b), 1e9)`)
	if p, _ := strconv.ParseFloat(pts, 64); p < 24 {
		t.Errorf("the board's smallest point is %s px, want at least 24", pts)
	}
	if w := tb.eval(`document.documentElement.scrollWidth`); w != "390" {
		t.Errorf("the game page is %s px wide on a 390 px screen", w)
	}
	t.Logf("the smallest point of the 11-point line: %s px", pts)

	// The home page again, with the game under "My games".
	tb.open("/")
	tb.wait("my game in the list", `document.querySelectorAll('#my-list li > a').length === 1`)
	if s := tb.eval(small); s != "" {
		t.Errorf("home page with a game: controls under 44 px: %s", s)
	}

	// A 19-point line and a 19×19 grid do not fit 24-px points in 390 px:
	// their boards scroll sideways inside their box, the page does not.
	guest := h.client()
	for _, rs := range []string{"alak size=19", "alterigo size=19x19"} {
		g := guest.create(map[string]string{"rules": rs, "color": "x", "opponent": "computer:level:1"})
		tb.signInAs(guest)
		tb.open("/g/" + g.ID)
		tb.waitStatus("Your move")
		pts := tb.eval(`[...document.querySelectorAll('#board .hit')].map((r) => { const b = r.getBoundingClientRect(); return Math.min(b.width, b.height) }).reduce((a, b) => Math.min(a, b), 1e9)`)
		if p, _ := strconv.ParseFloat(pts, 64); p < 24 {
			t.Errorf("%s: the board's smallest point is %s px, want at least 24", rs, pts)
		}
		if w := tb.eval(`document.documentElement.scrollWidth`); w != "390" {
			t.Errorf("%s: the game page is %s px wide on a 390 px screen", rs, w)
		}
	}
}

// TestBrowserPassed: a pass is said on the opponent's page ("White
// passed"), under rules with passing.
func TestBrowserPassed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	x, o := h.client(), h.client()
	g := x.create(map[string]string{"rules": "traditional size=7", "color": "x", "opponent": "link"})
	if code := o.do("POST", "/api/games/"+g.ID+"/join", map[string]string{"invite": g.Invite[strings.Index(g.Invite, "=")+1:]}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	ada, bob := b.user("ada"), b.user("bob")
	ada.signInAs(x)
	bob.signInAs(o)
	ada.open("/g/" + g.ID)
	bob.open("/g/" + g.ID)
	ada.play("3")
	bob.waitStatus("Your move")
	if strings.Contains(bob.eval(`statusText()`), "passed") {
		t.Errorf("after a stone the status says %q", bob.eval(`statusText()`))
	}
	bob.click(`#pass`)
	ada.waitStatus("White passed. Your move.")
}

// TestBrowserAlterIgoConfirm: under Alter Igo a stone in an eye leaves the
// board unchanged and loses at once (docs/rules.md, A16): the page asks to
// confirm it, and plays it on the second click; another point plays at
// once.
func TestBrowserAlterIgoConfirm(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	x, o := h.client(), h.client()
	g := x.create(map[string]string{"rules": "alterigo size=5", "color": "x", "opponent": "link"})
	if code := o.do("POST", "/api/games/"+g.ID+"/join", map[string]string{"invite": g.Invite[strings.Index(g.Invite, "=")+1:]}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	// x at 2 makes point 1 an eye of Black's.
	if code, _, e := x.move(g.ID, "2", 0); code != http.StatusOK {
		t.Fatalf("Black's 2: %d %+v", code, e)
	}
	tb := b.user("bob")
	tb.signInAs(o)
	tb.open("/g/" + g.ID)
	tb.waitStatus("Your move")
	tb.play("1")
	tb.waitStatus("1 would lose at once")
	if n := tb.eval(`moveTexts().length`); n != "1" {
		t.Fatalf("after one click on the eye the page lists %s moves, want 1%s", n, tb.state())
	}
	tb.play("1")
	tb.waitMoves("2", "1")
	tb.waitStatus("Black wins")

	// A point that does not lose plays at the first click. (The page of
	// the game over goes by itself to the new game, which starts while it
	// is open.)
	g = x.create(map[string]string{"rules": "alterigo size=5", "color": "x", "opponent": "link"})
	if code := o.do("POST", "/api/games/"+g.ID+"/join", map[string]string{"invite": g.Invite[strings.Index(g.Invite, "=")+1:]}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	if code, _, e := x.move(g.ID, "2", 0); code != http.StatusOK {
		t.Fatalf("Black's 2: %d %+v", code, e)
	}
	tb.waitPath("/g/" + g.ID)
	tb.waitStatus("Your move")
	tb.play("4")
	tb.waitMoves("2", "4")
}

// TestBrowserNotification: the page asks for the permission to notify
// only when the player turns notifications on, and then, when the
// opponent moves while the tab is hidden, shows a notification saying
// so, and another when a game of the player's starts (the page going to
// it, or staying on the game the player plays). The browser's Notification API is the real one, with the permission
// granted through the DevTools protocol (a headless browser shows no
// prompt); a subclass records the notifications made (in the tab's
// sessionStorage too, which outlives a page) and a wrapper counts
// the permission requests; the tab is made hidden by overriding
// document.visibilityState (a headless browser's one tab is never hidden).
func TestBrowserNotification(t *testing.T) {
	// The permission is granted to this player's browser context only, so
	// the test runs beside the others.
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newFullBrowser(t, h) // the headless shell denies notifications
	ada, bob := h.client().signUp("ada"), h.client().signUp("bob")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "o", "opponent": "bob"})
	if code := bob.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("bob accepts: %d", code)
	}
	tb := b.user("ada")
	tb.signInAs(ada)
	const record = `window.asked = 0; window.shown = [];
		if (window.Notification) {
			const ask = Notification.requestPermission.bind(Notification);
			window.Notification = class extends Notification { constructor(title, o) { super(title, o); shown.push(title + ': ' + o.body);
				sessionStorage.setItem('shown', (sessionStorage.getItem('shown') || '') + title + ': ' + o.body + '\n'); } };
			Notification.requestPermission = () => { asked++; return ask(); };
		}`
	tb.do("recording notifications", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: record})
		return err
	}))
	tb.open("/g/" + g.ID)
	tb.waitStatus("Black to move: bob")
	if tb.eval(`typeof Notification`) != "function" {
		t.Skip("this Chromium has no Notification API")
	}
	if got := tb.eval(`asked + ' ' + document.querySelector('#notify-on').checked`); got != "0 false" {
		t.Errorf("before the player turns notifications on: %q permission requests and the switch checked, want 0 false", got)
	}
	c := chromedp.FromContext(tb.ctx)
	if _, err := cdp.Call(tb.ctx, c.Browser, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingGranted,
		Origin: h.http.URL, BrowserContextID: c.BrowserContextID}); err != nil {
		// The protocol has no stable method for it: a browser whose
		// experimental one is gone (-32601) or takes other parameters
		// (-32602) cannot run this test.
		var pe *cdproto.Error
		if errors.As(err, &pe) && (pe.Code == -32601 || pe.Code == -32602) {
			t.Skipf("this Chromium does not grant the permission through Browser.setPermission (an experimental DevTools method): %v", err)
		}
		t.Fatalf("granting the permission: %v", err)
	}
	// The grant reaches the page's renderer a moment after the call
	// returns; a click before that would ask (headless Chromium then
	// answers "default" and the switch stays off). CI once failed so.
	tb.wait("the permission granted", `Notification.permission === 'granted'`)
	tb.click(`#notify-on`)
	tb.wait("the switch on", `document.querySelector('#notify-on').checked && localStorage.getItem('alak:notify') === 'on' ||
		(window.testNote = ['asked', asked, 'permission',  Notification.permission, 'checked', document.querySelector('#notify-on').checked,
			'why', document.querySelector('#notify-why').textContent].join(' ')) && false`)

	// Visible: no notification; hidden: one.
	if code, _, e := bob.move(g.ID, "4", 0); code != http.StatusOK {
		t.Fatalf("bob's move: %d %+v", code, e)
	}
	tb.waitStatus("Your move")
	tb.play("2")
	tb.waitMoves("4", "2")
	tb.eval(`Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' }); 1`)
	if code, _, e := bob.move(g.ID, "6", 2); code != http.StatusOK {
		t.Fatalf("bob's second move: %d %+v", code, e)
	}
	tb.wait("the notification", `shown.length > 0`)
	if got := tb.eval(`shown.join(' | ')`); got != "Your move · alak: bob played 6." {
		t.Errorf("the notifications shown: %q, want one after bob's 6 (none after his 4, the tab visible)", got)
	}

	// A game of ada's starts while she plays this one: the page stays,
	// offers the new game in the header, and notifies (hidden).
	started := func(clock string) string {
		t.Helper()
		g := bob.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": clock, "opponent": "ada"})
		if code := ada.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
			t.Fatalf("ada accepts: %d", code)
		}
		return g.ID
	}
	g2 := started("live:5m+3s")
	tb.wait("the new game in the header", fmt.Sprintf(`(document.querySelector('#game-started') || {}).pathname === '/g/%s'`, g2))
	tb.wait("the notification", `shown.length === 2`)
	if got := tb.eval(`location.pathname + ' ' + shown[1]`); got != "/g/"+g.ID+" Your game starts · alak: White against bob, alak 7, 5m + 3s." {
		t.Errorf("a game started during another: %q, want the page on its game and the new one notified", got)
	}
	// On another page, hidden, a game that starts is followed and notified.
	for i, m := range []string{"4", "2"} {
		if code, _, e := []*client{bob, ada}[i].move(g2, m, i); code != http.StatusOK {
			t.Fatalf("the first moves of %s: %d %+v", g2, code, e)
		}
	}
	tb.open("/")
	tb.eval(`Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' }); 1`)
	// A game that started before the stream was ready is one of those
	// under way when the page opened, which it does not follow (unless
	// live and due): the game starts once the page is listening.
	tb.wait("the account's stream ready", `document.documentElement.dataset.follow === 'ready'`)
	g3 := started("none")
	tb.waitPath("/g/" + g3)
	if got := tb.eval(`sessionStorage.getItem('shown')`); !strings.HasSuffix(got, "Your game starts · alak: White against bob, alak 7, no clock.\n") {
		t.Errorf("the notifications of the tab: %q, want the last one of the game followed", got)
	}
}
