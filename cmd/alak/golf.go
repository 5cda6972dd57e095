package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"alak/rules"
	"alak/session"
)

func init() {
	register(command{name: "golf", summary: "Dewdney's sliding Alak with the code-golf challenge's exact text interface", run: golfRun})
}

const golfUsage = `usage: alak golf
Two players (people, or a script) share standard input, x (player 1) first,
on the 11 slots xxxx___oooo under the golf rules (docs/rules.md). A line
"A B" moves the piece on slot A to slot B; "quit" ends the program. The
board is printed at the start and after every valid move, _ for an empty
slot; any other line prints INVALID and changes nothing. The end prints
P1 WINS or P2 WINS; a draw by repetition prints the board and ends.`

func golfRun(e *env, args []string) int {
	fs := newFlagSet(e, "golf", golfUsage)
	if err := fs.Parse(args); err != nil {
		return flagStatus(e, fs, err)
	}
	if fs.NArg() > 0 {
		return fail(e, "golf", fmt.Errorf("unexpected argument %q: the game is played on standard input, with lines such as \"1 4\" and \"quit\"", fs.Arg(0)))
	}
	g, err := rules.NewGame(rules.MustPreset("golf"))
	if err != nil {
		return fail(e, "golf", err)
	}
	s := session.New(g, session.Seat{Name: "P1"}, session.Seat{Name: "P2"}, session.Options{})
	defer s.Close()
	return golfPlay(e.stdin, e.stdout, s)
}

// golfPlay runs the challenge's interface on g until the game ends, "quit"
// or the end of input.
func golfPlay(in io.Reader, out io.Writer, s *session.Session) int {
	w := bufio.NewWriter(out)
	defer w.Flush()
	fmt.Fprintln(w, golfBoard(s.Position()))
	r := bufio.NewReader(in)
	for {
		w.Flush()
		line, err := r.ReadString('\n')
		if line == "" && err != nil {
			return 0 // end of input
		}
		line = strings.TrimSpace(line)
		if strings.EqualFold(line, "quit") {
			return 0
		}
		m, ok := golfParse(line, s.Position().Points())
		if !ok || s.Play(s.ToMove(), m) != nil {
			fmt.Fprintln(w, "INVALID")
			continue
		}
		fmt.Fprintln(w, golfBoard(s.Position()))
		if o := s.Outcome(); o.Over() {
			switch o.Winner {
			case rules.Black:
				fmt.Fprintln(w, "P1 WINS")
			case rules.White:
				fmt.Fprintln(w, "P2 WINS")
			}
			return 0
		}
	}
}

// golfParse reads "A B": two slot numbers from 1 to n, written in digits,
// separated by blank space.
func golfParse(line string, n int) (rules.Move, bool) {
	f := strings.Fields(line)
	if len(f) != 2 {
		return rules.NoMove, false
	}
	var slot [2]int
	for i, s := range f {
		if len(s) > 3 || strings.Trim(s, "0123456789") != "" {
			return rules.NoMove, false
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > n {
			return rules.NoMove, false
		}
		slot[i] = v - 1
	}
	return rules.Slide(slot[0], slot[1]), true
}

// golfBoard writes the slots in the challenge's alphabet: x, o and _.
func golfBoard(pos rules.Position) string {
	b := make([]byte, pos.Points())
	for p := range b {
		b[p] = '_'
		if c := pos.At(p); c != rules.None {
			b[p] = c.Symbol()
		}
	}
	return string(b)
}
