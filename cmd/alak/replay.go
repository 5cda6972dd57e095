package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"alak/notation"
	"alak/rules"
	"alak/session"
)

func init() {
	register(command{name: "replay", summary: "check a game's moves (or step through a saved game) and print the final position", run: replayRun})
}

const replayUsage = `usage: alak replay [--rules R] [--size N] [--OPTION VALUE ...] [--position ROW --to-move x|o] [--json] [MOVE ... | FILE]
       alak replay [--json] [--step] FILE
Checks every move from the start (or from --position, a seed diagram whose /
marks points just captured) and prints the final position. A FILE (SGF or a
move list) carries its own rules and start; without --json every position of
the game is printed, and --step waits for Enter between moves on a terminal.
An illegal move exits with status 2 and names the move, its number and why.`

func replayRun(e *env, args []string) int {
	fs := newFlagSet(e, "replay", replayUsage)
	buildRules := rulesFlags(fs)
	setup := setupFlags(fs)
	asJSON := fs.Bool("json", false, "print the final position as one JSON object")
	step := fs.Bool("step", false, "with a FILE on a terminal: wait for Enter between moves")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if len(words) == 1 && looksLikeFile(words[0]) {
		if flags := setupFlagsGiven(fs, "json", "step"); len(flags) > 0 {
			return fail(e, "replay", fmt.Errorf("%s: a record FILE carries its own rules and start; give either the file or the flags", strings.Join(flags, ", ")))
		}
		return replayFile(e, words[0], *asJSON, *step)
	}
	if *step {
		return fail(e, "replay", errors.New("--step steps through a record FILE; it was not given one"))
	}
	r, err := buildRules()
	if err != nil {
		return fail(e, "replay", err)
	}
	g, err := setup(r, words).Game()
	if err != nil {
		return fail(e, "replay", err)
	}
	if *asJSON {
		return replayPrintJSON(e, g)
	}
	replayPrintFinal(e, g)
	return 0
}

// looksLikeFile reports whether a command's argument names a record file
// rather than a move: a name ending in .sgf or .txt, or holding a path
// separator (./game). A move never does, so a move is never taken for a
// file because a file of that name exists.
func looksLikeFile(arg string) bool {
	ext := strings.ToLower(filepath.Ext(arg))
	return ext == ".sgf" || ext == ".txt" || strings.ContainsAny(arg, "/\\")
}

func replayColor(c rules.Color) string {
	if c == rules.White {
		return "o"
	}
	return "x"
}

// replayFile replays a record: every position in turn, or with --json the
// final one.
func replayFile(e *env, path string, asJSON, step bool) int {
	rec, err := readRecordArg(path)
	if err != nil {
		return fail(e, "replay", err)
	}
	s, err := session.FromRecord(rec, session.Seat{Name: rec.Black}, session.Seat{Name: rec.White}, session.Options{})
	if err != nil {
		return fail(e, "replay", fmt.Errorf("%s: %w", path, err))
	}
	if asJSON {
		return replayPrintSnapshot(e, s)
	}
	g := s.Game()
	w := e.stdout
	r := g.Rules()
	fmt.Fprintf(w, "Rules: %s\n", r)
	if rec.Black != "" || rec.White != "" {
		fmt.Fprintf(w, "Black (x): %s. White (o): %s.\n", replayName(rec.Black), replayName(rec.White))
	}
	if rec.Date != "" {
		fmt.Fprintf(w, "Date: %s\n", rec.Date)
	}
	if c := rec.Comments[0]; c != "" {
		fmt.Fprintf(w, "%s\n", c)
	}
	fmt.Fprintf(w, "\nStart\n%s", notation.Board(g.PositionAt(0), e.terminal))
	in := bufio.NewReader(e.stdin)
	wait := step && e.terminal
	moves := g.Moves()
	for i, m := range moves {
		if wait {
			fmt.Fprint(w, "[Enter: next move, q: quit] ")
			line, err := in.ReadString('\n')
			if strings.EqualFold(strings.TrimSpace(line), "q") || (err != nil && line == "") {
				fmt.Fprintln(w)
				return 0
			}
		}
		mover := g.PositionAt(i).ToMove()
		fmt.Fprintf(w, "\nMove %d: %s %s\n", i+1, replayColor(mover), notation.Human.Encode(r, m))
		fmt.Fprint(w, notation.Board(g.PositionAt(i+1), e.terminal))
		if c := rec.Comments[i+1]; c != "" {
			fmt.Fprintf(w, "%s\n", c)
		}
	}
	fmt.Fprintln(w)
	replayResult(e, s, rec.Result)
	return 0
}

func replayName(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// replayPrintFinal prints the final position and, when the game is over,
// its result.
func replayPrintFinal(e *env, g *rules.Game) {
	fmt.Fprint(e.stdout, notation.Board(g.Position(), e.terminal))
	replayResult(e, session.New(g, session.Seat{}, session.Seat{}, session.Options{}), "")
}

// replayResult prints the result of a finished game, and the result a
// record claims when it is not what the moves give.
func replayResult(e *env, s *session.Session, claimed string) {
	o := s.Outcome()
	if o.Over() {
		fmt.Fprintf(e.stdout, "Result: %s\n", notation.OutcomeWords(o, s.ToMove()))
	}
	// A claim in another of the forms SGF allows ("Draw" for "0",
	// "B+Resign" for "B+R") is compared in the form alak writes.
	claim := claimed
	if r, w, ok := notation.ParseResult(claimed); ok {
		claim = notation.ResultString(rules.Outcome{Reason: r, Winner: w})
	}
	if got := notation.ResultString(o); claimed != "" && !strings.EqualFold(claim, got) {
		if got == "" {
			got = "unfinished"
		}
		fmt.Fprintf(e.stdout, "The record's result is %s; the moves give %s.\n", claimed, got)
	}
}

// replayPrintJSON prints the game's snapshot (session.Snapshot) as one
// line of JSON.
func replayPrintJSON(e *env, g *rules.Game) int {
	return replayPrintSnapshot(e, session.New(g, session.Seat{}, session.Seat{}, session.Options{}))
}

// replayPrintSnapshot prints a session's snapshot as one line of JSON.
func replayPrintSnapshot(e *env, s *session.Session) int {
	data, err := json.Marshal(s.Snapshot())
	if err != nil {
		return fail(e, "replay", err)
	}
	fmt.Fprintf(e.stdout, "%s\n", data)
	return 0
}
