package mail

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"sync/atomic"
	"time"

	"alak/server/internal/game"
	"alak/server/store"
)

// Store is what the mail reads and keeps: the players' addresses
// (accounts), a mailed game's state when its address is checked (games),
// and the reply addresses' secrets.
type Store interface {
	store.AccountStore
	store.GameStore
	store.MailStore
}

// Config is what the mail takes of the server.
type Config struct {
	Store Store
	// Core acts on the games a mailed reply plays, and loads the game
	// an answer shows.
	Core *game.Core
	Log  *slog.Logger
	// Now is the server's clock: the time left a mail states, the
	// secrets' creation, the rate of mails to a game.
	Now func() time.Time
	// SMTP is the mail server, smtp://[user:password@]host[:port][?from=ADDR];
	// "" sends no mail (and Listen must then be "").
	SMTP string
	// Listen is where mailed replies are taken over SMTP (moves by email);
	// "" takes none. Domain is the reply addresses' domain.
	Listen, Domain string
	// Bounds bound Listen's connections: zero fields take DefaultBounds.
	Bounds Bounds
	// GameURL is a game page's address, which every mail about a game
	// ends with.
	GameURL func(id string) string
	// Note is what a player's conditional moves add to a mail about the
	// game st sent to the account ("" for nothing).
	Note func(ctx context.Context, st *game.State, account int64) string
	// Quote is the opponent's last message, quoted for the your-move mail
	// to the account ("" for none).
	Quote func(st *game.State, account int64) string
	// Queued counts the mails about a game handed to the queue (your
	// move, time running out, the answers to mailed replies).
	Queued *atomic.Int64
}

// Counts are the mail's counters (for /metrics).
type Counts struct {
	// Sent and Failed count the mails the mail server took and those it
	// did not.
	Sent, Failed atomic.Int64
	// The mails taken by Listen, by what became of them: Played (the
	// game changed), Refused (nothing changed, the player was told why),
	// Board (the board sent again), Automatic (dropped unanswered); and
	// the recipients refused at RCPT.
	Played, Refused, Board, Automatic, RcptRefused atomic.Int64
	// ConnsRefused counts the SMTP connections refused (over the limits),
	// ConnsCut those closed because a command or the session ran out of
	// time.
	ConnsRefused, ConnsCut atomic.Int64
}

// Mail is the server's mail: the mails it sends about games, and with
// Config.Listen the replies it takes as moves.
type Mail struct {
	c      Config
	out    *mailer // nil without Config.SMTP
	in     *mailIn // nil without Config.Listen
	Counts Counts
}

// New returns the mail of c, its listener open when c.Listen is set; Start
// runs it.
func New(c Config) (*Mail, error) {
	m := &Mail{c: c}
	if c.SMTP != "" {
		out, err := newMailer(c.SMTP, &m.Counts, c.Log)
		if err != nil {
			// The URL may hold the mail server's password: never repeat it.
			return nil, fmt.Errorf("--smtp %s: write smtp://[user:password@]host[:port][?from=ADDRESS]", redactURL(c.SMTP))
		}
		m.out = out
	}
	if c.Listen != "" {
		if m.out == nil {
			return nil, fmt.Errorf("--mail-listen needs --smtp: the answers to mailed moves are sent through it")
		}
		in, err := newMailIn(m, c.Listen, c.Domain)
		if err != nil {
			return nil, err
		}
		m.in = in
	}
	return m, nil
}

// Start runs the sending queue and the SMTP server, each by spawn, until
// done is closed.
func (m *Mail) Start(spawn func(func()), done <-chan struct{}) {
	if m.out != nil {
		spawn(func() { m.out.run(done) })
	}
	if m.in != nil {
		spawn(func() { m.in.run(done) })
	}
}

// Discard closes the listener of a mail that will not be started (the
// server failed to start after New).
func (m *Mail) Discard() {
	if m.in != nil {
		m.in.ln.Close()
	}
}

// Sends reports whether mail is sent (Config.SMTP).
func (m *Mail) Sends() bool { return m.out != nil }

// Reads reports whether mailed replies are taken (Config.Listen).
func (m *Mail) Reads() bool { return m.in != nil }

// QueueDepth is how many mails wait to be sent.
func (m *Mail) QueueDepth() int {
	if m.out == nil {
		return 0
	}
	return len(m.out.queue)
}

// Addr is the address where mail is taken (Config.Listen, its port chosen
// when that was 0); "" when none is.
func (m *Mail) Addr() string {
	if m.in == nil {
		return ""
	}
	return m.in.addr()
}

// redactURL returns a URL without its password, for messages.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a URL that does not parse)"
	}
	return u.Redacted()
}
