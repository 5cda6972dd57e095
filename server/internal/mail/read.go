package mail

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	netmail "net/mail"
	"strings"
)

// Reading a mailed reply (moves by email): pure functions of the
// mail's bytes, tested alone (read_test.go); in.go wires them to the SMTP
// server and the games.

// maxMailBytes bounds a mail the server reads (the SMTP server refuses a
// larger one with 552).
const maxMailBytes = 64 << 10

// maxMailParts bounds how deep multipart mail nests and how many parts the
// reader looks at.
const maxMailParts = 16

// mailReply is what a reply says.
type mailReply struct {
	// Command is the first word of the first line of the text that is not
	// quoted (">"), not blank, and not a quote's attribution ("On ...
	// wrote:" before quoted lines), before any signature ("-- "); "" when
	// there is none.
	Command string
	// Auto: the mail says it was sent by a program (Auto-Submitted other
	// than "no", Precedence bulk, junk, list or auto_reply): it is never
	// answered, so that two robots cannot answer each other for ever.
	Auto bool
}

// errNoText: the mail has no plain text to read.
var errNoText = errors.New("the mail has no plain text part: write the move in plain text (or a mail with a text part)")

// readReply reads a mail: its headers for Auto, its plain text (the mail's
// body, or the first text/plain part of a multipart mail) for Command.
func readReply(r io.Reader) (mailReply, error) {
	msg, err := netmail.ReadMessage(io.LimitReader(r, maxMailBytes+1))
	if err != nil {
		return mailReply{}, fmt.Errorf("not a mail: %w", err)
	}
	rep := mailReply{Auto: autoSubmitted(msg.Header)}
	parts := maxMailParts
	text, err := plainText(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body, &parts)
	if err != nil {
		return rep, err
	}
	rep.Command = firstCommand(text)
	return rep, nil
}

// autoSubmitted reports whether the headers mark a mail sent by a program
// (RFC 3834's Auto-Submitted; the older Precedence).
func autoSubmitted(h netmail.Header) bool {
	if a := strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted"))); a != "" && a != "no" {
		return true
	}
	switch strings.ToLower(strings.TrimSpace(h.Get("Precedence"))) {
	case "bulk", "junk", "list", "auto_reply":
		return true
	}
	// The headers some vacation programs add instead.
	return strings.EqualFold(strings.TrimSpace(h.Get("X-Autoreply")), "yes") || h.Get("X-Autorespond") != ""
}

// plainText returns the text of a body of the given type and transfer
// encoding: text/plain as it is, multipart's first plain text part
// (searched depth first, at most *parts parts in all).
func plainText(contentType, encoding string, body io.Reader, parts *int) (string, error) {
	*parts--
	if *parts < 0 {
		return "", errors.New("the mail has too many parts")
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if contentType == "" {
		mt, err = "text/plain", nil // RFC 2045's default
	}
	if err != nil {
		return "", fmt.Errorf("cannot read the mail's Content-Type: %w", err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		if params["boundary"] == "" {
			return "", errors.New("a multipart mail without a boundary")
		}
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextPart() // decodes quoted-printable itself
			if err == io.EOF {
				return "", errNoText
			}
			if err != nil {
				return "", fmt.Errorf("cannot read the mail's parts: %w", err)
			}
			if strings.HasPrefix(strings.ToLower(p.Header.Get("Content-Disposition")), "attachment") {
				continue
			}
			text, err := plainText(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p, parts)
			if errors.Is(err, errNoText) {
				continue
			}
			return text, err
		}
	}
	if mt != "text/plain" {
		return "", errNoText
	}
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, newlineDropper{body})
	case "", "7bit", "8bit", "binary":
	default:
		return "", fmt.Errorf("cannot read the transfer encoding %q: send 7bit, 8bit, quoted-printable or base64", encoding)
	}
	b, err := io.ReadAll(io.LimitReader(body, maxMailBytes+1))
	if err != nil {
		return "", fmt.Errorf("cannot read the mail's text: %w", err)
	}
	return string(b), nil
}

// newlineDropper drops the line ends base64 text is broken into.
type newlineDropper struct{ r io.Reader }

func (d newlineDropper) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	out := p[:0]
	for _, c := range p[:n] {
		if c != '\r' && c != '\n' {
			out = append(out, c)
		}
	}
	return len(out), err
}

// firstCommand is the first word of the text's first line that says
// something: quoted lines, blank lines and a quote's attribution (a line
// ending in ":" whose next line that is not blank is quoted) are passed
// over, and a signature ("-- ") ends the text.
func firstCommand(text string) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 4096), maxMailBytes+1)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "-- " || line == "--" {
			break
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		lines = append(lines, line)
	}
	for i, line := range lines {
		if strings.HasPrefix(line, ">") {
			continue
		}
		if strings.HasSuffix(line, ":") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], ">") {
			continue
		}
		return strings.Fields(line)[0]
	}
	return ""
}
