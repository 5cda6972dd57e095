package game

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"time"
)

// StreamSendBuffer bounds the kernel's send buffer of a connection that
// carries an event stream (the kernel doubles it for its bookkeeping).
// Left to itself, Linux grows a socket's send buffer to megabytes, so that
// a client that stops reading is sent (and the kernel keeps) hundreds of
// events before a write waits and the write timeout can cut the stream;
// with the bound, a write waits once about this much, and what the client
// had room for, is queued. An event stream needs no more: its events are
// small and it is never in a hurry.
const StreamSendBuffer = 64 << 10

// connKey holds the request's connection in its context (ConnContext).
type connKey struct{}

// ConnContext is the http.Server's ConnContext that the server's handler
// wants: it keeps each request's connection in its context, so that an
// event stream can bound its connection's send buffer, and a move's
// request see whether the opponent's stream can take the move's event at
// once (events.go). Without it the streams work alike, with the kernel's
// buffers, and every event is handed to its stream's goroutine.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// Stream is the writing side of an event stream (Server-Sent Events):
// a game's, an account's or a tournament's. The stream lives until the
// client leaves or the server stops, but every write to it (the headers,
// each event, each keep-alive) must reach the socket within the stream's
// write timeout: a client that stops reading would otherwise hold the
// stream, its goroutine and the socket's buffers (megabytes of kernel
// memory) for as long as it likes. A stream that cannot take a write in
// time is counted as slow, logged and cut off (abort). Open streams are
// counted (alak_event_streams) from OpenStream to Close.
type Stream struct {
	s    *Core
	w    http.ResponseWriter
	r    *http.Request
	rc   *http.ResponseController
	what string // for the log: "event stream", "account event stream" ...
	log  []any  // what the log says of the stream: "game", id ...
}

// OpenStream answers r with an event stream's headers, written at once;
// the caller closes the stream when it ends. An error is the stream's end
// (the handler returns): the stream is closed already.
func (c *Core) OpenStream(w http.ResponseWriter, r *http.Request, what string, log ...any) (*Stream, error) {
	st := &Stream{s: c, w: w, r: r, rc: http.NewResponseController(w), what: what, log: log}
	if tc, ok := r.Context().Value(connKey{}).(*net.TCPConn); ok {
		tc.SetWriteBuffer(StreamSendBuffer) // an error leaves the kernel's buffer, which still works
	}
	c.metrics.Streams.Add(1)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if err := st.Write(nil); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// Close ends the stream's count; the handler's return ends the stream.
func (st *Stream) Close() { st.s.metrics.Streams.Add(-1) }

// Write writes b (nothing: the headers alone) and flushes it, within the
// write timeout. An error ends the stream: on a slow client it has been
// cut off.
func (st *Stream) Write(b []byte) error {
	st.rc.SetWriteDeadline(time.Now().Add(st.s.cfg.StreamWriteTimeout))
	if len(b) > 0 {
		if _, err := st.w.Write(b); err != nil {
			return st.failed(err)
		}
	}
	return st.failed(st.rc.Flush())
}

// failed cuts off a stream whose write timed out, and returns err.
func (st *Stream) failed(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		st.s.metrics.SlowStreams.Add(1)
		st.s.log.InfoContext(st.r.Context(), st.what+" closed: the client did not read it",
			append(st.log, "timeout", st.s.cfg.StreamWriteTimeout)...)
		abort(st.rc)
	}
	return err
}
