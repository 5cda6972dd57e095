package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"alak/wire"
)

// TestBrowserRuleLab: /rulelab shows GET /api/rulelab's table (a cell's
// value and openings the API's), passes the pages' checks, its cells are
// reached with the Tab key and fit a finger on a phone (44 px, the table
// scrolling sideways in its region, not the page), and a click on a cell
// opens the analysis board on that variant and size, which shows the
// position's value and best moves as the lab's cell gives them.
//
//	go test ./server -run BrowserRuleLab -update-screenshots   # docs/img/rulelab.png
func TestBrowserRuleLab(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	b := newBrowser(t, h)
	var lab wire.RuleLab
	if code := h.client().do("GET", "/api/rulelab", nil, &lab); code != 200 {
		t.Fatalf("GET /api/rulelab: %d", code)
	}
	k := labColumn(t, lab, "edge=off")
	// The cell edge=off on 5 points: 1 (1 3 5) in docs/rulelab.md.
	const size = 5
	want := lab.Rows[size-1].Cells[k]
	if want == nil || want.Value == nil {
		t.Fatalf("edge=off on %d points: %+v", size, want)
	}
	cell := fmt.Sprintf(`#lab-table tr[data-size="%d"] td:nth-child(%d) a`, size, k+2)

	tb := b.user("ada")
	tb.open("/rulelab")
	pageChecked(tb)
	// The openings' grey on the tinted cells: 4.07:1 before (axe-core's
	// color-contrast), WCAG AA asks 4.5:1, in either scheme.
	for _, scheme := range []string{"dark", "light"} { // light last: the screenshot below
		tb.do("the "+scheme+" scheme", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}))
		var c struct {
			Worst float64
			What  string
		}
		if err := json.Unmarshal([]byte(tb.eval(contrastAll+`('#lab-table td *')`)), &c); err != nil {
			t.Fatal(err)
		}
		if c.Worst < 4.5 {
			t.Errorf("the %s scheme: a cell's text %q has a contrast of %.2f:1, want 4.5:1 at least", scheme, c.What, c.Worst)
		}
	}
	if got := tb.eval(`document.querySelectorAll('#lab-table tbody tr').length`); got != strconv.Itoa(len(lab.Rows)) {
		t.Errorf("%s rows on the page, %d in the API", got, len(lab.Rows))
	}
	if got := tb.eval(`document.querySelector('#lab-table thead th:nth-child(` + strconv.Itoa(k+2) + `)').textContent`); got != "edge=off" {
		t.Errorf("column %d is headed %q, want edge=off", k+2, got)
	}
	value, best := tb.eval(`document.querySelector('`+cell+` .lab-v').textContent`), tb.eval(`document.querySelector('`+cell+` .lab-best').textContent`)
	if value != strconv.FormatFloat(*want.Value, 'f', -1, 64) || best != strings.Join(want.Best, " ") || value != "1" || best != "1 3 5" {
		t.Errorf("the page's cell: %s (%s); the API's %v (%s); docs/rulelab.md's 1 (1 3 5)", value, best, *want.Value, strings.Join(want.Best, " "))
	}
	// Every solved cell of the API is a link on the page, and no other.
	solved := 0
	for _, row := range lab.Rows {
		for _, c := range row.Cells {
			if c != nil && c.Value != nil {
				solved++
			}
		}
	}
	if got := tb.eval(`document.querySelectorAll('#lab-table tbody td a[href^="/analysis?"]').length`); got != strconv.Itoa(solved) {
		t.Errorf("%s cells link to the analysis board, %d are solved", got, solved)
	}

	// The keyboard: Tab from the last column's heading reaches the first
	// row's first cell.
	tb.eval(`document.querySelector('#lab-table thead th:last-child a').focus()`)
	tb.do("the Tab key", chromedp.KeyEvent(kb.Tab))
	if got := tb.eval(`document.activeElement === document.querySelector('#lab-table tbody tr:first-child td a')`); got != "true" {
		t.Errorf("Tab after the last heading focuses %s, not the first cell", tb.eval(`document.activeElement.outerHTML.slice(0, 120)`))
	}
	tb.eval(`document.activeElement.blur()`)
	tb.do("sizing the window", chromedp.EmulateViewport(1100, 1200))
	tb.shot("rulelab.png") // the whole table, 16 rows

	// A phone: the page does not scroll sideways (the table does, in its
	// region), and the cells are 44 px tall at least.
	tb.do("a phone's screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateTouch, chromedp.EmulateMobile))
	tb.open("/rulelab")
	if w := tb.eval(`document.documentElement.scrollWidth`); w != "390" {
		t.Errorf("the page is %s px wide on a 390 px phone", w)
	}
	if got := tb.eval(`[...document.querySelectorAll('#lab-table td a')].filter((a) => a.getBoundingClientRect().height < 44).length`); got != "0" {
		t.Errorf("%s cells under 44 px on a phone", got)
	}
	if got := tb.eval(`document.querySelector('.lab-wrap').scrollWidth > document.querySelector('.lab-wrap').clientWidth`); got != "true" {
		t.Errorf("the table does not scroll in its region on a phone")
	}
	tb.do("sizing the window", chromedp.EmulateViewport(1100, 760))

	// The click opens the analysis board on edge=off and 5 points, with
	// the empty line's value and best moves the cell's.
	tb.clickTo(cell, "/analysis")
	// The address is the cell's link (rules=alak edge=off&size=5) until the
	// board writes its own (rules=alak edge=off size=5): either names the
	// variant and the size (a whole-suite run read the link's).
	q, err := url.ParseQuery(strings.TrimPrefix(tb.eval(`location.search`), "?"))
	if q.Get("size") != "" {
		q.Set("rules", q.Get("rules")+" size="+q.Get("size"))
	}
	if f := strings.Fields(q.Get("rules")); err != nil || len(f) != 3 || f[0] != "alak" || !slices.Contains(f, "edge=off") || !slices.Contains(f, "size=5") {
		t.Errorf("the board opened at %s", tb.eval(`location.href`))
	}
	tb.wait("the board's values", fmt.Sprintf(`document.querySelectorAll('#anb-board g[data-i]').length === %d && document.querySelectorAll('#anb-board g[data-value]').length === %d && !!document.querySelector('#anb-value') && document.querySelector('#anb-value').dataset.value !== undefined`, size, want.Openings))
	if got := tb.eval(`document.querySelector('#anb-preset').value + ' ' + document.querySelector('#anb-size').value + ' ' + document.querySelector('#anb-options').value`); got != "alak 5 edge=off" {
		t.Errorf("the board's rules form shows %q, want alak 5 edge=off", got)
	}
	if got := tb.eval(`document.querySelector('#anb-value').dataset.value`); got != strconv.FormatFloat(*want.Value, 'f', -1, 64) {
		t.Errorf("the board's value %s, the lab's %v", got, *want.Value)
	}
	if got := tb.eval(`[...document.querySelectorAll('#anb-board g.best')].map((g) => g.dataset.name).join(' ')`); got != strings.Join(want.Best, " ") {
		t.Errorf("the board's best moves %q, the lab's %q", got, strings.Join(want.Best, " "))
	}
}

// labColumn returns the index of the lab's column of variant.
func labColumn(t *testing.T, lab wire.RuleLab, variant string) int {
	t.Helper()
	for i, c := range lab.Columns {
		if c.Variant == variant {
			return i
		}
	}
	t.Fatalf("no column %s", variant)
	return -1
}
