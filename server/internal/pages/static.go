package pages

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"alak/web"
)

// staticETags is each static file's ETag, by its name under static/: a
// hash of its bytes.
var staticETags = map[string]string{}

// staticVersion is the hash of all the static files together, the folder
// of their long-cached URLs: /static/v/{staticVersion}/game.js. One hash
// for the whole folder, not one per file, because the scripts are modules
// that import each other by relative paths (./api.js): under one folder
// they all come from the same version, and a change to any file moves
// them all to a new folder.
var staticVersion string

// moduleImports is what each script imports, by name: the modules import
// each other by relative paths, './api.js'.
var (
	moduleImports  = map[string][]string{}
	moduleImportRE = regexp.MustCompile(`(?m)^import [^;]* from '\./([a-z0-9-]+\.js)';`)
)

// The files' hashes, the folder's version and the scripts' imports are
// worked out once, from the files embedded in the binary.
func init() {
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

// StaticVersion is the static files' version, the folder of their
// long-cached URLs (StaticURL).
func StaticVersion() string { return staticVersion }

// StaticURL is the URL the pages give for a static file (the template
// function static): under the files' version, cached for a year and never
// revalidated. The plain /static/{name} answers too, revalidated each
// time, for a page or a bookmark from before.
func StaticURL(name string) string {
	return "/static/v/" + staticVersion + "/" + name
}

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

// serveStatic serves the static files: under their versioned URL
// (StaticURL) cached for a year, under /static/{name} revalidated by
// their ETag; a folder is not listed.
func (p *Pages) serveStatic() http.HandlerFunc {
	static, err := fs.Sub(web.Static, "static")
	if err != nil {
		panic(err)
	}
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	return func(w http.ResponseWriter, r *http.Request) {
		// Files only: a folder (/static/ itself too) is not listed.
		name := strings.TrimPrefix(r.URL.Path, "/static/")
		cache := "no-cache"
		if rest, ok := strings.CutPrefix(name, "v/"); ok {
			// A versioned URL (StaticURL): immutable when the version is
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
			p.NotFound(w, r, "There is no such file.")
			return
		}
		// The files change only with the binary: revalidated by their
		// hash, never fetched twice unchanged.
		w.Header().Set("ETag", tag)
		w.Header().Set("Cache-Control", cache)
		files.ServeHTTP(w, r)
	}
}
