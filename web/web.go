// Package web is the play server's page: HTML templates rendered by the
// server and small ES modules and a style sheet, all embedded in the
// binary. Nothing is fetched from another site.
package web

import "embed"

// Static holds the files served under /static/: the scripts, the style
// sheet and the icons.
//
//go:embed static
var Static embed.FS

// Templates holds the pages' HTML templates (html/template).
//
//go:embed templates/*.html
var Templates embed.FS
