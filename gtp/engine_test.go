package gtp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"alak/notation"
	"alak/rules"
	"alak/session"
)

// firstPlayer plays the first legal move, or what move says when it is set.
type firstPlayer struct {
	move *rules.Move
	err  error
}

func (p firstPlayer) Name() string { return "first" }

func (p firstPlayer) Close() error { return nil }

func (p firstPlayer) Move(_ context.Context, g *rules.Game) (rules.Move, error) {
	if p.err != nil {
		return rules.NoMove, p.err
	}
	if p.move != nil {
		return *p.move, nil
	}
	ms := g.LegalMoves(nil)
	if len(ms) == 0 {
		return rules.NoMove, errors.New("no legal move")
	}
	return ms[0], nil
}

func newTestEngine(t testing.TB, desc string, p session.Player) *Engine {
	t.Helper()
	r, err := rules.Parse(desc)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEngine(r, p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestMoves checks the GTP writing of moves on lines, grids and slides. The
// expected vertices follow GTP (columns A.. without I, row 1 at the bottom,
// so kernel point y*width+x is row height-y) and, past 25 columns, the
// project's two-letter columns (rules.Column: the 26th is AA).
func TestMoves(t *testing.T) {
	cases := []struct {
		name, rules string
		move        rules.Move
		want        string
	}{
		{"first point of a line", "alak size=11", rules.Place(0), "A1"},
		{"ninth point skips I", "alak size=11", rules.Place(8), "J1"},
		{"25th point", "alak size=64", rules.Place(24), "Z1"},
		{"26th point", "alak size=64", rules.Place(25), "AA1"},
		{"34th point skips AI", "alak size=64", rules.Place(33), "AJ1"},
		// Columns 26-50 are AA..AZ (25 without AI), so the 64th is the
		// 14th of BA..BZ: BO.
		{"64th point", "alak size=64", rules.Place(63), "BO1"},
		{"top left of 9x9", "alterigo", rules.Place(0), "A9"},
		{"bottom right of 9x9", "alterigo", rules.Place(80), "J1"},
		{"centre of 9x9", "alterigo", rules.Place(40), "E5"},
		{"top right of 19x19", "alterigo size=19x19", rules.Place(18), "T19"},
		{"slide", "dewdney", rules.Slide(3, 4), "D1-E1"},
		{"pass", "traditional", rules.Pass, "pass"},
		{"resign", "alterigo", rules.Resign, "resign"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := rules.Parse(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			if got := notation.GTP.Encode(r, tc.move); got != tc.want {
				t.Errorf("notation.GTP.Encode(%v) = %q, want %q", tc.move, got, tc.want)
			}
			for _, s := range []string{tc.want, strings.ToLower(tc.want)} {
				m, err := notation.GTP.Decode(r, s)
				if err != nil || m != tc.move {
					t.Errorf("notation.GTP.Decode(%q) = %v, %v; want %v", s, m, err, tc.move)
				}
			}
		})
	}
	t.Run("every point round-trips", func(t *testing.T) {
		for _, desc := range []string{"alak size=1", "alak size=64", "alterigo size=19x19", "alterigo size=7x3"} {
			r, _ := rules.Parse(desc)
			seen := map[string]bool{}
			for p := range r.Points() {
				s := notation.GTP.Encode(r, rules.Place(p))
				if seen[s] {
					t.Errorf("%s: two points written %s", desc, s)
				}
				seen[s] = true
				if m, err := notation.GTP.Decode(r, s); err != nil || m != rules.Place(p) {
					t.Errorf("%s: notation.GTP.Decode(%q) = %v, %v; want point %d", desc, s, m, err, p)
				}
			}
		}
	})
	bad := []struct{ name, rules, text, want string }{
		{"letter I", "alak", "I1", "not a GTP vertex"},
		{"no row", "alak", "C", "not a GTP vertex"},
		{"number only", "alak", "3", "not a GTP vertex"},
		{"off the line", "alak size=6", "G1", "off the 6 board"},
		{"row 2 of a line", "alak", "A2", "off the 11 board"},
		{"slide without dash", "golf", "A1", "FROM-TO"},
		{"slide to nowhere", "golf", "A1-", "not a GTP vertex"},
		{"placement with dash", "alak", "A1-B1", "not a GTP vertex"},
	}
	for _, tc := range bad {
		t.Run("bad "+tc.name, func(t *testing.T) {
			r, _ := rules.Parse(tc.rules)
			if _, err := notation.GTP.Decode(r, tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("notation.GTP.Decode(%q) error %v, want one saying %q", tc.text, err, tc.want)
			}
		})
	}
}

// snapshot is everything a command may change.
func snapshot(e *Engine) string {
	g := e.Game()
	text, _ := g.Position().MarshalText()
	sn := e.Snapshot()
	result := "-"
	if sn.Result != nil {
		result = *sn.Result
	}
	return fmt.Sprintf("%s|%d|%d|%s|%x|%s", e.Rules(), e.Ply(), g.Len(), text, g.Position().Hash(), result)
}

// TestGenmovePlayer checks genmove's use of the player, including the
// failures that only a faulty player can cause: each fails and changes
// nothing.
func TestGenmovePlayer(t *testing.T) {
	resign, occupied := rules.Resign, rules.Place(0)
	cases := []struct {
		name    string
		player  session.Player
		want    string // the response, or a phrase of the failure
		wantErr bool
	}{
		{"first legal move", firstPlayer{}, "A1", false},
		{"resign", firstPlayer{move: &resign}, "resign", false},
		{"no player", nil, "no player", true},
		{"player error", firstPlayer{err: errors.New("out of ideas")}, "out of ideas", true},
		{"illegal choice", firstPlayer{move: &occupied}, "illegal", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEngine(t, "alak size=5", tc.player)
			if tc.wantErr {
				// Fill A1 so that the faulty player's A1 is illegal.
				if _, err := e.Execute(context.Background(), "play", "b", "A1"); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(e)
			color := []string{"b", "w"}[e.Game().Position().ToMove()]
			got, err := e.Execute(context.Background(), "genmove", color)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("genmove = %q, %v; want a failure mentioning %q", got, err, tc.want)
				}
				if after := snapshot(e); after != before {
					t.Errorf("a failed genmove changed the state from %s to %s", before, after)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("genmove = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	t.Run("illegal choice is written from the rules' error", func(t *testing.T) {
		e := newTestEngine(t, "alak size=5", firstPlayer{move: &occupied})
		e.Execute(context.Background(), "play", "b", "A1")
		_, err := e.Execute(context.Background(), "genmove", "w")
		if want := "genmove w: player first chose A1, which is illegal: the point is occupied"; err == nil || err.Error() != want {
			t.Errorf("genmove = %v, want %q", err, want)
		}
		if !errors.Is(err, rules.ErrOccupied) {
			t.Errorf("errors.Is(%v, rules.ErrOccupied) = false", err)
		}
	})
	t.Run("resignation ends the game", func(t *testing.T) {
		e := newTestEngine(t, "alterigo", firstPlayer{move: &resign})
		e.Execute(context.Background(), "genmove", "b")
		// Black resigned: White wins, written W+R in SGF.
		for cmd, want := range map[string]string{"gogui-rules_final_result": "white", "final_score": "W+R", "gogui-rules_legal_moves": ""} {
			if got, err := e.Execute(context.Background(), cmd); err != nil || got != want {
				t.Errorf("%s = %q, %v; want %q", cmd, got, err, want)
			}
		}
	})
}

// TestKomiKeepsTheGame checks that komi rescores the game in progress
// instead of clearing it: tromp-taylor on 5 points after b C1 gives Black
// the whole line by area, 5-0, so komi 7 makes it W+2.
func TestKomiKeepsTheGame(t *testing.T) {
	e := newTestEngine(t, "tromp-taylor size=5", nil)
	for _, c := range [][]string{{"play", "b", "C1"}, {"komi", "7"}} {
		if _, err := e.Execute(context.Background(), c[0], c[1:]...); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
	}
	if e.Ply() != 1 {
		t.Errorf("after komi the game has %d moves, want 1", e.Ply())
	}
	if got, _ := e.Execute(context.Background(), "final_score"); got != "W+2" {
		t.Errorf("final_score = %q, want W+2", got)
	}
}

// TestSessionEngine checks that an engine made from a session goes on with
// its game: a set-up start (seed 002's x--o-- with White to move), its
// moves and a resignation, which undo takes back like a move.
func TestSessionEngine(t *testing.T) {
	g, err := session.Setup{Rules: rules.MustPreset("alak"), Diagram: "x--o--", ToMove: "o", Moves: []string{"5"}}.Game()
	if err != nil {
		t.Fatal(err)
	}
	s := session.New(g, session.Seat{}, session.Seat{}, session.Options{})
	if err := s.Resign(rules.Black); err != nil {
		t.Fatal(err)
	}
	e := NewSessionEngine(s, session.Options{})
	defer e.Close()
	steps := []struct{ cmd, want string }{
		{"final_score", "W+R"},
		{"undo", ""}, // the resignation
		{"gogui-rules_board", "......\n......\n......\n......\n......\nX..OO."},
		{"gogui-rules_side_to_move", "black"},
		{"undo", ""}, // White's E1
		{"gogui-rules_board", "......\n......\n......\n......\n......\nX..O.."},
		{"gogui-rules_side_to_move", "white"},
	}
	for _, st := range steps {
		if got, err := e.Execute(context.Background(), st.cmd); err != nil || got != st.want {
			t.Fatalf("%s = %q, %v; want %q", st.cmd, got, err, st.want)
		}
	}
	if _, err := e.Execute(context.Background(), "undo"); !errors.Is(err, rules.ErrNothingToUndo) {
		t.Errorf("undo at the set-up start: %v, want rules.ErrNothingToUndo", err)
	}
	if _, err := e.Execute(context.Background(), "genmove", "w"); !errors.Is(err, session.ErrNotComputer) {
		t.Errorf("genmove for a human seat: %v, want session.ErrNotComputer", err)
	}
}

func TestRunStops(t *testing.T) {
	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		e := newTestEngine(t, "alak", nil)
		var out bytes.Buffer
		if err := e.Run(ctx, strings.NewReader("name\n"), &out); !errors.Is(err, context.Canceled) {
			t.Errorf("Run with a cancelled context = %v, want context.Canceled", err)
		}
		if out.Len() != 0 {
			t.Errorf("Run wrote %q after cancellation, want nothing", out.String())
		}
	})
	t.Run("write error", func(t *testing.T) {
		e := newTestEngine(t, "alak", nil)
		if err := e.Run(context.Background(), strings.NewReader("name\n"), failWriter{}); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("Run on a failing writer = %v, want its error", err)
		}
	})
	t.Run("read error", func(t *testing.T) {
		e := newTestEngine(t, "alak", nil)
		in := io.MultiReader(strings.NewReader("name\n"), errReader{})
		var out bytes.Buffer
		if err := e.Run(context.Background(), in, &out); err == nil || !strings.Contains(err.Error(), "unplugged") {
			t.Errorf("Run on a failing reader = %v, want its error", err)
		}
		if out.String() != "= alak\n\n" {
			t.Errorf("Run answered %q before the read error, want the name", out.String())
		}
	})
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("unplugged") }

// FuzzEngine feeds arbitrary input to the engine. It must never panic;
// every line that holds a command gets exactly one well-formed response (up
// to quit); and a command that fails changes nothing.
func FuzzEngine(f *testing.F) {
	f.Add("protocol_version\n1 name\nboardsize 3\nplay b B2\ngenmove w\nshowboard\n")
	f.Add("alak-rules golf\ngogui-rules_legal_moves\nplay b D1-E1\ngenmove w\nundo\nundo\nundo\n")
	f.Add("rectangular_boardsize 30 1\nplay b AA1\nfinal_score\n# comment\n\t\r\n")
	f.Add("play b A1\nplay b C1\ngenmove b\ngenmove w\nundo\nundo\nkomi 0.3\nplay w resign\nundo\ngogui-rules_board\nboardsize 9\n")
	f.Fuzz(func(t *testing.T, input string) {
		// Whole input through Run: count and check the responses.
		e := newTestEngine(t, "alak size=6", firstPlayer{})
		var out bytes.Buffer
		if err := e.Run(context.Background(), strings.NewReader(input), &out); err != nil {
			t.Fatalf("Run: %v", err)
		}
		want := 0
		for _, line := range strings.Split(input, "\n") {
			if _, fields, ok := parseLine(line); ok {
				want++
				if len(fields) > 0 && strings.EqualFold(fields[0], "quit") {
					break
				}
			}
		}
		text := out.String()
		got := 0
		if text != "" {
			if !strings.HasSuffix(text, "\n\n") {
				t.Fatalf("output does not end with an empty line: %q", text)
			}
			for _, r := range strings.Split(strings.TrimSuffix(text, "\n\n"), "\n\n") {
				if r == "" || (r[0] != '=' && r[0] != '?') {
					t.Fatalf("malformed response %q in %q", r, text)
				}
				got++
			}
		}
		if got != want {
			t.Fatalf("%d responses to %d command lines: %q", got, want, text)
		}
		// Line by line through Execute: failures change nothing.
		e = newTestEngine(t, "alak size=6", firstPlayer{})
		for _, line := range strings.Split(input, "\n") {
			_, fields, ok := parseLine(line)
			if !ok || len(fields) == 0 {
				continue
			}
			before := snapshot(e)
			if _, err := e.Execute(context.Background(), fields[0], fields[1:]...); err != nil {
				if after := snapshot(e); after != before {
					t.Fatalf("%q failed (%v) but changed the state from %s to %s", line, err, before, after)
				}
			}
		}
	})
}
