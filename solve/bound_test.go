package solve

import (
	"context"
	"fmt"
	"testing"

	"alak/internal/testlong"
	"alak/rules"
)

// TestAtLeast: for every threshold around the value, AtLeast agrees with
// the full solve (whose values are checked against the brute force and
// published tables elsewhere), and its proved bound lies between the
// threshold and the value: on positional linear Go (the bound search), with
// komi, after moves with White to move, and on alak and Alter Igo (which
// solve and compare). The empty lines of positional linear Go go from 3 to
// 7 points, to 8 with ALAK_LONG=1 (TestAtLeastSplit asks about 1×7 too).
func TestAtLeast(t *testing.T) {
	t.Parallel()
	var games []*rules.Game
	for n := 3; n <= testlong.Size(t, 7, 8); n++ {
		games = append(games, superkoGame(t, n))
	}
	g := newGame(t, "tromp-taylor", 7, "komi", "0.5")
	if err := g.Play(rules.Place(1)); err != nil {
		t.Fatal(err)
	}
	games = append(games, g, newGame(t, "alak", 6), gridGame(t, "alterigo", 2, 3))
	for _, g := range games {
		full, err := Solve(context.Background(), g, Options{MemoryMB: 64})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%v after %v", g.Rules(), g.Moves())
		for _, v := range []float64{full.Value - 1, full.Value - 0.5, full.Value, full.Value + 0.5, full.Value + 1} {
			b, err := AtLeast(context.Background(), g, v, Options{MemoryMB: 64})
			if err != nil {
				t.Fatal(err)
			}
			if b.Holds != (full.Value >= v) {
				t.Errorf("%s: at least %v: %v, but the value is %v", name, v, b.Holds, full.Value)
			}
			if b.Holds && (b.Bound < v || b.Bound > full.Value) || !b.Holds && (b.Bound >= v || b.Bound < full.Value) {
				t.Errorf("%s: at least %v: holds %v with bound %v, value %v", name, v, b.Holds, b.Bound, full.Value)
			}
		}
	}
}
