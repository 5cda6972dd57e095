package server

import (
	"html/template"
	"io/fs"
	"net/http"

	"alak/web"
)

// page is what a page's template is given.
type page struct {
	Title  string
	Page   string // home, game, archive, player, account
	GameID string
	Name   string
}

var pageTemplates = map[string]*template.Template{}

func init() {
	for _, name := range []string{"home", "game"} {
		pageTemplates[name] = template.Must(template.ParseFS(web.Templates, "templates/layout.html", "templates/"+name+".html"))
	}
}

// pageRoutes serves the pages and their assets.
func (s *Server) pageRoutes(mux *http.ServeMux) {
	static, err := fs.Sub(web.Static, "static")
	if err != nil {
		panic(err)
	}
	files := http.FileServerFS(static)
	mux.Handle("GET /static/", http.StripPrefix("/static/", files))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		s.renderPage(w, r, "home", page{Title: "play", Page: "home"})
	})
	mux.HandleFunc("GET /g/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if _, err := s.loadGame(r.Context(), id); err != nil {
			http.Error(w, "no such game", http.StatusNotFound)
			return
		}
		s.renderPage(w, r, "game", page{Title: "game " + id, Page: "game", GameID: id})
	})
}

func (s *Server) renderPage(w http.ResponseWriter, r *http.Request, name string, p page) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin")
	if err := pageTemplates[name].ExecuteTemplate(w, "layout", p); err != nil {
		s.log.Error("rendering a page", "page", name, "err", err)
	}
}
