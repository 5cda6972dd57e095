package server

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"alak/server/internal/pages"
	"alak/wire"
)

// get fetches a path of the harness's server with the client's cookies
// and returns the status, the headers and the body.
func (c *client) get(path string, header map[string]string) (int, http.Header, string) {
	c.h.t.Helper()
	req, err := http.NewRequest("GET", c.h.http.URL+path, nil)
	if err != nil {
		c.h.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.c.Do(req)
	if err != nil {
		c.h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// Inline scripts, inline styles and handlers are refused by the pages'
// policy: no page may hold one.
var inlineRE = regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]|<style|\sstyle=|\son[a-z]+=`)

// otherSite reports whether a page or a file names another site: nothing
// is fetched from elsewhere (SVG's namespace is a name, not a fetch).
func otherSite(body string) bool {
	return strings.Contains(strings.ReplaceAll(body, "http://www.w3.org/2000/svg", ""), "://")
}

func TestPages(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	g := ada.create(map[string]string{"rules": "alterigo size=5x5", "opponent": "computer:level:1"})
	anon := h.client()
	cases := []struct {
		name   string
		c      *client
		path   string
		status int
		want   []string
	}{
		{"home", anon, "/", 200, []string{`data-page="home"`, `<option value="golf"`, `name="opt-edge"`, `Sign in`, `src="` + pages.StaticURL("home.js") + `"`}},
		{"home signed in", ada, "/", 200, []string{`data-me="ada"`, `id="settings"`, `id="my-games"`, `id="sign-out"`}},
		{"game", anon, "/g/" + g.ID, 200, []string{`data-page="game"`, `data-shape="grid" data-w="5" data-h="5" data-ko="none" data-score="none"`, `src="` + pages.StaticURL("game.js") + `"`, `/api/games/` + g.ID + `/sgf`}},
		{"archive", anon, "/archive", 200, []string{`data-page="archive"`, `name="player"`}},
		{"player", anon, "/p/ada", 200, []string{`data-player="ada"`, `<h1>ada</h1>`}},
		{"rules", anon, "/rules", 200, []string{`id="alak"`, `id="golf"`, `id="option-selfcapture"`, `There is no passing`, `src="` + pages.StaticURL("api.js") + `"`}},
		{"analysis board", anon, "/analysis", 200, []string{`data-page="analysis"`, `id="anb-board"`, `<option value="golf"`, `src="` + pages.StaticURL("analysis.js") + `"`, `modulepreload" href="` + pages.StaticURL("board.js") + `"`}},
		{"no such game", anon, "/g/nosuchgame", 404, []string{`There is no game nosuchgame.`}},
		{"no such player", anon, "/p/nobody", 404, []string{`No player is called nobody.`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, hdr, body := c.c.get(c.path, nil)
			if status != c.status {
				t.Errorf("status %d, want %d", status, c.status)
			}
			if ct := hdr.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if csp := hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
			for _, w := range c.want {
				if !strings.Contains(body, w) {
					t.Errorf("the page lacks %s", w)
				}
			}
			if m := inlineRE.FindString(body); m != "" {
				t.Errorf("an inline script, style or handler, which the policy refuses: %q", m)
			}
			if otherSite(body) {
				t.Errorf("the page refers to another site")
			}
		})
	}
}

// TestPageCaching: a page that holds nothing private is kept and
// revalidated (ETag, Cache-Control no-cache; private for someone signed
// in), 304 while its HTML is the same, and drawn again once it changes;
// an account's home page (its settings, its email) and a missing page
// are never kept (no-store). Every page was no-store, so back and
// forward always loaded it again.
func TestPageCaching(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	guest, anon := h.client(), h.client()
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "link"})
	page := func(c *client, path, cache string) string {
		t.Helper()
		status, hdr, body := c.get(path, nil)
		tag, vary := hdr.Get("ETag"), strings.Join(hdr.Values("Vary"), ", ")
		if status != http.StatusOK || hdr.Get("Cache-Control") != cache || tag == "" || !strings.Contains(vary, "Cookie") {
			t.Fatalf("%s: %d, Cache-Control %q, ETag %q, Vary %q; want 200, %s, an ETag, Vary: Cookie", path, status, hdr.Get("Cache-Control"), tag, vary, cache)
		}
		for _, inm := range []string{tag, "W/" + tag, `"other", ` + tag} {
			status, hdr, again := c.get(path, map[string]string{"If-None-Match": inm})
			if status != http.StatusNotModified || again != "" || hdr.Get("ETag") != tag {
				t.Errorf("%s with If-None-Match %s: %d, %d bytes, ETag %q; want 304 without a body", path, inm, status, len(again), hdr.Get("ETag"))
			}
		}
		if !strings.Contains(body, "</html>") {
			t.Errorf("%s: the page is cut: %q", path, body)
		}
		return tag
	}
	for _, p := range []string{"/", "/archive", "/rules", "/rulelab", "/analysis", "/leaderboard", "/watch", "/tournaments", "/p/ada", "/g/" + g.ID} {
		page(anon, p, "no-cache")
	}
	page(ada, "/g/"+g.ID, "private, no-cache")
	guest.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "computer:level:1"}) // a guest's session
	page(guest, "/", "private, no-cache")
	// The game's HTML changes when a player joins (the cards): the old
	// tag gets the new page.
	old := page(anon, "/g/"+g.ID, "no-cache")
	if code := guest.do("POST", "/api/games/"+g.ID+"/join", map[string]string{"invite": g.Invite[strings.Index(g.Invite, "=")+1:]}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	if status, hdr, body := anon.get("/g/"+g.ID, map[string]string{"If-None-Match": old}); status != http.StatusOK || hdr.Get("ETag") == old || !strings.Contains(body, "</html>") {
		t.Errorf("the game page after the join with the old ETag: %d, ETag %q (was %q); want 200 and the new page", status, hdr.Get("ETag"), old)
	}
	for _, c := range []struct {
		c    *client
		path string
	}{{ada, "/"}, {anon, "/g/nosuchgame"}} {
		status, hdr, _ := c.c.get(c.path, nil)
		if hdr.Get("Cache-Control") != "no-store" || hdr.Get("ETag") != "" {
			t.Errorf("%s: %d, Cache-Control %q, ETag %q; want no-store without an ETag", c.path, status, hdr.Get("Cache-Control"), hdr.Get("ETag"))
		}
	}
}

func TestStaticFiles(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	c := h.client()
	for _, f := range []string{"api.js", "board.js", "game.js", "home.js", "archive.js", "alak.css", "icon.svg"} {
		status, hdr, body := c.get("/static/"+f, nil)
		tag := hdr.Get("ETag")
		if status != 200 || tag == "" || body == "" {
			t.Errorf("%s: %d, ETag %q, %d bytes", f, status, tag, len(body))
			continue
		}
		if status, _, _ := c.get("/static/"+f, map[string]string{"If-None-Match": tag}); status != http.StatusNotModified {
			t.Errorf("%s again with its ETag: %d, want 304", f, status)
		}
		if otherSite(body) {
			t.Errorf("%s refers to another site", f)
		}
	}
}

// TestGamePageWeight keeps the game page, with every script it imports
// and the style sheet, under 80 kB uncompressed. It was 60 kB until issue
// 28 added notifications, ratings, the rematch and the players' messages
// (69,449 bytes then); what travels is gzipped, and TestPageWeight keeps
// that under its own budget per page.
func TestGamePageWeight(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	c := h.client()
	g := c.create(map[string]string{"rules": "alak", "opponent": "computer:level:1"})
	_, _, html := c.get("/g/"+g.ID, nil)
	total := len(html)
	seen := map[string]bool{}
	queue := regexp.MustCompile(`(?:src|href)="(/static/[^"]+)"`).FindAllStringSubmatch(html, -1)
	importRE := regexp.MustCompile(`from '\./([a-z]+\.js)'`)
	for len(queue) > 0 {
		path := queue[0][1]
		queue = queue[1:]
		if seen[path] {
			continue
		}
		seen[path] = true
		status, _, body := c.get(path, nil)
		if status != 200 {
			t.Fatalf("%s: %d", path, status)
		}
		total += len(body)
		for _, m := range importRE.FindAllStringSubmatch(body, -1) {
			queue = append(queue, []string{"", path[:strings.LastIndex(path, "/")+1] + m[1]}) // beside the importer
		}
	}
	t.Logf("the game page loads %d bytes in %d files and the HTML", total, len(seen))
	if total > 80_000 {
		t.Errorf("the game page loads %d bytes, more than 80 kB", total)
	}
}

// TestPositions: the replay's positions of seed 002's Alak-6 game, from
// the empty board to the end, xx/X//.
func TestPositions(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil)
	for i, m := range seedAlak6 {
		if code, _, e := []*client{ada, bo}[i%2].move(g.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %d %s: %d %+v", i+1, m, code, e)
		}
	}
	var p wire.Positions
	if code := h.client().do("GET", "/api/games/"+g.ID+"/positions", nil, &p); code != http.StatusOK {
		t.Fatalf("positions: %d", code)
	}
	// The diagrams of seed 002 after moves 4 and 15 (docs/notation.md).
	if len(p.Positions) != 16 || p.Positions[0] != "------" || p.Positions[4] != "x--o/O" || p.Positions[15] != "xx/X//" {
		t.Errorf("positions %q", p.Positions)
	}
	if len(p.Stones) != 16 || p.Stones[15]["x"] != 3 || p.Stones[15]["o"] != 0 {
		t.Errorf("stones %v", p.Stones)
	}
	var e errBody
	if code := h.client().do("GET", "/api/games/nosuchgame/positions", nil, &e); code != http.StatusNotFound || e.Code != "not_found" {
		t.Errorf("an unknown game's positions: %d %+v", code, e)
	}
}
