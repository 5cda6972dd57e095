package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"alak/server"
	"alak/server/store/sqlitestore"
	"alak/wire"
)

// smallBuffers gives every accepted connection a small send buffer, so
// that an answer nobody reads fills it at once.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	return c, err
}

// shortTimeouts are alak serve's timeouts scaled down for the tests.
var shortTimeouts = timeouts{readHeader: 300 * time.Millisecond, read: time.Second, write: time.Second, idle: time.Second}

// startShort runs the play server on loopback with the HTTP server alak
// serve builds (newHTTPServer), under short timeouts; it returns the
// address.
func startShort(t *testing.T) string {
	t.Helper()
	st, err := sqlitestore.Open(context.Background(), filepath.Join(t.TempDir(), "alak.db"))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := server.New(server.Config{Logger: log}, st)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := newHTTPServer(srv.Handler(), log, shortTimeouts)
	go hs.Serve(smallBuffers{ln})
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		st.Close()
	})
	return ln.Addr().String()
}

// readUntilClosed reads conn until the server closes it (an end of file or
// a reset), bounded by a minute; closed is false when the minute ran out.
func readUntilClosed(conn net.Conn) (data []byte, closed bool) {
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	data, err := io.ReadAll(conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return data, false
	}
	return data, true
}

func dial(t *testing.T, addr string, rcvbuf int) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 10 * time.Second}
	if rcvbuf > 0 {
		d.Control = func(_, _ string, c syscall.RawConn) error {
			var serr error
			if err := c.Control(func(fd uintptr) {
				serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, rcvbuf)
			}); err != nil {
				return err
			}
			return serr
		}
	}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// TestSlowClientsCutOff: the HTTP server alak serve runs (newHTTPServer),
// with its timeouts scaled down, closes the connections of slow clients
// (slowloris) by itself: headers never finished, headers dripped a byte at
// a time, a body never finished, a connection left idle, and answers never
// read; headers over 64 kB are refused 431. An event stream is not cut by
// the write timeout: it outlives it and still delivers a move.
func TestSlowClientsCutOff(t *testing.T) {
	t.Parallel() // an alak serve process of its own: its waits overlap the other tests
	addr := startShort(t)

	t.Run("headers never finished", func(t *testing.T) {
		conn := dial(t, addr, 0)
		fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: %s\r\n", addr)
		if data, closed := readUntilClosed(conn); !closed || bytes.Contains(data, []byte(" 200 ")) {
			t.Errorf("closed %v, read %q", closed, data)
		}
	})

	t.Run("headers dripped", func(t *testing.T) {
		conn := dial(t, addr, 0)
		var sent atomic.Int64
		done := make(chan struct{})
		go func() {
			defer close(done)
			if _, err := fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: %s\r\nX-Slow: ", addr); err != nil {
				return
			}
			for range 1200 { // a minute of it, if nothing stops it
				if _, err := conn.Write([]byte("a")); err != nil {
					return
				}
				sent.Add(1)
				time.Sleep(50 * time.Millisecond)
			}
		}()
		_, closed := readUntilClosed(conn)
		if !closed || sent.Load() >= 1200 {
			t.Errorf("closed %v after %d bytes dripped", closed, sent.Load())
		}
		conn.Close()
		<-done
	})

	t.Run("body never finished", func(t *testing.T) {
		conn := dial(t, addr, 0)
		fmt.Fprintf(conn, "POST /api/accounts HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":", addr)
		data, closed := readUntilClosed(conn)
		if !closed {
			t.Fatal("the connection was held open a minute")
		}
		if len(data) > 0 {
			resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(data)), nil)
			if err != nil || resp.StatusCode/100 != 4 {
				t.Errorf("the answer to a body never finished: %q", data)
			} else {
				t.Logf("answered %s, then closed", resp.Status)
			}
		}
	})

	t.Run("idle connection", func(t *testing.T) {
		conn := dial(t, addr, 0)
		fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("healthz: %v %v", resp, err)
		}
		io.Copy(io.Discard, resp.Body)
		conn.SetReadDeadline(time.Now().Add(time.Minute))
		if _, err := br.ReadByte(); err == nil || errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
			t.Errorf("the idle connection was not closed: %v", err)
		}
	})

	t.Run("answers never read", func(t *testing.T) {
		// A hundred requests for a 20 kB file, sent at once on a
		// connection with a small receive buffer, and nothing read: the
		// server's write of an answer blocks, its write timeout ends the
		// connection.
		conn := dial(t, addr, 4096)
		var reqs bytes.Buffer
		for range 100 {
			fmt.Fprintf(&reqs, "GET /static/game.js HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		}
		if _, err := conn.Write(reqs.Bytes()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * shortTimeouts.write) // not reading, past the write timeout
		data, closed := readUntilClosed(conn)
		n := bytes.Count(data, []byte("HTTP/1.1 200 "))
		if !closed || n >= 100 {
			t.Errorf("closed %v, %d answers of 100 sent (%d bytes)", closed, n, len(data))
		}
		t.Logf("the connection closed after %d answers of 100 (%d bytes)", n, len(data))
	})

	t.Run("headers too large", func(t *testing.T) {
		conn := dial(t, addr, 0)
		fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: %s\r\nX-Big: %s\r\n\r\n", addr, strings.Repeat("a", 100<<10))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("100 kB of headers: %v %v", resp, err)
		}
	})

	t.Run("event stream outlives the write timeout", func(t *testing.T) {
		base := "http://" + addr
		guest := func() *http.Client {
			jar, _ := cookiejar.New(nil)
			return &http.Client{Jar: jar, Timeout: 30 * time.Second}
		}
		post := func(c *http.Client, path, body string, out any) {
			t.Helper()
			resp, err := c.Post(base+path, "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode/100 != 2 {
				raw, _ := io.ReadAll(resp.Body)
				t.Fatalf("POST %s: %d %s", path, resp.StatusCode, raw)
			}
			if out != nil {
				json.NewDecoder(resp.Body).Decode(out)
			}
		}
		host, other := guest(), guest()
		var g wire.Created
		post(host, "/api/games", `{"rules":"alak size=9","color":"x","clock":"none","opponent":"link"}`, &g)
		post(other, "/api/games/"+g.ID+"/join", fmt.Sprintf(`{"invite":%q}`, g.Invite[strings.Index(g.Invite, "=")+1:]), nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/games/"+g.ID+"/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		plies := make(chan int, 16)
		go func() {
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
					var v wire.Game
					json.Unmarshal([]byte(data), &v)
					plies <- v.Ply
				}
			}
			close(plies)
		}()
		if ply := <-plies; ply != 0 {
			t.Fatalf("the first event is at ply %d", ply)
		}
		time.Sleep(3 * shortTimeouts.write) // the stream stays open past the write timeout
		post(host, "/api/games/"+g.ID+"/moves", `{"move":"5","ply":0}`, nil)
		if ply, ok := <-plies; !ok || ply != 1 {
			t.Errorf("after the write timeout, the stream gave %d (open %v), want the move's state", ply, ok)
		}
	})
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
