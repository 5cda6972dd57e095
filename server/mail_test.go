package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	netmail "net/mail"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/server/internal/game"
	"alak/wire"
)

// smtpSink is a minimal SMTP server on loopback (RFC 5321's commands that
// net/smtp.SendMail sends, no STARTTLS, no AUTH): it hands every mail it
// accepts to a channel.
type smtpSink struct {
	ln    net.Listener
	mails chan sentMail
	wg    sync.WaitGroup
}

// sentMail is one mail as the sink received it.
type sentMail struct {
	from    string   // the envelope's sender
	rcpt    []string // the envelope's recipients
	header  netmail.Header
	body    string // with \n line ends
	subject string
}

func newSMTPSink(t *testing.T) *smtpSink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &smtpSink{ln: ln, mails: make(chan sentMail, 64)}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serve(c)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.wg.Wait()
	})
	return s
}

// url is the --smtp URL of the sink.
func (s *smtpSink) url() string { return "smtp://" + s.ln.Addr().String() + "?from=alak@test.example" }

func (s *smtpSink) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	tc := textproto.NewConn(c)
	tc.PrintfLine("220 sink.test ESMTP")
	var from string
	var rcpt []string
	// addr reads the address of "FROM:<a> BODY=8BITMIME" or "TO:<a>".
	addr := func(arg string) string {
		_, a, _ := strings.Cut(arg, ":")
		a, _, _ = strings.Cut(a, " ")
		return strings.Trim(a, "<>")
	}
	for {
		line, err := tc.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			tc.PrintfLine("250-sink.test")
			tc.PrintfLine("250 8BITMIME")
		case "HELO", "NOOP":
			tc.PrintfLine("250 ok")
		case "MAIL":
			from, rcpt = addr(arg), nil
			tc.PrintfLine("250 ok")
		case "RCPT":
			rcpt = append(rcpt, addr(arg))
			tc.PrintfLine("250 ok")
		case "RSET":
			from, rcpt = "", nil
			tc.PrintfLine("250 ok")
		case "DATA":
			tc.PrintfLine("354 end with <CRLF>.<CRLF>")
			data, err := tc.ReadDotBytes()
			if err != nil {
				return
			}
			msg, err := netmail.ReadMessage(bytes.NewReader(data))
			if err != nil {
				tc.PrintfLine("554 not a mail: %v", err)
				continue
			}
			body, _ := io.ReadAll(msg.Body)
			dec := new(mime.WordDecoder)
			subject, err := dec.DecodeHeader(msg.Header.Get("Subject"))
			if err != nil {
				subject = msg.Header.Get("Subject")
			}
			s.mails <- sentMail{from: from, rcpt: rcpt, header: msg.Header, body: string(body), subject: subject}
			tc.PrintfLine("250 queued")
		case "QUIT":
			tc.PrintfLine("221 bye")
			return
		default:
			tc.PrintfLine("502 not implemented")
		}
	}
}

// next returns the next mail the sink receives, failing the test if none
// comes within a generous bound (a mail is sent from a queue, after the
// answer to the request that caused it).
func (s *smtpSink) next(t *testing.T) sentMail {
	t.Helper()
	select {
	case m := <-s.mails:
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("no mail arrived")
	}
	return sentMail{}
}

// setEmail gives the client's account an address.
func (c *client) setEmail(email string) {
	c.h.t.Helper()
	var me wire.Me
	if code := c.do("PUT", "/api/me", map[string]string{"email": email}, &me); code != http.StatusOK || me.Email != email {
		c.h.t.Fatalf("PUT /api/me email %s: %d %+v", email, code, me)
	}
}

// watch opens the game's event stream as this client (with its cookies)
// and returns once the first event has come: the stream is then
// registered, and the account counts as on the site. cancel closes it.
func (c *client) watch(id string) (cancel func()) {
	c.h.t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", c.h.http.URL+"/api/games/"+id+"/events", nil)
	resp, err := (&http.Client{Jar: c.c.Jar}).Do(req)
	if err != nil {
		stop()
		c.h.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		stop()
		c.h.t.Fatalf("events: %d", resp.StatusCode)
	}
	first := make(chan bool, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				select {
				case first <- true:
				default:
				}
			}
		}
	}()
	select {
	case <-first:
	case <-time.After(30 * time.Second):
		stop()
		c.h.t.Fatal("the stream sent no first event")
	}
	return func() {
		stop()
		<-done
	}
}

// me returns the client's account id.
func (c *client) me() int64 {
	c.h.t.Helper()
	var me wire.Me
	if code := c.do("GET", "/api/me", nil, &me); code != http.StatusOK {
		c.h.t.Fatalf("GET /api/me: %d", code)
	}
	return me.ID
}

// waitOffline waits (bounded) until the server no longer counts the
// account as on the site: its streams have ended.
func (h *harness) waitOffline(account int64) {
	h.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for h.srv.core.Broker.Online(account) {
		if time.Now().After(deadline) {
			h.t.Fatal("the closed stream still counts as open")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// mailDate is how the mails write a deadline.
const mailDate = "Mon 2 Jan 2006 15:04 UTC"

// checkMail checks a mail's envelope and headers, and that its body holds
// every piece of want.
func checkMail(t *testing.T, m sentMail, to, subject string, want ...string) {
	t.Helper()
	if m.from != "alak@test.example" || len(m.rcpt) != 1 || m.rcpt[0] != to {
		t.Errorf("envelope from %q to %q, want alak@test.example to %s", m.from, m.rcpt, to)
	}
	if got := m.header.Get("To"); got != to {
		t.Errorf("To: %q, want %q", got, to)
	}
	if got := m.header.Get("From"); got != "alak@test.example" {
		t.Errorf("From: %q", got)
	}
	if m.subject != subject {
		t.Errorf("Subject: %q, want %q", m.subject, subject)
	}
	if ct := m.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type: %q", ct)
	}
	for _, w := range want {
		if !strings.Contains(m.body, w) {
			t.Errorf("the mail to %s lacks %q:\n%s", to, w, m.body)
		}
	}
}

// TestYourMoveMail: in a correspondence game, the player to move gets a
// mail with the game's link when they have no event stream open, and none
// while they have one; each mail is checked (To, Subject, body) as an SMTP
// server on loopback received it. Mails leave one queue in order, so a
// mail that arrives proves that no mail queued before it was left out.
func TestYourMoveMail(t *testing.T) {
	t.Parallel()
	sink := newSMTPSink(t)
	h := newHarness(t, Config{SMTP: sink.url()})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	ada.setEmail("ada@example.org")
	bo.setEmail("bo@example.org")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "bo"})
	link := h.http.URL + "/g/" + g.ID
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	// bo took the challenge: it is ada's move, and she is not on the site.
	checkMail(t, sink.next(t), "ada@example.org", "alak: your move in game "+g.ID,
		"It is your move in "+g.ID+" (alak size=7).\n", "You have until "+h.clock.Now().Add(72*time.Hour).Format(mailDate)+".", link)

	h.clock.Add(time.Hour)
	if code, _, e := ada.move(g.ID, "2", 0); code != http.StatusOK {
		t.Fatalf("ada's move: %d %+v", code, e)
	}
	checkMail(t, sink.next(t), "bo@example.org", "alak: your move in game "+g.ID,
		"It is your move in "+g.ID+" (alak size=7). Your opponent played 2.", "You have until "+h.clock.Now().Add(72*time.Hour).Format(mailDate)+".", link)

	// ada watches the game: bo's move mails nobody.
	closeStream := ada.watch(g.ID)
	sent := h.srv.metrics.mails.Load()
	if code, _, e := bo.move(g.ID, "4", 1); code != http.StatusOK {
		t.Fatalf("bo's move: %d %+v", code, e)
	}
	if n := h.srv.metrics.mails.Load(); n != sent {
		t.Errorf("%d mails queued for a player with the game open", n-sent)
	}
	// She leaves; her next move mails bo, and that is the next mail.
	closeStream()
	h.waitOffline(ada.me())
	if code, _, e := ada.move(g.ID, "6", 2); code != http.StatusOK {
		t.Fatalf("ada's second move: %d %+v", code, e)
	}
	checkMail(t, sink.next(t), "bo@example.org", "alak: your move in game "+g.ID, "Your opponent played 6.", link)

	// A stream open on any game, a spectator's too, counts: ada watches
	// bo's game against the computer, and bo's move mails nobody.
	other := bo.create(map[string]string{"rules": "alak", "clock": "none", "opponent": "computer:level:1"})
	closeOther := ada.watch(other.ID)
	sent = h.srv.metrics.mails.Load()
	if code, _, e := bo.move(g.ID, "1", 3); code != http.StatusOK {
		t.Fatalf("bo's second move: %d %+v", code, e)
	}
	if n := h.srv.metrics.mails.Load(); n != sent {
		t.Errorf("%d mails queued for a spectator elsewhere", n-sent)
	}
	closeOther()
	h.waitOffline(ada.me())
	if code, _, e := ada.move(g.ID, "7", 4); code != http.StatusOK {
		t.Fatalf("ada's third move: %d %+v", code, e)
	}
	checkMail(t, sink.next(t), "bo@example.org", "alak: your move in game "+g.ID, "Your opponent played 7.", link)
	select {
	case m := <-sink.mails:
		t.Errorf("an extra mail: %s to %v", m.subject, m.rcpt)
	default:
	}
}

// TestTimeRunningOutMail: the sweep warns the player to move once per move
// when less than 12 hours of a correspondence move are left; not earlier,
// and not twice.
func TestTimeRunningOutMail(t *testing.T) {
	t.Parallel()
	sink := newSMTPSink(t)
	h := newHarness(t, Config{SMTP: sink.url()})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	ada.setEmail("ada@example.org")
	bo.setEmail("bo@example.org")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:1", "opponent": "bo"})
	link := h.http.URL + "/g/" + g.ID
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	sink.next(t) // ada's your-move mail
	if code, _, _ := ada.move(g.ID, "2", 0); code != http.StatusOK {
		t.Fatalf("ada's move: %d", code)
	}
	sink.next(t) // bo's your-move mail
	deadline := h.clock.Now().Add(24 * time.Hour)
	subject := "alak: your time is running out in game " + g.ID

	// 12 hours and a minute left: no warning yet.
	h.clock.Add(12*time.Hour - time.Minute)
	sent := h.srv.metrics.mails.Load()
	h.srv.sweepOnce(false)
	if n := h.srv.metrics.mails.Load(); n != sent {
		t.Errorf("a warning with more than 12 hours left (%d mails)", n-sent)
	}
	// Under 12 hours: one warning, then none at the next sweeps.
	h.clock.Add(2 * time.Minute)
	h.srv.sweepOnce(false)
	checkMail(t, sink.next(t), "bo@example.org", subject,
		"Your time for this move in "+g.ID+" (alak size=7) runs out at "+deadline.Format(mailDate)+": move by then, or the game is lost on time.", link)
	sent = h.srv.metrics.mails.Load()
	h.srv.sweepOnce(false)
	h.clock.Add(6 * time.Hour)
	h.srv.sweepOnce(false)
	if n := h.srv.metrics.mails.Load(); n != sent {
		t.Errorf("%d more warnings for the same move", n-sent)
	}
	// bo moves: ada's next move has its own day, and its own warning.
	if code, _, _ := bo.move(g.ID, "4", 1); code != http.StatusOK {
		t.Fatalf("bo's move: %d", code)
	}
	checkMail(t, sink.next(t), "ada@example.org", "alak: your move in game "+g.ID, "Your opponent played 4.")
	deadline = h.clock.Now().Add(24 * time.Hour)
	h.srv.sweepOnce(false)
	h.clock.Add(13 * time.Hour)
	h.srv.sweepOnce(false)
	checkMail(t, sink.next(t), "ada@example.org", subject, "runs out at "+deadline.Format(mailDate), link)
	// A restart does not send it again: the warning is in the row.
	h.restart()
	sent = h.srv.metrics.mails.Load()
	h.srv.sweepOnce(false)
	if n := h.srv.metrics.mails.Load(); n != sent {
		t.Errorf("the warning was sent again after a restart")
	}
	// Her time runs out: the game is lost on time, and nobody is warned.
	h.clock.Add(12 * time.Hour)
	h.srv.sweepOnce(false)
	if v := bo.game(g.ID); v.State != "finished" || v.SGFResult != "W+T" {
		t.Errorf("after the deadline: %s %s", v.State, v.SGFResult)
	}
	select {
	case m := <-sink.mails:
		t.Errorf("an extra mail: %s to %v", m.subject, m.rcpt)
	default:
	}
}

// TestWarnRechecksTheDeadline: a warning is decided on the game as it is
// under its lock, not on the list the sweep read before: a move made
// between the two starts a new day, and nobody is warned.
func TestWarnRechecksTheDeadline(t *testing.T) {
	t.Parallel()
	sink := newSMTPSink(t)
	h := newHarness(t, Config{SMTP: sink.url()})
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	bo.setEmail("bo@example.org")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:1", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	h.clock.Add(20 * time.Hour)
	// The sweep would list the game now (4 hours left for ada); ada moves
	// before it takes the game's lock.
	listed, err := h.st.Warnable(context.Background(), h.clock.Now().Add(game.WarnBefore))
	if err != nil || len(listed) != 1 {
		t.Fatalf("warnable: %v %v", listed, err)
	}
	ada.move(g.ID, "2", 0)
	sink.next(t) // bo's your-move mail
	sent := h.srv.metrics.mails.Load()
	h.srv.warn(context.Background(), g.ID)
	if n := h.srv.metrics.mails.Load(); n != sent {
		t.Errorf("bo was warned with a whole day left")
	}
	row, _, _ := h.st.Game(context.Background(), g.ID)
	if row.WarnedEntry >= row.Entries {
		t.Errorf("the move was marked as warned: warned %d entries %d", row.WarnedEntry, row.Entries)
	}
}

// logRecorder keeps the level of every record logged at Warn or above.
type logRecorder struct {
	mu      sync.Mutex
	records []string
}

func (l *logRecorder) Enabled(_ context.Context, lv slog.Level) bool { return lv >= slog.LevelWarn }
func (l *logRecorder) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.records = append(l.records, r.Level.String()+" "+r.Message)
	return nil
}
func (l *logRecorder) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logRecorder) WithGroup(string) slog.Handler      { return l }

func (l *logRecorder) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.records...)
}

// TestNoMailWithoutSMTP: without --smtp a correspondence game with
// addresses plays and runs short of time as usual: nothing is queued, and
// nothing is logged as a warning or an error.
func TestNoMailWithoutSMTP(t *testing.T) {
	t.Parallel()
	rec := &logRecorder{}
	h := newHarness(t, Config{Logger: slog.New(rec)})
	if h.srv.mail.Sends() {
		t.Fatal("a mailer without --smtp")
	}
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	ada.setEmail("ada@example.org")
	bo.setEmail("bo@example.org")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:1", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	for i, m := range []string{"2", "4", "6"} {
		players := []*client{ada, bo}
		if code, _, e := players[i%2].move(g.ID, m, i); code != http.StatusOK {
			t.Fatalf("move %s: %d %+v", m, code, e)
		}
	}
	h.clock.Add(13 * time.Hour)
	h.srv.sweepOnce(true)
	h.clock.Add(12 * time.Hour)
	h.srv.sweepOnce(true)
	v := ada.game(g.ID)
	if v.State != "finished" || v.SGFResult != "B+T" {
		t.Errorf("after the day: %s %s", v.State, v.SGFResult)
	}
	if n := h.srv.metrics.mails.Load(); n != 0 {
		t.Errorf("%d mails without --smtp", n)
	}
	if r := rec.list(); len(r) > 0 {
		t.Errorf("logged: %q", r)
	}
}

// TestBadSMTPURL: a --smtp that is not an smtp URL is refused at start,
// with the form it takes (package mail's TestNewMailer reads the good
// ones).
func TestBadSMTPURL(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"mail.example.org", "http://mail.example.org", "smtp://", "smtp://:25"} {
		_, err := New(Config{SMTP: bad}, nil)
		if err == nil || !strings.Contains(err.Error(), "smtp://[user:password@]host[:port][?from=ADDRESS]") {
			t.Errorf("--smtp %q: %v", bad, err)
		}
	}
}
