package server

import (
	"context"
	"fmt"
	"net"
	"net/smtp"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"alak/internal/clip"
	"alak/server/internal/game"
)

// mailer sends the server's mail through one SMTP server, from a bounded
// queue, so that a slow mail server never holds a move.
type mailer struct {
	addr  string // host:port
	auth  smtp.Auth
	from  string
	queue chan mail
	log   func(msg string, args ...any)
	// sent and failed count the mails the mail server took and those it
	// did not (for /metrics).
	sent, failed atomic.Int64
}

type mail struct {
	to, subject, body string
	// replyTo is the Reply-To address: a game's secret address for moves
	// by email (mailin.go); "" for none.
	replyTo string
}

// newMailer reads the --smtp URL: smtp://[user:password@]host[:port][?from=ADDRESS].
// The port is 25 unless given; from defaults to alak@host. STARTTLS is used
// when the server offers it; a password is only sent over TLS or to a
// server on this machine (net/smtp's rule).
func newMailer(raw string, log func(string, ...any)) (*mailer, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "smtp" || u.Hostname() == "" {
		return nil, fmt.Errorf("--smtp %q: write smtp://[user:password@]host[:port][?from=ADDRESS]", clip.Text(raw))
	}
	port := u.Port()
	if port == "" {
		port = "25"
	}
	m := &mailer{addr: net.JoinHostPort(u.Hostname(), port), from: u.Query().Get("from"), queue: make(chan mail, 256), log: log}
	if m.from == "" {
		m.from = "alak@" + u.Hostname()
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		m.auth = smtp.PlainAuth("", u.User.Username(), pass, u.Hostname())
	}
	return m, nil
}

// sendReplyTo queues a mail whose replies go to replyTo ("": to From); a
// full queue drops it (and says so in the log).
func (m *mailer) sendReplyTo(to, replyTo, subject, body string) {
	select {
	case m.queue <- mail{to: to, subject: subject, body: body, replyTo: replyTo}:
	default:
		m.log("the mail queue is full; a mail was dropped", "to", to)
	}
}

// run sends queued mail until done is closed.
func (m *mailer) run(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case ml := <-m.queue:
			// Auto-Submitted (RFC 3834): a program's mail, which an
			// out-of-office robot must not answer.
			head := "From: " + m.from + "\r\nTo: " + ml.to + "\r\nSubject: " + ml.subject +
				"\r\nDate: " + time.Now().UTC().Format(time.RFC1123Z) + "\r\nAuto-Submitted: auto-generated"
			if ml.replyTo != "" {
				head += "\r\nReply-To: " + ml.replyTo
			}
			msg := head + "\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + strings.ReplaceAll(ml.body, "\n", "\r\n")
			if err := smtp.SendMail(m.addr, m.auth, m.from, []string{ml.to}, []byte(msg)); err != nil {
				m.failed.Add(1)
				m.log("sending mail failed", "to", ml.to, "err", err)
				continue
			}
			m.sent.Add(1)
		}
	}
}

// mailYourTurn tells a correspondence player it is their move, when they
// have no stream open (they are not on the site) and have an address. With
// moves by email (mailin.go) the mail's Reply-To is a secret address of
// the player for this board.
func (s *Server) mailYourTurn(st *game.State, account int64) {
	if s.mailer == nil || account == 0 || s.core.Broker.Online(account) {
		return
	}
	a, err := s.store.AccountByID(context.Background(), account)
	if err != nil {
		s.log.Error("your-move mail not sent: reading the player", "game", st.Row.ID, "account", account, "err", err)
		return
	}
	if a.Email == "" {
		return
	}
	c, _ := st.SeatOf(&a)
	last := ""
	if n := len(st.Sess.Moves()); n > 0 {
		last = " Your opponent played " + st.Rules.MoveText(st.Sess.Moves()[n-1]) + "."
	}
	if note := s.conditional.Note(context.Background(), st, account); note != "" {
		last += " " + note
	}
	last += s.quoteLastMessage(st, account)
	replyTo := s.mailReplyTo(st, c)
	s.mailer.sendReplyTo(a.Email, replyTo, "alak: your move in game "+st.Row.ID,
		fmt.Sprintf("It is your move in %s (%s).%s\n\n%s\n%s\n",
			st.Row.ID, st.Row.Rules, last, s.boardMailBody(st, c, replyTo != ""), s.gameURL(st.Row.ID)))
	s.metrics.mails.Add(1)
}

// mailTimeRunningOut warns a correspondence player whose deadline is near.
func (s *Server) mailTimeRunningOut(st *game.State, account int64) {
	if s.mailer == nil || account == 0 {
		return
	}
	a, err := s.store.AccountByID(context.Background(), account)
	if err != nil {
		s.log.Error("time-running-out mail not sent: reading the player", "game", st.Row.ID, "account", account, "err", err)
		return
	}
	if a.Email == "" {
		return
	}
	c, _ := st.SeatOf(&a)
	replyTo := s.mailReplyTo(st, c)
	s.mailer.sendReplyTo(a.Email, replyTo, "alak: your time is running out in game "+st.Row.ID,
		fmt.Sprintf("Your time for this move in %s (%s) runs out at %s: move by then, or the game is lost on time.\n\n%s\n%s\n",
			st.Row.ID, st.Row.Rules, st.Row.Deadline.UTC().Format(mailDateFormat), s.boardMailBody(st, c, replyTo != ""), s.gameURL(st.Row.ID)))
	s.metrics.mails.Add(1)
}

// gameURL is the game page's address.
func (s *Server) gameURL(id string) string { return s.cfg.BaseURL + "/g/" + id }
