package puzzle

import (
	"context"
	"errors"
	"math"
	"testing"
)

// TestRating: the starting rating for the reference player's chance, by
// R = 1500 + 400 log10((1-c)/c) (rating.go), computed by hand: log10(1) =
// 0, log10(9) = 0.9542, log10(999) = 2.9996; bounded at 600 and 2800.
func TestRating(t *testing.T) {
	for c, want := range map[float64]float64{0.5: 1500, 0.1: 1882, 0.9: 1118, 0.001: 2700, 0: 2800, 1: 600, 0.999: 600, 1e-9: 2800} {
		if got := rating(Difficulty{Chance: c}); got != want {
			t.Errorf("chance %v: %v, want %v", c, got, want)
		}
	}
	if r := rating(Difficulty{Chance: math.NaN()}); r != maxRating {
		t.Errorf("NaN chance rated %v", r)
	}
}

// TestVerifyRejects: puzzles whose data hold together (they decode) but
// whose claims are false are rejected by the second method. From the
// hand-analysed empty line of 3 (find_test.go): every value doubled (the
// margins are 1 and -1, not 2 and -2); and the point 1 claimed to win as
// 2 does, so both accepted (by hand it loses: White 2 takes it against
// the end), the end then "several".
func TestVerifyRejects(t *testing.T) {
	ctx := context.Background()
	c := handPuzzles[0]
	fresh := func() *Puzzle {
		p, err := Find(ctx, newSolver(), newGame(t, c.spec, c.moves...), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	doubled := fresh()
	doubled.Value *= 2
	s := &doubled.Line[0]
	s.Before, s.After = s.Before*2, s.After*2
	for i := range s.Values {
		s.Values[i].Value *= 2
	}
	both := fresh()
	s = &both.Line[0]
	s.Values[0].Value = 1
	s.Accepted = []string{"1", "2"}
	both.Accepted = s.Accepted
	both.End, both.EndReply = EndSeveral, ""
	g, err := both.Game()
	if err != nil {
		t.Fatal(err)
	}
	if both.Difficulty, err = difficulty(both, g); err != nil {
		t.Fatal(err)
	}
	both.Rating = rating(both.Difficulty)
	for name, p := range map[string]*Puzzle{"doubled": doubled, "1 wins": both} {
		if err := p.validate(); err != nil {
			t.Fatalf("%s: the changed puzzle does not hold together: %v", name, err)
		}
		if _, err := Verify(ctx, p, VerifyOptions{}); !errors.Is(err, ErrRejected) {
			t.Errorf("%s: %v, want ErrRejected", name, err)
		}
	}
}
