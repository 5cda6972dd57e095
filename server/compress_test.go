package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"alak/server/internal/pages"
)

// rawGet fetches path from the harness with the Accept-Encoding given,
// through a transport that leaves the body as the server sent it (Go's
// client otherwise asks for gzip itself and hides the encoding).
func rawGet(t *testing.T, h *harness, path, encoding string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", h.http.URL+path, nil)
	if encoding != "" {
		req.Header.Set("Accept-Encoding", encoding)
	}
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 30 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("a broken gzip body: %v", err)
	}
	return out
}

// staticRE finds the static files a page refers to.
var staticRE = regexp.MustCompile(`(?:href|src)="(/static/[^"]+)"`)

// TestCompression: over loopback HTTP, a client that accepts gzip gets
// the page, its script and style sheet, and a JSON answer gzipped, and
// the same bytes once unzipped as a client that does not; a client that
// does not ask gets them plain. Small answers (under gzhttp's 1 KiB) stay
// plain.
func TestCompression(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	_, home := rawGet(t, h, "/", "")
	assets := staticRE.FindAllStringSubmatch(string(home), -1)
	if len(assets) < 3 {
		t.Fatalf("the home page refers to %d static files, want the icon, the style sheet and the script: %s", len(assets), home)
	}
	paths := []string{"/", "/rules", "/api/rules"}
	for _, a := range assets {
		if !strings.HasSuffix(a[1], ".svg") {
			paths = append(paths, a[1])
		}
	}
	for _, p := range paths {
		plainResp, plain := rawGet(t, h, p, "")
		if ce := plainResp.Header.Get("Content-Encoding"); ce != "" || plainResp.StatusCode != http.StatusOK {
			t.Errorf("%s without Accept-Encoding: %d, Content-Encoding %q", p, plainResp.StatusCode, ce)
		}
		resp, zipped := rawGet(t, h, p, "gzip")
		if ce := resp.Header.Get("Content-Encoding"); ce != "gzip" {
			t.Errorf("%s with Accept-Encoding gzip: Content-Encoding %q (%s, %d bytes plain), want gzip", p, ce, resp.Header.Get("Content-Type"), len(plain))
			continue
		}
		if !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Vary %q does not name Accept-Encoding", p, resp.Header.Get("Vary"))
		}
		if got := gunzip(t, zipped); !bytes.Equal(got, plain) {
			t.Errorf("%s: the gzipped body unzips to %d bytes, the plain one has %d", p, len(got), len(plain))
		}
		if len(zipped) >= len(plain) {
			t.Errorf("%s: gzipped %d bytes, plain %d", p, len(zipped), len(plain))
		}
	}
	// The icon (under 1 KiB) and a short error are not worth it.
	for _, p := range []string{"/static/icon.svg", "/api/games/nosuchgame"} {
		resp, _ := rawGet(t, h, p, "gzip")
		if ce := resp.Header.Get("Content-Encoding"); ce != "" {
			t.Errorf("%s (small): Content-Encoding %q, want none", p, ce)
		}
	}
	// Nor the answers that carry a secret (docs/security.md, BREACH): a
	// new token, a new game's invitation link.
	ada := h.client().signUp("ada")
	for _, c := range []struct{ path, body string }{
		{"/api/tokens", `{"name": "ada", "password": "correct horse"}`},
		{"/api/games", `{"rules": "alak", "opponent": "link"}`},
	} {
		resp, body := ada.roundTrip("POST", c.path, strings.NewReader(c.body), map[string]string{"Content-Type": "application/json", "Accept-Encoding": "gzip"})
		if resp.StatusCode != http.StatusCreated || resp.Header.Get("Content-Encoding") != "" {
			t.Errorf("POST %s: %d, Content-Encoding %q (%s); want 201 and none", c.path, resp.StatusCode, resp.Header.Get("Content-Encoding"), body)
		}
	}
	// Nor a move's answer, though it is over 1 KiB and the same game's
	// view is gzipped when read (compress says why).
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=11", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	resp, body := ada.roundTrip("POST", "/api/games/"+g.ID+"/moves", strings.NewReader(`{"move": "3", "ply": 0}`), map[string]string{"Content-Type": "application/json", "Accept-Encoding": "gzip"})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" || len(body) < 1024 {
		t.Errorf("a move: %d, Content-Encoding %q, %d bytes; want 200, none, over 1 KiB", resp.StatusCode, resp.Header.Get("Content-Encoding"), len(body))
	}
	if resp, _ := rawGet(t, h, "/api/games/"+g.ID, "gzip"); resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("the game read after the move: Content-Encoding %q, want gzip", resp.Header.Get("Content-Encoding"))
	}
}

// TestCompressionLeavesEventsAlone: the event stream of a client that
// accepts gzip is sent plain, and each event arrives as it is written:
// the first state at once, a move's event while the stream stays open (a
// compressor holding bytes back would hold it until the stream ends, or
// send it as gzip).
func TestCompressionLeavesEventsAlone(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", h.http.URL+"/api/games/"+g.ID+"/events", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ce := resp.Header.Get("Content-Encoding"); ce != "" || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("the stream: Content-Encoding %q, Content-Type %q; want none and text/event-stream", ce, resp.Header.Get("Content-Type"))
	}
	events := make(chan string, 8)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- d
			}
		}
	}()
	next := func(what string) string {
		t.Helper()
		select {
		case d, ok := <-events:
			if !ok {
				t.Fatalf("waiting for %s: the stream ended", what)
			}
			return d
		case <-ctx.Done():
			t.Fatalf("waiting for %s: no event within %s", what, waitFor)
		}
		return ""
	}
	if d := next("the first state"); !strings.Contains(d, `"ply":0`) {
		t.Errorf("the first event: %.200s", d)
	}
	if code, _, e := ada.move(g.ID, "2", 0); code != http.StatusOK {
		t.Fatalf("move: %d %+v", code, e)
	}
	if d := next("the move's event"); !strings.Contains(d, `"ply":1`) {
		t.Errorf("the move's event: %.200s", d)
	}
}

// TestStaticCaching: the pages refer to their static files under the
// files' version (pages.StaticURL), answered with a year's immutable caching;
// the plain names still answer, revalidated; a version that is not this
// binary's gets today's file, revalidated; no page refers to a plain name.
func TestStaticCaching(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	g := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "computer:level:1"})
	paths := []string{"/", "/g/" + g.ID, "/archive", "/p/ada", "/rules", "/nowhere"}
	seen := map[string]bool{}
	for _, p := range paths {
		_, b := rawGet(t, h, p, "")
		for _, m := range regexp.MustCompile(`/static/[^"' )]*`).FindAllString(string(b), -1) {
			if !strings.HasPrefix(m, "/static/v/"+pages.StaticVersion()+"/") {
				t.Errorf("%s refers to %s, not through the template function static", p, m)
			}
			seen[m] = true
		}
	}
	if len(seen) < 5 { // icon.svg, alak.css and the scripts of home, game and archive at least
		t.Errorf("the pages refer to %d static files: %v", len(seen), seen)
	}
	// The game page's module imports api.js and board.js (web/static/game.js):
	// the page has the browser fetch them beside it.
	_, game := rawGet(t, h, "/g/"+g.ID, "")
	for _, name := range []string{"api.js", "board.js"} {
		if link := `<link rel="modulepreload" href="` + pages.StaticURL(name) + `">`; !strings.Contains(string(game), link) {
			t.Errorf("the game page lacks %s", link)
		}
	}
	for u := range seen {
		resp, body := rawGet(t, h, u, "")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s: %d, Cache-Control %q; want 200, public, max-age=31536000, immutable", u, resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
		name := u[strings.LastIndex(u, "/")+1:]
		oldResp, oldBody := rawGet(t, h, "/static/"+name, "")
		if oldResp.StatusCode != http.StatusOK || oldResp.Header.Get("Cache-Control") != "no-cache" || oldResp.Header.Get("ETag") == "" || !bytes.Equal(oldBody, body) {
			t.Errorf("/static/%s: %d, Cache-Control %q, ETag %q, %d bytes (versioned %d); want 200, no-cache, an ETag, the same file",
				name, oldResp.StatusCode, oldResp.Header.Get("Cache-Control"), oldResp.Header.Get("ETag"), len(oldBody), len(body))
		}
		otherResp, otherBody := rawGet(t, h, "/static/v/anotherversion/"+name, "")
		if otherResp.StatusCode != http.StatusOK || otherResp.Header.Get("Cache-Control") != "no-cache" || !bytes.Equal(otherBody, body) {
			t.Errorf("/static/v/anotherversion/%s: %d, Cache-Control %q; want 200, no-cache, today's file", name, otherResp.StatusCode, otherResp.Header.Get("Cache-Control"))
		}
	}
	for _, p := range []string{"/static/v/" + pages.StaticVersion() + "/", "/static/v/" + pages.StaticVersion() + "/nosuch.js", "/static/v/", "/static/v/" + pages.StaticVersion() + "/v/" + pages.StaticVersion() + "/api.js"} {
		if resp, _ := rawGet(t, h, p, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, resp.StatusCode)
		}
	}
}
