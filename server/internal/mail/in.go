package mail

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"
	"golang.org/x/time/rate"

	"alak/rules"
	"alak/server/internal/command"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// Moves by email. With Config.MailListen the server takes mail
// over SMTP (github.com/emersion/go-smtp) for the addresses
// game-ID-SECRET@MailDomain that its mails give as Reply-To. Each mail
// gets a secret of its own (128 random bits, only its SHA-256 stored),
// bound to the player, the game and the ply of the board it showed; a
// reply plays its first line at that ply, or is refused as stale and
// answered with the board as it is now. Mail to an address that is unknown,
// or whose game has ended, is refused at RCPT; automatic mail is taken and
// never answered; one player's addresses in one game take a bounded number
// of mails.
// read.go reads the mails.

// mailSecretBytes is a secret's size: 128 bits.
const mailSecretBytes = 16

// mailSecretEncoding writes secrets in lower-case base32 (26 letters and
// digits): mail systems may change the case of an address.
var mailSecretEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Per player and game (all the addresses mailed to one player in one
// game): a burst of Burst mails, then one every Every.
const (
	Burst = 10
	Every = 2 * time.Minute
)

// Bounds bound what an SMTP connection may hold: the mail server in
// front of alak sends a mail in well under a second, so a connection that
// takes minutes, or one more than a mail server opens, is not one.
type Bounds struct {
	// Command: each command line, and a mail's whole data after DATA,
	// must arrive within it (from the moment the server waits for it).
	Command time.Duration
	// Session: a connection is closed this long after it was opened,
	// whatever it sends (a client that sends a line every few seconds
	// keeps every command within its time, for ever otherwise).
	Session time.Duration
	// Open: connections at once, in all; PerAddr: from one address
	// (Postfix opens up to 20 to one destination by default). Past
	// them a new connection is answered 421 and closed: a mail server
	// tries again later.
	Open, PerAddr int
}

// DefaultBounds are alak serve's.
var DefaultBounds = Bounds{Command: 30 * time.Second, Session: 2 * time.Minute, Open: 100, PerAddr: 20}

// withDefaults fills the zero fields of b from DefaultBounds.
func (b Bounds) withDefaults() Bounds {
	d := DefaultBounds
	if b.Command <= 0 {
		b.Command = d.Command
	}
	if b.Session <= 0 {
		b.Session = d.Session
	}
	if b.Open <= 0 {
		b.Open = d.Open
	}
	if b.PerAddr <= 0 {
		b.PerAddr = d.PerAddr
	}
	return b
}

// mailIn is the SMTP server of moves by email.
type mailIn struct {
	m      *Mail
	domain string
	srv    *smtp.Server
	ln     *mailListener
	limits *httpx.Limiters // mails by address

	mu       sync.Mutex
	closed   bool
	handling sync.WaitGroup // mails being acted on
}

func newMailIn(m *Mail, addr, domain string) (*mailIn, error) {
	domain = strings.ToLower(strings.TrimSpace(domain))
	if domain == "" || strings.ContainsAny(domain, "@ /") {
		return nil, fmt.Errorf("--mail-listen needs --mail-domain DOMAIN, the domain of the reply addresses (mail.example.org)")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--mail-listen %s: %w", addr, err)
	}
	b := m.c.Bounds.withDefaults()
	in := &mailIn{m: m, domain: domain, limits: httpx.NewLimiters(rate.Every(Every), Burst)}
	in.ln = &mailListener{Listener: ln, in: in, b: b, byAddr: map[string]int{}}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &mailSession{in: in}, nil }))
	srv.Domain = domain
	srv.MaxMessageBytes = maxMailBytes
	srv.MaxRecipients = 1
	srv.ReadTimeout = b.Command // go-smtp sets it before each line it reads
	srv.WriteTimeout = b.Command
	srv.ErrorLog = smtpLog{m.c.Log}
	in.srv = srv
	return in, nil
}

// addr is the address the SMTP server listens on.
func (in *mailIn) addr() string { return in.ln.Addr().String() }

// run serves until done is closed, then closes the connections and waits
// for the mails being acted on.
func (in *mailIn) run(done <-chan struct{}) {
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := in.srv.Serve(in.ln); err != nil {
			in.m.c.Log.Error("the mail server stopped", "err", err)
		}
	}()
	<-done
	in.mu.Lock()
	in.closed = true
	in.mu.Unlock()
	in.srv.Close()
	<-served
	in.handling.Wait()
}

// mailListener is --mail-listen's listener: it refuses the connections
// over mailBounds' limits, and bounds each connection it gives go-smtp by
// the session's time.
type mailListener struct {
	net.Listener
	in *mailIn
	b  Bounds

	mu     sync.Mutex
	open   int
	byAddr map[string]int
}

// Accept returns the next connection within the limits; one over them is
// answered 421 and closed here.
func (l *mailListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := c.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if why := l.admit(host); why != "" {
			l.in.m.Counts.ConnsRefused.Add(1)
			// A new socket's buffer is empty: the answer is written at
			// once, and the deadline only guards against the unexpected.
			c.SetWriteDeadline(time.Now().Add(time.Second))
			fmt.Fprintf(c, "421 4.7.0 %s %s: try again later\r\n", l.in.domain, why)
			c.Close()
			continue
		}
		now := time.Now()
		mc := &mailConn{Conn: c, l: l, host: host, end: now.Add(l.b.Session)}
		c.SetDeadline(mc.end)
		return mc, nil
	}
}

// admit counts a connection from host, or says why it is refused.
func (l *mailListener) admit(host string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.open >= l.b.Open:
		return fmt.Sprintf("has %d connections open, the most it takes", l.b.Open)
	case l.byAddr[host] >= l.b.PerAddr:
		return fmt.Sprintf("has %d connections open from your address, the most it takes from one", l.b.PerAddr)
	}
	l.open++
	l.byAddr[host]++
	return ""
}

func (l *mailListener) release(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.byAddr[host]--; l.byAddr[host] <= 0 {
		delete(l.byAddr, host)
	}
}

// mailConn is an SMTP connection whose deadlines never pass its session's
// end: go-smtp sets a read deadline before each line (the command's
// time), and here it is cut to the end of the session. Writes get a few
// seconds more, so that the answer saying why the connection closes
// (go-smtp's 421) is sent. A read that runs out of time ends it.
type mailConn struct {
	net.Conn
	l        *mailListener
	host     string
	end      time.Time
	released sync.Once
	cutOff   atomic.Bool // a command's or the session's time ran out
}

// mailWriteGrace is how long past the session's end an answer may take.
const mailWriteGrace = 5 * time.Second

func (c *mailConn) cut(t, end time.Time) time.Time {
	if t.IsZero() || t.After(end) {
		return end
	}
	return t
}

// Read reads, and once a read has run out of time (the command's or the
// session's) every later read fails at once: go-smtp's line reader takes
// the part of a line read before a timeout as a whole command, answers
// it 501 and reads on under a new deadline, so a client trickling its
// lines would be cut only after several such errors. Here the connection
// ends at the first.
func (c *mailConn) Read(p []byte) (int, error) {
	if c.cutOff.Load() {
		return 0, os.ErrDeadlineExceeded
	}
	n, err := c.Conn.Read(p)
	if errors.Is(err, os.ErrDeadlineExceeded) && c.cutOff.CompareAndSwap(false, true) {
		c.l.in.m.Counts.ConnsCut.Add(1)
	}
	return n, err
}

func (c *mailConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}

func (c *mailConn) SetReadDeadline(t time.Time) error {
	return c.Conn.SetReadDeadline(c.cut(t, c.end))
}

func (c *mailConn) SetWriteDeadline(t time.Time) error {
	return c.Conn.SetWriteDeadline(c.cut(t, c.end.Add(mailWriteGrace)))
}

// Close closes the connection and frees its place (once: go-smtp and the
// server's stop may both close it).
func (c *mailConn) Close() error {
	err := c.Conn.Close()
	c.released.Do(func() { c.l.release(c.host) })
	return err
}

// smtpLog sends go-smtp's messages to the server's log.
type smtpLog struct{ log *slog.Logger }

func (l smtpLog) Printf(format string, v ...any) {
	l.log.Warn("mail server: " + fmt.Sprintf(format, v...))
}
func (l smtpLog) Println(v ...any) { l.log.Warn("mail server: " + fmt.Sprint(v...)) }

// mailSession is one SMTP connection.
type mailSession struct {
	in *mailIn
	// nullSender: the return path is empty (a bounce, an automatic mail).
	nullSender bool
	rcpt       *store.MailSecret
}

func (ss *mailSession) Reset()        { ss.nullSender, ss.rcpt = false, nil }
func (ss *mailSession) Logout() error { return nil }

func (ss *mailSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.nullSender = from == ""
	return nil
}

// smtpErr is an SMTP answer: code, enhanced code (RFC 3463), sentence.
func smtpErr(code int, enhanced smtp.EnhancedCode, format string, a ...any) *smtp.SMTPError {
	return &smtp.SMTPError{Code: code, EnhancedCode: enhanced, Message: fmt.Sprintf(format, a...)}
}

var errNoSuchAddress = smtpErr(550, smtp.EnhancedCode{5, 1, 1}, "no such address: a reply address of alak is game-ID-SECRET@DOMAIN, as the game's mail gave it")

// Rcpt takes a reply address that a mail gave for a game still being
// played, within the address's rate.
func (ss *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	err := ss.rcpt1(to)
	if err != nil {
		ss.in.m.Counts.RcptRefused.Add(1)
	}
	return err
}

func (ss *mailSession) rcpt1(to string) error {
	in := ss.in
	to = strings.ToLower(to)
	if len(to) > 128 {
		return errNoSuchAddress
	}
	local, domain, ok := strings.Cut(to, "@")
	if !ok || domain != in.domain {
		return smtpErr(550, smtp.EnhancedCode{5, 7, 1}, "this server takes mail for @%s only", in.domain)
	}
	rest, ok := strings.CutPrefix(local, "game-")
	i := strings.LastIndexByte(rest, '-')
	if !ok || i < 0 {
		return errNoSuchAddress
	}
	id, secret := rest[:i], rest[i+1:]
	raw, err := mailSecretEncoding.DecodeString(secret)
	if err != nil || len(raw) != mailSecretBytes {
		return errNoSuchAddress
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sec, err := in.m.c.Store.MailSecret(ctx, HashSecret(secret))
	if errors.Is(err, store.ErrNotFound) {
		// Its game may have ended (and its secrets gone): say so.
		if row, _, err := in.m.c.Store.Game(ctx, id); err == nil && row.State != store.StateActive && row.State != store.StateWaiting {
			return smtpErr(550, smtp.EnhancedCode{5, 1, 1}, "game %s is over (%s): its addresses take no more mail", row.ID, row.Reason)
		}
		return errNoSuchAddress
	}
	if err == nil && sec.GameID != id {
		return errNoSuchAddress
	}
	if err != nil {
		in.m.c.Log.Error("reading a mail address", "err", err)
		return smtpErr(451, smtp.EnhancedCode{4, 3, 0}, "the server failed: try again later")
	}
	row, _, err := in.m.c.Store.Game(ctx, sec.GameID)
	if err != nil {
		in.m.c.Log.Error("reading a mailed game", "game", sec.GameID, "err", err)
		return smtpErr(451, smtp.EnhancedCode{4, 3, 0}, "the server failed: try again later")
	}
	if row.State != store.StateActive {
		if err := in.m.c.Store.DeleteMailSecrets(ctx, row.ID); err != nil {
			in.m.c.Log.Warn("deleting an ended game's mail addresses", "game", row.ID, "err", err)
		}
		return smtpErr(550, smtp.EnhancedCode{5, 1, 1}, "game %s is over (%s): its addresses take no more mail", row.ID, row.Reason)
	}
	// Limited by player and game, once the secret is known: every answer
	// gives a new address, so a robot answering the answers is held back
	// all the same, and forged addresses cannot fill the limiters' table.
	if wait, ok := in.limits.Allow(sec.GameID+"/"+sec.Color, in.m.c.Now()); !ok {
		return smtpErr(450, smtp.EnhancedCode{4, 7, 1}, "too many mails to this game's addresses: try again in %s", game.ShortDuration(wait.Round(time.Second)))
	}
	ss.rcpt = &sec
	return nil
}

// Data reads the mail and acts on it; the mail is accepted once the move
// is stored (or refused, with the answer queued), so a mail server that
// gets no 250 sends it again, and the ply it names keeps it from being
// played twice.
func (ss *mailSession) Data(r io.Reader) error {
	in := ss.in
	rep, readErr := readReply(r)
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	if ss.rcpt == nil {
		return smtpErr(554, smtp.EnhancedCode{5, 5, 1}, "no valid recipient")
	}
	if ss.nullSender || rep.Auto {
		in.m.Counts.Automatic.Add(1)
		in.m.c.Log.Info("an automatic mail was dropped unanswered", "game", ss.rcpt.GameID)
		return nil
	}
	in.mu.Lock()
	if in.closed {
		in.mu.Unlock()
		return smtpErr(421, smtp.EnhancedCode{4, 3, 2}, "the server is stopping: try again later")
	}
	in.handling.Add(1)
	in.mu.Unlock()
	defer in.handling.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := in.reply(ctx, *ss.rcpt, rep.Command, readErr); err != nil {
		in.m.c.Log.Error("acting on a mailed move", "game", ss.rcpt.GameID, "err", err)
		return smtpErr(451, smtp.EnhancedCode{4, 3, 0}, "the server failed: try again later")
	}
	return nil
}

// errBoardOnly: the reply asks for the board; nothing changes.
var errBoardOnly = errors.New("board")

// reply plays a mailed command for the seat of sec, at its ply, and mails
// the player the answer: the new board, or what was wrong and the board as
// it is; when the command ended the game, the opponent gets the final
// board too. An error is the server's own (the store failed): nothing is
// answered, and the mail is to be sent again.
func (in *mailIn) reply(ctx context.Context, sec store.MailSecret, command string, readErr error) error {
	m := in.m
	c, _ := rules.ParseColor(sec.Color)
	var lead string
	ended := false // the mail ended the game
	count := &m.Counts.Played
	if readErr != nil {
		lead = "Nothing changed: " + readErr.Error() + "."
		count = &m.Counts.Refused
	} else {
		_, err := m.c.Core.Act(ctx, sec.GameID, func(st *game.State, now time.Time) (*game.Change, error) {
			before := st.Sess.Ply()
			cmd, ch, err := m.mailedCommand(st, sec, c, command, now)
			if err == nil {
				lead = mailDone(st, before, cmd)
				ended = st.Sess.Over()
			}
			return ch, err
		})
		if ae := httpx.AsError(err); err != nil {
			switch {
			case errors.Is(err, errBoardOnly):
				lead = "The board as it is now:"
				count = &m.Counts.Board
			case ae.Kind.Refusal():
				lead = "Nothing changed: " + strings.TrimSuffix(ae.Msg, ".") + "."
				count = &m.Counts.Refused
			default:
				return err
			}
		}
	}
	count.Add(1)
	if err := m.answer(ctx, sec, c, lead); err != nil {
		return err
	}
	if ended && count == &m.Counts.Played {
		// The opponent gets no your-move mail: they hear the end here.
		return m.answer(ctx, sec, c.Opp(), "Your opponent's mail ended the game.")
	}
	return nil
}

// mailDone says what a mailed command did to the game st (after it; the
// game was at ply before). The player's move is the one after ply before:
// another may follow it in the same change (a conditional answer).
func mailDone(st *game.State, before int, cmd command.Command) string {
	switch cmd.Kind {
	case command.Draw:
		if st.Sess.Over() {
			return "You accepted the draw: the game is drawn."
		}
		return "You offered a draw."
	case command.Resign:
		return "You resigned."
	}
	move := cmd.Move
	if moves := st.Sess.Moves(); len(moves) > before {
		move = moves[before]
	}
	return "You played " + st.Rules.MoveText(move) + "."
}

// mailedCommand reads a mailed line and says what it does to the game,
// under its lock: the command read, and the change.
func (m *Mail) mailedCommand(st *game.State, sec store.MailSecret, c rules.Color, text string, now time.Time) (command.Command, *game.Change, error) {
	if st.Row.State != store.StateActive {
		return command.Command{}, nil, httpx.Errf(wire.Conflict, "game_over", "the game is over (%s)", st.Row.Reason)
	}
	if ply := st.Sess.Ply(); ply != sec.Ply {
		return command.Command{}, nil, httpx.Errf(wire.Conflict, "stale_ply", "your mail answered the board after move %d, but the game has moved on to move %d since; answer the board below", sec.Ply, ply)
	}
	// The words (draw, board) are taken on either player's turn; a move is
	// judged after the turn, and a text that is not a move after the turn
	// too, as the API judges it.
	cmd, err := command.Mail.Parse(st.Rules, text)
	if err == nil {
		switch cmd.Kind {
		case command.Empty:
			return cmd, nil, httpx.Errf(wire.BadInput, "no_move", "the mail has no line to read: write a move (a point such as 3, pass or resign), draw or board on its first line, above any quoted text")
		case command.Board:
			return cmd, nil, errBoardOnly
		case command.Draw:
			// An offer, or the acceptance of the opponent's (OfferDraw).
			if !st.Sess.Seat(c.Opp()).Human() {
				return cmd, nil, httpx.Errf(wire.Conflict, "not_now", "draws with the computer are offered on the game's page")
			}
			_, err := st.Sess.OfferDraw(c)
			return cmd, &game.Change{}, err
		}
	}
	if err := st.CheckTurn(c); err != nil {
		return cmd, nil, err
	}
	if err != nil {
		return cmd, nil, err
	}
	if cmd.Kind == command.Resign {
		return cmd, &game.Change{}, st.Sess.Resign(c)
	}
	acct := st.Row.Black.AccountID
	if c == rules.White {
		acct = st.Row.White.AccountID
	}
	ch, err := m.c.Core.PlayMove(st, c, cmd.Move, acct, now)
	return cmd, ch, err
}

// answer mails the player of seat c the game as it is now, after lead,
// with a new reply address while the game goes on.
func (m *Mail) answer(ctx context.Context, sec store.MailSecret, c rules.Color, lead string) error {
	st, err := m.c.Core.Load(ctx, sec.GameID)
	if err != nil {
		return err
	}
	seat := st.Row.Black
	if c == rules.White {
		seat = st.Row.White
	}
	a, err := m.c.Store.AccountByID(ctx, seat.AccountID)
	if err != nil {
		return err
	}
	if a.Email == "" {
		return nil
	}
	if note := m.c.Note(ctx, st, seat.AccountID); note != "" {
		lead += " " + note
	}
	replyTo := m.replyTo(st, c)
	m.out.sendReplyTo(a.Email, replyTo, fmt.Sprintf("alak: game %s after move %d", st.Row.ID, st.Sess.Ply()),
		fmt.Sprintf("%s\n\nGame %s (%s).\n\n%s\n%s\n", lead, st.Row.ID, st.Row.Rules, m.boardBody(st, c, replyTo != ""), m.c.GameURL(st.Row.ID)))
	m.c.Queued.Add(1)
	return nil
}

// GameEnded deletes the secrets of a game that has just ended (a failure
// is logged: the addresses are refused anyway, since RCPT checks the
// game, which deletes them then).
func (m *Mail) GameEnded(ctx context.Context, id string) {
	if err := m.c.Store.DeleteMailSecrets(ctx, id); err != nil {
		m.c.Log.Warn("deleting an ended game's mail addresses", "game", id, "err", err)
	}
}

// HashSecret is the stored form of a secret: hex SHA-256.
func HashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// replyTo makes a reply address for the player of seat c at the game's
// ply and stores its secret's hash: "" when mail is not read, the game is
// not being played, or the secret could not be stored (the mail then goes
// without, and says nothing about answering it).
func (m *Mail) replyTo(st *game.State, c rules.Color) string {
	if m.in == nil || st.Row.State != store.StateActive || c == rules.None {
		return ""
	}
	raw := make([]byte, mailSecretBytes)
	rand.Read(raw) // crypto/rand does not fail on supported systems
	secret := mailSecretEncoding.EncodeToString(raw)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := m.c.Store.AddMailSecret(ctx, store.MailSecret{Hash: HashSecret(secret), GameID: st.Row.ID, Color: c.Letter(), Ply: st.Sess.Ply(), Created: m.c.Now()})
	if err != nil {
		m.c.Log.Warn("storing a mail address", "game", st.Row.ID, "err", err)
		return ""
	}
	return "game-" + st.Row.ID + "-" + secret + "@" + m.in.domain
}
