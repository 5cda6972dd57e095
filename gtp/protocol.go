package gtp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"alak/internal/clip"
)

// MaxLine is the most bytes a command line may hold, its newline included.
// Run answers a longer line with a failure and skips it, reading it in
// pieces of this size without keeping it.
const MaxLine = 64 << 10

// MaxArg is the most bytes an argument may hold: the longest any command
// reads is an alak-rules start=LAYOUT of 64 slots. A longer one is refused
// before any command sees it, so that no failure quotes more of it than
// clip.Text keeps.
const MaxArg = 128

// Execute runs one command with its arguments and returns the text of the
// success response, or a *CommandError whose message is the failure
// response and which wraps the library's error behind it. Command names are
// matched without regard to case. Execute does not act on quit beyond
// answering it; Run stops there.
func (e *Engine) Execute(ctx context.Context, name string, args ...string) (string, error) {
	c, ok := lookup(name)
	if !ok {
		return "", failf(nil, "unknown command %q: list_commands lists the %d commands this engine knows", clip.Text(name), len(commandList))
	}
	want := strings.Count(c.usage, " ") + 1
	if c.usage == "" {
		want = 0
	}
	usage := strings.TrimSpace(c.name + " " + c.usage)
	if !strings.Contains(c.usage, "...") && len(args) != want {
		return "", failf(nil, "syntax error: %s takes %d argument%s, got %d: write %s", c.name, want, plural(want), len(args), usage)
	}
	for i, a := range args {
		if len(a) > MaxArg {
			return "", failf(nil, "syntax error: argument %d of %s is %d bytes long; no argument is longer than %d: write %s", i+1, c.name, len(a), MaxArg, usage)
		}
	}
	return c.run(e, ctx, args)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Run reads commands from in and writes the responses to out until quit,
// the end of in, or ctx is done, following GTP version 2: control characters
// other than tab and newline are dropped, everything from # to the end of a
// line is a comment, tabs count as spaces, empty lines are ignored; a command
// may start with a numeric id, which its response repeats; a response is
// "=[id] text" on success or "?[id] message" on failure, ended by an empty
// line. A line longer than MaxLine bytes is answered with a failure and
// skipped. Run returns nil at quit or the end of in, otherwise the error that
// stopped it.
func (e *Engine) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, MaxLine)
	bw := bufio.NewWriter(out)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, long, rerr := readLine(br)
		if rerr != nil && rerr != io.EOF {
			return rerr
		}
		id, fields, ok := parseLine(line)
		if long {
			ok, fields = true, nil
		}
		if ok {
			var text string
			var err error
			switch {
			case long:
				err = failf(nil, "syntax error: the line is longer than %d bytes, the most a command line may hold; it was skipped", MaxLine)
			case len(fields) == 0:
				err = failf(nil, "syntax error: the line has an id but no command: write [ID] COMMAND [ARGUMENTS]")
			default:
				text, err = e.Execute(ctx, fields[0], fields[1:]...)
			}
			writeResponse(bw, id, text, err)
			if werr := bw.Flush(); werr != nil {
				return werr
			}
			if err == nil && strings.EqualFold(fields[0], "quit") {
				return nil
			}
		}
		if rerr == io.EOF {
			return nil
		}
	}
}

// readLine returns the next line of br. A line longer than br's buffer is
// read to its end and dropped: long is true and line holds only its start,
// up to the first blank after its id, so that the failure can repeat the
// id.
func readLine(br *bufio.Reader) (line string, long bool, err error) {
	b, err := br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return string(b), false, err
	}
	line = idPrefix(b)
	for err == bufio.ErrBufferFull {
		_, err = br.ReadSlice('\n')
	}
	return line, true, err
}

// idPrefix returns the start of b up to its id (blanks, then digits), or
// "" when b does not start with an id followed by a blank.
func idPrefix(b []byte) string {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	if j == i || j == len(b) || (b[j] != ' ' && b[j] != '\t') {
		return ""
	}
	return string(b[:j])
}

// parseLine applies GTP's preprocessing to one line and splits it into the
// id (or "") and the fields. ok is false for a line to be ignored.
func parseLine(line string) (id string, fields []string, ok bool) {
	line, _, _ = strings.Cut(line, "#")
	var b strings.Builder
	for _, r := range line {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r < 32 || r == 127:
		default:
			b.WriteRune(r)
		}
	}
	fields = strings.Fields(b.String())
	if len(fields) == 0 {
		return "", nil, false
	}
	if isNumber(fields[0]) {
		return fields[0], fields[1:], true
	}
	return "", fields, true
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func writeResponse(w *bufio.Writer, id, text string, err error) {
	mark := "="
	if err != nil {
		mark, text = "?", err.Error()
	}
	// An empty line ends a response, so the text may hold none.
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(text, " \n"), "\n") {
		if strings.TrimSpace(l) != "" || len(lines) == 0 {
			lines = append(lines, strings.TrimRight(l, " "))
		}
	}
	fmt.Fprintf(w, "%s%s %s\n\n", mark, id, strings.Join(lines, "\n"))
}
