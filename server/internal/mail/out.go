package mail

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/smtp"
	"net/url"
	"strings"
	"time"

	"alak/internal/clip"
	"alak/rules"
	"alak/server/internal/game"
	"alak/server/store"
)

// mailer sends the server's mail through one SMTP server, from a bounded
// queue, so that a slow mail server never holds a move.
type mailer struct {
	addr  string // host:port
	auth  smtp.Auth
	from  string
	queue chan mail
	log   *slog.Logger
	// counts' Sent and Failed count the mails the mail server took and
	// those it did not (for /metrics).
	counts *Counts
}

type mail struct {
	to, subject, body string
	// replyTo is the Reply-To address: a game's secret address for moves
	// by email (in.go); "" for none.
	replyTo string
}

// newMailer reads the --smtp URL: smtp://[user:password@]host[:port][?from=ADDRESS].
// The port is 25 unless given; from defaults to alak@host. STARTTLS is used
// when the server offers it; a password is only sent over TLS or to a
// server on this machine (net/smtp's rule).
func newMailer(raw string, counts *Counts, log *slog.Logger) (*mailer, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "smtp" || u.Hostname() == "" {
		return nil, fmt.Errorf("--smtp %q: write smtp://[user:password@]host[:port][?from=ADDRESS]", clip.Text(raw))
	}
	port := u.Port()
	if port == "" {
		port = "25"
	}
	m := &mailer{addr: net.JoinHostPort(u.Hostname(), port), from: u.Query().Get("from"), queue: make(chan mail, 256), log: log, counts: counts}
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
		m.log.Warn("the mail queue is full; a mail was dropped", "to", to)
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
				m.counts.Failed.Add(1)
				m.log.Warn("sending mail failed", "to", ml.to, "err", err)
				continue
			}
			m.counts.Sent.Add(1)
		}
	}
}

// YourTurn tells a correspondence player it is their move, when they
// have no stream open (they are not on the site) and have an address. With
// moves by email (in.go) the mail's Reply-To is a secret address of
// the player for this board.
func (m *Mail) YourTurn(st *game.State, account int64) {
	if m.out == nil || account == 0 || m.c.Core.Broker.Online(account) {
		return
	}
	a, c, ok := m.recipient(st, account, "your-move")
	if !ok {
		return
	}
	last := ""
	if n := len(st.Sess.Moves()); n > 0 {
		last = " Your opponent played " + st.Rules.MoveText(st.Sess.Moves()[n-1]) + "."
	}
	if note := m.c.Note(context.Background(), st, account); note != "" {
		last += " " + note
	}
	last += m.c.Quote(st, account)
	replyTo := m.replyTo(st, c)
	m.out.sendReplyTo(a.Email, replyTo, "alak: your move in game "+st.Row.ID,
		fmt.Sprintf("It is your move in %s (%s).%s\n\n%s\n%s\n",
			st.Row.ID, st.Row.Rules, last, m.boardBody(st, c, replyTo != ""), m.c.GameURL(st.Row.ID)))
	m.c.Queued.Add(1)
}

// TimeRunningOut warns a correspondence player whose deadline is near.
func (m *Mail) TimeRunningOut(st *game.State, account int64) {
	if m.out == nil || account == 0 {
		return
	}
	a, c, ok := m.recipient(st, account, "time-running-out")
	if !ok {
		return
	}
	replyTo := m.replyTo(st, c)
	m.out.sendReplyTo(a.Email, replyTo, "alak: your time is running out in game "+st.Row.ID,
		fmt.Sprintf("Your time for this move in %s (%s) runs out at %s: move by then, or the game is lost on time.\n\n%s\n%s\n",
			st.Row.ID, st.Row.Rules, st.Row.Deadline.UTC().Format(mailDateFormat), m.boardBody(st, c, replyTo != ""), m.c.GameURL(st.Row.ID)))
	m.c.Queued.Add(1)
}

// recipient reads the account a mail about the game st goes to, and its
// seat there; ok is false when no mail is to be sent: the account has no
// address, or could not be read (logged as the mail, named by what, not
// sent).
func (m *Mail) recipient(st *game.State, account int64, what string) (a store.Account, c rules.Color, ok bool) {
	a, err := m.c.Store.AccountByID(context.Background(), account)
	if err != nil {
		m.c.Log.Error(what+" mail not sent: reading the player", "game", st.Row.ID, "account", account, "err", err)
		return a, rules.None, false
	}
	if a.Email == "" {
		return a, rules.None, false
	}
	c, _ = st.SeatOf(&a)
	return a, c, true
}
