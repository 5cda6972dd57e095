package server

import (
	"html/template"

	"alak/web"
)

// The games-to-watch page (around.go), in the layout.
func init() {
	pageTemplates["watch"] = template.Must(template.New("watch").ParseFS(web.Templates, "templates/layout.html", "templates/watch.html"))
}
