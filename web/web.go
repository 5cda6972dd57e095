// Package web is the play server's page: HTML templates rendered by the
// server (server/internal/pages), small ES modules and a style sheet (the rule
// lab has a second), all embedded in the binary, with no build step. Nothing is fetched from
// another site, and the pages hold no inline script or style (the server
// sends a strict Content-Security-Policy). The templates name a static
// file through the function static ({{static "game.js"}}), which puts it
// under the files' version, cached as immutable (docs/web.md).
//
//	templates/layout.html   the frame: header, sign-in state, the page's module
//	templates/home.html     the create form, my games, the lobby, the account
//	templates/game.html     a game: board, players, clocks, buttons, moves, replay, analysis
//	templates/archive.html  finished games, for everyone (/archive) or one player (/p/NAME, with the profile's ratings)
//	templates/leaderboard.html  a rating pool's players (/leaderboard)
//	templates/rules.html    every preset's rules in sentences, and the options
//	templates/missing.html  a page or a game that does not exist (404)
//	templates/analysis.html the analysis board (/analysis): any position, its moves' values, variations, SGF
//	templates/rulelab.html  the rule lab (/rulelab): docs/rulelab.md's table, drawn by the server, no script of its own
//	templates/puzzles.html  the puzzles (/puzzles, /puzzles/ID): a position proved by perfect play to solve, move by move
//	templates/learn.html    the lessons (/learn): a small board with one goal each, checked by the server
//	templates/forms.html    the rules' and the clock's fields, shared by the new game's form and the tournaments' (ruleform.js)
//	static/api.js           the JSON API, a DOM builder, words, the header
//	static/follow.js        a player's pages go to their games as they start (loaded by api.js)
//	static/board.js         the board in SVG: lines, grids, slides
//	static/game.js, home.js, archive.js   each page's module
//	static/ruleform.js      the rules and the clock of a form (the new game's, the tournaments')
//	static/ratings.js       ratings on the game page, the lobby and the create form
//	static/profile.js       the profile's ratings and rating chart (SVG), loaded by archive.js on /p/NAME
//	static/leaderboard.js   the leaderboard's module
//	static/analysis.js      the analysis board's module
//	static/puzzles.js, learn.js   the puzzles' and the lessons' modules (the board of board.js; the server judges every move)
//	static/alak.css         the style sheet of every page
//	static/rulelab.css      the rule lab's table, loaded by /rulelab alone
//	static/puzzles.css      the puzzles' and the lessons' styles, loaded by /puzzles and /learn alone
//
// The scripts use the JSON API and the event stream of docs/api.md, and
// for the replay GET /api/games/{id}/positions (server/pages.go).
package web

import "embed"

// Static holds the files served under /static/: the scripts, the style
// sheet and the icon.
//
//go:embed static
var Static embed.FS

// Templates holds the pages' HTML templates (html/template).
//
//go:embed templates/*.html
var Templates embed.FS
