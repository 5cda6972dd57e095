// Package pages is the frame of the play server's pages: the page model
// every template is given (Page), the templates of package web rendered
// in the layout under the pages' content security policy, with their
// ETags and caching, the missing and unavailable pages, the static files
// under their versioned URLs, and the data of the create form and the
// rules page. It knows no game and no store: the parts of the server
// that draw a page fill a Page and call Pages.Render.
//
//	p := pages.New(pages.Config{Log: log, Me: meView, Levels: levels, Days: days})
//	p.Routes(mux) // the static files, /archive, /leaderboard, /rules
//	p.Render(w, r, "watch", pages.Page{Title: "games to watch", Page: "watch"})
package pages
