package pages

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/web"
	"alak/wire"
)

// names are the pages' templates: web/templates/NAME.html, each in the
// layout with the forms.
var names = []string{"home", "game", "archive", "rules", "missing", "leaderboard", "watch", "tournaments", "tournament", "analysis", "rulelab", "puzzles", "learn"}

// templates are the pages' templates by name, parsed once from the files
// embedded in the binary.
var templates = func() map[string]*template.Template {
	funcs := template.FuncMap{"choices": choices, "add1": func(i int) int { return i + 1 },
		"static": StaticURL, "preloads": modulePreloads}
	out := map[string]*template.Template{}
	for _, name := range names {
		out[name] = template.Must(template.New(name).Funcs(funcs).ParseFS(web.Templates, "templates/layout.html", "templates/forms.html", "templates/"+name+".html"))
	}
	return out
}()

// Config is what the pages take from the rest of the server.
type Config struct {
	// Log receives a page that could not be drawn and a store that could
	// not serve one.
	Log *slog.Logger
	// Me is the signed-in account as the page's header shows it.
	Me func(store.Account) wire.Me
	// Levels are the computer's levels in words, Days the days per move a
	// correspondence game may have: the create form's choices.
	Levels []LevelChoice
	Days   []int
	// Lessons are the lessons of each preset's rules, by the preset's
	// name, for the rules page.
	Lessons map[string][]LessonLink
}

// Pages draws the pages. Its methods are safe for concurrent use.
type Pages struct {
	log *slog.Logger
	me  func(store.Account) wire.Me
	// Forms is the create form's choices and the archive's filter, for
	// the pages that hold them (Page.Forms); read only.
	Forms *Forms
	rules []PresetText
}

// New returns the pages of cfg.
func New(cfg Config) *Pages {
	return &Pages{log: cfg.Log, me: cfg.Me, Forms: newForms(cfg.Levels, cfg.Days), rules: rulesTexts(cfg.Lessons)}
}

// Routes serves the static files and the pages that are a frame only,
// whose scripts take everything from the API.
func (p *Pages) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /static/", p.serveStatic())
	mux.HandleFunc("GET /archive", func(w http.ResponseWriter, r *http.Request) {
		p.Render(w, r, "archive", Page{Title: "archive", Page: "archive", Forms: p.Forms})
	})
	mux.HandleFunc("GET /leaderboard", func(w http.ResponseWriter, r *http.Request) {
		p.Render(w, r, "leaderboard", Page{Title: "leaderboard", Page: "leaderboard", Forms: p.Forms})
	})
	mux.HandleFunc("GET /rules", func(w http.ResponseWriter, r *http.Request) {
		p.Render(w, r, "rules", Page{Title: "rules", Page: "rules", Rules: p.rules, Forms: p.Forms})
	})
}

// Unavailable answers a page the store could not serve: 503 with
// Retry-After and a page that says to reload, never one that says what
// was asked for does not exist.
func (p *Pages) Unavailable(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	p.log.ErrorContext(r.Context(), "page failed", "path", r.URL.Path, "err", err)
	w.Header().Set("Retry-After", strconv.Itoa(httpx.RetrySeconds(httpx.RetryUnavailable)))
	p.RenderStatus(w, r, "missing", Page{Title: "unavailable", Page: "missing",
		Name: "The server cannot reach its database just now: reload the page in a few seconds."}, http.StatusServiceUnavailable)
}

// NotFound answers 404 with a page that says what is missing.
func (p *Pages) NotFound(w http.ResponseWriter, r *http.Request, msg string) {
	p.RenderStatus(w, r, "missing", Page{Title: "not found", Page: "missing", Name: msg}, http.StatusNotFound)
}

// Render answers the page name (web/templates/NAME.html) drawn from pg,
// 200 (RenderStatus).
func (p *Pages) Render(w http.ResponseWriter, r *http.Request, name string, pg Page) {
	p.RenderStatus(w, r, name, pg, http.StatusOK)
}

// RenderStatus renders a page in the layout, under the pages' strict
// content security policy: no inline script or style.
//
// A page found (200) that holds nothing private is kept by the browser
// and revalidated: its ETag is the hash of its HTML, Cache-Control
// no-cache (private, no-cache when drawn for someone signed in, whose
// name is in its header), and a request whose If-None-Match names the
// same HTML gets 304 without it; back and forward may then show it from
// the browser's caches instead of loading it again. A private page
// (Page.Private) and a missing one are no-store.
func (p *Pages) RenderStatus(w http.ResponseWriter, r *http.Request, name string, pg Page, status int) {
	if a := httpx.Account(r); a != nil {
		me := p.me(*a)
		pg.Me = &me
	}
	var buf bytes.Buffer
	if err := templates[name].ExecuteTemplate(&buf, "layout", pg); err != nil {
		p.log.ErrorContext(r.Context(), "rendering a page", "page", name, "err", err)
		http.Error(w, "the page could not be drawn", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	if status != http.StatusOK || pg.Private {
		h.Set("Cache-Control", "no-store")
	} else {
		sum := sha256.Sum256(buf.Bytes())
		tag := `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
		h.Set("ETag", tag)
		// The same address is another page for someone signed in.
		h.Add("Vary", "Cookie")
		if pg.Me != nil {
			h.Set("Cache-Control", "private, no-cache")
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		if etagMatches(r.Header.Get("If-None-Match"), tag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// etagMatches reports whether an If-None-Match header names the entity
// tag tag, by the weak comparison RFC 9110 asks of it (W/ ignored), or is
// "*".
func etagMatches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == tag || t == "*" {
			return true
		}
	}
	return false
}
