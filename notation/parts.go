package notation

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"alak/rules"
)

// A parts file records what bound searches found about lines of play, one
// line of play per line of text; `alak solve --at-least V --split B --parts
// FILE` appends each sub-question as it ends and reads the file back on the
// next run, so an interrupted split resumes where it stopped:
//
//	# comments and blank lines are ignored
//	rules: tromp-taylor size=12
//	start: ------------, x to move
//	(start): cut off at 80000000 positions, split
//	4 7 1: at most 1 (34916219 positions, 27.2s)
//	4 7 2 8: at least 4 (13382193 positions, 8.3s)
//
// Each line of play is the moves from the game's start (as Human.Encode
// writes them, "(start)" for none), then what is proved of Black's margin
// after them: "at least B" or "at most B", or "cut off" when a search of
// that line ran out of its budget (so a resumed split splits it at once),
// or "open" for a line a plan (--plan) found still to be asked, which says
// nothing about it.
// What follows the answer, in parentheses, is a note (positions, seconds).
// The rules and start lines, when present, must match the game the file is
// read for.

// PartLine is one line of a parts file.
type PartLine struct {
	Moves  []rules.Move // from the game's start
	CutOff bool         // a search ran out of its budget; Lower and Bound unused
	Open   bool         // still to be asked; Lower and Bound unused
	Lower  bool         // Bound is a lower bound ("at least"), else an upper one
	Bound  float64
	Note   string // in parentheses after the answer, without them; may be empty
}

// partStartKey is the line of play with no moves.
const partStartKey = "(start)"

// PartsHeader returns the rules and start lines of a parts file for g.
func PartsHeader(g *rules.Game) string {
	s := g.Start()
	return fmt.Sprintf("rules: %s\nstart: %s, %s to move\n", g.Rules().String(), s.String(), s.ToMove().Letter())
}

// PartMovesKey writes a line of play as a parts file does.
func PartMovesKey(r rules.Rules, moves []rules.Move) string {
	if len(moves) == 0 {
		return partStartKey
	}
	w := make([]string, len(moves))
	for i, m := range moves {
		w[i] = Human.Encode(r, m)
	}
	return strings.Join(w, " ")
}

// FormatPartLine writes one line of a parts file (without the newline).
func FormatPartLine(r rules.Rules, p PartLine) string {
	var b strings.Builder
	b.WriteString(PartMovesKey(r, p.Moves))
	b.WriteString(": ")
	switch {
	case p.CutOff:
		b.WriteString("cut off")
	case p.Open:
		b.WriteString("open")
	case p.Lower:
		b.WriteString("at least " + num(p.Bound))
	default:
		b.WriteString("at most " + num(p.Bound))
	}
	if p.Note != "" {
		b.WriteString(" (" + p.Note + ")")
	}
	return b.String()
}

// ReadParts reads a parts file for the game g (from its start; g's own
// moves do not matter). Every line of play must be legal from g's start;
// an error names the line of the file and what was wrong.
func ReadParts(data []byte, g *rules.Game) ([]PartLine, error) {
	r := g.Rules()
	start := rules.NewGameFrom(g.Start())
	var out []PartLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("parts line %d: %q: want MOVES: at least B, MOVES: at most B, MOVES: cut off or MOVES: open", n, line)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "rules":
			if val != r.String() {
				return nil, fmt.Errorf("parts line %d: the file is for the rules %q, this game is %q", n, val, r.String())
			}
			continue
		case "start":
			s := g.Start()
			want := fmt.Sprintf("%s, %s to move", s.String(), s.ToMove().Letter())
			if val != want {
				return nil, fmt.Errorf("parts line %d: the file starts from %q, this game from %q", n, val, want)
			}
			continue
		}
		p, err := parsePartAnswer(val)
		if err != nil {
			return nil, fmt.Errorf("parts line %d: %w", n, err)
		}
		if key != partStartKey {
			c := start.Clone()
			for i, w := range strings.Fields(key) {
				m, err := Human.Decode(r, w)
				if err != nil {
					return nil, fmt.Errorf("parts line %d: move %d: %w", n, i+1, err)
				}
				if err := c.Play(m); err != nil {
					return nil, fmt.Errorf("parts line %d: move %d (%s): %w", n, i+1, w, err)
				}
				p.Moves = append(p.Moves, m)
			}
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("parts line %d: %w", n+1, err)
	}
	return out, nil
}

// parsePartAnswer reads what follows "MOVES:".
func parsePartAnswer(s string) (PartLine, error) {
	var p PartLine
	rest := s
	switch {
	case s == "open" || strings.HasPrefix(s, "open "):
		p.Open = true
		rest = strings.TrimPrefix(s, "open")
	case strings.HasPrefix(s, "cut off"):
		p.CutOff = true
		rest = strings.TrimPrefix(s, "cut off")
		// The split's own lines say where: "cut off at N positions, split".
		if i := strings.IndexByte(rest, '('); i >= 0 {
			rest = rest[i:]
		} else {
			rest = ""
		}
	case strings.HasPrefix(s, "at least ") || strings.HasPrefix(s, "at most "):
		p.Lower = strings.HasPrefix(s, "at least ")
		rest = strings.TrimPrefix(strings.TrimPrefix(s, "at least "), "at most ")
		w, after, _ := strings.Cut(rest, " ")
		b, err := strconv.ParseFloat(w, 64)
		if err != nil || math.IsNaN(b) || math.IsInf(b, 0) || b*2 != math.Trunc(b*2) {
			return p, fmt.Errorf("%q: want a bound such as 2, -1 or 0.5 after %q", w, strings.Fields(s)[0]+" "+strings.Fields(s)[1])
		}
		p.Bound, rest = b, strings.TrimSpace(after)
	default:
		return p, fmt.Errorf("%q: want at least B, at most B, cut off or open", s)
	}
	rest = strings.TrimSpace(rest)
	if rest != "" {
		if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
			return p, fmt.Errorf("%q: after the answer only a note in parentheses may follow", s)
		}
		p.Note = strings.TrimSpace(rest[1 : len(rest)-1])
	}
	return p, nil
}
