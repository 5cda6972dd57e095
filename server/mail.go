package server

import (
	"alak/server/internal/game"
	"alak/server/internal/mail"
)

// The mail is package mail (server/internal/mail); here is what the other
// features call of it.

// newMail builds the server's mail from its configuration.
func (s *Server) newMail() (*mail.Mail, error) {
	return mail.New(mail.Config{Store: s.store, Core: s.core, Log: s.log, Now: s.now,
		SMTP: s.cfg.SMTP, Listen: s.cfg.MailListen, Domain: s.cfg.MailDomain, Bounds: s.cfg.mailBounds,
		GameURL: s.gameURL, Note: s.conditional.Note, Quote: s.around.QuoteLastMessage, Queued: &s.metrics.mails})
}

// mailYourTurn tells a correspondence player it is their move
// (mail.Mail.YourTurn).
func (s *Server) mailYourTurn(st *game.State, account int64) { s.mail.YourTurn(st, account) }

// mailTimeRunningOut warns a correspondence player whose deadline is near
// (mail.Mail.TimeRunningOut).
func (s *Server) mailTimeRunningOut(st *game.State, account int64) {
	s.mail.TimeRunningOut(st, account)
}

// MailAddr is the address where the server takes mail (Config.MailListen,
// its port chosen when that was 0); "" when it takes none.
func (s *Server) MailAddr() string { return s.mail.Addr() }

// gameURL is the game page's address.
func (s *Server) gameURL(id string) string { return s.cfg.BaseURL + "/g/" + id }
