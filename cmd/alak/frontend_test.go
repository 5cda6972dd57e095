package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"alak/notation"
	"alak/rules"
	"alak/solve"
)

// runWith runs alak with args, the input, and an interrupt context that
// is cancelled after the search has asked it whether to stop polls times:
// a Ctrl-C in the middle of a search, without a signal. polls < 0: never.
func runWith(t *testing.T, input string, polls int64, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(input), stdout: &out, stderr: &errOut}
	if polls >= 0 {
		e.interrupt = func() (context.Context, context.CancelFunc) {
			return &interruptAfter{left: polls}, func() {}
		}
	}
	code = run(e, args)
	return out.String(), errOut.String(), code
}

// interruptAfter is a context that reports Canceled once it has been polled
// a set number of times.
type interruptAfter struct {
	left int64
}

func (c *interruptAfter) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *interruptAfter) Value(any) any               { return nil }
func (c *interruptAfter) Done() <-chan struct{} {
	if c.Err() != nil {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	return nil
}
func (c *interruptAfter) Err() error {
	if atomic.AddInt64(&c.left, -1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestInterruptedSearches: solve, prove and analyze stopped by Ctrl-C
// exit with status 130 (documented in docs/commands.md); solve
// then prints no value line, and analyze prints the plies it finished.
func TestInterruptedSearches(t *testing.T) {
	// Alak on 12 points takes far more polls than 3 to solve.
	out, errOut, code := runWith(t, "", 3, "solve", "--size", "12", "--table-dir", "none")
	if code != exitInterrupted {
		t.Errorf("solve: status %d, want %d (stderr %q)", code, exitInterrupted, errOut)
	}
	if strings.Contains(out, "value:") || !strings.Contains(out, "cut off:") || !strings.Contains(errOut, "interrupted") {
		t.Errorf("solve printed a value line or no cut-off line:\n%s\n%s", out, errOut)
	}
	out, _, code = runWith(t, "", 3, "solve", "--size", "12", "--table-dir", "none", "--json")
	if code != exitInterrupted || strings.Contains(out, `"value"`) || !strings.Contains(out, `"complete":false`) {
		t.Errorf("solve --json: status %d, %s", code, out)
	}

	// analyze: the seed's Alak-6 game, stopped partway. Every ply printed
	// is one the full analysis prints identically.
	full, _, code := runWith(t, "", -1, append([]string{"analyze", "--size", "6", "--table-dir", "none"}, solveSeedGame...)...)
	if code != 0 {
		t.Fatalf("full analysis: status %d", code)
	}
	for _, polls := range []int64{0, 40, 400} {
		out, errOut, code := runWith(t, "", polls, append([]string{"analyze", "--size", "6", "--table-dir", "none"}, solveSeedGame...)...)
		if code == 0 {
			continue // finished within the polls
		}
		if code != exitInterrupted || !strings.Contains(errOut, "interrupted after") {
			t.Errorf("analyze after %d polls: status %d, stderr %q", polls, code, errOut)
		}
		if !strings.HasPrefix(full, out) {
			t.Errorf("analyze after %d polls printed plies the full analysis does not:\n%s", polls, out)
		}
	}

	_, errOut, code = runWith(t, "", 3, "prove", "--size", "11", "--for", "x", "--depth", "40")
	if code != exitInterrupted || !strings.Contains(errOut, "nothing was proved") {
		t.Errorf("prove: status %d, stderr %q", code, errOut)
	}
}

// TestAnalyzeSGFForce: --sgf never replaces a file
// without --force, and never the game it reads.
func TestAnalyzeSGFForce(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "game.txt")
	if err := os.WriteFile(game, []byte("# rules: alak size=5\n2 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.sgf")
	if err := os.WriteFile(out, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runWith(t, "", -1, "analyze", "--table-dir", "none", "--sgf", out, game)
	if code != 2 || !strings.Contains(errOut, "the file exists") {
		t.Errorf("existing file: status %d, %q", code, errOut)
	}
	if data, _ := os.ReadFile(out); string(data) != "keep" {
		t.Errorf("the existing file was changed: %q", data)
	}
	_, errOut, code = runWith(t, "", -1, "analyze", "--table-dir", "none", "--sgf", game, "--force", game)
	if code != 2 || !strings.Contains(errOut, "is the game being analysed") {
		t.Errorf("own input: status %d, %q", code, errOut)
	}
	if _, errOut, code = runWith(t, "", -1, "analyze", "--table-dir", "none", "--sgf", out, "--force", game); code != 0 {
		t.Fatalf("--force: status %d, %q", code, errOut)
	}
	rec, err := notation.ReadRecordFile(out)
	if err != nil || len(rec.Moves) != 2 || !strings.Contains(rec.Comments[1], "value") {
		t.Errorf("replaced file: %+v, %v", rec, err)
	}
}

// TestMissingFileAndMoves: a missing record file is
// reported as missing, and a move is never read as a file, even when a file
// of that name exists.
func TestMissingFileAndMoves(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	_, errOut, code := runWith(t, "", -1, "analyze", "nosuch.sgf")
	if code != 2 || !strings.Contains(errOut, "nosuch.sgf: no such file") {
		t.Errorf("analyze nosuch.sgf: status %d, %q", code, errOut)
	}
	if err := os.WriteFile("3", []byte("(;GM[1]SZ[6:1];B[aa])"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runWith(t, "", -1, "replay", "--size", "6", "--json", "3")
	if code != 0 || !strings.Contains(out, `"board":"--x---"`) {
		t.Errorf("replay 3 with a file named 3: status %d, %s %s", code, out, errOut)
	}
}

// TestHelpAndVersion: help goes to standard output, with status 0,
// however it is asked for (alak help X, alak X -h, alak X --help), for
// every subcommand registered: its usage, and its flags if it has any.
func TestHelpAndVersion(t *testing.T) {
	if len(commands) < 10 {
		t.Fatalf("%d commands registered", len(commands))
	}
	for name := range commands {
		for _, args := range [][]string{{"help", name}, {name, "-h"}, {name, "--help"}} {
			out, errOut, code := runWith(t, "", -1, args...)
			if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: alak "+name+" ") && !strings.HasPrefix(out, "usage: alak "+name+"\n") {
				t.Errorf("%v: status %d, stdout %q, stderr %q; want the usage of %s on stdout, status 0", args, code, out, errOut, name)
			}
		}
	}
	out, _, code := runWith(t, "", -1, "--version")
	if code != 0 || !strings.HasPrefix(out, "alak ") {
		t.Errorf("--version: %d %q", code, out)
	}
	_, errOut, code := runWith(t, "", -1, "help", "nosuch")
	if code != 2 || !strings.Contains(errOut, `unknown command "nosuch"`) {
		t.Errorf("help nosuch: %d %q", code, errOut)
	}
}

// TestInterruptedSolveKeepsProofs: an interrupted solve keeps in the table file what it proved, so that a
// second solve of the same position answers the finished moves from it.
func TestInterruptedSolveKeepsProofs(t *testing.T) {
	// Traditional Alak on 5 points solves in about seven polls of the
	// interruption context (a poll every 1024 positions, deterministic);
	// the first number of polls that leaves some of the moves proved and
	// not the value is the fixture. The search is asked for (--method
	// search): by default the certificates of 5 points answer at once.
	var dir, out string
	var first struct {
		Complete bool
		Moves    map[string]float64
	}
	for polls := int64(0); polls < 12; polls++ {
		dir = t.TempDir()
		var code int
		out, _, code = runWith(t, "", polls, "solve", "--rules", "traditional", "--size", "5", "--table-dir", dir, "--json", "--method", "search")
		if err := json.Unmarshal([]byte(out), &first); err != nil {
			t.Fatal(err)
		}
		if code == exitInterrupted && len(first.Moves) > 0 {
			break
		}
		first.Moves = nil
	}
	if first.Moves == nil {
		t.Fatal("no interruption left some moves proved")
	}
	r, err := rules.Parse("traditional size=5")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := solve.LoadTable(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	// Each finished opening's position is in the table, a position and its
	// mirror image once (1 and 5, 2 and 4 on five points).
	if tab.Len() < (len(first.Moves)+1)/2 {
		t.Errorf("the table file holds %d positions after %d openings were proved", tab.Len(), len(first.Moves))
	}
	// A second, full solve agrees with the values the first one printed.
	out, _, code := runWith(t, "", -1, "solve", "--rules", "traditional", "--size", "5", "--table-dir", dir, "--json", "--method", "search")
	var second struct{ Moves map[string]float64 }
	if code != 0 || json.Unmarshal([]byte(out), &second) != nil {
		t.Fatalf("the full solve: status %d %s", code, out)
	}
	for m, v := range first.Moves {
		if second.Moves[m] != v {
			t.Errorf("opening %s: %v after the interruption, %v in the full solve", m, v, second.Moves[m])
		}
	}
}
