package solve

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"alak/internal/testlong"
	"alak/rules"
)

// TestSafeAgainstBruteForce: the safe-eye rule (rules.SafeEye) through
// Solve (method 1's state graph, keys with the safe points from bit 32)
// against the brute force, the start position and every move.
func TestSafeAgainstBruteForce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		preset string
		sizes  []int
		opts   []string
	}{
		{"alak", []int{1, 2, 3, 4, 5}, []string{"safe", "eye"}},
		{"alak", []int{1, 2, 3, 4, 5}, []string{"safe", "field"}},
		{"alak", []int{3, 4}, []string{"safe", "eye", "ko", "none", "repetition", "2"}},
		{"traditional", []int{2}, []string{"safe", "eye"}},
		{"tromp-taylor", []int{2, 3}, []string{"safe", "field"}},
	}
	if testlong.Enabled(t) {
		// traditional/3: the brute force counts prisoners through the
		// history, 2 minutes on 2 busy cores; alak/6: 4 s under -race.
		cases = append(cases, struct {
			preset string
			sizes  []int
			opts   []string
		}{"traditional", []int{3}, []string{"safe", "eye"}}, struct {
			preset string
			sizes  []int
			opts   []string
		}{"alak", []int{6}, []string{"safe", "eye"}})
	}
	for _, c := range cases {
		for _, n := range c.sizes {
			t.Run(fmt.Sprintf("%s/%d%v", c.preset, n, c.opts), func(t *testing.T) {
				agreesWithBrute(t, newGame(t, c.preset, n, c.opts...), 16)
			})
		}
	}
}

// A position reached with safe points is keyed apart from the same stones
// without them, and from its mirror image only by the mirror.
func TestSafeKeys(t *testing.T) {
	t.Parallel()
	g := newGame(t, "alak", 5, "safe", "field")
	s := newSearcher(context.Background(), g.Rules(), Options{})
	play := func(moves ...rules.Move) rules.Position {
		pos := g.Position()
		for _, m := range moves {
			var err error
			if pos, err = pos.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		return pos
	}
	a := play(rules.Declare(0), rules.Place(4))
	b := play(rules.Place(4), rules.Declare(0)) // the colours swapped: another position
	m := play(rules.Declare(4), rules.Place(0)) // a's mirror image
	if s.keys(a).tt == s.keys(b).tt {
		t.Fatal("safe point and stone swapped between the colours, same key")
	}
	if s.keys(a).tt != s.keys(m).tt || s.keys(a).mirrored == s.keys(m).mirrored {
		t.Fatalf("a position and its mirror image: keys %v %v", s.keys(a).tt, s.keys(m).tt)
	}
	if got := decodeMove(encodeMove(rules.Declare(31))); got != rules.Declare(31) {
		t.Fatalf("encodeMove round trip: %v", got)
	}
	if DenseApplies(g.Rules()) {
		t.Fatal("the dense solver has no room for safe points but says it applies")
	}
	big := newGame(t, "alak", 33, "safe", "eye")
	if _, err := Solve(context.Background(), big, Options{}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("33 points with safe points: %v, want ErrUnsupported", err)
	}
}

// Under superko the kernel compares boards with their safe points
// (Position.BoardHash), so the searches' superko key holds them too: the
// same stones with another safe point are another board.
func TestSafeSuperkoKey(t *testing.T) {
	t.Parallel()
	g := newGame(t, "tromp-taylor", 5, "safe", "field")
	s := newSearcher(context.Background(), g.Rules(), Options{exactHistory: true})
	a, err := g.Position().Play(rules.Place(0))
	if err != nil {
		t.Fatal(err)
	}
	b, err := a.Play(rules.Declare(4))
	if err != nil {
		t.Fatal(err)
	}
	if a.BoardHash() == b.BoardHash() {
		t.Fatal("the kernel's boards are alike: the test means nothing")
	}
	if s.keys(a).sk == s.keys(b).sk || s.keys(a).sk == s.keys(b.Mirror()).skM {
		t.Fatal("a board and the same stones with a safe point share a superko key")
	}
	if s.keys(b).sk != s.keys(b.Mirror()).skM {
		t.Fatal("a board's superko key and its mirror image's differ")
	}
}
