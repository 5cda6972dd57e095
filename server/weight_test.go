package server

import (
	"net/http"
	"path"
	"regexp"
	"testing"
)

// pageBudget is what each page may weigh: the bytes on the wire, gzipped
// as a browser asks for them, of its HTML, its style sheet and every
// script it loads (the page's module and the modules it imports), the
// icon aside. Each budget is the weight measured when it was set (the
// figure in the comment, by this test's log, go test -v -run
// TestPageWeight), plus a half, rounded up to the next 1000 bytes (set on a hundred bytes less each, before the modulepreload links): room
// for a feature or two, not for a library. A page that outgrows its budget is either
// trimmed or given a new budget, measured again and said so here. Where a
// comment has two figures, the second is the page after the pages of
// ratings, rematches, messages and notifications were merged (start.js and
// the profile's modules counted too), still under the first's budget; the
// player's page (now the profile), the leaderboard and the watch page got
// their budgets from that measure.
var pageBudget = map[string]int{
	"home":          19000, // 11836 bytes in 4 files; 15972 in 6 (start.js, ratings.js) after the merge of the ratings' pages; 18172 in 7 once a player's pages follow their games (api.js loads follow.js for a player, not counted here)
	"game":          28000, // 17590 bytes in 5 files; 24945 in 8 (ratings.js, around.js, notify.js); 27336 with bots, conditional moves, tournaments and the analysis board
	"finished game": 28000, // 17626 bytes in 5 files; 25022 in 8; 27417 with the same
	"archive":       12000, // 7650 bytes in 4 files; 9064 in 4
	"player":        19000, // 12455 bytes in 6 files (the profile: profile.js, ratings.js, its chart)
	"leaderboard":   13000, // 8644 bytes in 4 files
	"watch":         14000, // 8697 bytes in 4 files
	"rules":         13000, // 8483 bytes in 3 files; 9876 in 3
	"rulelab":       22000, // 14522 bytes in 4 files (the table in the HTML, rulelab.css, no script of its own)
}

// importRE finds a module's imports (the scripts import each other by
// relative paths: "import { api } from './api.js';", "import
// './start.js';").
var importRE = regexp.MustCompile(`(?m)^import(?: [^;]* from | )'(\./[a-z0-9-]+\.js)';`)

// laterImportRE finds the modules a script loads when it runs
// ("import('./profile.js')": archive.js loads the profile's ratings and
// chart on a player's page, not on the archive's).
var laterImportRE = regexp.MustCompile(`import\('(\./[a-z0-9-]+\.js)'\)`)

// TestPageWeight keeps each page's weight (pageBudget) over loopback
// HTTP, compressed as gzhttp sends it to a client that accepts gzip.
func TestPageWeight(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	live := ada.create(map[string]string{"rules": "alak size=11", "color": "x", "opponent": "computer:level:1"})
	done := ada.create(map[string]string{"rules": "alak size=6", "color": "x", "opponent": "bo"})
	bo.do("POST", "/api/games/"+done.ID+"/join", map[string]string{}, nil)
	for i, m := range seedAlak6 {
		if code, _, e := []*client{ada, bo}[i%2].move(done.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %d %s: %d %+v", i+1, m, code, e)
		}
	}
	pages := map[string]string{"home": "/", "game": "/g/" + live.ID, "finished game": "/g/" + done.ID,
		"archive": "/archive", "player": "/p/ada", "leaderboard": "/leaderboard", "watch": "/watch", "rules": "/rules", "rulelab": "/rulelab"}
	for name, p := range pages {
		resp, body := rawGet(t, h, p, "gzip")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d", name, p, resp.StatusCode)
		}
		total, files := len(body), 1
		html := string(gunzip(t, body))
		var queue []string
		for _, m := range staticRE.FindAllStringSubmatch(html, -1) {
			if path.Ext(m[1]) != ".svg" {
				queue = append(queue, m[1])
			}
		}
		seen := map[string]bool{}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			if seen[u] {
				continue
			}
			seen[u] = true
			resp, body := rawGet(t, h, u, "gzip")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: %s: %d", name, u, resp.StatusCode)
			}
			total += len(body)
			files++
			text := body
			if resp.Header.Get("Content-Encoding") == "gzip" {
				text = gunzip(t, body)
			}
			found := importRE.FindAllStringSubmatch(string(text), -1)
			if name == "player" {
				found = append(found, laterImportRE.FindAllStringSubmatch(string(text), -1)...)
			}
			for _, m := range found {
				queue = append(queue, path.Join(path.Dir(u), m[1]))
			}
		}
		t.Logf("%s (%s): %d bytes gzipped in %d files", name, p, total, files)
		if budget, ok := pageBudget[name]; !ok || total > budget {
			t.Errorf("%s: %d bytes, over its budget of %d bytes (pageBudget)", name, total, budget)
		}
	}
}
