package notation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"alak/internal/clip"

	"alak/rules"
)

// A Notation writes a move in one textual form and reads it back, as
// notnil/chess's Encoder and Decoder: one implementation per form, Human
// for people and GTP for the Go Text Protocol. The stored form itself
// (records, JSON, the database) is rules.Rules.MoveText, which Human
// writes.
type Notation interface {
	// Encode writes m under r.
	Encode(r rules.Rules, m rules.Move) string
	// Decode reads a move under r; it checks the form and the board, not
	// legality. An error wraps ErrNotation and says what is accepted.
	Decode(r rules.Rules, s string) (rules.Move, error)
}

// The notations.
var (
	Human HumanNotation
	GTP   GTPNotation
)

var (
	_ Notation = Human
	_ Notation = GTP
)

// HumanNotation is the form people read and type. Encode writes the
// stored form, rules.Rules.MoveText: a placement as its point (FormatPoint),
// a slide as "from-to" with 1-based slots, "pass", "resign". Decode reads
// any form a person may type: "pass", "resign", a slide "from-to" (also
// "from to") under sliding rules, and a placement as ParsePoint reads it
// (a number, the mail server's letter, a GTP vertex).
type HumanNotation struct{}

// Encode returns r.MoveText(m).
func (HumanNotation) Encode(r rules.Rules, m rules.Move) string { return r.MoveText(m) }

// Decode reads a move in any of the forms people use.
func (HumanNotation) Decode(r rules.Rules, s string) (rules.Move, error) {
	t := strings.TrimSpace(s)
	if m, ok := passOrResign(t); ok {
		return m, nil
	}
	if r.Movement == rules.Sliding {
		a, b, ok := strings.Cut(t, "-")
		if !ok {
			f := strings.Fields(t)
			if len(f) == 2 {
				a, b, ok = f[0], f[1], true
			}
		}
		from, err1 := strconv.Atoi(strings.TrimSpace(a))
		to, err2 := strconv.Atoi(strings.TrimSpace(b))
		switch {
		case !ok || err1 != nil || err2 != nil:
			return rules.NoMove, parseErr(s, "a move slides a piece, written from-to: the slot it leaves and the slot it goes to, such as 1-4 (slots 1 to %d), or resign", r.Width)
		case from < 1 || from > r.Width || to < 1 || to > r.Width:
			return rules.NoMove, parseErr(s, "off the line: the slots are 1 to %d", r.Width)
		}
		return rules.Slide(from-1, to-1), nil
	}
	if m, ok, err := safeDecode(r, t, ParsePoint); ok {
		return m, err
	}
	p, err := ParsePoint(r, t)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			pe.Input = clip.Text(t)
			pe.Msg += map[bool]string{true: " (or pass, resign)", false: " (or resign)"}[r.Pass]
		}
		return rules.NoMove, err
	}
	return rules.Place(p), nil
}

// GTPNotation is the Go Text Protocol's form under r: a vertex such as C1
// for a placement (rules.Rules.Vertex), two vertices joined by "-" such as
// A1-E1 for a slide, pass or resign; Decode reads them in any case.
type GTPNotation struct{}

// Encode writes m as a vertex (C1), FROM-TO (A1-E1), pass or resign.
func (GTPNotation) Encode(r rules.Rules, m rules.Move) string {
	switch {
	case m == rules.Pass:
		return "pass"
	case m == rules.Resign:
		return "resign"
	case m.IsSlide():
		return r.Vertex(m.From()) + "-" + r.Vertex(m.To())
	case m.IsPlace():
		return r.Vertex(m.Point())
	case m.IsDeclare():
		return "*" + r.Vertex(m.Point())
	}
	return "none"
}

// Decode reads what Encode writes.
func (GTPNotation) Decode(r rules.Rules, s string) (rules.Move, error) {
	if m, ok := passOrResign(s); ok {
		return m, nil
	}
	if r.Movement == rules.Sliding {
		a, b, ok := strings.Cut(s, "-")
		if !ok {
			return rules.NoMove, fmt.Errorf("%w: %q is not a move: these rules slide a piece, written FROM-TO with two vertices such as A1-E1", ErrNotation, clip.Text(s))
		}
		from, err := ParseGTPVertex(r, a)
		if err != nil {
			return rules.NoMove, err
		}
		to, err := ParseGTPVertex(r, b)
		if err != nil {
			return rules.NoMove, err
		}
		return rules.Slide(from, to), nil
	}
	if m, ok, err := safeDecode(r, s, ParseGTPVertex); ok {
		return m, err
	}
	p, err := ParseGTPVertex(r, s)
	if err != nil {
		return rules.NoMove, fmt.Errorf("%w; a move is a vertex, pass or resign", err)
	}
	return rules.Place(p), nil
}

// passOrResign reads "pass" or "resign" in any case, the words every
// notation shares.
func passOrResign(s string) (rules.Move, bool) {
	switch strings.ToLower(s) {
	case "pass":
		return rules.Pass, true
	case "resign":
		return rules.Resign, true
	}
	return rules.NoMove, false
}
