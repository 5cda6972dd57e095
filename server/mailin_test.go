package server

import (
	"context"
	"errors"
	"io"
	"mime"
	"net"
	netmail "net/mail"
	"net/smtp"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"

	"alak/server/internal/mail"
	"alak/server/store"
)

// Moves by email: real SMTP from Debian's swaks (a client nobody here
// wrote; .ci/run installs it) to the server's --mail-listen, and the
// server's answers received by an in-process go-smtp server.

// needSwaks skips the test when swaks is not installed.
func needSwaks(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("swaks")
	if err != nil {
		t.Skip("swaks is not installed (apt-get install swaks; .ci/run does)")
	}
	return p
}

// swaks sends the mail data (headers and body) to rcpt from sender ("" for
// an empty return path) through the server's SMTP listener, and returns
// swaks's transcript and whether the mail was accepted. It may be called
// from any goroutine.
func swaks(t *testing.T, h *harness, rcpt, sender, data string) (string, bool) {
	t.Helper()
	if sender == "" {
		sender = "<>"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "swaks", "--server", h.srv.MailAddr(), "--to", rcpt, "--from", sender,
		"--helo", "client.test", "--timeout", "20", "--data", "-")
	cmd.Stdin = strings.NewReader(data)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Errorf("swaks: %v", err) // not Fatal: it may run in a goroutine of the test's
	}
	return string(out), err == nil
}

// send sends a mail with swaks and fails the test unless it is accepted.
func send(t *testing.T, h *harness, rcpt, sender, data string) {
	t.Helper()
	if out, ok := swaks(t, h, rcpt, sender, data); !ok {
		t.Fatalf("the mail to %s was not accepted:\n%s", rcpt, out)
	}
}

// plainReply is a reply as a mail program writes it: the text on top, the
// mail it answers quoted below.
func plainReply(from, text string) string {
	return "From: " + from + "\r\nSubject: Re: alak: your move\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		text + "\r\n\r\nOn Tue, alak wrote:\r\n> It is your move.\r\n> Legal moves: 1 3 5 7\r\n"
}

// goSMTPSink receives the server's mails on loopback with go-smtp's
// server (the library --mail-listen uses, here on the other side).
type goSMTPSink struct {
	ln    net.Listener
	mails chan sentMail
}

func newGoSMTPSink(t *testing.T) *goSMTPSink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	k := &goSMTPSink{ln: ln, mails: make(chan sentMail, 64)}
	srv := gosmtp.NewServer(gosmtp.BackendFunc(func(*gosmtp.Conn) (gosmtp.Session, error) { return &sinkSession{k: k}, nil }))
	srv.Domain = "sink.test"
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(ln)
	}()
	t.Cleanup(func() {
		srv.Close()
		<-served
	})
	return k
}

// url is the --smtp URL of the sink.
func (k *goSMTPSink) url() string {
	return "smtp://" + k.ln.Addr().String() + "?from=alak@test.example"
}

// next returns the next mail the sink receives (bounded wait).
func (k *goSMTPSink) next(t *testing.T) sentMail {
	t.Helper()
	select {
	case m := <-k.mails:
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("no mail arrived")
	}
	return sentMail{}
}

// sinkSession is one connection to the sink.
type sinkSession struct {
	k    *goSMTPSink
	from string
	rcpt []string
}

func (ss *sinkSession) Reset()        { ss.from, ss.rcpt = "", nil }
func (ss *sinkSession) Logout() error { return nil }
func (ss *sinkSession) Mail(from string, _ *gosmtp.MailOptions) error {
	ss.from = from
	return nil
}
func (ss *sinkSession) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	ss.rcpt = append(ss.rcpt, to)
	return nil
}
func (ss *sinkSession) Data(r io.Reader) error {
	msg, err := netmail.ReadMessage(r)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(msg.Body)
	if err != nil {
		return err
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		subject = msg.Header.Get("Subject")
	}
	ss.k.mails <- sentMail{from: ss.from, rcpt: ss.rcpt, header: msg.Header,
		body: strings.ReplaceAll(string(body), "\r\n", "\n"), subject: subject}
	return nil
}

// mailbox sorts the sink's mails by recipient: mails to several players
// are queued by one request in an order the test need not know.
type mailbox struct {
	sink *goSMTPSink
	held []sentMail
}

// next returns the next mail to addr.
func (b *mailbox) next(t *testing.T, addr string) sentMail {
	t.Helper()
	for {
		if i := slices.IndexFunc(b.held, func(m sentMail) bool { return slices.Contains(m.rcpt, addr) }); i >= 0 {
			m := b.held[i]
			b.held = slices.Delete(b.held, i, i+1)
			return m
		}
		b.held = append(b.held, b.sink.next(t))
	}
}

var replyToRE = regexp.MustCompile(`^game-([a-z0-9]+)-([a-z2-7]{26})@play\.test$`)

// replyTo checks a mail's Reply-To (a reply address of game id) and
// returns it.
func replyTo(t *testing.T, m sentMail, id string) string {
	t.Helper()
	a := m.header.Get("Reply-To")
	if sm := replyToRE.FindStringSubmatch(a); sm == nil || sm[1] != id {
		t.Fatalf("Reply-To %q of %q is no reply address of game %s", a, m.subject, id)
	}
	return a
}

// has fails the test unless the mail's body holds every piece of want
// (where the body's lines are wrapped, a piece may span two).
func has(t *testing.T, m sentMail, want ...string) {
	t.Helper()
	joined := strings.Join(strings.Fields(m.body), " ")
	for _, w := range want {
		if !strings.Contains(m.body, w) && !strings.Contains(joined, w) {
			t.Errorf("the mail %q to %v lacks %q:\n%s", m.subject, m.rcpt, w, m.body)
		}
	}
}

// TestMovesByMail plays a game by mail from both sides, with swaks sending
// each reply: plain and multipart replies, a reply to an old mail (stale:
// refused, answered with the board now), an illegal move, a line that is
// no move, a pass the rules refuse, automatic mails (no answer), a forged
// secret (refused at RCPT), a draw offered and accepted by mail, and the
// game's addresses
// refusing mail once it has ended.
func TestMovesByMail(t *testing.T) {
	t.Parallel()
	needSwaks(t)
	sink := newGoSMTPSink(t)
	h := newHarness(t, Config{SMTP: sink.url(), MailListen: "127.0.0.1:0", MailDomain: "play.test"})
	box := &mailbox{sink: sink}
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	ada.setEmail("ada@example.org")
	bo.setEmail("bo@example.org")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "bo"})
	if code := bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil); code != 200 {
		t.Fatalf("join: %d", code)
	}
	ply := func(want int, moves ...string) {
		t.Helper()
		if v := ada.game(g.ID); len(v.Moves) != want || !slices.Equal(v.Moves, moves) {
			t.Fatalf("the game's moves: %q, want %q", v.Moves, moves)
		}
	}

	// ada's your-move mail: the board, every point of the empty line
	// legal, the time left, and how to answer by mail.
	m := box.next(t, "ada@example.org")
	a0 := replyTo(t, m, g.ID)
	has(t, m, "It is your move in "+g.ID+" (alak size=7).", "No move has been played yet.",
		"Legal moves: 1 2 3 4 5 6 7", "Time left: 3 days. You have until "+h.clock.Now().Add(72*time.Hour).Format(mailDate)+".",
		"To play by mail, answer this mail", "It answers the board after move 0")

	// ada plays 2 by mail: bo is told, with an address of his own, and
	// ada's answer shows the new board with a new address.
	send(t, h, a0, "ada@example.org", plainReply("ada@example.org", "2"))
	ply(1, "2")
	m = box.next(t, "bo@example.org")
	b1 := replyTo(t, m, g.ID)
	has(t, m, "Your opponent played 2.", "Last move: 2 (move 1).", "Legal moves: 1 3 4 5 6 7")
	m = box.next(t, "ada@example.org")
	a1 := replyTo(t, m, g.ID)
	has(t, m, "You played 2.", "Last move: 2 (move 1).", "Your opponent has until")
	if a1 == a0 || b1 == a0 {
		t.Errorf("an address was given twice: %s %s %s", a0, a1, b1)
	}

	// bo answers with a multipart mail: HTML and quoted-printable text.
	multipart := "From: bo@example.org\r\nSubject: Re: alak\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/alternative; boundary=\"=_b\"\r\n\r\n" +
		"--=_b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>1</p>\r\n" +
		"--=_b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=34\r\n\r\n-- \r\nbo\r\n" +
		"--=_b--\r\n"
	send(t, h, b1, "bo@example.org", multipart)
	ply(2, "2", "4")
	m = box.next(t, "ada@example.org")
	a2 := replyTo(t, m, g.ID)
	has(t, m, "Your opponent played 4.", "Last move: 4 (move 2).")
	has(t, box.next(t, "bo@example.org"), "You played 4.")

	// ada answers her first mail again: stale, refused, and answered
	// with the board as it is.
	send(t, h, a0, "ada@example.org", plainReply("ada@example.org", "6"))
	ply(2, "2", "4")
	m = box.next(t, "ada@example.org")
	has(t, m, "Nothing changed: your mail answered the board after move 0, but the game has moved on to move 2 since",
		"Last move: 4 (move 2).", "It answers the board after move 2")
	a2b := replyTo(t, m, g.ID)

	// A point that is taken: refused by the kernel.
	send(t, h, a2, "ada@example.org", plainReply("ada@example.org", "4"))
	ply(2, "2", "4")
	has(t, box.next(t, "ada@example.org"), "Nothing changed: illegal move 4: ")
	// A line that is no move.
	send(t, h, a2, "ada@example.org", plainReply("ada@example.org", "Thanks!"))
	has(t, box.next(t, "ada@example.org"), `Nothing changed: cannot read "Thanks!" as a move`)
	// board: the board again, nothing changed.
	send(t, h, a2b, "ada@example.org", plainReply("ada@example.org", "board"))
	has(t, box.next(t, "ada@example.org"), "The board as it is now:", "Last move: 4 (move 2).")

	// Automatic mails are taken and never answered (nor played): an
	// out-of-office reply holding a legal move, and a bounce (empty
	// return path). The answer to a mail is queued before the mail is
	// accepted, so the count after swaks returns is final.
	sent := h.srv.metrics.mails.Load()
	send(t, h, a2, "ada@example.org", "From: ada@example.org\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\n\r\n6\r\n")
	send(t, h, a2, "", "From: MAILER-DAEMON@example.org\r\nSubject: Undelivered\r\n\r\n6\r\n")
	if n := h.srv.metrics.mails.Load(); n != sent {
		t.Errorf("%d answers to automatic mail", n-sent)
	}
	ply(2, "2", "4")

	// Forged addresses are refused at RCPT: a made-up secret for this
	// game, and bo's secret under another game's id.
	// (swaks for one, the standard library's client for the others: the
	// refusal comes at RCPT, before any text.)
	if out, ok := swaks(t, h, "game-"+g.ID+"-"+strings.Repeat("a", 26)+"@play.test", "eve@example.org", plainReply("eve@example.org", "6")); ok || !strings.Contains(out, "550 5.1.1 no such address") {
		t.Errorf("a made-up secret: accepted %v\n%s", ok, out)
	}
	for forged, want := range map[string]string{
		"game-abcdefghjk-" + replyToRE.FindStringSubmatch(b1)[2] + "@play.test": "550 5.1.1 no such address",
		"ada@play.test":                   "550 5.1.1 no such address",
		"game-" + g.ID + "-x@example.org": "550 5.7.1", // another domain
	} {
		err := smtp.SendMail(h.srv.MailAddr(), nil, "eve@example.org", []string{forged}, []byte(plainReply("eve@example.org", "6")))
		if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(want, "550 ")) || !strings.HasPrefix(err.Error(), "550") {
			t.Errorf("a forged address %s: %v, want %s", forged, err, want)
		}
	}
	ply(2, "2", "4")

	// ada passes: Alak's rules (Baljeu's) allow no pass, and the kernel
	// says so; she plays 6. bo offers a draw, ada accepts it: every step
	// by mail.
	send(t, h, a2, "ada@example.org", plainReply("ada@example.org", "pass"))
	has(t, box.next(t, "ada@example.org"), "Nothing changed: illegal move pass: passing is not allowed under these rules.")
	send(t, h, a2, "ada@example.org", plainReply("ada@example.org", "6"))
	ply(3, "2", "4", "6")
	m = box.next(t, "bo@example.org")
	b3 := replyTo(t, m, g.ID)
	has(t, m, "Your opponent played 6.", "Legal moves: 1 3 5 7 resign")
	m = box.next(t, "ada@example.org")
	a3 := replyTo(t, m, g.ID)
	has(t, m, "You played 6.")
	send(t, h, b3, "bo@example.org", plainReply("bo@example.org", "draw"))
	has(t, box.next(t, "bo@example.org"), "You offered a draw.", "White (o) offers a draw.")
	send(t, h, a3, "ada@example.org", plainReply("ada@example.org", "Draw"))
	m = box.next(t, "ada@example.org")
	has(t, m, "You accepted the draw: the game is drawn.", "Game over:")
	has(t, box.next(t, "bo@example.org"), "Your opponent's mail ended the game.", "Game over:")
	if rt := m.header.Get("Reply-To"); rt != "" || strings.Contains(m.body, "To play by mail") {
		t.Errorf("the mail after the end gives a reply address %q:\n%s", rt, m.body)
	}
	if v := ada.game(g.ID); v.State != "finished" || v.SGFResult != "0" {
		t.Errorf("after the draw: %s %s", v.State, v.SGFResult)
	}

	// The game has ended: its addresses refuse mail, and their secrets
	// are gone from the database.
	if out, ok := swaks(t, h, a3, "ada@example.org", plainReply("ada@example.org", "5")); ok || !strings.Contains(out, "550 5.1.1 game "+g.ID+" is over") {
		t.Errorf("mail to %s after the end: accepted %v\n%s", a3, ok, out)
	}
	// /metrics counted each mail: played 2, 4, 6 and both draws; refused
	// the stale reply, 4, "Thanks!" and pass; one board; two automatic;
	// at RCPT the four forged addresses and the ended game's.
	got := scrape(t, h.http.URL)
	for name, want := range map[string]float64{
		`alak_mails_received_total{result="played"}`:    5,
		`alak_mails_received_total{result="refused"}`:   4,
		`alak_mails_received_total{result="board"}`:     1,
		`alak_mails_received_total{result="automatic"}`: 2,
		`alak_mail_recipients_refused_total`:            5,
	} {
		if got[name] != want {
			t.Errorf("%s = %v, want %v", name, got[name], want)
		}
	}
	for _, a := range []string{a0, a3, b3} {
		secret := replyToRE.FindStringSubmatch(a)[2]
		if _, err := h.st.MailSecret(context.Background(), mail.HashSecret(secret)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the secret of %s after the end: %v", a, err)
		}
	}
}

// TestMailLimits: a mail over 64 kB is refused (552), and one player's
// addresses in a game take a burst of mail.Burst mails, then one every
// mail.Every (450 meanwhile), while the other player's are not held back.
// Sent with net/smtp, the standard library's client.
func TestMailLimits(t *testing.T) {
	t.Parallel()
	sink := newGoSMTPSink(t)
	h := newHarness(t, Config{SMTP: sink.url(), MailListen: "127.0.0.1:0", MailDomain: "play.test"})
	box := &mailbox{sink: sink}
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	ada.setEmail("ada@example.org")
	bo.setEmail("bo@example.org")
	g := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "clock": "days:3", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	a0 := replyTo(t, box.next(t, "ada@example.org"), g.ID)
	send := func(to, body string) error {
		return smtp.SendMail(h.srv.MailAddr(), nil, "ada@example.org", []string{to},
			[]byte("From: ada@example.org\r\nSubject: Re: alak\r\n\r\n"+body+"\r\n"))
	}
	big := "board\r\n" + strings.Repeat("> "+strings.Repeat("x", 70)+"\r\n", 1000)
	if err := send(a0, big); err == nil || !strings.Contains(err.Error(), "552") {
		t.Errorf("a mail of %d bytes: %v, want 552", len(big), err)
	}
	// The big mail took one of the burst: mail.Burst-1 more pass, each to
	// the address the last answer gave (as a robot answering the answers
	// would).
	to := a0
	for i := range mail.Burst - 1 {
		if err := send(to, "board"); err != nil {
			t.Fatalf("mail %d of the burst: %v", i+2, err)
		}
		m := box.next(t, "ada@example.org")
		has(t, m, "The board as it is now:")
		to = replyTo(t, m, g.ID)
	}
	// The next is held back, to the newest address as to the first.
	for _, a := range []string{to, a0} {
		err := send(a, "board")
		if err == nil || !strings.Contains(err.Error(), "450") || !strings.Contains(err.Error(), "too many mails to this game's addresses") {
			t.Errorf("a mail to %s after the burst: %v, want 450", a, err)
		}
	}
	// An unknown address is refused as unknown, not held back.
	if err := send(a0+"x", "board"); err == nil || !strings.Contains(err.Error(), "550") {
		t.Errorf("an unknown address: %v, want 550", err)
	}
	h.clock.Add(mail.Every)
	if err := send(a0, "3"); err != nil {
		t.Fatalf("after %s: %v", mail.Every, err)
	}
	has(t, box.next(t, "ada@example.org"), "You played 3.")
	b1 := replyTo(t, box.next(t, "bo@example.org"), g.ID)
	// bo's addresses have a burst of their own.
	if err := send(b1, "board"); err != nil {
		t.Errorf("bo's address: %v", err)
	}
	has(t, box.next(t, "bo@example.org"), "The board as it is now:")
}

// TestMailListenNeeds: --mail-listen needs --smtp and --mail-domain, and
// says so.
func TestMailListenNeeds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{MailListen: "127.0.0.1:0", MailDomain: "play.test"}, "--mail-listen needs --smtp"},
		{Config{MailListen: "127.0.0.1:0", SMTP: "smtp://127.0.0.1:1"}, "--mail-listen needs --mail-domain"},
	} {
		_, err := New(c.cfg, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
}

// TestMoveByMailAlterIgo: an Alter Igo game's mail draws the grid, lists
// its points in the grid's notation, and a reply in that notation plays;
// the game's end through the API deletes its addresses' secrets.
func TestMoveByMailAlterIgo(t *testing.T) {
	t.Parallel()
	needSwaks(t)
	sink := newGoSMTPSink(t)
	h := newHarness(t, Config{SMTP: sink.url(), MailListen: "127.0.0.1:0", MailDomain: "play.test"})
	box := &mailbox{sink: sink}
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	ada.setEmail("ada@example.org")
	bo.setEmail("bo@example.org")
	g := ada.create(map[string]string{"rules": "alterigo size=5x5", "color": "x", "clock": "days:1", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	// The grid, rows 5 to 1 over columns A to E, as notation.DrawBoard
	// draws it, and its 25 points.
	m := box.next(t, "ada@example.org")
	has(t, m, "5  -  -  -  -  -\n4  -  -  -  -  -\n", "1  -  -  -  -  -\n   A  B  C  D  E\n",
		"Legal moves: A5 B5 C5 D5 E5 A4", "C1 D1 E1 resign", "a move (such as A5)")
	a0 := replyTo(t, m, g.ID)
	// Written as people type it, in lower case.
	send(t, h, a0, "ada@example.org", plainReply("ada@example.org", "c3"))
	has(t, box.next(t, "ada@example.org"), "You played C3.", "3  -  -  X  -  -\n")
	m = box.next(t, "bo@example.org")
	has(t, m, "Your opponent played C3.", "Last move: C3 (move 1).")
	if v := ada.game(g.ID); !slices.Equal(v.Moves, []string{"C3"}) {
		t.Errorf("the game's moves: %q", v.Moves)
	}
	// bo resigns on the page (the API): the game's addresses end with it
	// at once, not only when mail comes to them.
	b1 := replyTo(t, m, g.ID)
	if code := bo.do("POST", "/api/games/"+g.ID+"/resign", map[string]any{}, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	for _, a := range []string{a0, b1} {
		if _, err := h.st.MailSecret(context.Background(), mail.HashSecret(replyToRE.FindStringSubmatch(a)[2])); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the secret of %s after bo resigned: %v", a, err)
		}
	}
}

// legalMoves reads the legal moves a mail lists (the line "Legal moves:"
// and its indented continuations).
func legalMoves(t *testing.T, m sentMail) []string {
	t.Helper()
	var out []string
	in := false
	for _, line := range strings.Split(m.body, "\n") {
		switch {
		case strings.HasPrefix(line, "Legal moves:"):
			in = true
			out = append(out, strings.Fields(strings.TrimPrefix(line, "Legal moves:"))...)
		case in && strings.HasPrefix(line, "  "):
			out = append(out, strings.Fields(line)...)
		default:
			in = false
		}
	}
	if len(out) == 0 {
		t.Fatalf("the mail %q lists no legal moves:\n%s", m.subject, m.body)
	}
	return out
}

// TestWholeGameByMail: two players play a game to its end by mail alone,
// each reply (sent with swaks) the first point the mail lists as legal,
// until the rules end it; the game's moves are the ones mailed, each
// checked by the kernel, and both players hear the end.
func TestWholeGameByMail(t *testing.T) {
	t.Parallel()
	needSwaks(t)
	sink := newGoSMTPSink(t)
	h := newHarness(t, Config{SMTP: sink.url(), MailListen: "127.0.0.1:0", MailDomain: "play.test"})
	box := &mailbox{sink: sink}
	ada := h.client().signUp("ada")
	bo := h.client().signUp("bo")
	ada.setEmail("ada@example.org")
	bo.setEmail("bo@example.org")
	g := ada.create(map[string]string{"rules": "alak size=5", "color": "x", "clock": "days:3", "opponent": "bo"})
	bo.do("POST", "/api/games/"+g.ID+"/join", nil, nil)
	players := [2]string{"ada@example.org", "bo@example.org"}
	turn := box.next(t, players[0])
	var mailed []string
	for i := 0; ; i++ {
		if i == 40 {
			t.Fatalf("no end after %d moves by mail: %q", i, mailed)
		}
		me, other := players[i%2], players[(i+1)%2]
		move := legalMoves(t, turn)[0]
		send(t, h, replyTo(t, turn, g.ID), me, plainReply(me, move))
		mailed = append(mailed, move)
		answer := box.next(t, me)
		has(t, answer, "You played "+move+".")
		if v := ada.game(g.ID); v.State != "active" {
			has(t, answer, "Game over:")
			if v.State != "finished" || !slices.Equal(v.Moves, mailed) {
				t.Errorf("the end: %s, moves %q, mailed %q", v.State, v.Moves, mailed)
			}
			end := box.next(t, other)
			has(t, end, "Your opponent's mail ended the game.", "Game over:", "Last move: "+move)
			if rt := end.header.Get("Reply-To"); rt != "" {
				t.Errorf("the end's mail gives a reply address %q", rt)
			}
			break
		}
		turn = box.next(t, other)
		has(t, turn, "Your opponent played "+move+".")
	}
	t.Logf("%d moves by mail: %q", len(mailed), mailed)
}
