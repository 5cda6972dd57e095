package pages

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"alak/server/store"
	"alak/wire"
)

// TestRenderCaching draws the missing page through RenderStatus: a page
// found is kept and revalidated by the hash of its HTML (the same HTML
// gives the same ETag; If-None-Match naming it, weak or in a list, gets
// 304 without a body), a private page and a missing one are never kept,
// and every answer carries the pages' content security policy.
func TestRenderCaching(t *testing.T) {
	p := New(Config{Log: slog.New(slog.DiscardHandler), Me: func(a store.Account) wire.Me { return wire.Me{Name: a.Name} }})
	get := func(pg Page, status int, inm string) *http.Response {
		t.Helper()
		r := httptest.NewRequest("GET", "/x", nil)
		if inm != "" {
			r.Header.Set("If-None-Match", inm)
		}
		w := httptest.NewRecorder()
		p.RenderStatus(w, r, "missing", pg, status)
		return w.Result()
	}
	pg := Page{Title: "t", Page: "missing", Name: "A sentence."}
	first := get(pg, http.StatusOK, "")
	tag := first.Header.Get("ETag")
	body, _ := io.ReadAll(first.Body)
	if first.StatusCode != http.StatusOK || tag == "" || first.Header.Get("Cache-Control") != "no-cache" || !strings.Contains(string(body), "A sentence.") {
		t.Fatalf("a page: %d, ETag %q, Cache-Control %q, %d bytes", first.StatusCode, tag, first.Header.Get("Cache-Control"), len(body))
	}
	if csp := first.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	if again := get(pg, http.StatusOK, ""); again.Header.Get("ETag") != tag {
		t.Errorf("the same page's ETag %q, then %q", tag, again.Header.Get("ETag"))
	}
	for _, inm := range []string{tag, "W/" + tag, `"other", ` + tag, "*"} {
		resp := get(pg, http.StatusOK, inm)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusNotModified || len(b) != 0 {
			t.Errorf("If-None-Match %s: %d, %d bytes; want 304 without a body", inm, resp.StatusCode, len(b))
		}
	}
	if resp := get(pg, http.StatusOK, `"other"`); resp.StatusCode != http.StatusOK {
		t.Errorf("If-None-Match naming another page: %d, want 200", resp.StatusCode)
	}
	private := pg
	private.Private = true
	for _, c := range []struct {
		name   string
		pg     Page
		status int
	}{{"private", private, http.StatusOK}, {"missing", pg, http.StatusNotFound}} {
		resp := get(c.pg, c.status, tag)
		if resp.StatusCode != c.status || resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("ETag") != "" {
			t.Errorf("%s: %d, Cache-Control %q, ETag %q; want %d, no-store, no ETag", c.name, resp.StatusCode, resp.Header.Get("Cache-Control"), resp.Header.Get("ETag"), c.status)
		}
	}
}
