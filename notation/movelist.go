package notation

import (
	"alak/internal/clip"
	"bufio"
	"fmt"
	"io"
	"strings"

	"alak/rules"
)

// Header keys of a move list, each written "# key: value" before the moves.
var moveListKeys = []string{"rules", "position", "prisoners", "black", "white", "date", "result"}

// WriteMoveList writes rec as a plain move list:
//
//	# rules: alak size=6
//	# result: B+3
//	1 4 5 6 2 3 5 1 2 6
//	4 3 1 5 4
//
// The first line gives the rules (rules.Rules.String); a set-up start adds
// "# position: DIAGRAM x|o" followed, where they apply, by prisoners=B-W,
// passes=N and last=MOVE (rules.Position.MarshalText); names, date and result follow as "# black:",
// "# white:", "# date:", "# result:". Moves are written as Human.Encode writes
// them, ten to a line; a comment follows its move on lines starting "# ".
func WriteMoveList(w io.Writer, rec Record) error {
	r := rec.Rules
	if err := r.Validate(); err != nil {
		return err
	}
	start, err := rec.start()
	if err != nil {
		return err
	}
	for k := range rec.Comments {
		if k < 0 || k > len(rec.Moves) {
			return fmt.Errorf("%w: a comment after move %d, but the record has %d moves", ErrNotation, k, len(rec.Moves))
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# rules: %s\n", r.String())
	if rec.isSetUp() {
		text, err := start.MarshalText()
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "# position: %s\n", text)
	}
	for _, h := range []struct{ key, v string }{{"black", rec.Black}, {"white", rec.White}, {"date", rec.Date}, {"result", rec.Result}} {
		if h.v != "" {
			fmt.Fprintf(bw, "# %s: %s\n", h.key, oneLine(h.v))
		}
	}
	comment := func(t string) {
		for _, line := range strings.Split(t, "\n") {
			fmt.Fprintf(bw, "# %s\n", line)
		}
	}
	if t := rec.Comments[0]; t != "" {
		comment(t)
	}
	onLine := 0
	for i, m := range rec.Moves {
		if m == rules.Resign || m == rules.NoMove {
			return fmt.Errorf("%w: move %d is %s; a resignation is written in Result", ErrNotation, i+1, Human.Encode(r, m))
		}
		if onLine > 0 {
			bw.WriteByte(' ')
		}
		bw.WriteString(Human.Encode(r, m))
		onLine++
		t := rec.Comments[i+1]
		if onLine == 10 || t != "" || i == len(rec.Moves)-1 {
			bw.WriteByte('\n')
			onLine = 0
		}
		if t != "" {
			comment(t)
		}
	}
	return bw.Flush()
}

// oneLine replaces line breaks, which a header value cannot hold. A lone
// carriage return is not a line break to ReadMoveList, so it stays (the
// fuzzer found a value with one that did not read back the same).
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ").Replace(s)
}

// ReadMoveList reads a plain move list as WriteMoveList writes it. Before
// the first move, "# key: value" lines set the rules (default: alak on 11
// points), a set-up position, the names, the date and the result; other
// lines starting with # are the opening comment. Moves are separated by
// blank space and read by Human.Decode; "resign" may end the list. After the
// first move, # starts a comment that runs to the end of the line and
// belongs to the move before it.
func ReadMoveList(data []byte) (Record, error) {
	if len(data) > MaxRecordBytes {
		return Record{}, tooLong(len(data))
	}
	text := strings.TrimPrefix(string(data), "\xef\xbb\xbf")
	rec := Record{Rules: rules.MustPreset("alak")}
	header := map[string]string{}
	headerLine := map[string]int{}
	comments := map[int]string{}
	addComment := func(k int, t string) {
		c, ok := comments[k]
		switch {
		case ok:
			comments[k] = c + "\n" + t
		case t != "": // an empty line does not start a comment
			comments[k] = t
		}
	}
	started := false
	resigned := false
	var start rules.Position
	begin := func() error {
		started = true
		if v, ok := header["rules"]; ok {
			r, err := rules.Parse(v)
			if err != nil {
				return fmt.Errorf("%w: move list line %d: rules %q: %w", ErrNotation, headerLine["rules"], v, err)
			}
			rec.Rules = r
		}
		var err error
		start, err = rules.NewPosition(rec.Rules)
		if err != nil {
			return fmt.Errorf("%w: move list: %w", ErrNotation, err)
		}
		if v, ok := header["position"]; ok {
			bad := func(err error) error {
				return fmt.Errorf("%w: move list line %d: position %q: %w; write the diagram and the player to move, such as x--o/O x", ErrNotation, headerLine["position"], clip.Text(v), err)
			}
			pos, err := rules.ParsePosition(rec.Rules, v)
			if err != nil {
				return bad(err)
			}
			if w, h := pos.Size(); w != rec.Rules.Width || h != rec.Rules.Height {
				return bad(fmt.Errorf("the diagram is %dx%d but the rules say %s", w, h, rec.Rules.SizeString()))
			}
			start = pos
		}
		if v, ok := header["prisoners"]; ok {
			b, w, err := parsePrisoners(v, "-")
			if err == nil {
				start, err = start.WithPrisoners(b, w)
			}
			if err != nil {
				return fmt.Errorf("%w: move list line %d: prisoners %q: %w", ErrNotation, headerLine["prisoners"], v, err)
			}
		}
		rec.Start = start
		rec.Black, rec.White, rec.Date, rec.Result = header["black"], header["white"], header["date"], header["result"]
		return nil
	}
	for n, line := range strings.Split(text, "\n") {
		lineNo := n + 1
		line = strings.TrimRight(line, "\r")
		body, cmt, hasComment := strings.Cut(line, "#")
		cmt = strings.TrimPrefix(cmt, " ")
		if !started && strings.TrimSpace(body) == "" {
			if !hasComment {
				continue
			}
			if k, v, ok := strings.Cut(cmt, ":"); ok && isMoveListKey(k) {
				key := strings.ToLower(strings.TrimSpace(k))
				if _, dup := header[key]; dup {
					return rec, fmt.Errorf("%w: move list line %d: a second %q line", ErrNotation, lineNo, key)
				}
				header[key] = strings.TrimSpace(v)
				headerLine[key] = lineNo
				continue
			}
			addComment(0, cmt)
			continue
		}
		if !started {
			if err := begin(); err != nil {
				return rec, err
			}
		}
		for _, tok := range strings.Fields(body) {
			if resigned {
				return rec, fmt.Errorf("%w: move list line %d: %q after resign: a resignation ends the game", ErrNotation, lineNo, tok)
			}
			m, err := Human.Decode(rec.Rules, tok)
			if err != nil {
				return rec, fmt.Errorf("move list line %d, move %d: %w", lineNo, len(rec.Moves)+1, err)
			}
			if m == rules.Resign {
				resigned = true
				loser := start.ToMove()
				if len(rec.Moves)%2 == 1 {
					loser = loser.Opp()
				}
				res := "B+R"
				if loser == rules.Black {
					res = "W+R"
				}
				if rec.Result != "" && !strings.EqualFold(rec.Result, res) {
					return rec, fmt.Errorf("%w: move list line %d: %s resigns, which is %s, but the result line says %s", ErrNotation, lineNo, colorWord(loser), res, rec.Result)
				}
				rec.Result = res
				continue
			}
			rec.Moves = append(rec.Moves, m)
		}
		if hasComment {
			addComment(len(rec.Moves), cmt)
		}
	}
	if !started {
		if err := begin(); err != nil {
			return rec, err
		}
	}
	if len(comments) > 0 {
		rec.Comments = comments
	}
	return rec, nil
}

func isMoveListKey(k string) bool {
	k = strings.ToLower(strings.TrimSpace(k))
	for _, key := range moveListKeys {
		if k == key {
			return true
		}
	}
	return false
}
