package server

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/rules"
	"alak/server/store/sqlitestore"
	"alak/solve"
	"alak/wire"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The page's tests drive the real server (the harness of e2e_test.go: a
// real SQLite file, loopback HTTP) from a headless Chromium, one browser
// context (its own cookies) per player, and check what the page shows.
// They skip when no Chromium is installed; CI installs Debian's
// chromium-headless-shell and chromium (findChromium).
//
//	go test ./server -run Browser                          # the tests
//	go test ./server -run BrowserScreenshots -update-screenshots   # docs/img/game-*.png
//
// They must pass with whatever Chromium Debian ships, which changes with
// every security update, so they send the DevTools protocol's stable
// methods only: an experimental one may change its parameters from one
// release to the next (Network.emulateNetworkConditionsByRule refused
// the tests' parameters on Chromium 148). What they did with experimental
// methods they do on their own side: a slow network or a refused URL is
// a handler in front of the server (front), a click a mouse press at the
// centre the page gives (click). The one experimental method left is
// Browser.setPermission, which the notification test needs and skips
// without. chromedp itself sends two more as it attaches a tab (CSS.enable
// and Inspector.enable, without parameters) and creates each player's
// browser context and tab with the protocol's Target methods.

var updateScreenshots = flag.Bool("update-screenshots", false, "write docs/img/game-line.png, game-grid.png, game-slide.png and game-phone.png from TestBrowserScreenshots")

// waitFor bounds every wait of the browser tests.
const waitFor = 20 * time.Second

// findChromium returns the browser the tests drive: $ALAK_CHROMIUM, or
// the first of the usual names on PATH, Chromium's headless shell first;
// "" when there is none. The shell (Debian's chromium-headless-shell, the
// "old" headless mode) is the same engine without the browser's own
// windows and pages: the package's browser tests took 193 s of wall time
// and some 260 s of Chromium's CPU in the full browser, which starts a
// window and its interface's renderers for every player, against 56 s and
// 60 s in the shell (load average 8 to 11 on the project's 2-core machine).
func findChromium() string {
	if p := os.Getenv("ALAK_CHROMIUM"); p != "" {
		return p
	}
	return onPath("chromium-headless-shell", "headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
}

// findFullChromium returns the full browser, for what the headless shell
// lacks (it denies notifications): $ALAK_CHROMIUM_FULL, or the first of
// the usual names on PATH; "" when there is none.
func findFullChromium() string {
	if p := os.Getenv("ALAK_CHROMIUM_FULL"); p != "" {
		return p
	}
	return onPath("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
}

// onPath returns the path of the first of names found on PATH, or "".
func onPath(names ...string) string {
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is one headless Chromium over a harness.
type browser struct {
	t   *testing.T
	h   *harness
	ctx context.Context
}

// newBrowser returns the test's browser, or skips the test when there is
// no Chromium. The test process starts one headless Chromium, at the first
// browser test, and stops it after the tests (afterTests): each test's players are browser
// contexts of their own in it (user), closed when the test ends, so that
// no cookie or page outlives its test.
func newBrowser(t *testing.T, h *harness) *browser {
	t.Helper()
	path := findChromium()
	if path == "" {
		t.Skip("no Chromium found (install Debian's chromium-headless-shell or chromium, or set ALAK_CHROMIUM to a Chrome or Chromium): the page's browser tests are skipped")
	}
	return startedBrowser(t, h, &chromium, path)
}

// newFullBrowser is newBrowser in the full Chromium (a second process,
// started at the first test that needs it), for what the headless shell
// does not do.
func newFullBrowser(t *testing.T, h *harness) *browser {
	t.Helper()
	path := findFullChromium()
	if path == "" {
		t.Skip("no full Chromium found (install Debian's chromium, or set ALAK_CHROMIUM_FULL): this browser test is skipped")
	}
	if path == findChromium() {
		return startedBrowser(t, h, &chromium, path)
	}
	return startedBrowser(t, h, &fullChromium, path)
}

// startedBrowser starts c at path if it has not started and returns a
// browser over it.
func startedBrowser(t *testing.T, h *harness, c *chromiumProc, path string) *browser {
	t.Helper()
	c.once.Do(func() { c.start(path) })
	if c.err != nil {
		t.Fatalf("starting %s: %v", path, c.err)
	}
	if err := c.ctx.Err(); err != nil {
		t.Fatalf("the tests' Chromium has stopped: %v", err)
	}
	return &browser{t: t, h: h, ctx: c.ctx}
}

// chromiumProc is a headless Chromium started by newBrowser.
type chromiumProc struct {
	once sync.Once
	ctx  context.Context // the browser's
	stop func()
	dir  string // its profile, removed by stop
	err  error
}

// chromium is the test process's Chromium, fullChromium the full browser
// when the first is the headless shell.
var chromium, fullChromium chromiumProc

// start starts the Chromium at path, within waitFor.
func (c *chromiumProc) start(path string) {
	if c.dir, c.err = os.MkdirTemp("", "alak-chromium-"); c.err != nil {
		return
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(c.dir),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.WindowSize(1100, 760),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	c.stop = sync.OnceFunc(func() {
		cancel()
		cancelAlloc()
		os.RemoveAll(c.dir)
	})
	afterTests(c.stop)
	if c.err = startWithin(ctx, cancel); c.err != nil {
		c.stop()
		return
	}
	c.ctx = ctx
}

// startWithin starts the browser or the tab of a chromedp context. The
// first action on a context must run on the context itself (a tab started
// under a shorter context would close with it), so the bound is a timer
// that cancels it.
func startWithin(ctx context.Context, cancel context.CancelFunc) error {
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			cancel()
		}
		return err
	case <-time.After(waitFor):
		cancel()
		return fmt.Errorf("not started within %s", waitFor)
	}
}

// tab is one person at the browser: a browser context of their own (their
// own cookies) with one tab. It records what the page writes to the
// console; an uncaught exception or a refused script or style fails the
// test.
type tab struct {
	t    *testing.T
	b    *browser
	who  string
	ctx  context.Context
	mu   sync.Mutex
	logs []string
}

func (b *browser) user(who string) *tab {
	b.t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	tb := &tab{t: b.t, b: b, who: who, ctx: ctx}
	if err := startWithin(ctx, cancel); err != nil {
		b.t.Fatalf("%s: opening a tab: %v", who, err)
	}
	tb.do("sizing the window", chromedp.EmulateViewport(1100, 760))
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			tb.mu.Lock()
			tb.logs = append(tb.logs, m.String())
			tb.mu.Unlock()
		}
	}()
	b.t.Cleanup(func() {
		cancel()
		tb.mu.Lock()
		defer tb.mu.Unlock()
		for _, l := range tb.logs {
			if strings.HasPrefix(l, "exception") || strings.Contains(l, "Content Security Policy") {
				b.t.Errorf("%s: the page wrote %q", who, l)
			}
		}
	})
	return tb
}

// do runs browser actions within the time bound.
func (tb *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.t.Fatalf("%s: %s: %v%s", tb.who, what, err, tb.state())
	}
}

// eval evaluates a JavaScript expression and returns its value as text.
func (tb *tab) eval(js string) string {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[any](js))
	if err != nil {
		tb.t.Fatalf("%s: evaluating %s: %v", tb.who, js, err)
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// state describes the page for a failure message: where it is, its status
// line and notice, the moves it lists, and what has the focus (where the
// last click landed, when it landed on something that takes the focus).
func (tb *tab) state() string {
	ctx, cancel := context.WithTimeout(tb.ctx, 3*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + " | status: " + ((document.querySelector('#status') || {}).textContent || '') +
		" | notice: " + ((document.querySelector('#notice') || {}).textContent || '') + " | moves: " + (window.moveTexts ? moveTexts().join(' ') : '') + (window.testNote ? " | note: " + window.testNote : '') +
		" | focus: " + (document.activeElement ? document.activeElement.tagName.toLowerCase() + (document.activeElement.id ? '#' + document.activeElement.id : '') : '')`))
	if err != nil {
		v = "(" + err.Error() + ")"
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return "\npage: " + v + "\nconsole: " + strings.Join(tb.logs, "\n  ")
}

// wait waits until the JavaScript expression is true.
func (tb *tab) wait(what, js string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingInterval(30*time.Millisecond), chromedp.WithPollingTimeout(waitFor))); err != nil {
		tb.t.Fatalf("%s: waiting for %s: %v%s", tb.who, what, err, tb.state())
	}
}

// helpers are defined in every page the tests open: the moves the list
// shows, and the status line.
const helpers = `window.moveTexts = () => [...document.querySelectorAll('#moves .mv')].map((e) => e.textContent).filter(Boolean);
window.statusText = () => (document.querySelector('#status') || {}).textContent || '';`

// open loads a page of the server and waits for its scripts.
func (tb *tab) open(path string) {
	tb.t.Helper()
	tb.openAt(tb.b.h.http.URL, path)
}

// openAt loads a page from the server at base (a front) and waits for its
// scripts.
func (tb *tab) openAt(base, path string) {
	tb.t.Helper()
	tb.do("opening "+path, chromedp.Navigate(base+path))
	tb.ready()
}

// front starts a listener in front of the harness's server whose requests
// pass through wrap first (a delay, a refusal), and returns its address;
// it stops with the test. Cookies do not depend on the port, so a tab
// signed in to the harness is signed in there too.
func (h *harness) front(wrap func(http.Handler) http.Handler) string {
	ts := httptest.NewServer(wrap(h.srv.Handler()))
	h.t.Cleanup(func() {
		ts.CloseClientConnections() // the pages' event streams
		ts.Close()
	})
	return ts.URL
}

// delayed holds every request for d before it goes on: a slow network's
// round trip.
func delayed(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(d):
				next.ServeHTTP(w, r)
			case <-r.Context().Done():
			}
		})
	}
}

// ready waits for the page's scripts after a load.
func (tb *tab) ready() {
	tb.t.Helper()
	tb.eval(helpers)
	if tb.eval(`document.body.dataset.page`) == "game" {
		tb.wait("the game", `!statusText().startsWith('Loading')`)
	}
}

// clickTo clicks something that leads to another page and waits until
// the new page, whose path starts with prefix, is loaded. The old page is
// marked first, so that it is not taken for the new one.
func (tb *tab) clickTo(sel, prefix string) {
	tb.t.Helper()
	tb.eval(`window.oldPage = true`)
	tb.click(sel)
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(tb.ctx, 2*time.Second)
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`!window.oldPage && document.readyState === 'complete' ? location.pathname : ''`))
		cancel()
		if err == nil && strings.HasPrefix(v, prefix) {
			tb.ready()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.t.Fatalf("%s: %s led to no page %s%s", tb.who, sel, prefix, tb.state())
}

// waitPath waits until the tab has come by itself (a page that follows a
// game) to the page path, loaded, and readies it.
func (tb *tab) waitPath(path string) {
	tb.t.Helper()
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(tb.ctx, 2*time.Second)
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState === 'complete' ? location.pathname : ''`))
		cancel()
		if err == nil && v == path {
			tb.ready()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.t.Fatalf("%s: the page did not go to %s within %s%s", tb.who, path, waitFor, tb.state())
}

// click clicks the element sel. A page that redraws (the analysis board
// when its values come, a board after an event) may replace the element
// between two looks: each look finds it again, as a person would look
// again. The click is a mouse press at the centre of the element's first
// box, brought into view first; it waits until the element has stood
// still (the same box in three looks 50 ms apart) and is what a press
// there would hit, for a line the page adds above it after loading (a
// badge, a notice, a list) would move it away from under the press and
// the click would land elsewhere.
func (tb *tab) click(sel string) {
	tb.t.Helper()
	deadline := time.Now().Add(waitFor)
	js := fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e) return '';
		let r = e.getClientRects()[0];
		if (!r || r.width === 0 || r.height === 0) return '';
		if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
			e.scrollIntoView({ block: 'center', inline: 'center' });
			r = e.getClientRects()[0];
		}
		const x = r.x + r.width / 2, y = r.y + r.height / 2;
		// What a person's click there would hit: the element itself or
		// what it holds, not something drawn over it (for a shape of an
		// SVG drawing, its group: a board's point draws its stone over
		// the point's touch area).
		const box = e instanceof SVGElement && e.parentElement ? e.parentElement : e;
		const hit = document.elementFromPoint(x, y);
		if (!hit || !box.contains(hit)) return '';
		return [x, y].join(' ');
	})()`, sel)
	// The element must stand still for three looks 50 ms apart: a page
	// that is still filling in (a list loaded above it) moves it, and a
	// click at a centre read before the move lands elsewhere.
	last, still := "", 0
	for {
		ctx, cancel := context.WithTimeout(tb.ctx, 2*time.Second)
		at, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		cancel()
		if err == nil && at != "" && at == last {
			still++
		} else {
			still = 0
		}
		if still >= 2 {
			var x, y float64
			if _, err := fmt.Sscan(at, &x, &y); err != nil {
				tb.t.Fatalf("%s: clicking %s: the centre %q: %v", tb.who, sel, at, err)
			}
			tb.do("clicking "+sel, chromedp.MouseClickXY(x, y))
			return
		}
		if time.Now().After(deadline) {
			tb.t.Fatalf("%s: clicking %s: no such element shown and standing still within %s%s", tb.who, sel, waitFor, tb.state())
		}
		last = at
		time.Sleep(50 * time.Millisecond)
	}
}

// choose sets a select or a text field as a person would, with the change
// event the page listens to.
func (tb *tab) choose(sel, value string) {
	tb.t.Helper()
	tb.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; e.dispatchEvent(new Event('change', {bubbles: true})); return e.value })()`, sel, value))
}

// point is the selector of a point of the board by its name (3, C3).
func point(name string) string {
	return fmt.Sprintf(`#board g[data-name="%s"]`, name)
}

// play clicks a point of the board.
func (tb *tab) play(name string) {
	tb.t.Helper()
	tb.click(point(name) + " .hit")
}

// waitMoves waits until the move list shows exactly the moves given.
func (tb *tab) waitMoves(moves ...string) {
	tb.t.Helper()
	tb.wait("the moves "+strings.Join(moves, " "), fmt.Sprintf(`moveTexts().join(' ') === %q`, strings.Join(moves, " ")))
}

// waitStatus waits until the status line contains text.
func (tb *tab) waitStatus(text string) {
	tb.t.Helper()
	tb.wait("the status "+strconv.Quote(text), fmt.Sprintf(`statusText().includes(%q)`, text))
}

// count counts the elements that match a CSS selector.
func (tb *tab) count(sel string) int {
	tb.t.Helper()
	n, _ := strconv.Atoi(tb.eval(fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)))
	return n
}

// signInAs gives the tab the session cookie of an API client of the
// harness, so that the browser is that player.
func (tb *tab) signInAs(c *client) {
	tb.t.Helper()
	u := tb.b.h.http.URL
	req, _ := http.NewRequest("GET", u, nil)
	for _, ck := range c.c.Jar.Cookies(req.URL) {
		tb.do("setting the cookie", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, network.SetCookie, network.SetCookieParams{Name: ck.Name, Value: ck.Value, URL: u, Path: "/"})
			return err
		}))
	}
}

// createGame fills in the home page's form: the preset,
// the size, the colour and the opponent ("computer", "link", "open"),
// leaving the submission to the caller.
func (tb *tab) createGame(preset, size, color, opponent string) {
	tb.t.Helper()
	tb.open("/")
	tb.click(fmt.Sprintf(`#new-game input[name=opponent][value=%s]`, opponent))
	tb.choose(`#new-game select[name=preset]`, preset)
	tb.do("typing the size", chromedp.SendKeys(chromedp.CSS(`#new-game input[name=size]`), size))
	tb.click(fmt.Sprintf(`#new-game input[name=color][value=%s]`, color))
	if opponent == "computer" {
		tb.choose(`#new-game select[name=level]`, "1")
	}
}

// TestBrowserAlak6ByLink: one player creates a game by link, another joins
// it from the link, and they play seed 002's Alak-6 game (Baljeu, 2001) by
// clicking, each seeing the other's moves arrive without a reload, and a
// spectator sees it all without the players' buttons. Both pages end on
// Black's 3-0.
func TestBrowserAlak6ByLink(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	ada, bob, eve := b.user("ada"), b.user("bob"), b.user("eve")

	ada.createGame("alak", "6", "x", "link")
	ada.click(`#new-game button[type=submit]`)
	ada.wait("the invitation", `document.querySelector('#invite-link').value.includes('?invite=')`)
	invite := ada.eval(`document.querySelector('#invite-link').value`)
	ada.clickTo(`#created-go`, "/g/")
	ada.waitStatus("Waiting for an opponent")
	if ada.eval(`document.querySelector('#invite-box').hidden`) != "false" {
		t.Errorf("the waiting game's page does not show its creator the invitation link")
	}
	gamePath := ada.eval(`location.pathname`)

	bob.do("opening the invitation", chromedp.Navigate(invite))
	bob.ready()
	bob.wait("the join button", `!document.querySelector('#join').hidden`)
	bob.click(`#join-button`)
	bob.waitStatus("You are White (o)")
	if strings.Contains(bob.eval(`location.search`), "invite") {
		t.Errorf("the invitation secret stays in the address bar after joining")
	}
	ada.waitStatus("Your move") // the join arrives by the stream
	eve.open(gamePath)
	eve.waitStatus("You are watching")

	for i, m := range seedAlak6 {
		mover, waiter := ada, bob
		if i%2 == 1 {
			mover, waiter = bob, ada
		}
		mover.wait("my turn", `document.querySelector('#status').classList.contains('yours')`)
		if mover.count(point(m)+".target") != 1 {
			t.Fatalf("move %d: point %s is not offered as legal%s", i+1, m, mover.state())
		}
		mover.play(m)
		for _, p := range []*tab{mover, waiter} {
			p.waitMoves(seedAlak6[:i+1]...)
		}
		if i == 3 {
			// x--o/O: Black may not retake point 5 at once.
			if ada.count(point("5")+".forbidden") != 1 || !strings.Contains(ada.eval(`document.querySelector('#board g[data-name="5"] title').textContent`), "just captured") {
				t.Errorf("after 1 4 5 6 point 5 is not shown forbidden to Black%s", ada.state())
			}
		}
	}
	const result = "Black wins 3-0 on the count (White had no legal move, which ends the game)"
	for _, p := range []*tab{ada, bob, eve} {
		p.waitStatus(result)
		p.wait("the replay", `!document.querySelector('#replay').hidden`)
		if n := p.count("#board .pt.sx"); n != 3 || p.count("#board .pt.so") != 0 {
			t.Errorf("%s: the final board shows %d black stones and %d white, want 3 and 0", p.who, n, p.count("#board .pt.so"))
		}
		if p.eval(`document.querySelector('#controls').hidden`) != "true" {
			t.Errorf("%s: the game's buttons are still shown after the end", p.who)
		}
	}
	if eve.count("#controls:not([hidden])") != 0 {
		t.Errorf("the spectator is shown the players' buttons")
	}
	// The replay steps back through the game.
	bob.click(`#replay button[data-step=first]`)
	bob.wait("the start", `document.querySelectorAll('#board .pt.sx, #board .pt.so').length === 0`)
	bob.do("stepping with the arrow key", chromedp.KeyEvent(kb.ArrowRight))
	bob.wait("move 1", `document.querySelector('#replay-at').textContent.startsWith('Move 1 of 15') && document.querySelectorAll('#board .pt.sx').length === 1`)
}

// TestBrowserSlide: a golf game against the computer, played by picking a
// piece and then its target.
func TestBrowserSlide(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	ada := b.user("ada")
	ada.createGame("golf", "7", "x", "computer")
	ada.clickTo(`#new-game button[type=submit]`, "/g/")
	ada.waitStatus("Your move")
	// xx---oo: the pieces on 1 and 2 can move, both to 3.
	if ada.count("#board .pt.piece") != 2 || ada.count("#board .pt.target") != 0 {
		t.Fatalf("at the start: %d movable pieces and %d targets, want 2 and 0%s", ada.count("#board .pt.piece"), ada.count("#board .pt.target"), ada.state())
	}
	ada.play("2")
	ada.wait("the piece picked", `document.querySelector('#board g[data-name="2"] .ring.sel') !== null`)
	if ada.count("#board .pt.target") != 1 || ada.count(point("3")+".target") != 1 {
		t.Fatalf("the piece on 2 picked: the targets shown are not just slot 3%s", ada.state())
	}
	ada.play("3")
	ada.wait("the computer's reply", `moveTexts().length === 2 && moveTexts()[0] === '2-3'`)
	ada.waitStatus("Your move")
	if ada.count(point("3")+".sx") != 1 || ada.count(point("2")+".sx") != 0 {
		t.Errorf("after 2-3 the board does not show the piece on 3%s", ada.state())
	}
}

// TestBrowserComputer: a game against the computer, whose reply appears;
// a reload in the middle shows the same position and the game goes on;
// a move typed on the keyboard is played, and so is one chosen with the
// arrow keys.
func TestBrowserComputer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	ada := b.user("ada")
	ada.createGame("alak", "9", "x", "computer")
	ada.clickTo(`#new-game button[type=submit]`, "/g/")
	ada.waitStatus("Your move")
	ada.play("5")
	ada.wait("the computer's reply", `moveTexts().length === 2`)
	ada.waitStatus("Your move")
	if ada.count("#board .pt.so") != 1 {
		t.Errorf("the computer's stone is not on the board%s", ada.state())
	}

	board := `document.querySelector('#board svg').getAttribute('aria-label')`
	before, moves := ada.eval(board), ada.eval(`moveTexts().join(' ')`)
	ada.do("reloading", chromedp.Reload())
	ada.ready()
	ada.waitStatus("Your move")
	if after := ada.eval(board); after != before {
		t.Errorf("after a reload the board is %q, was %q", after, before)
	}
	if after := ada.eval(`moveTexts().join(' ')`); after != moves {
		t.Errorf("after a reload the moves are %q, were %q", after, moves)
	}

	// The keyboard: type a legal point's number and Enter.
	p := ada.eval(`document.querySelector('#board .pt.target').dataset.name`)
	ada.do("typing "+p, chromedp.KeyEvent(p))
	ada.wait("the typed point", fmt.Sprintf(`document.querySelector('#typed').textContent.includes('Typed: %s')`, p))
	ada.do("pressing Enter", chromedp.KeyEvent("\r"))
	ada.wait("the typed move and the reply", fmt.Sprintf(`moveTexts().length === 4 && moveTexts()[2] === %q`, p))
	ada.waitStatus("Your move")

	// The arrows move a cursor over the board, and Enter plays there.
	ada.do("pressing an arrow", chromedp.KeyEvent(kb.ArrowLeft))
	ada.wait("the cursor", `document.activeElement.id === 'board' && document.querySelector('#board .cursor') !== null`)
	at, _ := strconv.Atoi(ada.eval(`document.querySelector('#board .cursor').parentElement.dataset.name`))
	target := ada.eval(`document.querySelector('#board .pt.target').dataset.name`)
	to, _ := strconv.Atoi(target)
	for at != to {
		key, step := kb.ArrowRight, 1
		if to < at {
			key, step = kb.ArrowLeft, -1
		}
		ada.do("moving the cursor", chromedp.KeyEvent(key))
		at += step
	}
	ada.wait("the cursor on "+target, fmt.Sprintf(`document.querySelector('#board .cursor').parentElement.dataset.name === %q`, target))
	ada.do("pressing Enter", chromedp.KeyEvent("\r"))
	ada.wait("the move at the cursor and the reply", fmt.Sprintf(`moveTexts().length === 6 && moveTexts()[4] === %q`, target))
}

// TestBrowserScreenshots draws a line, a grid and a slide board mid-game
// and checks what they show; with -update-screenshots it writes them to
// docs/img (and a phone's view, game-phone.png).
func TestBrowserScreenshots(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	cases := []struct {
		file, rules, clock string
		moves              []string
		w, h               int64 // the window
		check              func(tb *tab)
	}{
		{"game-line.png", "alak", "live:5m+3s", []string{"2", "9", "5", "4", "8", "6"}, 1000, 480, func(tb *tab) {
			// -x-o/O-xo--: White's 6 took Black's 5, which Black may not retake.
			if tb.count("#board .pt.forbidden") != 1 || tb.count(point("5")+".forbidden") != 1 {
				t.Errorf("line: point 5 is not shown forbidden%s", tb.state())
			}
		}},
		{"game-grid.png", "alterigo size=9x9", "days:3", []string{"E5", "D5", "D4", "E4", "F4", "E6", "F5", "D6", "E3", "C5", "C4", "F6"}, 1000, 820, func(tb *tab) {
			if n := tb.count("#board .pt.sx") + tb.count("#board .pt.so"); n < 8 {
				t.Errorf("grid: %d stones shown%s", n, tb.state())
			}
		}},
		{"game-slide.png", "golf", "none", []string{"4-5", "8-7", "5-6", "9-8"}, 1000, 480, func(tb *tab) {
			tb.play("3")
			tb.wait("the piece picked", `document.querySelector('#board .ring.sel') !== null`)
			if tb.count("#board .pt.target") == 0 {
				t.Errorf("slide: no target shown for the piece picked%s", tb.state())
			}
		}},
		{"game-phone.png", "traditional size=9", "live:3m+2s", []string{"3", "7", "5", "8", "2", "6"}, 390, 800, func(tb *tab) {
			if tb.eval(`document.querySelector('#pass').hidden`) != "false" {
				t.Errorf("phone: no pass button under traditional rules%s", tb.state())
			}
		}},
	}
	for _, c := range cases {
		// Two players through the API: guests by link, or two accounts
		// for correspondence.
		x, o := h.client(), h.client()
		var g wire.Created
		join := map[string]string{}
		if strings.HasPrefix(c.clock, "days:") {
			x.signUp("ada-" + strconv.Itoa(len(c.moves)))
			o.signUp("bob-" + strconv.Itoa(len(c.moves)))
			g = x.create(map[string]string{"rules": c.rules, "color": "x", "clock": c.clock, "opponent": "bob-" + strconv.Itoa(len(c.moves))})
		} else {
			g = x.create(map[string]string{"rules": c.rules, "color": "x", "clock": c.clock, "opponent": "link"})
			join["invite"] = g.Invite[strings.Index(g.Invite, "=")+1:]
		}
		if code := o.do("POST", "/api/games/"+g.ID+"/join", join, nil); code != http.StatusOK {
			t.Fatalf("%s: join: %d", c.file, code)
		}
		for i, m := range c.moves {
			p := x
			if i%2 == 1 {
				p = o
			}
			if code, _, e := p.move(g.ID, m, i); code != http.StatusOK {
				t.Fatalf("%s: move %d %s: %d %+v", c.file, i+1, m, code, e)
			}
		}
		tb := b.user(c.file)
		tb.do("sizing the window", chromedp.EmulateViewport(c.w, c.h))
		tb.signInAs(x)
		tb.open("/g/" + g.ID)
		tb.waitStatus("Your move")
		c.check(tb)
		if *updateScreenshots {
			tb.do("moving the pointer away", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1))
			ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("..", "docs", "img", c.file)
			if err := os.WriteFile(path, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", path)
		}
	}
}

// TestBrowserConfirmMoves: a correspondence game between two accounts,
// with confirm_moves set: the first click only picks the point, the
// second plays it; the deadline is shown.
func TestBrowserConfirmMoves(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	ada, bob := h.client().signUp("ada"), h.client().signUp("bob")
	if code := ada.do("PUT", "/api/me", map[string]any{"confirm_moves": true}, nil); code != http.StatusOK {
		t.Fatalf("setting confirm_moves: %d", code)
	}
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:2", "opponent": "bob"})
	if code := bob.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("bob accepts: %d", code)
	}
	tb := b.user("ada")
	tb.signInAs(ada)
	tb.open("/g/" + g.ID)
	tb.waitStatus("Your move")
	if clock := tb.eval(`document.querySelector('.player[data-color="x"] .clock').textContent`); !strings.HasPrefix(clock, "1 d 23 h") {
		t.Errorf("Black's correspondence clock shows %q, want 1 d 23 h left", clock)
	}
	tb.play("4")
	tb.waitStatus("4 picked")
	if n := tb.count(point("4") + " .ghost.pending"); n != 1 || tb.eval(`moveTexts().length`) != "0" {
		t.Fatalf("after one click: pending ghost %d, moves %s%s", n, tb.eval(`moveTexts().length`), tb.state())
	}
	tb.play("4")
	tb.waitMoves("4")
	tb.waitStatus("White to move: bob")
}

// TestBrowserFirstMoveCountdown: in a live game the page shows, beside
// the standing clock of the player to make their first move, the time left
// for that move; once both have moved it is gone and
// the clock of the player to move runs. The clocks keep their classes
// while they tick, during the game and once it is over (they blinked, the
// standing clock's "run low" set and cleared on every tick, when the
// snapshot had no first move's deadline).
func TestBrowserFirstMoveCountdown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	ada, bob := h.client().signUp("ada"), h.client().signUp("bob")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "live:5m", "opponent": "bob"})
	if code := bob.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("bob accepts: %d", code)
	}
	tb := b.user("ada")
	tb.signInAs(ada)
	tb.open("/g/" + g.ID)
	tb.waitStatus("Your move")
	clock := func(c string) string {
		return tb.eval(`document.querySelector('.player[data-color="` + c + `"] .clock').textContent`)
	}
	// 30 s from the join, some of it gone by the time the page shows it.
	tb.wait("Black's first-move countdown", `/^5:00 · first move: 0:[0-3][0-9]/.test(document.querySelector('.player[data-color="x"] .clock').textContent)`)
	if x, o := clock("x"), clock("o"); !strings.Contains(x, "first move") || o != "5:00" {
		t.Errorf("before Black's first move: Black's clock %q, White's %q", x, o)
	}
	tb.play("4")
	tb.waitMoves("4")
	tb.wait("White's first-move countdown", `document.querySelector('.player[data-color="o"] .clock').textContent.startsWith('5:00 · first move: 0:')`)
	if x := clock("x"); x != "5:00" {
		t.Errorf("after Black's first move, Black's clock shows %q, want 5:00 standing", x)
	}
	if code, _, e := bob.move(g.ID, "2", 1); code != http.StatusOK {
		t.Fatalf("bob's first move: %d %+v", code, e)
	}
	tb.waitMoves("4", "2")
	tb.wait("Black's clock running", `!document.querySelector('.player[data-color="x"] .clock').textContent.includes('first move') && document.querySelector('.player[data-color="x"] .clock').classList.contains('run')`)
	if o := clock("o"); o != "5:00" {
		t.Errorf("after both first moves, White's clock shows %q, want 5:00", o)
	}
	if n := tb.classChanges(".player .clock", time.Second); n != "0 0" {
		t.Errorf("the clocks' classes changed %s times (Black, White) in a second of the game, want none%s", n, tb.state())
	}
	if code := bob.do("POST", "/api/games/"+g.ID+"/resign", map[string]any{"ply": 2}, nil); code != http.StatusOK {
		t.Fatalf("bob resigns: %d", code)
	}
	tb.waitStatus("White resigned")
	if n := tb.classChanges(".player .clock", time.Second); n != "0 0" {
		t.Errorf("the clocks' classes changed %s times (Black, White) in a second after the end, want none%s", n, tb.state())
	}
}

// classChanges counts the changes of the class attribute of each element
// sel matches for d, and returns the counts, separated by spaces.
func (tb *tab) classChanges(sel string, d time.Duration) string {
	tb.t.Helper()
	js := fmt.Sprintf(`new Promise((done) => {
		const els = [...document.querySelectorAll(%q)], n = els.map(() => 0);
		const o = new MutationObserver((rs) => { for (const r of rs) n[els.indexOf(r.target)]++; });
		for (const e of els) o.observe(e, { attributes: true, attributeFilter: ['class'] });
		setTimeout(() => { o.disconnect(); done(n.join(' ')); }, %d);
	})`, sel, d.Milliseconds())
	ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: counting the class changes of %s: %v", tb.who, sel, err)
	}
	return v
}

// signUp creates an account with the home page's form.
func (tb *tab) signUp(name string) {
	tb.t.Helper()
	tb.open("/")
	tb.do("filling in the sign-up form",
		chromedp.SendKeys(chromedp.CSS(`#sign-up input[name=name]`), name),
		chromedp.SendKeys(chromedp.CSS(`#sign-up input[name=password]`), "correct horse"))
	tb.clickTo(`#sign-up button[type=submit]`, "/")
	tb.wait("signed in", fmt.Sprintf(`document.body.dataset.me === %q && document.querySelector('#sign-out') !== null`, name))
}

// TestBrowserAccountsLobbyArchive: two players sign up with the form, one
// opens a challenge in the lobby and the other takes it there; a draw is
// offered and declined, a takeback asked and granted, and a confirmed
// resignation ends the game, which the archive and the player's page then
// list; a challenge by name waits under "My games" until accepted; signing
// out.
func TestBrowserAccountsLobbyArchive(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	ada, bob := b.user("ada"), b.user("bob")
	ada.signUp("ada")
	bob.signUp("bob")

	ada.createGame("alak", "7", "x", "open")
	ada.clickTo(`#new-game button[type=submit]`, "/g/")
	ada.waitStatus("Waiting for an opponent")
	bob.open("/")
	bob.wait("ada's challenge in the lobby", `[...document.querySelectorAll('#lobby li')].some((li) => li.textContent.includes('ada plays Black'))`)
	bob.clickTo(`#lobby button[data-join]`, "/g/")
	bob.waitStatus("You are White (o)")
	ada.waitStatus("Your move")

	// A draw offered and declined; a takeback asked and granted.
	ada.click(`#draw`)
	bob.wait("the draw offer", `!document.querySelector('#offer').hidden && document.querySelector('#offer').textContent.includes('Black offers a draw')`)
	bob.click(`#offer button[data-act=decline]`)
	ada.wait("the offer declined", `!document.querySelector('#draw').disabled && document.querySelector('#draw').textContent === 'Offer a draw'`)
	bob.wait("the offer gone", `document.querySelector('#offer').hidden`)
	ada.play("4")
	bob.waitMoves("4")
	ada.click(`#takeback`)
	bob.wait("the takeback request", `document.querySelector('#offer').textContent.includes('asks to take back')`)
	bob.click(`#offer button[data-act=accept]`)
	for _, p := range []*tab{ada, bob} {
		p.waitMoves()
	}
	ada.waitStatus("Your move")

	ada.click(`#resign`)
	ada.wait("the confirmation", `!document.querySelector('#resign-confirm').hidden`)
	ada.click(`#resign-yes`)
	for _, p := range []*tab{ada, bob} {
		p.waitStatus("White wins (Black resigned)")
	}

	bob.open("/archive")
	bob.wait("the game in the archive", `[...document.querySelectorAll('#archive-rows tr')].some((tr) => tr.textContent.includes('ada') && tr.textContent.includes('W+R'))`)
	bob.choose(`#filter select[name=preset]`, "golf")
	bob.click(`#filter button[type=submit]`)
	bob.wait("no golf game", `document.querySelector('#archive-rows').textContent.includes('No finished game matches')`)
	bob.open("/p/ada")
	bob.wait("ada's record", `document.querySelector('#player-stats').textContent.includes('1 finished games, 0 won, 1 lost')`)

	bob.open("/")
	bob.click(`#new-game input[name=opponent][value=named]`)
	bob.do("naming ada", chromedp.SendKeys(chromedp.CSS(`#new-game input[name=name]`), "ada"))
	bob.clickTo(`#new-game button[type=submit]`, "/g/")
	bob.waitStatus("Waiting for ada to accept")
	// The empty seat names the player invited, on the game's card and in
	// the lists of the home page (it said "open seat").
	if cards := bob.eval(`[...document.querySelectorAll('.player .name')].map((n) => n.textContent).sort().join(', ')`); cards != "ada (invited), bob" {
		t.Errorf("the named challenge's cards: %q, want ada (invited) and bob", cards)
	}
	challenge := bob.eval(`location.pathname`)
	bob.open("/")
	bob.wait("the challenge under My games", `[...document.querySelectorAll('#my-list li')].some((li) => li.textContent.includes(': ada (invited)') && li.textContent.includes(': bob'))`)
	bob.open(challenge)
	ada.open("/")
	ada.wait("bob's challenge", `[...document.querySelectorAll('#my-games li')].some((li) => li.textContent.includes('bob') && li.textContent.includes(': you (invited)') && li.querySelector('button[data-join]'))`)
	ada.clickTo(`#my-games button[data-join]`, "/g/")
	ada.wait("the game under way", `/You are (Black|White)/.test(statusText())`)
	bob.wait("the game under way", `/You are (Black|White)/.test(statusText())`)

	ada.clickTo(`#sign-out`, "/")
	ada.wait("signed out", `!document.body.dataset.me && document.querySelector('#sign-in') !== null`)
}

// tap touches a point of the board with a finger (touch emulation on).
func (tb *tab) tap(name string) {
	tb.t.Helper()
	xy := strings.Fields(tb.eval(fmt.Sprintf(`(() => { const r = document.querySelector('%s .hit').getBoundingClientRect(); return (r.x + r.width / 2) + ' ' + (r.y + r.height / 2) })()`, point(name))))
	if len(xy) != 2 {
		tb.t.Fatalf("%s: no point %s to tap%s", tb.who, name, tb.state())
	}
	x, _ := strconv.ParseFloat(xy[0], 64)
	y, _ := strconv.ParseFloat(xy[1], 64)
	tb.do("tapping "+name, chromedp.TapXY(x, y))
}

// TestBrowserTouch: on a phone's screen with touch, a tap plays a point
// and the computer answers.
func TestBrowserTouch(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	guest := h.client()
	g := guest.create(map[string]string{"rules": "alak size=8", "color": "x", "opponent": "computer:level:1"})
	tb := b.user("phone")
	tb.do("a phone's screen", chromedp.EmulateViewport(390, 800, chromedp.EmulateTouch, chromedp.EmulateMobile))
	tb.signInAs(guest)
	tb.open("/g/" + g.ID)
	tb.waitStatus("Your move")
	if w := tb.eval(`document.documentElement.scrollWidth`); w != "390" {
		t.Errorf("the game page is %s pixels wide on a 390-pixel screen", w)
	}
	tb.tap("3")
	tb.wait("the tapped move and the reply", `moveTexts().length === 2 && moveTexts()[0] === '3'`)
	tb.waitStatus("Your move")
}

// TestBrowserReconnect: the server drops the page's connections, the
// opponent moves meanwhile, and the page catches up by itself (the event
// stream reopens with Last-Event-ID).
func TestBrowserReconnect(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	x, o := h.client(), h.client()
	g := x.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "link"})
	if code := o.do("POST", "/api/games/"+g.ID+"/join", map[string]string{"invite": g.Invite[strings.Index(g.Invite, "=")+1:]}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	tb := b.user("ada")
	tb.signInAs(x)
	tb.open("/g/" + g.ID)
	tb.waitStatus("Your move")
	tb.play("2")
	tb.waitMoves("2")
	tb.b.h.http.CloseClientConnections()
	tb.wait("the lost connection", `document.querySelector('#game').classList.contains('offline')`)
	if code, _, e := o.move(g.ID, "6", 1); code != http.StatusOK {
		t.Fatalf("White's move: %d %+v", code, e)
	}
	tb.waitMoves("2", "6")
	tb.wait("the connection back", `!document.querySelector('#game').classList.contains('offline')`)
	tb.waitStatus("Your move")
}

// stopListening stops the harness's server and its listener (the page's
// requests are then refused) and returns the address it listened on.
func (h *harness) stopListening() string {
	addr := h.http.Listener.Addr().String()
	h.stop()
	return addr
}

// startOn starts a new server on the same database at addr, the address
// the stopped one listened on, so that an open page finds it again.
func (h *harness) startOn(addr string) {
	st, err := sqlitestore.Open(context.Background(), h.path)
	if err != nil {
		h.t.Fatal(err)
	}
	srv, err := New(h.cfg, st)
	if err != nil {
		h.t.Fatal(err)
	}
	var l net.Listener
	for try := 0; ; try++ { // the port may take a moment to be free again
		if l, err = net.Listen("tcp", addr); err == nil || try == 50 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		h.t.Fatalf("listening on %s again: %v", addr, err)
	}
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.Listener.Close()
	ts.Listener = l
	ts.Start()
	h.st, h.srv, h.http = st, srv, ts
	h.srv.cfg.BaseURL = ts.URL
}

// TestBrowserReconnectNotice: the server stops while the page is open;
// the page says it is offline, and a button pressed meanwhile says that
// the server cannot be reached. Once a server listens again the notice
// goes by itself (no move needed to clear it), and a move made then
// arrives by the stream.
func TestBrowserReconnectNotice(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	x, o := h.client(), h.client()
	g := x.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "link"})
	if code := o.do("POST", "/api/games/"+g.ID+"/join", map[string]string{"invite": g.Invite[strings.Index(g.Invite, "=")+1:]}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	tb := b.user("ada")
	tb.signInAs(x)
	tb.open("/g/" + g.ID)
	tb.waitStatus("Your move")
	tb.play("2")
	tb.waitMoves("2")

	addr := h.stopListening()
	tb.wait("the lost connection", `document.querySelector('#game').classList.contains('offline')`)
	tb.click(`#draw`)
	const unreachable = "The server cannot be reached"
	tb.wait("the notice", fmt.Sprintf(`document.querySelector('#notice').textContent.includes(%q)`, unreachable))

	h.startOn(addr)
	tb.wait("the connection back", `!document.querySelector('#game').classList.contains('offline')`)
	tb.wait("the notice gone", fmt.Sprintf(`!document.querySelector('#notice').textContent.includes(%q)`, unreachable))
	if code, _, e := o.move(g.ID, "6", 1); code != http.StatusOK {
		t.Fatalf("White's move: %d %+v", code, e)
	}
	tb.waitMoves("2", "6")
	tb.waitStatus("Your move")
}

// TestBrowserRefusalsAndDraws: against the computer, with the table of
// alak on 8 points in Config.TableDir, a click on an occupied point says
// why it is refused (the kernel's reason, as for forbidden points); a draw
// offered in a position the table does not show drawn is declined, and
// the page says so; one offered in a drawn position is accepted and the
// game ends drawn by agreement.
func TestBrowserRefusalsAndDraws(t *testing.T) {
	t.Parallel()
	r, g0, dir := denseDir(t, "alak size=8")
	tab, err := solve.LoadTable(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	drawn, won := drawnAndNot(t, r, g0.Start(), tab)
	h := newHarness(t, Config{Now: time.Now, TableDir: dir})
	b := newBrowser(t, h)
	guest := h.client()
	tb := b.user("ada")

	g := guest.create(map[string]string{"rules": "alak size=8", "position": won, "to_move": "x", "color": "x", "opponent": "computer:level:1"})
	tb.signInAs(guest)
	tb.open("/g/" + g.ID)
	tb.waitStatus("Your move")
	occupied := strings.IndexAny(strings.ToLower(won), "xo") + 1 // 1-based: the first stone of the diagram
	tb.play(strconv.Itoa(occupied))
	want := fmt.Sprintf("Illegal move %d: %s", occupied, rules.ErrOccupied)
	tb.wait("the reason", fmt.Sprintf(`document.querySelector('#notice').textContent.includes(%q)`, want))
	if n := tb.eval(`moveTexts().length`); n != "0" {
		t.Errorf("after the refused click the page lists %s moves, want none", n)
	}
	tb.click(`#draw`)
	tb.wait("the computer's answer", `document.querySelector('#notice').textContent.includes('The computer declines the draw')`)
	tb.waitStatus("Your move")

	g = guest.create(map[string]string{"rules": "alak size=8", "position": drawn, "to_move": "x", "color": "x", "opponent": "computer:level:1"})
	tb.open("/g/" + g.ID)
	tb.waitStatus("Your move")
	tb.click(`#draw`)
	tb.wait("the draw agreed", `/draw by agreement/i.test(statusText()) && document.querySelector('#status').classList.contains('over')`)
}

// TestBrowserGuestTakesItsGamesOver: a guest with a game under way signs
// in to an existing account with the sign-in form's box ticked (the form
// offers it to guests only), and finds the game under "My games" with the
// account's name in its seat; another guest signs up with the form and
// finds its finished game there.
func TestBrowserGuestTakesItsGamesOver(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Now: time.Now})
	b := newBrowser(t, h)
	h.client().signUp("ada")

	g1 := h.client()
	live := g1.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "computer:level:1"})
	p1 := b.user("guest one")
	p1.signInAs(g1)
	p1.open("/")
	p1.wait("the offer to move the guest's games", `(() => { const c = document.querySelector('#sign-in input[name=claim_guest_games]');
		return c !== null && c.checked && c.closest('label').textContent.includes(document.body.dataset.me + "'s games") })()`)
	p1.do("filling in the sign-in form",
		chromedp.SendKeys(chromedp.CSS(`#sign-in input[name=name]`), "ada"),
		chromedp.SendKeys(chromedp.CSS(`#sign-in input[name=password]`), "correct horse"))
	p1.clickTo(`#sign-in button[type=submit]`, "/")
	p1.wait("signed in as ada", `document.body.dataset.me === 'ada' && document.querySelector('#sign-in') === null`)
	p1.wait("the guest's game under My games", fmt.Sprintf(`[...document.querySelectorAll('#my-list li')].some((li) =>
		li.querySelector('a[href="/g/%s"]') && li.textContent.includes('Black: ada'))`, live.ID))

	g2 := h.client()
	done := g2.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "computer:level:1"})
	if code := g2.do("POST", "/api/games/"+done.ID+"/resign", nil, nil); code != http.StatusOK {
		t.Fatalf("resigning: %d", code)
	}
	p2 := b.user("guest two")
	p2.signInAs(g2)
	p2.open("/")
	p2.wait("the sign-up's note", `document.querySelector('#sign-up').textContent.includes(document.body.dataset.me + "'s games move to the new account")`)
	p2.signUp("newbie")
	p2.wait("the guest's finished game under My games", fmt.Sprintf(`[...document.querySelectorAll('#my-list li')].some((li) =>
		li.querySelector('a[href="/g/%s"]') && li.textContent.includes('Black: newbie'))`, done.ID))
}
