package gtp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"alak/rules"
)

// reply is one command's answer through Execute.
type reply struct {
	text string
	err  error
}

// execLines runs each line (COMMAND ARGS) on e through Execute.
func execLines(t *testing.T, e *Engine, lines ...string) []reply {
	t.Helper()
	out := make([]reply, len(lines))
	for i, l := range lines {
		f := strings.Fields(l)
		out[i].text, out[i].err = e.Execute(context.Background(), f[0], f[1:]...)
	}
	return out
}

// mustExec runs the lines and fails the test at the first failure; it
// returns the answer to the last.
func mustExec(t *testing.T, e *Engine, lines ...string) string {
	t.Helper()
	rs := execLines(t, e, lines...)
	for i, r := range rs {
		if r.err != nil {
			t.Fatalf("%q failed: %v", lines[i], r.err)
		}
	}
	return rs[len(rs)-1].text
}

// TestIllegalMoveError checks that an illegal play is answered with the
// vertex in GTP notation and the rules' reason, built from the typed
// *rules.MoveError, and that the error Execute returns wraps the reason
// through every layer (rules, session, engine).
func TestIllegalMoveError(t *testing.T) {
	cases := []struct {
		name, rules string
		setup       []string
		play        string
		reason      error
		want        string // the whole failure response
	}{
		{"occupied", "alak size=6", []string{"play b A1"}, "play w A1", rules.ErrOccupied,
			"illegal move A1: the point is occupied"},
		// b C1 w B1 b A1: B1 is captured between A1 and C1, and Baljeu's
		// rule forbids it to White at once (seed 002's "/").
		{"forbidden", "alak size=6", []string{"play b C1", "play w B1", "play b A1"}, "play w B1", rules.ErrForbidden,
			"illegal move B1: the point is forbidden: your stones were just captured there"},
		{"no passing", "alak size=6", nil, "play b pass", rules.ErrNoPass,
			"illegal move pass: passing is not allowed under these rules"},
		{"grid vertex", "alterigo size=5x5", []string{"play b C3"}, "play w c3", rules.ErrOccupied,
			"illegal move C3: the point is occupied"},
		// dewdney's start xxxx___oooo: the piece on D1 reaches E1 only.
		{"slide", "dewdney", nil, "play b D1-F1", rules.ErrUnreachable,
			"illegal move D1-F1: the piece cannot reach that slot: it moves to the nearest empty slot on its left or right"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t, tc.rules, nil)
			for _, l := range tc.setup {
				mustExec(t, e, l)
			}
			f := strings.Fields(tc.play)
			_, err := e.Execute(context.Background(), f[0], f[1:]...)
			if err == nil {
				t.Fatalf("%q succeeded, want a failure", tc.play)
			}
			if err.Error() != tc.want {
				t.Errorf("%q failed with %q, want %q", tc.play, err, tc.want)
			}
			if !errors.Is(err, tc.reason) || !errors.Is(err, rules.ErrIllegal) {
				t.Errorf("errors.Is(%v, %v) and errors.Is(err, rules.ErrIllegal) should hold", err, tc.reason)
			}
			var me *rules.MoveError
			if !errors.As(err, &me) {
				t.Errorf("the error of %q holds no *rules.MoveError", tc.play)
			}
		})
	}
}

// TestSameColourTwice checks GTP 2 section 6.3 (play): two moves of one
// colour in a row are legal at the protocol level, as GoGui sends them to
// set up a position. The second is a set-up step: the same stones, that
// colour to move, then the move. undo takes back one move at a time,
// whatever its colour.
func TestSameColourTwice(t *testing.T) {
	e := newTestEngine(t, "alak size=6", nil)
	state := func() string {
		t.Helper()
		return mustExec(t, e, "gogui-rules_side_to_move") + " " + mustExec(t, e, "gogui-rules_board")
	}
	// Black twice, then White's B1, which captures A1 against the end of
	// the line, then Black.
	moves := []string{"play b A1", "play b C1", "play b E1", "play w B1", "play b F1"}
	seen := []string{state()}
	for _, m := range moves {
		mustExec(t, e, m)
		seen = append(seen, state())
	}
	if got, want := seen[2], "white ......\n......\n......\n......\n......\nX.X..."; got != want {
		t.Errorf("after b A1, b C1: %q, want %q", got, want)
	}
	if got, want := seen[5], "white ......\n......\n......\n......\n......\n.OX.XX"; got != want {
		t.Errorf("after every move: %q, want %q", got, want)
	}
	for i := len(moves) - 1; i >= 0; i-- {
		mustExec(t, e, "undo")
		if got := state(); got != seen[i] {
			t.Errorf("undo after %q: %q, want %q as before it", moves[i], got, seen[i])
		}
	}
	if _, err := e.Execute(context.Background(), "undo"); err == nil || !errors.Is(err, rules.ErrNothingToUndo) {
		t.Errorf("undo at the start: %v, want a failure wrapping rules.ErrNothingToUndo", err)
	}
}

// TestGenmoveEitherColour checks that genmove plays for the colour it is
// given, whether or not it is that colour's turn (GTP 2 section 6.3:
// genmove COLOR), with the same set-up step as play.
func TestGenmoveEitherColour(t *testing.T) {
	e := newTestEngine(t, "alak size=5", firstPlayer{})
	// firstPlayer plays the first legal point: White's A1 as a set-up
	// step at the start, then White's B1 again, then Black's C1.
	rs := execLines(t, e, "genmove w", "genmove w", "genmove b", "gogui-rules_side_to_move")
	want := []string{"A1", "B1", "C1", "white"}
	for i, r := range rs {
		if r.err != nil || r.text != want[i] {
			t.Errorf("answer %d: %q, %v; want %q", i+1, r.text, r.err, want[i])
		}
	}
}

// TestKomiAnyValue checks that komi takes any number from -1000 to 1000
// (the kernel's real komi): tromp-taylor on 3 points after b A1 is 3-0 by
// area, so komi 0.3 leaves B+2.7.
func TestKomiAnyValue(t *testing.T) {
	e := newTestEngine(t, "tromp-taylor size=3", nil)
	if got := mustExec(t, e, "play b A1", "komi 0.3", "final_score"); got != "B+2.7" {
		t.Errorf("final_score = %q, want B+2.7", got)
	}
	if got := mustExec(t, e, "alak-rules"); got != "tromp-taylor size=3 komi=0.3" {
		t.Errorf("alak-rules = %q, want tromp-taylor size=3 komi=0.3", got)
	}
}

// TestBoardsizeOnALine checks that boardsize N never turns a line into an
// N×N grid of the line's rules: it is refused with a reply that says what
// is accepted, and changes nothing; boardsize N with N the line's length
// starts a new game on the same line; on a grid boardsize N is N×N.
func TestBoardsizeOnALine(t *testing.T) {
	t.Run("line refused", func(t *testing.T) {
		e := newTestEngine(t, "alak", nil)
		mustExec(t, e, "play b C1")
		_, err := e.Execute(context.Background(), "boardsize", "19")
		if err == nil {
			t.Fatal("boardsize 19 on an 11-point line succeeded, want a failure")
		}
		for _, w := range []string{"unacceptable size", "rectangular_boardsize N 1", "alak-rules alterigo size=19x19"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("boardsize 19 failed with %q, which does not mention %q", err, w)
			}
		}
		if got := mustExec(t, e, "alak-rules"); got != "alak" {
			t.Errorf("after a refused boardsize the rules are %q, want alak", got)
		}
		if got := mustExec(t, e, "gogui-rules_side_to_move"); got != "white" {
			t.Errorf("a refused boardsize changed the game: %q to move", got)
		}
	})
	t.Run("sliding refused", func(t *testing.T) {
		e := newTestEngine(t, "golf", nil)
		if _, err := e.Execute(context.Background(), "boardsize", "9"); err == nil || !strings.Contains(err.Error(), "rectangular_boardsize N 1") {
			t.Errorf("boardsize 9 under golf: %v, want a failure pointing to rectangular_boardsize N 1", err)
		}
	})
	t.Run("the line's own length", func(t *testing.T) {
		e := newTestEngine(t, "alak", nil)
		if got := mustExec(t, e, "play b C1", "boardsize 11", "gogui-rules_legal_moves"); got != "A1 B1 C1 D1 E1 F1 G1 H1 J1 K1 L1" {
			t.Errorf("after boardsize 11 on the 11-point line the legal moves are %q, want the empty line", got)
		}
	})
	t.Run("grid", func(t *testing.T) {
		e := newTestEngine(t, "alterigo", nil)
		if got := mustExec(t, e, "boardsize 7", "alak-rules"); got != "alterigo size=7x7" {
			t.Errorf("boardsize 7 under alterigo: rules %q, want alterigo size=7x7", got)
		}
	})
}

// TestGoGuiRules checks the commands GoGui asks of a rules engine, in the
// forms its sources read them (net.sf.gogui.go.GenericBoard): game_id a
// lower-case word, board_size one integer, board that many rows of X, O and
// . from the top row down.
func TestGoGuiRules(t *testing.T) {
	cases := []struct {
		name, rules string
		moves       []string
		id, size    string
		board       string
	}{
		// A line of 4 points is the bottom row of a 4×4 board.
		{"line", "alak size=4", []string{"play b A1", "play w C1"}, "alak", "4", "....\n....\n....\nX.O."},
		// A 3x2 grid: rows 2 and 1 at the bottom, column D empty.
		{"grid", "alterigo size=3x2", []string{"play b A2", "play w C1"}, "alak", "3", "...\nX..\n..O"},
		// dewdney's start on 5 slots is x___o.
		{"slides", "dewdney size=5", nil, "alak", "5", ".....\n.....\n.....\n.....\nX...O"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t, tc.rules, nil)
			for _, m := range tc.moves {
				mustExec(t, e, m)
			}
			for cmd, want := range map[string]string{"gogui-rules_game_id": tc.id, "gogui-rules_board_size": tc.size, "gogui-rules_board": tc.board} {
				if got := mustExec(t, e, cmd); got != want {
					t.Errorf("%s = %q, want %q", cmd, got, want)
				}
			}
		})
	}
	t.Run("too large for GoGui", func(t *testing.T) {
		e := newTestEngine(t, "alak size=30", nil)
		for _, cmd := range []string{"gogui-rules_board_size", "gogui-rules_board"} {
			if _, err := e.Execute(context.Background(), cmd); err == nil || !strings.Contains(err.Error(), "25×25") {
				t.Errorf("%s on 30 points: %v, want a failure saying GoGui draws up to 25×25", cmd, err)
			}
		}
	})
}

// repeatReader yields n bytes of b's first byte, then the rest of b.
type repeatReader struct {
	n    int
	tail *strings.Reader
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n > 0 {
		k := min(len(p), r.n)
		for i := range k {
			p[i] = 'a'
		}
		r.n -= k
		return k, nil
	}
	return r.tail.Read(p)
}

// TestLongLine checks that a 10 MB line is answered by a short failure and
// skipped without being held in memory, and that the engine goes on.
func TestLongLine(t *testing.T) {
	const size = 10 << 20
	e := newTestEngine(t, "alak", nil)
	in := &repeatReader{n: size, tail: strings.NewReader("\n7 name\n")}
	var out bytes.Buffer
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := e.Run(context.Background(), io.MultiReader(strings.NewReader("12 play b "), in), &out); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	rs := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	if len(rs) != 2 {
		t.Fatalf("%d responses (%d bytes), want 2", len(rs), out.Len())
	}
	if !strings.HasPrefix(rs[0], "?12 ") || !strings.Contains(rs[0], "65536") || len(rs[0]) > 200 {
		t.Errorf("the long line was answered %q (%d bytes), want a short failure with its id naming the limit", short(rs[0]), len(rs[0]))
	}
	if rs[1] != "=7 alak" {
		t.Errorf("after the long line the engine answered %q, want =7 alak", short(rs[1]))
	}
	// Reading in pieces allocates the reader's buffer, not the line.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 2<<20 {
		t.Errorf("reading a %d-byte line allocated %d bytes, want it read in pieces (under 2 MiB)", size, grew)
	}
}

func short(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}

// TestNoEcho checks that no failure quotes more than a short prefix of a
// long bad input, whatever the command.
func TestNoEcho(t *testing.T) {
	long := strings.Repeat("Z", 60000)
	for _, line := range []string{
		long,
		"play b " + long,
		"play " + long + " A1",
		"genmove " + long,
		"boardsize " + long,
		"rectangular_boardsize " + long + " 1",
		"komi " + long,
		"alak-rules " + long,
		"alak-rules alak size=" + long,
		"alak-rules alak ko=" + long,
		"alak-rules alak " + long + "=1",
		"known_command " + long,
	} {
		e := newTestEngine(t, "alak", nil)
		var out bytes.Buffer
		if err := e.Run(context.Background(), strings.NewReader(line+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		if out.Len() > 400 {
			t.Errorf("%q... was answered with %d bytes: %q", line[:20], out.Len(), short(out.String()))
		}
	}
}
