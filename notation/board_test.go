package notation

import (
	"regexp"
	"strings"
	"testing"

	"alak/rules"
)

// playAll plays moves from the start of r through the kernel.
func playAll(t *testing.T, r rules.Rules, moves []rules.Move) *rules.Game {
	t.Helper()
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func TestBoard(t *testing.T) {
	cases := []struct {
		name string
		pos  rules.Position
		want string
	}{
		{
			// Seed 002, the Alak-6 game's last line "xx/X//" and its score
			// 3-0; White, to move, cannot place (points 3, 5, 6 were just
			// captured, 1, 2, 4 are taken).
			name: "alak6 end",
			pos:  playAll(t, sized(t, "alak", "6"), places(alak6)).Position(),
			want: " x x / X / /\n 1 2 3 4 5 6\n a b c d e f\n" +
				"Game over: Black wins 3-0 on the count (White had no legal move, which ends the game). Stones: x 3, o 0.\n",
		},
		{
			// Seed 002, Alak-6 line 4 "x--o/O": White's 6 captured Black's 5.
			name: "alak6 line 4",
			pos:  playAll(t, sized(t, "alak", "6"), places(alak6[:4])).Position(),
			want: " x - - o / O\n 1 2 3 4 5 6\n a b c d e f\nBlack (x) to move. Stones: x 1, o 2.\n",
		},
		{
			// Eleven points: two-digit numbers take columns of width 3.
			name: "alak 11 start",
			pos:  playAll(t, rules.MustPreset("alak"), places([]int{11})).Position(),
			want: "  -  -  -  -  -  -  -  -  -  -  X\n  1  2  3  4  5  6  7  8  9 10 11\n" +
				"  a  b  c  d  e  f  g  h  i  j  k\nWhite (o) to move. Stones: x 1, o 0.\n",
		},
		{
			// 27 points: past z there are no letters.
			name: "no letters past 26",
			pos:  playAll(t, sized(t, "alak", "27"), nil).Position(),
			want: strings.Repeat("  -", 27) + "\n" + func() string {
				var b strings.Builder
				for i := 1; i <= 27; i++ {
					b.WriteString([]string{"  ", " "}[min(i/10, 1)] + Number(i-1))
				}
				return b.String()
			}() + "\nBlack (x) to move. Stones: x 0, o 0.\n",
		},
		{
			// Traditional Alak counts territory and prisoners (seed 000):
			// x on 2 of 3 points owns 1 and 3, so 3-0.
			name: "traditional score",
			pos:  playAll(t, sized(t, "traditional", "3"), places([]int{2})).Position(),
			want: " - X -\n 1 2 3\n a b c\nWhite (o) to move. Stones: x 1, o 0. Prisoners: x 0, o 0. Score: x 3, o 0.\n",
		},
		{
			// A 3x2 grid: row 2 on top, columns A B C (GTP; no I).
			name: "grid",
			pos:  playAll(t, sized(t, "alterigo", "3x2"), []rules.Move{rules.Place(4)}).Position(),
			want: "2  -  -  -\n1  -  X  -\n   A  B  C\nWhite (o) to move. Stones: x 1, o 0.\n",
		},
		{
			// SEEDS.md: x_oox to _xoox captures both o, giving _x__x.
			name: "golf capture",
			pos: func() rules.Position {
				p, err := rules.ParseDiagram(rules.MustPreset("golf"), "x_oox", rules.Black)
				if err != nil {
					t.Fatal(err)
				}
				p, err = p.Play(rules.Slide(0, 1))
				if err != nil {
					t.Fatal(err)
				}
				return p
			}(),
			want: " - X / / x\n 1 2 3 4 5\n a b c d e\nGame over: Black wins (White is left with too few pieces). Stones: x 2, o 0.\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Board(c.pos, false); got != c.want {
				t.Errorf("got\n%q\nwant\n%q", got, c.want)
			}
			// With colour, the text is the same once the escapes are removed.
			plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(Board(c.pos, true), "")
			if plain != c.want {
				t.Errorf("coloured board without escapes\n%q\nwant\n%q", plain, c.want)
			}
		})
	}
}

func TestResultWords(t *testing.T) {
	cases := []struct {
		name  string
		r     rules.Rules
		moves []rules.Move
		want  string
		game  string // GameResultWords
	}{
		// Seed 002: the Alak-6 game ends 3-0 with White to move and no move.
		{"alak6", sized(t, "alak", "6"), places(alak6),
			"Black wins 3-0 on the count (the player to move had no legal move, which ends the game)", "Black wins 3-0 on the count (White had no legal move, which ends the game)"},
		// Seed 002, the second Alak-3 game: 1-2.
		{"alak3", sized(t, "alak", "3"), places([]int{1, 2, 3, 1}),
			"White wins 1-2 on the count (the player to move had no legal move, which ends the game)", "White wins 1-2 on the count (Black had no legal move, which ends the game)"},
		// The player who cannot move has more stones and wins: the words
		// must not read "Black wins (Black has no legal move)" (found by
		// a search over alak's games on 5 points, the kernel's count).
		{"mover wins", sized(t, "alak", "5"), places([]int{3, 1, 2, 4, 1, 5}),
			"Black wins 3-2 on the count (the player to move had no legal move, which ends the game)", "Black wins 3-2 on the count (Black had no legal move, which ends the game)"},
		{"goes on", sized(t, "alak", "6"), places([]int{1}), "the game goes on", "the game goes on"},
		{"resigned", sized(t, "alak", "6"), []rules.Move{rules.Resign}, "White wins (Black resigned)", "White wins (Black resigned)"},
		// Tromp-Taylor area scoring: x on point 1 of 2 owns point 2 as well.
		{"passes", sized(t, "tromp-taylor", "2"), []rules.Move{rules.Place(0), rules.Pass, rules.Pass},
			"Black wins 2-0 (the game ended by passes)", "Black wins 2-0 (the game ended by passes)"},
		{"draw by passes", sized(t, "tromp-taylor", "2"), []rules.Move{rules.Pass, rules.Pass},
			"draw 0-0 (the game ended by passes)", "draw 0-0 (the game ended by passes)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := playAll(t, c.r, c.moves)
			if got := ResultWords(g.Outcome()); got != c.want {
				t.Errorf("ResultWords = %q, want %q", got, c.want)
			}
			if got := GameResultWords(g); got != c.game {
				t.Errorf("GameResultWords = %q, want %q", got, c.game)
			}
		})
	}
}

func TestBoardZeroPosition(t *testing.T) {
	if got := Board(rules.Position{}, false); got != "" {
		t.Errorf("Board of the zero Position = %q, want nothing", got)
	}
}
