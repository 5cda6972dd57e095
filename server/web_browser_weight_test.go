package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"alak/server/internal/pages"
	"alak/wire"
)

// pageChecks are the checks of a page that need no outside tool (the
// ones Lighthouse and axe-core make that a browser alone can): one h1, a
// meta description, the document's language, an alternative text for
// every image, a label for every form control, a name for every button,
// link and table heading (axe-core's empty-table-header); and at the
// window's size, that the page does not scroll
// sideways and that every target is 44 by 44 CSS px at least (WCAG
// 2.5.5; see targetChecks). It returns the problems found, "" for none.
const pageChecks = `(() => {
  const bad = [];
` + targetChecks + `
  // A scrollbar appearing as the page grows moved the whole page on a
  // desktop (0.086 of layout shift in Lighthouse's run of a profile); the
  // tests' Chromium hides scrollbars, so the room kept for one is checked.
  if (getComputedStyle(document.documentElement).scrollbarGutter !== 'stable') bad.push('no room kept for the scrollbar (scrollbar-gutter)');
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth) bad.push('the page is ' + document.documentElement.scrollWidth + ' px wide on a ' + document.documentElement.clientWidth + ' px screen: it scrolls sideways');
  const h1 = document.querySelectorAll('h1').length;
  if (h1 !== 1) bad.push(h1 + ' h1 elements');
  const d = document.querySelector('meta[name=description]');
  if (!d || d.content.trim().length < 40) bad.push('no meta description of a sentence');
  if (!document.documentElement.lang) bad.push('no lang attribute');
  for (const i of document.querySelectorAll('img:not([alt])')) bad.push('an image without alt: ' + i.src);
  for (const s of document.querySelectorAll('svg[role=img]')) if (!s.getAttribute('aria-label') && !s.querySelector('title')) bad.push('an SVG image without a name');
  for (const c of document.querySelectorAll('input, select, textarea')) {
    if (c.type === 'hidden') continue;
    if (!(c.labels && c.labels.length) && !c.getAttribute('aria-label') && !c.getAttribute('aria-labelledby')) bad.push('a control without a label: ' + c.outerHTML.slice(0, 80));
  }
  for (const h of document.querySelectorAll('th')) if (!h.textContent.trim() && !h.getAttribute('aria-label')) bad.push('a table heading without a name: ' + h.outerHTML.slice(0, 80));
  for (const b of document.querySelectorAll('button, a[href]')) {
    if (!b.textContent.trim() && !b.getAttribute('aria-label') && !b.getAttribute('aria-labelledby') && !b.querySelector('svg[aria-label], img[alt]')) bad.push('a button or link without a name: ' + b.outerHTML.slice(0, 80));
  }
  return bad.join('; ');
})()`

// targetChecks adds to bad every target of the page under 44 by 44 CSS
// px: links, buttons, form controls (a radio button or a box with its
// label), summaries, anything focusable, and the board's points. Two
// kinds are let through, as WCAG 2.5.5 and 2.5.8 allow: a link inside a
// sentence (inline, with words beside it), and the points of a board
// that cannot be drawn with 44-px points in the width it has (a line of
// 11 points on a 412-px phone is 33 px a point; 26 points on a desktop's
// column, 30): they must be 24 px wide at least (2.5.8's minimum) and,
// on a line, 44 px tall (board.js gives a point its column's height).
const targetChecks = `
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    if (e.closest('.sr, [hidden]')) return false;
    const cs = getComputedStyle(e);
    return cs.visibility !== 'hidden' && cs.display !== 'none';
  };
  const words = (n) => /[A-Za-z]{2}/.test(n.textContent);
  const inSentence = (a) => {
    if (getComputedStyle(a).display !== 'inline') return false;
    for (let n = a; n.parentElement; n = n.parentElement) {
      for (const s of n.parentElement.childNodes) {
        if (s === n) continue;
        if (s.nodeType === 3 && words(s)) return true;
        if (s.nodeType === 1 && getComputedStyle(s).display === 'inline' && !s.matches('a, button') && words(s)) return true;
      }
      if (getComputedStyle(n.parentElement).display !== 'inline') return false;
    }
    return false;
  };
  const boardTooNarrow = (hit) => {
    const svg = hit.ownerSVGElement, host = svg.parentElement;
    const vb = svg.viewBox.baseVal, w = svg.getBoundingClientRect().width;
    return w < vb.width * 44 / 40 - 1 && w >= host.clientWidth - 2;
  };
  const small = [], seen = new Set();
  for (let e of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex="-1"]), .hit')) {
    if (e.matches('input[type=radio], input[type=checkbox]') && e.closest('label')) e = e.closest('label');
    if (seen.has(e) || !shown(e) || e.matches('a[href]') && inSentence(e)) continue;
    seen.add(e);
    const r = e.getBoundingClientRect();
    if (r.width >= 43.5 && r.height >= 43.5) continue;
    if (e.matches('.hit') && boardTooNarrow(e) && r.width >= 24 && r.height >= (e.closest('.b-grid') ? 24 : 43.5)) continue;
    const name = e.closest('[data-name]') ? 'point ' + e.closest('[data-name]').dataset.name : (e.textContent.trim() || e.getAttribute('aria-label') || e.name || '').slice(0, 24);
    small.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' "' + name + '" ' + Math.round(r.width) + '×' + Math.round(r.height));
  }
  if (small.length) bad.push(small.length + ' targets under 44×44 px: ' + small.slice(0, 8).join(', '));
`

// sameAsServer compares the game page's players' cards and status line
// with the same elements in the HTML the server sent (fetched again): the
// differences, "" for none.
const sameAsServer = `(async () => {
  const html = await (await fetch(location.pathname)).text();
  const d = new DOMParser().parseFromString(html, 'text/html');
  const bad = [];
  for (const c of ['x', 'o']) for (const part of ['name', 'rating']) {
    const sel = '.player[data-color="' + c + '"] .' + part;
    const a = d.querySelector(sel).textContent, b = document.querySelector(sel).textContent;
    if (a !== b) bad.push(sel + ' ' + JSON.stringify(a) + ', the script ' + JSON.stringify(b));
  }
  const a = d.querySelector('#status').textContent, b = document.querySelector('#status').textContent;
  if (a !== b) bad.push('#status ' + JSON.stringify(a) + ', the script ' + JSON.stringify(b));
  return bad.join('; ');
})()`

// layoutShifts sums the page's layout shifts since it was loaded, from
// the layout-shift entries the browser buffered (the cumulative layout
// shift of Lighthouse, over the whole load), and lists their sources.
const layoutShifts = `new Promise((done) => {
  let sum = 0; const src = [];
  const o = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      if (e.hadRecentInput) continue;
      sum += e.value;
      for (const s of e.sources) src.push((s.node ? s.node.id || s.node.className || s.node.nodeName : '?') + ' ' + s.previousRect.y + '→' + s.currentRect.y);
    }
  });
  o.observe({ type: 'layout-shift', buffered: true });
  setTimeout(() => { o.disconnect(); done(JSON.stringify({ sum, src })); }, 300);
})`

// contrast is the contrast ratio (WCAG 2) of the text of the element sel
// against its background, with the classes extra added to it: colours
// as the browser computed them, the background an opaque colour.
const contrast = `((sel, extra) => {
  const e = document.querySelector(sel);
  if (extra) e.classList.add(...extra.split(' '));
  const cs = getComputedStyle(e);
  const lum = (c) => {
    const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(cs.color), lum(cs.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
})`

// contrastAll is the lowest contrast ratio (WCAG 2) of the text of the
// elements sel against what is behind them: each ancestor's background
// laid over the next, down to the page's, as the eye sees it. It returns
// the ratio and the text of the element where it is found.
const contrastAll = `((sel) => {
  const rgba = (c) => { const v = c.match(/[\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  let worst = 99, what = '';
  for (const e of document.querySelectorAll(sel)) {
    const layers = [];
    for (let n = e; n; n = n.parentElement) layers.push(rgba(getComputedStyle(n).backgroundColor));
    let bg = [255, 255, 255, 1];
    for (const l of layers.reverse()) bg = over(l, bg);
    const fg = over(rgba(getComputedStyle(e).color), bg);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const r = (a + 0.05) / (b + 0.05);
    if (r < worst) { worst = r; what = e.textContent; }
  }
  return JSON.stringify({ worst, what });
})`

// TestBrowserPageChecks opens every page, as a visitor and as a player,
// on a phone's screen (412×823, Lighthouse's), and runs pageChecks on it
// there and at a desktop's size (1280×800) (the profile, the watch page
// and the analysis board scrolled sideways on the phone, and targets were
// under 44 px on every page, before); then it loads a finished game's
// page, a profile, the analysis board and a tournament on a phone's
// screen and on a desktop's and checks that their layout shift, once drawn, is under
// 0.05, half Lighthouse's "good" (the finished game's was 0.43 on a phone
// before the page held its parts' places; the analysis board's 0.082 and
// the tournament's 0.072 on the desktop, which Lighthouse's runs, with
// its own timing, measured at 0.085 and 0.36).
func TestBrowserPageChecks(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	// A correspondence game (its conditional moves' board, cut at point 9
	// on a desktop before), a challenge by name, a line of 26 points (too
	// many for 44-px points anywhere), a tournament with its games.
	corr := ada.create(map[string]string{"rules": "alak size=11", "color": "x", "clock": "days:3", "opponent": "bo"})
	bo.do("POST", "/api/games/"+corr.ID+"/join", map[string]string{}, nil)
	ada.move(corr.ID, "4", 0)
	named := ada.create(map[string]string{"rules": "alak size=9", "color": "o", "clock": "days:2", "opponent": "bo"})
	long := ada.create(map[string]string{"rules": "alak size=26", "color": "x", "opponent": "computer:level:1"})
	var cup wire.Created
	if code := ada.do("POST", "/api/tournaments", map[string]any{"name": "Cup", "clock": "days:3", "format": "round-robin", "play": true}, &cup); code != http.StatusCreated {
		t.Fatalf("the tournament: %d", code)
	}
	bo.do("POST", "/api/tournaments/"+cup.ID+"/join", nil, nil)
	if code := ada.do("POST", "/api/tournaments/"+cup.ID+"/start", nil, nil); code != http.StatusOK {
		t.Fatalf("the tournament's start: %d", code)
	}
	live := ada.create(map[string]string{"rules": "alak size=11", "color": "x", "opponent": "computer:level:1"})
	ada.move(live.ID, "3", 0)
	done := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "bo"})
	bo.do("POST", "/api/games/"+done.ID+"/join", map[string]string{}, nil)
	for i, m := range seedAlak6 {
		if code, _, e := []*client{ada, bo}[i%2].move(done.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %d %s: %d %+v", i+1, m, code, e)
		}
	}
	grid := ada.create(map[string]string{"rules": "alterigo size=5x5", "color": "x", "opponent": "computer:level:1"})
	slide := ada.create(map[string]string{"rules": "golf", "color": "x", "opponent": "computer:level:1"})
	b := newBrowser(t, h)
	// Each page is loaded once a person, on the phone's screen, checked
	// there, and checked again with the window at the desktop's size: the
	// pages' layout is their style sheets' alone (no script reads a size
	// or draws for one), so a page resized is laid out as one loaded at
	// that size, and half the loads are saved (the suite's time is
	// counted). The layout shifts below are measured on loads of their own
	// at each size.
	screens := []struct {
		name   string
		w, h   int64
		mobile bool
	}{{"a phone", 412, 823, true}, {"a desktop", 1280, 800, false}}
	size := func(tb *tab, i int) {
		t.Helper()
		sc := screens[i]
		if sc.mobile {
			tb.do("sizing the screen", chromedp.EmulateViewport(sc.w, sc.h, chromedp.EmulateMobile, chromedp.EmulateTouch))
		} else {
			tb.do("sizing the screen", chromedp.EmulateViewport(sc.w, sc.h))
		}
	}
	// laidOut waits until the page is laid out at the size of screen i.
	laidOut := func(tb *tab, i int) {
		t.Helper()
		tb.wait("the page at "+screens[i].name+"'s size", fmt.Sprintf(`innerWidth === %d && document.documentElement.clientWidth === %d`, screens[i].w, screens[i].w))
	}
	visitor, player := b.user("a visitor"), b.user("ada")
	player.signInAs(ada)
	all := []string{"/", "/g/" + live.ID, "/g/" + done.ID, "/g/" + grid.ID, "/g/" + slide.ID, "/g/" + corr.ID, "/g/" + named.ID, "/g/" + long.ID,
		"/archive", "/p/ada", "/leaderboard", "/watch", "/rules", "/tournaments", "/t/" + cup.ID, "/analysis", "/rulelab", "/g/nosuchgame"}
	for _, tb := range []*tab{visitor, player} {
		for _, p := range all {
			size(tb, 0)
			tb.open(p)
			switch p {
			case "/g/" + done.ID:
				tb.wait("the analysis", `!!document.querySelector('#analysis table')`)
				// The server draws the cards and the status sentence as the
				// scripts write them (a rated game's "1582? (+82)" and
				// "Ratings: ada +82, bo −82."), or they grow a line when
				// the scripts fill them: 0.157 of layout shift in
				// Lighthouse's run before.
				ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
				diff, err := chromedp.Run(ctx, chromedp.Evaluate[string](sameAsServer, chromedp.EvalAwaitPromise))
				cancel()
				if err != nil {
					t.Fatalf("%s: comparing with the server's HTML: %v", p, err)
				}
				if diff != "" {
					t.Errorf("%s, %s: the server drew %s", tb.who, p, diff)
				}
			case "/p/ada":
				tb.wait("the rating chart", `document.querySelector('#rating-chart').dataset.points === '1'`)
			case "/leaderboard":
				tb.wait("the leaderboard", `document.querySelectorAll('#board-rows tr').length === 2`)
			case "/watch":
				tb.wait("the games to watch", `document.querySelectorAll('#watch-rows tr').length > 0`)
			case "/t/" + cup.ID:
				tb.wait("the tournament's games", `document.querySelectorAll('#t-games tbody tr').length === 1`)
			case "/analysis":
				tb.wait("the board and its moves", `document.querySelectorAll('#anb-board .hit').length === 11 && document.querySelectorAll('#anb-moves tbody tr').length === 11`)
			case "/g/" + corr.ID:
				if tb == player {
					tb.wait("the conditional moves' board", `document.querySelectorAll('#cond-board .hit').length === 11`)
				}
			}
			for i, sc := range screens {
				if tb == visitor && !sc.mobile && p != "/" && p != "/g/"+done.ID {
					// The player's desktop shows every control the
					// visitor's does but the home page's sign-in forms.
					continue
				}
				if i > 0 {
					size(tb, i)
				}
				laidOut(tb, i)
				who := tb.who + " on " + sc.name
				if tb.eval(`document.body.dataset.page`) == "game" && tb.count("#game") == 1 {
					// The drawing has the size the page held for it (pages.BoardBox).
					var d struct {
						Shape, ViewBox string
						W, H, Width    int
					}
					raw := tb.eval(`JSON.stringify({shape: game.dataset.shape, w: +game.dataset.w, h: +game.dataset.h, viewBox: board.querySelector('svg').getAttribute('viewBox'), width: +board.querySelector('svg').getAttribute('width')})`)
					if err := json.Unmarshal([]byte(raw), &d); err != nil {
						t.Fatalf("%s: %q: %v", p, raw, err)
					}
					if box, width := pages.BoardBox(d.Shape, d.W, d.H); box != d.ViewBox || width != d.Width {
						t.Errorf("%s, %s: the board (%s %dx%d) is drawn %q, %d wide; the page held %q, %d wide", who, p, d.Shape, d.W, d.H, d.ViewBox, d.Width, box, width)
					}
				}
				if bad := tb.eval(pageChecks); bad != "" {
					t.Errorf("%s, %s: %s", who, p, bad)
				}
			}
		}
	}

	// The dark scheme: a running-out clock and the "Yes, resign" button
	// had white on light red, 2.43:1 (axe-core's color-contrast); WCAG's
	// AA asks 4.5:1 of text, 3:1 of large text.
	dark := b.user("the dark scheme")
	dark.do("choosing the dark scheme", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	}))
	dark.open("/g/" + live.ID)
	for _, c := range []struct{ sel, classes string }{{".player .clock", "low"}, {"#resign-yes", ""}} {
		ctx, cancel := context.WithTimeout(dark.ctx, waitFor)
		ratio, err := chromedp.Run(ctx, chromedp.Evaluate[float64](contrast+fmt.Sprintf("(%q, %q)", c.sel, c.classes)))
		cancel()
		if err != nil {
			t.Fatalf("the contrast of %s: %v", c.sel, err)
		}
		if ratio < 4.5 {
			t.Errorf("the dark scheme: %s %s has a contrast of %.2f:1, want 4.5:1 at least", c.sel, c.classes, ratio)
		}
	}

	// The two screens load at once, each in a tab of its own behind a
	// front of its own: their loads wait on the front's delay rather than
	// on the cores, and the pages do not share anything a load changes.
	var wg sync.WaitGroup
	for _, screen := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"a phone", 412, 823, true}, {"a desktop", 1100, 760, false}} {
		tb := b.user(screen.name)
		if screen.mobile {
			tb.do("sizing the screen", chromedp.EmulateViewport(screen.width, screen.height, chromedp.EmulateMobile))
		} else {
			tb.do("sizing the screen", chromedp.EmulateViewport(screen.width, screen.height))
		}
		// Lighthouse's mobile round trip, 150 ms a request, made by a
		// front that holds every request that long: the page is painted
		// before its scripts and the game's state arrive, as on a phone's
		// network (on loopback it may be painted once, complete, and no
		// shift would be seen).
		slow := h.front(delayed(150 * time.Millisecond))
		wg.Go(func() {
			t.Run("layout shift on "+screen.name, func(t *testing.T) {
				tb.t = t // the tab's failures are this subtest's, in its goroutine
				for _, pg := range []struct{ name, path, what, ready string }{
					{"the finished game", "/g/" + done.ID, "the replay and the analysis", `document.querySelector('#replay-at').textContent !== '' && !!document.querySelector('#analysis table')`},
					{"the profile", "/p/ada", "the rating chart and the last games", `document.querySelector('#rating-chart').dataset.points === '1' && document.querySelectorAll('#archive-rows tr').length === 1`},
					// The analysis board moved its help by the board's height when
					// the script drew it (0.077 in Lighthouse's phone), the
					// tournament everything under each part it filled (0.12, and
					// 0.36 on a desktop).
					{"the analysis board", "/analysis", "the board and its moves", `document.querySelectorAll('#anb-board .hit').length === 11 && document.querySelectorAll('#anb-moves tbody tr').length === 11`},
					{"the tournament", "/t/" + cup.ID, "its players, standings and games", `document.querySelectorAll('#t-games tbody tr').length === 1 && document.querySelectorAll('#t-players tbody tr').length === 2`},
				} {
					tb.openAt(slow, pg.path)
					tb.wait(pg.what, pg.ready)
					ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
					raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](layoutShifts, chromedp.EvalAwaitPromise))
					cancel()
					if err != nil {
						t.Fatalf("%s, %s: measuring the layout shift: %v", screen.name, pg.name, err)
					}
					var cls struct {
						Sum float64
						Src []string
					}
					if err := json.Unmarshal([]byte(raw), &cls); err != nil {
						t.Fatalf("%s, %s: %q: %v", screen.name, pg.name, raw, err)
					}
					t.Logf("%s: %s's layout shift is %.3f (%v)", screen.name, pg.name, cls.Sum, cls.Src)
					if cls.Sum >= 0.05 {
						t.Errorf("%s: %s's page shifts by %.3f as it loads, want under 0.05; what moved: %v", screen.name, pg.name, cls.Sum, cls.Src)
					}
				}
			})
		})
	}
	wg.Wait()
}
