package mail

import (
	"log/slog"
	"testing"
)

// TestNewMailer: a --smtp URL gives the mail server's address (port 25
// unless given), the sender (from=, else alak@HOST) and the credentials
// when it names a user. The URLs refused are tested through the server's
// New (TestBadSMTPURL).
func TestNewMailer(t *testing.T) {
	t.Parallel()
	m, err := newMailer("smtp://u:p@mail.example.org?from=games@example.org", &Counts{}, slog.Default())
	if err != nil || m.addr != "mail.example.org:25" || m.from != "games@example.org" || m.auth == nil {
		t.Errorf("a full URL: %+v %v", m, err)
	}
	m, err = newMailer("smtp://mail.example.org:2525", &Counts{}, slog.Default())
	if err != nil || m.addr != "mail.example.org:2525" || m.from != "alak@mail.example.org" || m.auth != nil {
		t.Errorf("host and port: %+v %v", m, err)
	}
}
