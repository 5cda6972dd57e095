package server

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEventStreamSlowReaderClosed: a client that reads a stream's headers
// and then stops reading (a real TCP connection over loopback with a tiny
// receive buffer, to a listener of the same server whose connections have
// a tiny send buffer, so that a few events fill both rather than the
// megabytes loopback's buffers grow to: about 1,200 events, seconds of CPU
// under the race detector) is cut off once a write to it, an event or a keep-alive,
// waits longer than the stream write timeout: the open-streams gauge falls
// back, the slow-streams counter counts it, and the connection is closed.
// A client that reads, on the same game, keeps its stream.
func TestEventStreamSlowReaderClosed(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	h := newHarness(t, Config{StreamWriteTimeout: timeout, StreamKeepAlive: 20 * time.Millisecond})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=11", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}

	// The reader who keeps reading.
	resp, cancel := openEvents(t, h, g.ID)
	goodEvents := make(chan int, 1)
	go func() {
		n := 0
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				n++
			}
		}
		goodEvents <- n
	}()

	// The reader who stops: SO_RCVBUF set before the connection is made,
	// so that the window it offers stays small.
	d := net.Dialer{Control: func(network, address string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024) })
		return errors.Join(err, serr)
	}}
	small := httptest.NewUnstartedServer(h.srv.Handler())
	small.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if tc, ok := c.(*net.TCPConn); ok && s == http.StateNew {
			if err := tc.SetWriteBuffer(4096); err != nil {
				t.Errorf("SO_SNDBUF: %v", err)
			}
		}
	}
	small.Start()
	defer small.Close()
	conn, err := d.Dial("tcp", small.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /api/games/"+g.ID+"/events HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReaderSize(conn, 16)
	head, err := http.ReadResponse(br, nil)
	if err != nil || head.StatusCode != http.StatusOK {
		t.Fatalf("the slow reader's stream: %v %v", head, err)
	}
	// From here on it reads nothing.

	m := scrape(t, h.http.URL)
	if m["alak_event_streams"] != 2 || m["alak_event_streams_slow_total"] != 0 {
		t.Fatalf("before: %v streams open, %v closed as slow; want 2, 0", m["alak_event_streams"], m["alak_event_streams_slow_total"])
	}

	// Events, two a cycle (a draw offered, then declined), until the
	// socket's buffers are full and the server gives up on the stream;
	// bounded by events, so that a server
	// that never does fails the test, and not by time alone, which a
	// loaded machine stretches (504 events took 20 s under a load of 20):
	// 20,000 events are many times what fills the buffers; the time bound
	// only stops a stuck run.
	start := time.Now()
	cycles := 0
	for ; h.srv.metrics.SlowStreams.Load() == 0; cycles++ {
		if cycles == 10_000 || time.Since(start) > 5*time.Minute {
			t.Fatalf("after %d events in %v the stream that is not read is still open (%d streams)", 2*cycles, time.Since(start), h.srv.metrics.Streams.Load())
		}
		if code := ada.do("POST", "/api/games/"+g.ID+"/draw", nil, nil); code != http.StatusOK {
			t.Fatalf("draw offer: %d", code)
		}
		if code := bo.do("POST", "/api/games/"+g.ID+"/draw", map[string]bool{"accept": false}, nil); code != http.StatusOK {
			t.Fatalf("declining the draw: %d", code)
		}
	}
	t.Logf("closed after %d events, %v", 2*cycles, time.Since(start))
	// The stream is counted slow as its write fails, and counted closed
	// when its handler has returned, a moment later: wait (bounded) for
	// the second.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		m = scrape(t, h.http.URL)
		if m["alak_event_streams"] == 1 && m["alak_event_streams_slow_total"] == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("after: %v streams open, %v closed as slow; want 1, 1", m["alak_event_streams"], m["alak_event_streams_slow_total"])
			break
		}
	}

	// The connection is gone: what the client had not read is dropped
	// with it (a reset), or it ends.
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = io.Copy(io.Discard, br)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the slow reader's connection is still open: %v", err)
	}

	// The reader who reads had every event's chance and is still there.
	cancel()
	if n := <-goodEvents; n < 2*cycles/2 {
		t.Errorf("the reading client saw %d events of %d", n, 2*cycles+1)
	}
	if h.srv.metrics.SlowStreams.Load() != 1 {
		t.Errorf("%d streams closed as slow; want 1 (the reader who reads was not)", h.srv.metrics.SlowStreams.Load())
	}
}

// TestEventStreamKeepAlive: an idle stream sends its keep-alive comment
// every Config.StreamKeepAlive, each written within the write timeout.
func TestEventStreamKeepAlive(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{StreamWriteTimeout: time.Second, StreamKeepAlive: 30 * time.Millisecond})
	ada := h.client().signUp("ada")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "none"})
	resp, err := http.Get(h.http.URL + "/api/games/" + g.ID + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	keepAlives := 0
	for keepAlives < 3 && sc.Scan() {
		if bytes.Equal(sc.Bytes(), []byte(": keep-alive")) {
			keepAlives++
		}
	}
	if keepAlives != 3 {
		t.Errorf("%d keep-alives, then %v", keepAlives, sc.Err())
	}
}
