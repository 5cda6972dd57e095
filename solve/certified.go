package solve

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"alak/rules"
)

// certifiedText lists the results the proof certificates of the project
// prove (proofdata/, in the repository; `alak check-proof FILE` checks
// each with the rules kernel alone), one a line: the rules, the moves from
// the start ("-" for none), the claim ("x draw": x can force a draw or
// better; "o win"), the certificate's file name and its SHA-256. It is in
// the binary, so that a command run anywhere, where no certificate is at
// hand, knows what they prove and which file proves it; TestCertificates
// checks it against proofdata/SHA256SUMS, and `go test ./solve -run
// TestCertificates -update` writes it again from there.
//
//go:embed certified.txt
var certifiedText string

// Certificate is a result a shipped proof certificate proves: player For
// can force a win (with Draw, a draw or better) after Line from the start
// of Rules, whatever the opponent does.
type Certificate struct {
	Rules  string   // the rules, as rules.Rules.String writes them
	Line   []string // the moves from the start, in the project's notation
	For    rules.Color
	Draw   bool
	File   string // its file name under proofdata/
	SHA256 string // the file's SHA-256, in hex
}

// Claim says what the certificate proves, as `alak check-proof` says it:
// "x can force a draw or better after 3 (traditional size=7)".
func (c Certificate) Claim() string {
	goal := "a win"
	if c.Draw {
		goal = "a draw or better"
	}
	where := "from the start"
	if len(c.Line) > 0 {
		where = "after " + strings.Join(c.Line, " ")
	}
	return fmt.Sprintf("%c can force %s %s (%s)", c.For.Symbol(), goal, where, c.Rules)
}

// Certificates returns the results of the shipped proof certificates, in
// the order of certified.txt.
func Certificates() []Certificate {
	cs, err := certificates()
	if err != nil {
		// certified.txt is part of the build, checked by its test.
		panic(err)
	}
	return cs
}

var certificates = sync.OnceValues(func() ([]Certificate, error) { return parseCertified(certifiedText) })

// parseCertified reads certified.txt's lines.
func parseCertified(text string) ([]Certificate, error) {
	var out []Certificate
	for i, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("certified.txt line %d: %d fields, want 5 (rules, line, claim, file, sha256)", i+1, len(f))
		}
		c := Certificate{Rules: f[0], File: f[3], SHA256: f[4]}
		if f[1] != "-" {
			c.Line = strings.Fields(f[1])
		}
		who, goal, ok := strings.Cut(f[2], " ")
		p, err := rules.ParseColor(who)
		if !ok || err != nil || goal != "win" && goal != "draw" {
			return nil, fmt.Errorf("certified.txt line %d: claim %q, want x or o, then win or draw", i+1, f[2])
		}
		c.For, c.Draw = p, goal == "draw"
		out = append(out, c)
	}
	return out, nil
}

// certifiedAt returns the claims the certificates prove at the position
// after line from the start of rules named key: those made there, and
// those made at the position before it for the player who was not to move
// there (its certificate answers every move).
func certifiedAt(key string, line []string, parentMover rules.Color) []Certificate {
	var out []Certificate
	for _, c := range Certificates() {
		if c.Rules != key {
			continue
		}
		switch {
		case sameLine(c.Line, line):
			out = append(out, c)
		case len(line) > 0 && sameLine(c.Line, line[:len(line)-1]) && c.For != parentMover:
			out = append(out, c)
		}
	}
	return out
}

func sameLine(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// settleBy returns the outcome the claims cs settle at a position where
// mover is to move, and the claims it rests on: a win of either player, or
// a draw both hold.
func settleBy(cs []Certificate, mover rules.Color) (rules.Color, []Certificate, bool) {
	var draws [2]*Certificate
	for i, c := range cs {
		if !c.Draw {
			return c.For, []Certificate{c}, true
		}
		draws[c.For] = &cs[i]
	}
	if draws[mover] != nil && draws[mover.Opp()] != nil {
		return rules.None, []Certificate{*draws[mover], *draws[mover.Opp()]}, true
	}
	return rules.None, nil, false
}
