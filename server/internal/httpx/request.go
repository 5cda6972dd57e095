package httpx

import (
	"context"
	"log/slog"
	"net"
	"net/http"

	"alak/server/store"
)

// ClientAddr is the request's remote address without the port.
func ClientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

type ctxKey int

const (
	accountKey ctxKey = iota
	requestIDKey
	// credentialKey holds the request's credential: which token it came
	// with (its hash) and whether as a bearer token or a cookie.
	credentialKey
)

// Credential is the token a request was signed in with.
type Credential struct {
	Hash   string // the token's hash, as the store keeps it
	Bearer bool   // an Authorization header, not the session cookie
}

// SignedIn returns ctx carrying the account a request was signed in as,
// and with which credential.
func SignedIn(ctx context.Context, a *store.Account, c Credential) context.Context {
	return context.WithValue(context.WithValue(ctx, accountKey, a), credentialKey, c)
}

// RequestCredential returns the request's credential; ok is false for a
// request that is not signed in.
func RequestCredential(r *http.Request) (Credential, bool) {
	c, ok := r.Context().Value(credentialKey).(Credential)
	return c, ok
}

// Account returns the signed-in account, or nil.
func Account(r *http.Request) *store.Account {
	a, _ := r.Context().Value(accountKey).(*store.Account)
	return a
}

// RequireAccount returns the signed-in account or ErrNotSignedIn.
func RequireAccount(r *http.Request) (*store.Account, error) {
	if a := Account(r); a != nil {
		return a, nil
	}
	return nil, ErrNotSignedIn
}

// WithRequestID returns ctx carrying a request's id, which the log's
// RequestIDHandler adds to every record.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}

// RequestIDHandler adds the request's id to every record logged with a
// request's context.
type RequestIDHandler struct{ slog.Handler }

func (h RequestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id, ok := ctx.Value(requestIDKey).(string); ok {
		r.AddAttrs(slog.String("request", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h RequestIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return RequestIDHandler{h.Handler.WithAttrs(as)}
}

func (h RequestIDHandler) WithGroup(name string) slog.Handler {
	return RequestIDHandler{h.Handler.WithGroup(name)}
}

// StatusWriter remembers the status a handler wrote, and carries the
// logger and the request's context for an answer that fails to encode.
type StatusWriter struct {
	http.ResponseWriter
	Status int
	Log    *slog.Logger    // the server's logger
	Ctx    context.Context // the request's, with its id
}

func (w *StatusWriter) WriteHeader(code int) {
	w.Status = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the flusher and deadlines.
func (w *StatusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// FlushError flushes and says whether the bytes reached the connection
// (http.ResponseController.Flush calls it): an event stream learns so that
// its client stopped reading.
func (w *StatusWriter) FlushError() error {
	return http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *StatusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
