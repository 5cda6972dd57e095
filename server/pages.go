package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"alak/notation"
	"alak/player"
	"alak/rules"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/web"
	"alak/wire"
)

// page is what a page's template is given: who is signed in, and what the
// page shows. The scripts read the body's data attributes; everything else
// they take from the JSON API.
type page struct {
	Title string
	Page  string // home, game, archive, rules, missing
	Me    *wire.Me

	Game  *boardInfo // the game page
	Name  string     // the player of /p/{name}; the missing page's sentence
	Forms *formInfo  // the create form and the archive's filter
	Rules []presetText

	// Ratings are the player's ratings on /p/{name}, drawn with the page
	// (as profile.js draws them again) so that the table and the chart's
	// place are there from the first paint and nothing below them moves.
	Ratings []wire.PoolRating

	// HouseBots are the house bots' names by level, HouseBotTop the
	// strongest's (home page).
	HouseBots   []string
	HouseBotTop string
	// Tournament is the id of the tournament on /t/{id}.
	Tournament string
	// Board is the analysis board's game to open.
	Board *boardPage
	// Lab is the rule lab's table (/rulelab).
	Lab *labPage

	// Puzzle is the puzzle of /puzzles/{id}; Themes the puzzles' themes
	// to choose from; Lessons the lessons of /learn.
	Puzzle  string
	Themes  []string
	Lessons []wire.Lesson

	// Private: the page holds what only its reader may see (an account's
	// settings, its email address): never kept by a cache.
	Private bool
}

// boardInfo is what the game page needs to know of a game's rules before
// its first state arrives: the board's shape and the rules that change
// what the page offers (passing, counting, why a point is forbidden).
type boardInfo struct {
	ID    string
	Shape string // line, grid, slide
	W, H  int
	Ko    string
	Pass  bool
	Score string

	// Over: the game was finished when the page was drawn, so the page
	// shows its replay, SGF and analysis from the first paint. Box and
	// Width are the board drawing's viewBox and width (boardBox): an
	// empty drawing of that size holds the board's place until the
	// script draws it, so that nothing below it moves; Rows empty lines
	// hold the move list's place in the same way (a line for two moves),
	// and Result is the status line's sentence, as game.js writes it.
	Over   bool
	Box    string
	Width  int
	Rows   int
	Result string

	// Cards are the players' cards as game.js fills them (the name, and
	// the rating as ratings.js's cardRating writes it), x then o, so that
	// a card that wraps onto a second line does so from the first paint.
	Cards [2]cardInfo

	// Tournament is a tournament's game's tournament and round.
	Tournament *wire.TournamentRef
}

// cardInfo is a player card's name and rating.
type cardInfo struct {
	Name        string
	Link        bool   // an account's name, linked to its page
	Rating      string // "1753?", "1862? (+109)", "1500 · unrated"
	RatingClass string // "up" or "down" once a rated game is over
	Bot         bool   // a bot account
}

// signedWords writes a rating change as ratings.js's signed does: +162,
// −41 (a true minus), ±0.
func signedWords(x float64) string {
	n := int(math.Round(x))
	switch {
	case n == 0:
		return "±0"
	case n > 0:
		return "+" + strconv.Itoa(n)
	}
	return "−" + strconv.Itoa(-n)
}

// cardsAndEnd are the players' cards of the game's view v and, for a
// finished rated game, the sentence ratings.js's endWords adds to the
// result (" Ratings: ada +162, bo −162.").
func cardsAndEnd(v wire.Game) (cards [2]cardInfo, end string) {
	var parts []string
	for i, c := range []string{"x", "o"} {
		p := v.Players[c]
		cards[i] = cardInfo{Name: p.Name, Link: p.Name != "" && !p.Computer && !p.Guest, Bot: p.Bot}
		switch {
		case p.Name == "" && v.Invitee != "":
			cards[i].Name = v.Invitee + " (invited)"
		case p.Name == "":
			cards[i].Name = "waiting for a player"
		}
		r, ok := v.Ratings[c]
		if !ok {
			continue
		}
		cards[i].Rating = r.Shown
		if !v.Rated {
			cards[i].Rating += " · unrated"
		}
		if r.RatingChange != nil && r.RatingAfter != nil {
			q := ""
			if r.Provisional {
				q = "?"
			}
			cards[i].Rating = strconv.Itoa(int(math.Round(*r.RatingAfter))) + q + " (" + signedWords(*r.RatingChange) + ")"
			cards[i].RatingClass = "up"
			if *r.RatingChange < 0 {
				cards[i].RatingClass = "down"
			}
			parts = append(parts, p.Name+" "+signedWords(*r.RatingChange))
		}
	}
	if v.Rated && v.State == store.StateFinished && len(parts) > 0 {
		end = " Ratings: " + strings.Join(parts, ", ") + "."
	}
	return cards, end
}

// boardBox is the size of the board's drawing as web/static/board.js
// makes it (Geometry.size and draw: 40 units a point, the width
// attribute 1.3 to 2 times the units): its viewBox and its width in CSS
// pixels. TestBrowserPageChecks checks that the drawing has this size.
func boardBox(shape string, w, h int) (string, int) {
	const u = 40.0
	var bw, bh float64
	switch {
	case shape == "grid":
		bw, bh = u*float64(w+1)+u*0.3, u*float64(h)+u*1.25
	case shape == "line" && w <= 26:
		bw, bh = u*float64(w+1), u*2.75
	default:
		bw, bh = u*float64(w+1), u*2.3
	}
	scale := min(2, max(1.3, 600/bw))
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	return "0 0 " + f(bw) + " " + f(bh), int(math.Floor(bw*scale + 0.5))
}

// analysisBox is the size of the analysis board's drawing (boardBox) for
// the rules the page opens: a game's (gameRules), or the address's as
// analysis.js reads them (rules=, alak size=11 when absent, and size=
// when the rules have none); "" and 0 when they do not parse.
func analysisBox(gameRules string, q url.Values) (string, int) {
	text := gameRules
	if text == "" {
		text = q.Get("rules")
		if text == "" {
			text = "alak size=11"
		}
		if size := q.Get("size"); size != "" && !strings.Contains(" "+text, " size=") {
			text += " size=" + size
		}
	}
	if len(text) > 300 {
		return "", 0
	}
	rs, err := rules.Parse(text)
	if err != nil {
		return "", 0
	}
	return boardBox(shapeOf(rs), rs.Width, rs.Height)
}

// formInfo is the create form's choices, from the rules package and the
// computer's levels.
type formInfo struct {
	Presets []presetForm
	Options []rules.Option
	Levels  []string
	Days    []int
	Choices []levelChoice // the levels in words, for the create form
}

type presetForm struct {
	Name    string
	Size    string
	Shape   string
	Values  string // the preset's option values, as a JSON object
	Applies string // the options it takes, space-separated
}

// presetText is a preset on the rules page: its origin and its rules in
// sentences (notation.RulesText).
type presetText struct {
	Name, Origin string
	Lines        []string
	// Lessons are the lessons of the preset's rules (/learn).
	Lessons []lessonLink
}

// presetOrigins says where each preset comes from, after docs/rules.md.
var presetOrigins = map[string]string{
	"alak":         "Alan Baljeu's rules, as played by mail: the default.",
	"traditional":  "Go's rules on a line, as Sensei's Library states them.",
	"tromp-taylor": "Linear Go of the research literature: positional superko and area scoring.",
	"alterigo":     "Alter Igo, a two-dimensional variant with a minimal rule set.",
	"dewdney":      "Dewdney's game as Sean Burke read it: pieces slide along the line.",
	"golf":         "The code-golf text: dewdney, and a moved piece left between two enemies is removed.",
}

var (
	pageTemplates = map[string]*template.Template{}
	forms         formInfo
	rulesTexts    []presetText
	staticETags   = map[string]string{}
)

func init() {
	funcs := template.FuncMap{"choices": choices, "add1": func(i int) int { return i + 1 },
		"static": staticURL, "preloads": modulePreloads}
	for _, name := range []string{"home", "game", "archive", "rules", "missing", "leaderboard", "watch", "tournaments", "tournament", "analysis", "rulelab", "puzzles", "learn"} {
		pageTemplates[name] = template.Must(template.New(name).Funcs(funcs).ParseFS(web.Templates, "templates/layout.html", "templates/forms.html", "templates/"+name+".html"))
	}
	for i := 1; i <= player.Levels(); i++ {
		spec, _ := player.Level(i)
		forms.Levels = append(forms.Levels, spec)
	}
	forms.Options, forms.Days, forms.Choices = rules.Options(), game.CorrespondenceDays, levelChoices()
	for _, name := range rules.Presets() {
		r := rules.MustPreset(name)
		values := map[string]string{}
		var applies []string
		for _, o := range forms.Options {
			values[o.Name], _ = r.Get(o.Name)
			if r.Applies(o.Name) || o.Name == "passes" || o.Name == "komi" {
				applies = append(applies, o.Name)
			}
		}
		js, _ := json.Marshal(values)
		forms.Presets = append(forms.Presets, presetForm{Name: name, Size: r.SizeString(), Shape: shapeOf(r), Values: string(js), Applies: strings.Join(applies, " ")})
		lines := strings.Split(strings.TrimSpace(notation.RulesText(r)), "\n")
		rulesTexts = append(rulesTexts, presetText{Name: name, Origin: presetOrigins[name], Lines: lines[1:], Lessons: presetLessons[name]}) // the first line names the rules
	}
	tree := sha256.New() // every file's name and hash, in WalkDir's lexical order
	fs.WalkDir(web.Static, "static", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(web.Static, path)
			sum := sha256.Sum256(b)
			staticETags[strings.TrimPrefix(path, "static/")] = `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
			fmt.Fprintf(tree, "%s %x\n", path, sum)
		}
		return nil
	})
	staticVersion = base64.RawURLEncoding.EncodeToString(tree.Sum(nil)[:9])
	for name := range staticETags {
		if strings.HasSuffix(name, ".js") {
			b, _ := fs.ReadFile(web.Static, "static/"+name)
			for _, m := range moduleImportRE.FindAllStringSubmatch(string(b), -1) {
				moduleImports[name] = append(moduleImports[name], m[1])
			}
		}
	}
}

// moduleImports is what each script imports, by name: the modules import
// each other by relative paths, './api.js'.
var (
	moduleImports  = map[string][]string{}
	moduleImportRE = regexp.MustCompile(`(?m)^import [^;]* from '\./([a-z0-9-]+\.js)';`)
)

// modulePreloads lists the scripts that the page's module (PAGE.js)
// imports, directly or not, for the layout's modulepreload links: the
// browser fetches them beside the module instead of after it. A page
// without a module of its own has none.
func modulePreloads(page string) []string {
	var out []string
	seen := map[string]bool{page + ".js": true}
	// A copy: appending to the shared list's spare room would write into
	// moduleImports under concurrent requests.
	queue := slices.Clone(moduleImports[page+".js"])
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
			queue = append(queue, moduleImports[name]...)
		}
	}
	return out
}

// staticVersion is the hash of all the static files together, the folder
// of their long-cached URLs: /static/v/{staticVersion}/game.js. One hash
// for the whole folder, not one per file, because the scripts are modules
// that import each other by relative paths (./api.js): under one folder
// they all come from the same version, and a change to any file moves
// them all to a new folder.
var staticVersion string

// staticURL is the URL the pages give for a static file (the template
// function static): under the files' version, cached for a year and never
// revalidated. The plain /static/{name} answers too, revalidated each
// time, for a page or a bookmark from before.
func staticURL(name string) string {
	return "/static/v/" + staticVersion + "/" + name
}

// choices splits an option's accepted values ("on|off") into a list, or
// returns nil when the option takes free text ("1-9", a number).
func choices(values string) []string {
	if !strings.Contains(values, "|") || strings.ContainsAny(values, " ,") {
		return nil
	}
	return strings.Split(values, "|")
}

func shapeOf(r rules.Rules) string {
	switch {
	case r.Movement == rules.Sliding:
		return "slide"
	case r.IsLine():
		return "line"
	}
	return "grid"
}

// pageRoutes serves the pages, their assets, and the replay's positions.
func (s *Server) pageRoutes(mux *http.ServeMux) {
	static, err := fs.Sub(web.Static, "static")
	if err != nil {
		panic(err)
	}
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	mux.HandleFunc("GET /static/", func(w http.ResponseWriter, r *http.Request) {
		// Files only: a folder (/static/ itself too) is not listed.
		name := strings.TrimPrefix(r.URL.Path, "/static/")
		cache := "no-cache"
		if rest, ok := strings.CutPrefix(name, "v/"); ok {
			// A versioned URL (staticURL): immutable when the version is
			// this binary's; a page of another version gets today's file,
			// revalidated.
			version, file, _ := strings.Cut(rest, "/")
			if version == staticVersion {
				cache = "public, max-age=31536000, immutable"
			}
			name = file
			r = r.Clone(r.Context())
			r.URL.Path, r.URL.RawPath = "/static/"+file, ""
		}
		tag, ok := staticETags[name]
		if !ok {
			s.notFound(w, r, "There is no such file.")
			return
		}
		// The files change only with the binary: revalidated by their
		// hash, never fetched twice unchanged.
		w.Header().Set("ETag", tag)
		w.Header().Set("Cache-Control", cache)
		files.ServeHTTP(w, r)
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		// An account's home page holds its settings and its email address.
		a := httpx.Account(r)
		private := a != nil && !a.Guest()
		s.renderPage(w, r, "home", page{Title: "play", Page: "home", Forms: &forms, HouseBots: s.houseBotNames(), HouseBotTop: s.houseBotTop(), Private: private})
	})
	mux.HandleFunc("GET /g/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		st, err := s.core.Load(r.Context(), id)
		if errors.Is(err, errNotFound) {
			s.notFound(w, r, "There is no game "+id+".")
			return
		}
		if err != nil {
			s.unavailablePage(w, r, err)
			return
		}
		rs := st.Rules
		b := &boardInfo{ID: id, Shape: shapeOf(rs), W: rs.Width, H: rs.Height, Pass: rs.Pass}
		b.Ko, _ = rs.Get("ko")
		b.Score, _ = rs.Get("score")
		b.Over = st.Row.State == store.StateFinished
		b.Box, b.Width = boardBox(b.Shape, b.W, b.H)
		b.Rows = max(1, (st.Sess.Game().Len()+1)/2)
		b.Tournament = st.Tournament
		v := s.core.View(r.Context(), st)
		var end string
		b.Cards, end = cardsAndEnd(v)
		if sn := st.Sess.Snapshot(); b.Over && sn.ResultWords != nil {
			b.Result = *sn.ResultWords + "." + end
		}
		s.renderPage(w, r, "game", page{Title: "game " + id, Page: "game", Game: b})
	})
	mux.HandleFunc("GET /archive", func(w http.ResponseWriter, r *http.Request) {
		s.renderPage(w, r, "archive", page{Title: "archive", Page: "archive", Forms: &forms})
	})
	mux.HandleFunc("GET /p/{name}", func(w http.ResponseWriter, r *http.Request) {
		a, err := s.store.AccountByName(r.Context(), r.PathValue("name"))
		if errors.Is(err, store.ErrNotFound) || err == nil && a.Name == "" {
			s.notFound(w, r, "No player is called "+r.PathValue("name")+".")
			return
		}
		var ratings []wire.PoolRating
		if err == nil {
			ratings, err = s.ratings.Player(r.Context(), a.ID)
		}
		if err != nil {
			s.unavailablePage(w, r, err)
			return
		}
		s.renderPage(w, r, "archive", page{Title: a.Name, Page: "archive", Name: a.Name, Forms: &forms, Ratings: ratings})
	})
	mux.HandleFunc("GET /leaderboard", func(w http.ResponseWriter, r *http.Request) {
		s.renderPage(w, r, "leaderboard", page{Title: "leaderboard", Page: "leaderboard", Forms: &forms})
	})
	mux.HandleFunc("GET /rules", func(w http.ResponseWriter, r *http.Request) {
		s.renderPage(w, r, "rules", page{Title: "rules", Page: "rules", Rules: rulesTexts, Forms: &forms})
	})
	mux.HandleFunc("GET /api/games/{id}/positions", s.handlePositions)
}

func (s *Server) handlePositions(w http.ResponseWriter, r *http.Request) {
	st, err := s.core.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	g := st.Sess.Game()
	out := wire.Positions{}
	for i := 0; i <= g.Len(); i++ {
		pos := g.PositionAt(i)
		out.Positions = append(out.Positions, pos.String())
		out.Stones = append(out.Stones, map[string]int{"x": pos.Count(rules.Black), "o": pos.Count(rules.White)})
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// unavailablePage answers a page the store could not serve: 503 with
// Retry-After and a page that says to reload, never one that says what
// was asked for does not exist.
func (s *Server) unavailablePage(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	s.log.ErrorContext(r.Context(), "page failed", "path", r.URL.Path, "err", err)
	w.Header().Set("Retry-After", strconv.Itoa(httpx.RetrySeconds(httpx.RetryUnavailable)))
	s.renderPageStatus(w, r, "missing", page{Title: "unavailable", Page: "missing",
		Name: "The server cannot reach its database just now: reload the page in a few seconds."}, http.StatusServiceUnavailable)
}

// notFound answers 404 with a page that says what is missing.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request, msg string) {
	s.renderPageStatus(w, r, "missing", page{Title: "not found", Page: "missing", Name: msg}, http.StatusNotFound)
}

func (s *Server) renderPage(w http.ResponseWriter, r *http.Request, name string, p page) {
	s.renderPageStatus(w, r, name, p, http.StatusOK)
}

// renderPageStatus renders a page in the layout, under the pages' strict
// content security policy: no inline script or style.
//
// A page found (200) that holds nothing private is kept by the browser
// and revalidated: its ETag is the hash of its HTML, Cache-Control
// no-cache (private, no-cache when drawn for someone signed in, whose
// name is in its header), and a request whose If-None-Match names the
// same HTML gets 304 without it; back and forward may then show it from
// the browser's caches instead of loading it again. A private page
// (Page.Private) and a missing one are no-store, as before.
func (s *Server) renderPageStatus(w http.ResponseWriter, r *http.Request, name string, p page, status int) {
	if a := httpx.Account(r); a != nil {
		me := meView(*a)
		p.Me = &me
	}
	var buf bytes.Buffer
	if err := pageTemplates[name].ExecuteTemplate(&buf, "layout", p); err != nil {
		s.log.ErrorContext(r.Context(), "rendering a page", "page", name, "err", err)
		http.Error(w, "the page could not be drawn", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	if status != http.StatusOK || p.Private {
		h.Set("Cache-Control", "no-store")
	} else {
		sum := sha256.Sum256(buf.Bytes())
		tag := `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
		h.Set("ETag", tag)
		// The same address is another page for someone signed in.
		h.Add("Vary", "Cookie")
		if p.Me != nil {
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
