package learn

import (
	"context"
	"errors"
	"slices"
	"testing"

	"alak/rules"
	"alak/solve"
)

// wrong is, for every lesson, a line of the player's moves that fails it,
// each worked out by hand under the lesson's rules (docs/rules.md):
var wrong = map[string][]string{
	"place": {"2"}, // a stone on 2, not on 3
	// -xo-- and Black 1: xxo--, the o on 3 keeps its liberty 4.
	"capture": {"1"},
	// o---- and Black 3: the o on 1 keeps its liberty 2.
	"edge": {"3"},
	// ---O/ and Black 1: a legal move; 5 was never tried.
	"no-return": {"1"},
	// -ox-oo- and Black 7: -ox-oox, Black's stone on 7 has the liberty 6
	// (and takes nothing: the oo has the liberty 4).
	"self-fill": {"7"},
	// Under traditional rules Black 1 is legal: xox-oo- takes the o on 2
	// (closed by x on 1 and 3), so nothing is refused.
	"no-suicide": {"1"},
	// White 6 instead of 4: X/x-oO- is a new position.
	"repetition": {"6"},
	// -o-O/, Black 3: -oxo-; White 1 (ooxo-) and 5 (-oxoo) both draw
	// (Black then takes one o: 2-2); the perfect player plays the first,
	// 1; Black 5 takes the o on 4: oox/X, White cannot move: 2-2.
	"end": {"3", "5"},
	// -xx-o, Black 1 fills its own point: xxx-o; one move, no end.
	"passes": {"1"},
	// The piece on 4 to 5: xxx_x__oooo, not the jump asked for.
	"slide": {"4-5"},
	// x-oox, the piece on 5 slides left to 2, over oo: xxoo-, no capture
	// (the run oo has a gap on its right).
	"flank": {"5-2"},
	// o-oxx, the piece on 4 to 2: oxo-x takes nothing (4 is now empty),
	// and the moved piece, between o and o, is removed.
	"golf": {"4-2"},
	// -ox-xo--, Black 1: xox-xo--, the o on 2 has no empty neighbour and
	// goes, but so does the x on 1 (the end and the o), at once.
	"alterigo": {"1"},
}

// TestLessons plays every lesson through with its solution (it succeeds)
// and with the wrong line above (it fails), and checks each lesson's data:
// its rules as the kernel writes them, its start, its references.
func TestLessons(t *testing.T) {
	ctx := context.Background()
	ts := &solve.Tables{Build: solve.DefaultBuild}
	ids := map[string]bool{}
	for _, l := range Lessons() {
		t.Run(l.ID, func(t *testing.T) {
			if ids[l.ID] {
				t.Fatalf("two lessons %q", l.ID)
			}
			ids[l.ID] = true
			r, err := rules.Parse(l.Rules)
			if err != nil || r.String() != l.Rules {
				t.Fatalf("rules %q: %v (written %q)", l.Rules, err, r.String())
			}
			if _, err := l.Game(); err != nil {
				t.Fatal(err)
			}
			if l.Title == "" || l.Text == "" || l.Goal.Text == "" || len(l.Refs) == 0 || len(l.Hints) == 0 || l.MaxMoves < 1 {
				t.Errorf("incomplete lesson: %+v", l)
			}
			pr, err := Play(ctx, &l, l.Solution, ts)
			if err != nil {
				t.Fatal(err)
			}
			if !pr.Done || !pr.Success {
				t.Errorf("solution %v: %+v", l.Solution, pr)
			}
			bad, ok := wrong[l.ID]
			if !ok {
				t.Fatalf("no wrong line for %s", l.ID)
			}
			pr, err = Play(ctx, &l, bad, ts)
			if err != nil {
				t.Fatal(err)
			}
			if !pr.Done || pr.Success {
				t.Errorf("wrong line %v: %+v", bad, pr)
			}
			// An empty attempt is neither done nor a success.
			if pr, err := Play(ctx, &l, nil, ts); err != nil || pr.Done || pr.Message != l.Goal.Text {
				t.Errorf("no tries: %+v %v", pr, err)
			}
		})
	}
	if len(wrong) != len(ids) {
		t.Errorf("%d wrong lines for %d lessons", len(wrong), len(ids))
	}
}

// TestLessonDetails checks what the kernel says along the way: the
// refusal's reason and sentence, the stones a move takes and loses, the
// computer's reply, and tries the lesson cannot take.
func TestLessonDetails(t *testing.T) {
	ctx := context.Background()
	get := func(id string) *Lesson {
		l, ok := ByID(id)
		if !ok {
			t.Fatalf("no lesson %s", id)
		}
		return &l
	}
	// The refusal of the no-return lesson: the reason and the kernel's
	// words; an occupied point tried first is refused too, and the lesson
	// goes on.
	pr, err := Play(ctx, get("no-return"), []string{"4", "e"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !pr.Success || len(pr.Tries) != 2 || pr.Tries[0].Refused != RefusalOccupied || pr.Tries[1].Refused != RefusalForbidden ||
		pr.Tries[1].Why != "the point is forbidden: your stones were just captured there" {
		t.Errorf("no-return: %+v", pr)
	}
	// Alter Igo: Black 1 takes one white stone and loses one of its own;
	// 7 takes one and loses none.
	for _, c := range []struct {
		move           string
		captured, lost int
	}{{"1", 1, 1}, {"4", 0, 3}, {"7", 1, 0}} {
		pr, err := Play(ctx, get("alterigo"), []string{c.move}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tr := pr.Tries[0]; tr.Captured != c.captured || tr.Lost != c.lost {
			t.Errorf("alterigo %s: captured %d lost %d, want %d %d", c.move, tr.Captured, tr.Lost, c.captured, c.lost)
		}
	}
	// The end lesson: the perfect player answers 1 with 3 (3 and 5 both
	// lose 2-0, find_test.go's hand analysis of -o-O/; the first is
	// played), and 5 then takes the three white stones: x///X, White
	// cannot move, 2-0.
	ts := &solve.Tables{Build: solve.DefaultBuild}
	pr, err = Play(ctx, get("end"), []string{"1", "5"}, ts)
	if err != nil {
		t.Fatal(err)
	}
	if pr.Tries[0].Reply != "3" || pr.Tries[1].Captured != 3 || pr.Position != "x///X" || pr.Result != "Black wins 2-0 on the count (White had no legal move, which ends the game)" {
		t.Errorf("end: %+v", pr)
	}
	// Without a solver, a lesson whose computer plays perfectly cannot
	// answer: an error, not a guess.
	if _, err := Play(ctx, get("end"), []string{"1"}, nil); err == nil {
		t.Error("the end lesson answered without a solver")
	}
	// The passes lesson: the script passes back, and the count is 3-1.
	pr, err = Play(ctx, get("passes"), []string{"pass"}, nil)
	if err != nil || pr.Tries[0].Reply != "pass" || pr.Result != "Black wins 3-1 (the game ended by passes)" {
		t.Errorf("passes: %+v %v", pr, err)
	}
	for _, c := range []struct {
		id    string
		tries []string
	}{{"place", []string{"nine"}}, {"place", []string{"3", "4"}}, {"place", []string{"resign"}}} {
		if _, err := Play(ctx, get(c.id), c.tries, nil); !errors.Is(err, ErrTry) {
			t.Errorf("%s %v: %v, want ErrTry", c.id, c.tries, err)
		}
	}
	if _, ok := ByID("nosuch"); ok {
		t.Error("ByID found nosuch")
	}
	// Lessons returns a fresh slice each time.
	a := Lessons()
	a[0].Hints = nil
	if b := Lessons(); slices.Equal(b[0].Hints, a[0].Hints) {
		t.Error("Lessons shares its data")
	}
}
