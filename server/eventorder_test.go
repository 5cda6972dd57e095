package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"alak/internal/testlong"
)

var spin atomic.Int64

// nextEvent reads one event's data from a stream.
func nextEvent(t *testing.T, br *bufio.Reader) string {
	t.Helper()
	var data string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			data = strings.TrimSpace(d)
		}
		if line == "\n" && data != "" {
			return data
		}
	}
}

// writeOrder is a listener whose connections number their writes with one
// count for all: of two writes to two clients, the one with the smaller
// number reached its socket first.
type writeOrder struct {
	net.Listener
	n     atomic.Int64
	mu    sync.Mutex
	conns map[string]*orderedConn // by the client's address
}

func (l *writeOrder) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	oc := &orderedConn{TCPConn: c.(*net.TCPConn), l: l}
	l.mu.Lock()
	l.conns[c.RemoteAddr().String()] = oc
	l.mu.Unlock()
	return oc, nil
}

// conn is the server's side of the client connection c, once the server
// has answered on it.
func (l *writeOrder) conn(t *testing.T, c net.Conn) *orderedConn {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	oc := l.conns[c.LocalAddr().String()]
	if oc == nil {
		t.Fatalf("no connection from %s", c.LocalAddr())
	}
	return oc
}

// orderedConn is a connection of writeOrder's: a TCP connection (the
// server sees its socket: the game core's sendQueueEmpty) that numbers its writes.
type orderedConn struct {
	*net.TCPConn
	l    *writeOrder
	last atomic.Int64 // the number of its last write, once it returned
}

func (c *orderedConn) Write(b []byte) (int, error) {
	n, err := c.TCPConn.Write(b)
	c.last.Store(c.l.n.Add(1))
	return n, err
}

// TestOpponentEventBeforeAnswer: a move's event reaches the opponent's
// socket before the mover's answer reaches the mover's. The request that
// stored the move writes the event to the streams of the player to move
// itself, then answers, instead of leaving the event to the stream's
// goroutine, which the scheduler may run much later (under load, hundreds
// of milliseconds after the answer; docs/load-tail.md). That is promised for
// the normal case, a stream that reads (idleStreams waits for it: nothing
// being written to it, its socket's data acknowledged), and holds however
// busy the cores are: goroutines keep them busy here. The check needs no
// clock: the server's connections number their writes (writeOrder), and
// the write of bo's event must come before that of ada's answer. A server
// that hands the event to the stream's goroutine and answers fails it; one
// that waits for that goroutine passes, at the cost of the wait.
func TestOpponentEventBeforeAnswer(t *testing.T) {
	// Not in parallel: it keeps the cores busy on purpose.
	h := newHarness(t, Config{})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	order := &writeOrder{Listener: l, conns: map[string]*orderedConn{}}
	ts := httptest.NewUnstartedServer(h.srv.Handler())
	ts.Listener = order
	ts.Config.ConnContext = ConnContext
	ts.Start()
	t.Cleanup(ts.Close) // after the clients' connections close (cleanups run last first)
	// Goroutines that keep the process's cores busy, as a loaded server's
	// requests do: a goroutine woken and queued behind them waits.
	stop := make(chan struct{})
	defer close(stop)
	for range runtime.GOMAXPROCS(0) {
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				for range 1000000 {
					spin.Add(1)
				}
			}
		}()
	}
	// 10 moves (30 with ALAK_LONG=1).
	want := testlong.Size(t, 10, 30)
	checked := 0
	for games := 0; checked < want && games < 8; games++ {
		checked += opponentEventFirst(t, h, ts, order, ada, bo)
	}
	if checked < want*2/3 {
		t.Fatalf("only %d moves checked, want %d", checked, want)
	}
}

// dialAs opens a connection to ts for client c, and returns it with the
// Cookie header of c's session there.
func dialAs(t *testing.T, ts *httptest.Server, c *client) (net.Conn, string) {
	t.Helper()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var cookies []string
	for _, k := range c.c.Jar.Cookies(&url.URL{Scheme: "http", Host: ts.Listener.Addr().String()}) {
		cookies = append(cookies, k.Name+"="+k.Value)
	}
	return conn, strings.Join(cookies, "; ")
}

// opponentEventFirst plays a game of ada's (x) against bo, checking at
// each of ada's moves, sent on a connection of their own to ts, that the
// server wrote the move's event to bo's stream, also on ts, before the
// answer; it returns how many moves it checked.
func opponentEventFirst(t *testing.T, h *harness, ts *httptest.Server, order *writeOrder, ada, bo *client) int {
	g := ada.create(map[string]string{"rules": "alak size=11", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	// Bo's stream.
	conn, cookie := dialAs(t, ts, bo)
	fmt.Fprintf(conn, "GET /api/games/%s/events HTTP/1.1\r\nHost: test\r\nCookie: %s\r\n\r\n", g.ID, cookie)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("bo's stream: %v %v", resp, err)
	}
	body := bufio.NewReader(resp.Body) // chunked: read through the response
	nextEvent(t, body)                 // the state at the start
	boStream := order.conn(t, conn)

	// Ada's moves.
	moves, adaCookie := dialAs(t, ts, ada)
	moveReader := bufio.NewReader(moves)
	var adaMoves *orderedConn // known once the server has taken the connection
	type state struct {
		Ply    int    `json:"ply"`
		Over   bool   `json:"over"`
		ToMove string `json:"to_move"`
		Legal  []any  `json:"legal"`
	}
	move := func(ply int, m any) state {
		t.Helper()
		req := fmt.Sprintf(`{"move": %q, "ply": %d}`, fmt.Sprint(m), ply)
		fmt.Fprintf(moves, "POST /api/games/%s/moves HTTP/1.1\r\nHost: test\r\nCookie: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			g.ID, adaCookie, len(req), req)
		resp, err := http.ReadResponse(moveReader, nil)
		if err != nil {
			t.Fatalf("ada's move at ply %d: %v", ply, err)
		}
		data, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("ada's move at ply %d: %d %s %v", ply, resp.StatusCode, bytes.TrimSpace(data), err)
		}
		var st state
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatal(err)
		}
		if adaMoves == nil {
			adaMoves = order.conn(t, moves)
		}
		return st
	}

	var st state
	if code := ada.do("GET", "/api/games/"+g.ID, nil, &st); code != http.StatusOK {
		t.Fatalf("the game: %d", code)
	}
	// Ada's own stream, read along: the server wakes two streams a move.
	adaEvents, err := ada.c.Get(h.http.URL + "/api/games/" + g.ID + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer adaEvents.Body.Close()
	go io.Copy(io.Discard, adaEvents.Body)
	b, err := h.st.AccountByName(context.Background(), "bo")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for !st.Over {
		if st.ToMove != "x" || len(st.Legal) == 0 {
			t.Fatalf("ply %d: %s to move, %d legal moves", st.Ply, st.ToMove, len(st.Legal))
		}
		// Ada moves; the server's write of bo's event must come before
		// its write of the answer.
		idleStreams(t, h.srv, g.ID, b.ID)
		before := boStream.last.Load()
		ack := move(st.Ply, st.Legal[0])
		answer, event := adaMoves.last.Load(), boStream.last.Load()
		switch {
		case event == before:
			t.Errorf("ply %d: ada has the answer, bo's stream has had nothing written yet", st.Ply)
		case event > answer:
			t.Errorf("ply %d: bo's event was written after ada's answer (writes %d and %d)", st.Ply, event, answer)
		}
		checked++
		if json.Unmarshal([]byte(nextEvent(t, body)), &st); st.Ply != ack.Ply {
			t.Fatalf("bo's event is at ply %d, the answer at %d", st.Ply, ack.Ply)
		}
		if st.Over {
			break
		}
		// Bo answers (its own stream sees it too).
		if code := bo.do("POST", "/api/games/"+g.ID+"/moves", map[string]any{"move": fmt.Sprint(st.Legal[0]), "ply": st.Ply}, &ack); code != http.StatusOK {
			t.Fatalf("bo's move at ply %d: %d", st.Ply, code)
		}
		json.Unmarshal([]byte(nextEvent(t, body)), &st)
	}
	return checked
}

// idleStreams waits until every stream of account acct watching game is
// idle: open, nothing being written to it, and nothing in its socket that
// the client has not acknowledged (a yield between looks, a bounded number
// of looks: no clock).
func idleStreams(t *testing.T, s *Server, game string, acct int64) {
	t.Helper()
	for range 100_000 {
		idle := s.core.Broker.StreamsIdle(game, acct)
		if idle {
			return
		}
		runtime.Gosched()
	}
	t.Fatalf("the streams of account %d on game %s are never idle", acct, game)
}

// TestStalledStreamHoldsNoAnswer: a stream of the player to move whose
// client stopped reading never holds up the answers of the changes whose
// events it is owed: once its socket holds unacknowledged data, each
// event is handed to the stream's goroutine (stuck, once the buffers are
// full, in its write, which the stream write timeout, an hour here,
// would end), and the requests are answered as ever. A request that
// wrote such a stream's events itself would wait for that hour (and the
// client's 30 s timeout fails the test).
func TestStalledStreamHoldsNoAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{StreamWriteTimeout: time.Hour, StreamKeepAlive: time.Hour})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	g := ada.create(map[string]string{"rules": "alak size=11", "color": "x", "clock": "none", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	// Ada (to move) has a stream she does not read, on a connection with
	// a small receive buffer (the server bounds a stream's send buffer to
	// game.StreamSendBuffer: some 60 kB of events fill both).
	small := httptest.NewUnstartedServer(h.srv.Handler())
	small.Config.ConnContext = ConnContext
	small.Start()
	t.Cleanup(small.Close)
	d := net.Dialer{Control: func(network, address string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024) })
		return errors.Join(err, serr)
	}}
	conn, err := d.Dial("tcp", small.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() }) // its write then fails, and the stream ends
	var cookies []string
	for _, k := range ada.c.Jar.Cookies(&url.URL{Scheme: "http", Host: small.Listener.Addr().String()}) {
		cookies = append(cookies, k.Name+"="+k.Value)
	}
	fmt.Fprintf(conn, "GET /api/games/%s/events HTTP/1.1\r\nHost: test\r\nCookie: %s\r\n\r\n", g.ID, strings.Join(cookies, "; "))
	if resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 16), nil); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("ada's stream: %v %v", resp, err)
	}
	// From here on it reads nothing. Ada is to move while bo offers a
	// draw and ada declines it, again and again: every change's event is
	// owed to ada's stream first. 160 events (1.5 kB each) are several
	// times what fills the buffers.
	for i := range 80 {
		if code := bo.do("POST", "/api/games/"+g.ID+"/draw", nil, nil); code != http.StatusOK {
			t.Fatalf("cycle %d: bo's draw offer: %d", i, code)
		}
		if code := ada.do("POST", "/api/games/"+g.ID+"/draw", map[string]bool{"accept": false}, nil); code != http.StatusOK {
			t.Fatalf("cycle %d: ada declining the draw: %d", i, code)
		}
	}
	if n := h.srv.metrics.LeadMissed.Load(); n == 0 {
		t.Errorf("every event was written to the stream that is not read by the change's request: the buffers never filled?")
	}
	if n := h.srv.metrics.SlowStreams.Load(); n != 0 {
		t.Errorf("%d streams cut off, within an hour's write timeout", n)
	}
}
