package mail

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReadReply: the line a mailed reply plays, from the mails that mail
// programs write (top and bottom posting, signatures, multipart,
// quoted-printable, base64), and the headers that mark automatic mail.
// Each expected command is the first line of the case's text that is not
// quoted, blank or an attribution, as docs/mail.md states the rule.
func TestReadReply(t *testing.T) {
	t.Parallel()
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	cases := []struct {
		name, mail string
		want       string
		auto       bool
		err        error
	}{
		{"plain", "Subject: Re: alak\n\n5\n", "5", false, nil},
		{"first word of the line", "Subject: x\n\n  e4 thanks for the game\nmore\n", "e4", false, nil},
		{"top posted over the quote", "Subject: x\n\npass\n\nOn Mon, alak wrote:\n> It is your move\n> 5\n", "pass", false, nil},
		{"bottom posted under an attribution", "Subject: x\n\nOn Mon 2 Jan, alak@example.org wrote:\n> It is your move\n>\n> Legal moves: 1 2\n\nresign\n", "resign", false, nil},
		{"blank lines first", "Subject: x\n\n\n   \n\t\nDRAW\n", "DRAW", false, nil},
		{"signature only", "Subject: x\n\n-- \nada\n5\n", "", false, nil},
		{"signature after", "Subject: x\n\n1-4\n-- \nada\n", "1-4", false, nil},
		{"only quotes", "Subject: x\n\n> 5\n>> 6\n", "", false, nil},
		{"CRLF", crlf("Subject: x\n\n> quoted\nboard\n"), "board", false, nil},
		{"quoted-printable", "Subject: x\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n=35\n", "5", false, nil},
		{"base64", "Subject: x\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\nRTEKCi0tIAphZGEK\n", "E1", false, nil}, // base64 of "E1\n\n-- \nada\n"
		{"multipart alternative", "Subject: x\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"b1\"\n\n--b1\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n=37\n> old\n--b1\nContent-Type: text/html\n\n<p>9</p>\n--b1--\n", "7", false, nil},
		{"multipart, html first", "Subject: x\nContent-Type: multipart/alternative; boundary=b2\n\n--b2\nContent-Type: text/html\n\n<p>9</p>\n--b2\nContent-Type: text/plain\n\n3\n--b2--\n", "3", false, nil},
		{"nested multipart", "Subject: x\nContent-Type: multipart/mixed; boundary=o\n\n--o\nContent-Type: multipart/alternative; boundary=i\n\n--i\nContent-Type: text/plain\n\nc\n--i--\n--o\nContent-Type: text/plain\nContent-Disposition: attachment; filename=a.txt\n\n9\n--o--\n", "c", false, nil},
		{"an attachment is not the text", "Subject: x\nContent-Type: multipart/mixed; boundary=o\n\n--o\nContent-Type: text/plain\nContent-Disposition: attachment; filename=a.txt\n\n9\n--o--\n", "", false, errNoText},
		{"html only", "Subject: x\nContent-Type: text/html\n\n<p>5</p>\n", "", false, errNoText},
		{"Auto-Submitted", "Subject: Out of office\nAuto-Submitted: auto-replied\n\n5\n", "5", true, nil},
		{"Auto-Submitted: no", "Subject: x\nAuto-Submitted: no\n\n5\n", "5", false, nil},
		{"Precedence bulk", "Subject: x\nPrecedence: bulk\n\n5\n", "5", true, nil},
		{"Precedence auto_reply", "Subject: x\nPrecedence: auto_reply\n\n5\n", "5", true, nil},
		{"X-Autoreply", "Subject: x\nX-Autoreply: yes\n\n5\n", "5", true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := readReply(strings.NewReader(c.mail))
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("error %v, want %v", err, c.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if rep.Command != c.want || rep.Auto != c.auto {
				t.Errorf("read %+v, want command %q auto %v", rep, c.want, c.auto)
			}
		})
	}
}

// TestReadReplyRefuses: what cannot be read is refused with a sentence, and
// never panics: a mail without headers, a broken Content-Type, an unknown
// transfer encoding, and multipart nested deeper than the bound.
func TestReadReplyRefuses(t *testing.T) {
	t.Parallel()
	var nested strings.Builder
	nested.WriteString("Subject: x\nContent-Type: multipart/mixed; boundary=b0\n\n")
	for i := 1; i <= maxMailParts+1; i++ {
		nested.WriteString("--b" + strconv.Itoa(i-1) + "\nContent-Type: multipart/mixed; boundary=b" + strconv.Itoa(i) + "\n\n")
	}
	nested.WriteString("--b" + strconv.Itoa(maxMailParts+1) + "\nContent-Type: text/plain\n\n5\n")
	cases := []struct{ name, mail, want string }{
		{"no headers", "5", "not a mail"},
		{"bad Content-Type", "Subject: x\nContent-Type: text/plain; charset\n\n5\n", "Content-Type"},
		{"no boundary", "Subject: x\nContent-Type: multipart/mixed\n\n5\n", "boundary"},
		{"unknown encoding", "Subject: x\nContent-Transfer-Encoding: x-uuencode\n\n5\n", "send 7bit, 8bit, quoted-printable or base64"},
		{"too deep", nested.String(), "too many parts"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readReply(strings.NewReader(c.mail))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

// FuzzReadReply: any bytes as a mail: an error, or a command that is one
// word (no white space) of a line of the mail; never a panic.
func FuzzReadReply(f *testing.F) {
	f.Add("Subject: x\n\n5\n")
	f.Add("Subject: x\nContent-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\nNQo=\n--b--\n")
	f.Add("Auto-Submitted: auto-replied\n\n> q\n-- \n")
	f.Fuzz(func(t *testing.T, mail string) {
		rep, err := readReply(strings.NewReader(mail))
		if err != nil {
			if rep.Command != "" {
				t.Errorf("an error with a command %q: %v", rep.Command, err)
			}
			return
		}
		if strings.ContainsFunc(rep.Command, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
			t.Errorf("a command with white space: %q", rep.Command)
		}
		if len(rep.Command) > maxMailBytes {
			t.Errorf("a command of %d bytes", len(rep.Command))
		}
	})
}

// TestLeftWords: the time left as the mails say it, in the two largest
// units, a zero second unit left out.
func TestLeftWords(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		72 * time.Hour:                  "3 days",
		25 * time.Hour:                  "1 day 1 hour",
		47*time.Hour + 59*time.Minute:   "1 day 23 hours",
		5 * time.Hour:                   "5 hours",
		5*time.Hour + 30*time.Minute:    "5 hours 30 minutes",
		time.Minute:                     "1 minute",
		0:                               "0 minutes",
		90*time.Second + 10*time.Second: "2 minutes", // rounded to the minute
	} {
		if got := leftWords(d); got != want {
			t.Errorf("leftWords(%s) = %q, want %q", d, got, want)
		}
	}
}
