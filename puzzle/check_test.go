package puzzle

import (
	"context"
	"errors"
	"slices"
	"testing"

	"alak/rules"
)

// TestCheck plays attempts at the hand-analysed puzzles (find_test.go):
// right and wrong moves, in any notation, with the replies and the values
// of the hand analysis.
func TestCheck(t *testing.T) {
	find := func(name string) *Puzzle {
		t.Helper()
		for _, c := range handPuzzles {
			if c.name == name {
				p, err := Find(context.Background(), newSolver(), newGame(t, c.spec, c.moves...), Options{})
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
		}
		t.Fatalf("no puzzle %q", name)
		return nil
	}
	two := find("alak4 two moves")
	noReturn := find("alak5 no return")
	// x---O after 1 5 on 5 points, Black to move: 3 and 4 both win, 4 by
	// more (the dense table: 2:-1 3:+1 4:+2; Verify's search agrees), so
	// the line is 4 alone and 3 is accepted, not best.
	several, err := Find(context.Background(), newSolver(), newGame(t, "alak size=5", "1", "5"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(context.Background(), several, VerifyOptions{}); err != nil || !slices.Equal(several.Accepted, []string{"3", "4"}) || several.End != EndSeveral {
		t.Fatalf("x---O: accepted %v end %s, verify %v", several.Accepted, several.End, err)
	}
	type answer struct {
		move          string
		correct, best bool
		before, after float64
		reply, why    string
	}
	for _, c := range []struct {
		name          string
		p             *Puzzle
		moves         []string
		done, correct bool
		answers       []answer
	}{
		{"nothing yet", two, nil, false, false, nil},
		// White's 3 is answered by Black's 1, then White's 2 wins: -2 all
		// along (Black's margin), White's +2.
		{"solved in two", two, []string{"3", "2"}, true, true, []answer{
			{"3", true, true, -2, -2, "1", "correct: it keeps the win (your margin under perfect play stays +2)"},
			{"2", true, true, -2, -2, "", "correct: it keeps the win (your margin under perfect play stays +2)"},
		}},
		// The mail server's letters are read as points: c is 3, b is 2.
		{"letters", two, []string{"c", "b"}, true, true, []answer{
			{"3", true, true, -2, -2, "1", "correct: it keeps the win (your margin under perfect play stays +2)"},
			{"2", true, true, -2, -2, "", "correct: it keeps the win (your margin under perfect play stays +2)"},
		}},
		// After 3 1, White's 4 lets Black's 2 close oo against the end:
		// Black wins 2-0.
		{"second move wrong", two, []string{"3", "4"}, true, false, []answer{
			{"3", true, true, -2, -2, "1", "correct: it keeps the win (your margin under perfect play stays +2)"},
			{"4", false, false, -2, 2, "", "this move lets Black (x) win: your margin under perfect play goes from +2 to -2"},
		}},
		// White's 1 lets Black draw (/X-x ... xxoo, 2-2).
		{"first move wrong", two, []string{"1"}, true, false, []answer{
			{"1", false, false, -2, 0, "", "this move lets Black (x) draw: your margin under perfect play goes from +2 to 0"},
		}},
		{"draw instead of win", noReturn, []string{"3"}, true, false, []answer{
			{"3", false, false, 2, 0, "", "this move lets White (o) draw: your margin under perfect play goes from +2 to 0"},
		}},
		{"one move", noReturn, []string{"1"}, true, true, []answer{
			{"1", true, true, 2, 2, "", "correct: it keeps the win (your margin under perfect play stays +2)"},
		}},
		{"accepted, not best", several, []string{"3"}, true, true, []answer{
			{"3", true, false, 2, 1, "", "correct: it keeps the win, by +1 where 4 wins by +2"},
		}},
		{"best of several", several, []string{"4"}, true, true, []answer{
			{"4", true, true, 2, 2, "", "correct: it keeps the win (your margin under perfect play stays +2)"},
		}},
		{"loses", several, []string{"2"}, true, false, []answer{
			{"2", false, false, 2, -1, "", "this move lets White (o) win: your margin under perfect play goes from +2 to -1"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			att, err := Check(c.p, c.moves)
			if err != nil {
				t.Fatal(err)
			}
			if att.Done != c.done || att.Correct != c.correct || len(att.Answers) != len(c.answers) {
				t.Fatalf("done %v correct %v answers %+v", att.Done, att.Correct, att.Answers)
			}
			for i, a := range att.Answers {
				w := c.answers[i]
				got := answer{a.Move, a.Correct, a.Best, a.Before, a.After, a.Reply, a.Why}
				if got != w {
					t.Errorf("answer %d: %+v\nwant %+v", i+1, got, w)
				}
			}
			if c.done != (att.Solution != nil) || att.Solution != nil && !slices.Equal(att.Solution, c.p.Solution()) {
				t.Errorf("solution %v", att.Solution)
			}
		})
	}
	// Errors: a point the no-return rule refuses, text that is no move,
	// a move after the end, resigning.
	for _, c := range []struct {
		name  string
		p     *Puzzle
		moves []string
		is    error
	}{
		{"forbidden", noReturn, []string{"5"}, rules.ErrForbidden},
		{"occupied", noReturn, []string{"2"}, rules.ErrOccupied},
		{"no move", noReturn, []string{"zz9"}, ErrAttempt},
		{"after the end", noReturn, []string{"3", "1"}, ErrAttempt},
		{"after solving", noReturn, []string{"1", "3"}, ErrAttempt},
		{"resign", noReturn, []string{"resign"}, ErrAttempt},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Check(c.p, c.moves); !errors.Is(err, c.is) {
				t.Errorf("got %v, want %v", err, c.is)
			}
		})
	}
}
