package server

import (
	"mime"
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzhttp"
)

// compressedTypes are the answers worth compressing: text. Images other
// than SVG, archives and anything already compressed are sent as they are.
// The event stream (text/event-stream) is left out too: each event must
// reach the client when it is written, and a compressor holds bytes back.
var compressedTypes = map[string]bool{
	"text/html":              true,
	"text/css":               true,
	"text/plain":             true,
	"text/javascript":        true,
	"application/javascript": true,
	"application/json":       true,
	"application/x-go-sgf":   true,
	"image/svg+xml":          true,
}

// compressible says whether an answer of the content type ct is
// compressed.
func compressible(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && compressedTypes[mt]
}

// compress compresses the text answers of next (HTML, JSON, scripts,
// style sheets, SVG, SGF) for the clients that accept it, with
// klauspost/compress's gzhttp: gzip, or zstd when the client takes it,
// from 1 KiB up (smaller answers gain nothing). The event streams do not
// pass through it at all: their path ends in /events, and they are
// written and flushed event by event (server/internal/game/events.go).
//
// Nor do the answers to moves (POST .../moves): the game's view, 1.5 kB
// on 11 points, which gzip brings to 0.8 kB, the same one or two packets,
// for about 50 µs of the server's CPU and, in Go's client, 150 µs more to
// unzip it (measured on this project's machine), on the path every move
// takes and a player waits on.
func compress(next http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(gzhttp.ContentTypeFilter(compressible))
	if err != nil {
		panic(err) // the options are constant: a failure is a programming error
	}
	zipped := wrap(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/events") || r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/moves") {
			next.ServeHTTP(w, r)
			return
		}
		zipped.ServeHTTP(w, r)
	})
}
