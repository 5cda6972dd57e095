package server

import (
	"bufio"
	"net"
	"net/smtp"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/server/internal/mail"
)

// trickleConn is a connection that sends what is written to it one byte
// at a time, every gap: a client as slow as it likes.
type trickleConn struct {
	net.Conn
	gap time.Duration
}

func (c trickleConn) Write(p []byte) (int, error) {
	for i := range p {
		time.Sleep(c.gap)
		if _, err := c.Conn.Write(p[i : i+1]); err != nil {
			return i, err
		}
	}
	return len(p), nil
}

// TestMailConnectionBounds: --mail-listen bounds what an SMTP connection
// may hold, with the bounds scaled down (a command 1 s, a session 4 s,
// 4 connections at once, 3 from one address): Go's SMTP client
// (net/smtp) over loopback that trickles its EHLO a byte every 300 ms is
// cut before the line ends; one that sends a NOOP every 100 ms (each
// command in time, with room for a loaded machine's late wake-ups: at
// 300 ms a command, a CI run at load average 15 saw a NOOP come late) is
// cut when the session's time is up; connections
// past the limits are answered 421 and closed, and a place freed is taken
// again. Before the bounds, a command had a minute, a session no end,
// and connections no limit.
func TestMailConnectionBounds(t *testing.T) {
	t.Parallel()
	sink := newGoSMTPSink(t)
	b := mail.Bounds{Command: time.Second, Session: 4 * time.Second, Open: 4, PerAddr: 3}
	h := newHarness(t, Config{SMTP: sink.url(), MailListen: "127.0.0.1:0", MailDomain: "play.test", mailBounds: b})
	addr := h.srv.MailAddr()
	dial := func(from string) net.Conn {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}

	// A whole dialogue at the scaled bounds: a mail to an address that is
	// no reply address is refused at RCPT, the session having worked.
	if err := smtp.SendMail(addr, nil, "ada@example.org", []string{"nobody@play.test"}, []byte("Subject: x\r\n\r\nboard\r\n")); err == nil || !strings.Contains(err.Error(), "550") {
		t.Fatalf("a mail to an unknown address: %v, want 550", err)
	}

	// The two wait on the server's timers, not on the cores: they run at
	// once (two connections, under the address's three), which saves the
	// trickle's second of waiting.
	var wg sync.WaitGroup
	wg.Go(func() {
		t.Run("a trickled command", func(t *testing.T) {
			c := dial("127.0.0.1")
			c.SetDeadline(time.Now().Add(20 * time.Second)) // the test's own bound
			cl, err := smtp.NewClient(trickleConn{Conn: c, gap: 300 * time.Millisecond}, "play.test")
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			err = cl.Hello("client.test") // 18 bytes: 5.4 s at a byte every 300 ms
			took := time.Since(start)
			if err == nil {
				t.Fatalf("a trickled EHLO was taken after %v; want the connection cut after the command's %v", took, b.Command)
			}
			if took > b.Command+time.Second {
				t.Errorf("a trickled EHLO cut after %v; want about %v (the command's time)", took, b.Command)
			}
		})
	})
	wg.Go(func() {
		t.Run("a session of NOOPs", func(t *testing.T) {
			c := dial("127.0.0.1")
			c.SetDeadline(time.Now().Add(20 * time.Second))
			cl, err := smtp.NewClient(c, "play.test")
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := cl.Hello("client.test"); err != nil {
				t.Fatal(err)
			}
			var noops int
			for ; time.Since(start) < 4*b.Session; noops++ {
				if err = cl.Noop(); err != nil {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			took := time.Since(start)
			switch {
			case err == nil:
				t.Fatalf("%d NOOPs over %v, the connection still open; want it cut after the session's %v", noops, took, b.Session)
			case took < b.Session-200*time.Millisecond || took > b.Session+2*time.Second:
				t.Errorf("cut after %v (%d NOOPs): want about the session's %v", took, noops, b.Session)
			}
			if n := h.srv.mail.Counts.ConnsCut.Load(); n < 1 {
				t.Errorf("connections cut: %d", n)
			}
		})
	})
	wg.Wait()

	t.Run("connections at once", func(t *testing.T) {
		// greeting reads a connection's first line.
		greeting := func(c net.Conn) string {
			t.Helper()
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			line, err := bufio.NewReader(c).ReadString('\n')
			if err != nil {
				t.Fatalf("no greeting: %v", err)
			}
			return line
		}
		var mine []net.Conn
		for i := range b.PerAddr {
			c := dial("127.0.0.1")
			if g := greeting(c); !strings.HasPrefix(g, "220 ") {
				t.Fatalf("connection %d from 127.0.0.1: %q", i+1, g)
			}
			mine = append(mine, c)
		}
		if g := greeting(dial("127.0.0.1")); !strings.HasPrefix(g, "421 4.7.0") || !strings.Contains(g, "from your address") {
			t.Errorf("connection %d from one address: %q, want 421 (the address's %d)", b.PerAddr+1, g, b.PerAddr)
		}
		if g := greeting(dial("127.0.0.2")); !strings.HasPrefix(g, "220 ") {
			t.Errorf("a connection from another address: %q, want 220", g)
		}
		if g := greeting(dial("127.0.0.3")); !strings.HasPrefix(g, "421 4.7.0") {
			t.Errorf("connection %d in all: %q, want 421 (the %d at once)", b.Open+1, g, b.Open)
		}
		// A place freed (the client quits) is taken again.
		mine[0].Write([]byte("QUIT\r\n"))
		var g string
		for try := 0; try < 50; try++ {
			if g = greeting(dial("127.0.0.1")); strings.HasPrefix(g, "220 ") {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if !strings.HasPrefix(g, "220 ") {
			t.Errorf("a connection after one quit: %q, want 220", g)
		}
		if n := h.srv.mail.Counts.ConnsRefused.Load(); n < 2 {
			t.Errorf("connections refused: %d", n)
		}
	})
}
