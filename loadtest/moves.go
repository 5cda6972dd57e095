package loadtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"alak/wire"
)

// moveConns sends an account's moves over HTTP/1.1 connections of its
// own: the goroutine that times a move writes the request and reads the
// answer itself. Through net/http's client a request passes two more
// goroutines (the connection's writer and reader), each a wait for the
// scheduler that, on a busy machine, the tool counted as the server's
// time, and each a cost to the cores the tool shares with the server.
type moveConns struct {
	addr string // host:port
	host string // the Host header
	jar  http.CookieJar
	base *url.URL

	once   sync.Once
	cookie string         // the account's Cookie header, read from its jar at the first move
	idle   chan *moveConn // kept open between moves
}

// moveConn is one connection of moveConns.
type moveConn struct {
	c     net.Conn
	br    *bufio.Reader
	since time.Time // kept open since
}

// moveIdle is how long a connection is kept open without a move: less
// than servers keep an idle connection (alak serve: 2 minutes), so that a
// move is never written to one the server is closing (it would be left
// without an answer, and counted so, though the server never read it).
const moveIdle = 20 * time.Second

// moveTimeout bounds a move's request and answer, as the tool's HTTP
// client's timeout does the other requests.
const moveTimeout = 30 * time.Second

// newMoveConns returns the move connections of the account with jar on
// the server at base (an http:// URL; nil for another scheme, whose moves
// go through the HTTP client).
func newMoveConns(base string, jar http.CookieJar) *moveConns {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return nil
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	return &moveConns{addr: addr, host: u.Host, jar: jar, base: u, idle: make(chan *moveConn, 64)}
}

// post sends body to path (a JSON POST) and returns the answer's status
// and body. An error means no whole answer came: the request may or may
// not have reached the server.
func (m *moveConns) post(path string, body []byte) (int, []byte, error) {
	m.once.Do(func() {
		var cs []string
		for _, c := range m.jar.Cookies(m.base) {
			cs = append(cs, c.Name+"="+c.Value)
		}
		m.cookie = strings.Join(cs, "; ")
	})
	var mc *moveConn
	for mc == nil {
		select {
		case mc = <-m.idle:
			if time.Since(mc.since) > moveIdle {
				mc.c.Close()
				mc = nil
			}
			continue
		default:
		}
		c, err := net.DialTimeout("tcp", m.addr, moveTimeout)
		if err != nil {
			return 0, nil, err
		}
		mc = &moveConn{c: c, br: bufio.NewReaderSize(c, 4096)}
	}
	status, data, keep, err := mc.roundTrip(m.host, m.cookie, path, body)
	if err != nil || !keep {
		mc.c.Close()
		return status, data, err
	}
	mc.since = time.Now()
	select {
	case m.idle <- mc:
	default:
		mc.c.Close()
	}
	return status, data, nil
}

// roundTrip writes one request and reads its answer; keep says whether
// the connection may carry another.
func (mc *moveConn) roundTrip(host, cookie, path string, body []byte) (status int, data []byte, keep bool, err error) {
	mc.c.SetDeadline(time.Now().Add(moveTimeout))
	req := make([]byte, 0, 256+len(body))
	req = fmt.Appendf(req, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", path, host, len(body))
	if cookie != "" {
		req = append(append(append(req, "Cookie: "...), cookie...), "\r\n"...)
	}
	req = append(append(req, "\r\n"...), body...)
	if _, err := mc.c.Write(req); err != nil {
		return 0, nil, false, err
	}
	resp, err := http.ReadResponse(mc.br, nil)
	if err != nil {
		return 0, nil, false, err
	}
	data, err = io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if err != nil {
		return resp.StatusCode, nil, false, err
	}
	return resp.StatusCode, data, !resp.Close, nil
}

// close closes the connections kept open.
func (m *moveConns) close() {
	for {
		select {
		case mc := <-m.idle:
			mc.c.Close()
		default:
			return
		}
	}
}

// moveBody is a move request's body.
func moveBody(move string, ply int) []byte {
	b, _ := json.Marshal(wire.MoveRequest{Move: move, Ply: &ply})
	return b
}
