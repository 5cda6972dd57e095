package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// The games of Baljeu's post (seed 002), one diagram per move: capitals for
// the stone just played, / for the points it captured.
var baljeuGames = []struct {
	name     string
	size     int
	diagrams []string
	score    string
}{
	{"alak-3 first", 3, []string{"X--", "x-O", "xX/"}, "2-0"},
	{"alak-3 second", 3, []string{"X--", "/O-", "-oX", "Oox"}, "1-2"},
	{"alak-3 third", 3, []string{"-X-", "Ox-", "oxX"}, "2-1"},
	{"alak-6", 6, []string{
		"X-----",
		"x--o--", // the seed omits the capital here: O was played on point 4
		"x--oX-", "x--o/O", "xX-o-o", "//Oo-o", "--ooX/", "O-oox-", "/X//x-",
		"-x--xO", // "(forced)"
		"-x-Xxo", "-xO//o", "Xxo--o", "xxo-Oo", "xx/X//",
	}, "3-0"},
}

// moveOf finds the move that leads from one diagram to the next: the
// capital letter, or else the one point that became occupied.
func moveOf(t *testing.T, before, after string) Move {
	t.Helper()
	for p, ch := range after {
		if ch == 'X' || ch == 'O' {
			return Place(p)
		}
	}
	before = strings.ToLower(before)
	for p := range after {
		if (after[p] == 'x' || after[p] == 'o') && before[p] != 'x' && before[p] != 'o' {
			return Place(p)
		}
	}
	t.Fatalf("no move from %q to %q", before, after)
	return NoMove
}

func TestBaljeuGames(t *testing.T) {
	for _, tc := range baljeuGames {
		t.Run(tc.name, func(t *testing.T) {
			g, err := NewGame(preset(t, "alak", tc.size, 1))
			if err != nil {
				t.Fatal(err)
			}
			before := strings.Repeat("-", tc.size)
			for i, want := range tc.diagrams {
				m := moveOf(t, before, want)
				if err := g.Play(m); err != nil {
					t.Fatalf("move %d (%v): %v", i+1, m, err)
				}
				got := g.Position().String()
				if !strings.ContainsAny(want, "XO") {
					got = strings.ToLower(got)
				}
				if got != want {
					t.Errorf("after move %d: got %q, seed shows %q", i+1, got, want)
				}
				before = want
			}
			o := g.Outcome()
			if o.Reason != NoMoves || o.Score() != tc.score {
				t.Errorf("outcome %v (%s), seed gives %s with the player to move unable to place", o, o.Reason, tc.score)
			}
		})
	}
}

// Seed 002 marks move 10 of the Alak-6 game "(forced)": White has one legal
// move. The game ends 3-0 "with White unable to move".
func TestAlak6Forced(t *testing.T) {
	g, _ := NewGame(preset(t, "alak", 6, 1))
	moves := []int{1, 4, 5, 6, 2, 3, 5, 1, 2}
	for _, m := range moves {
		if err := g.Play(Place(m - 1)); err != nil {
			t.Fatal(err)
		}
	}
	if got := g.LegalMoves(nil); !slices.Equal(got, []Move{Place(5)}) {
		t.Errorf("legal moves before move 10: %v, want only 6 (forced)", got)
	}
	for _, m := range []int{6, 4, 3, 1, 5, 4} {
		if err := g.Play(Place(m - 1)); err != nil {
			t.Fatal(err)
		}
	}
	if got := g.LegalMoves(nil); len(got) != 0 || g.Position().ToMove() != White || g.Outcome().Winner != Black {
		t.Errorf("end: legal %v, to move %v, outcome %v; want White to move with no legal move, Black winning", got, g.Position().ToMove(), g.Outcome())
	}
}

// Seed 002: "Here are all 3 possible Alak-3 games (excluding symmetry)".
// Enumerate every game on 3 points and compare with the seed's three and
// their mirror images.
func TestAlak3AllGames(t *testing.T) {
	var games []string
	var walk func(g *Game, line string)
	walk = func(g *Game, line string) {
		if g.Over() {
			games = append(games, line+" "+g.Outcome().Score())
			return
		}
		for _, m := range g.LegalMoves(nil) {
			h := g.Clone()
			if err := h.Play(m); err != nil {
				t.Fatal(err)
			}
			walk(h, line+h.Position().String()+",")
		}
	}
	g, _ := NewGame(preset(t, "alak", 3, 1))
	walk(g, "")
	var want []string
	mirror := func(s string) string { r := []byte(s); slices.Reverse(r); return string(r) }
	for _, tc := range baljeuGames[:3] {
		var a, b string
		for _, d := range tc.diagrams {
			a += d + ","
			b += mirror(d) + ","
		}
		want = append(want, a+" "+tc.score, b+" "+tc.score)
	}
	slices.Sort(games)
	slices.Sort(want)
	if !slices.Equal(games, want) {
		t.Errorf("games on 3 points:\n%s\nwant the seed's three and their mirrors:\n%s", strings.Join(games, "\n"), strings.Join(want, "\n"))
	}
}

// The encyclopedia's statement of Baljeu's rules (seed 001), sentence by
// sentence.
func TestEncyclopediaRules(t *testing.T) {
	r := preset(t, "alak", 7, 1)
	t.Run("placement is compulsory", func(t *testing.T) {
		if err := start(t, r).Legal(Pass); !errors.Is(err, ErrNoPass) {
			t.Errorf("pass: %v, want ErrNoPass", err)
		}
	})
	t.Run("no move possible ends the game", func(t *testing.T) {
		pos := setupDiagram(t, preset(t, "alak", 3, 1), "xX/", White)
		if o := pos.Outcome(); o.Reason != NoMoves || o.Winner != Black {
			t.Errorf("outcome %v, want over with Black winning 2-0", o)
		}
	})
	t.Run("no placement on a stone", func(t *testing.T) {
		pos := play(t, start(t, r), Place(3))
		if err := pos.Legal(Place(3)); !errors.Is(err, ErrOccupied) {
			t.Errorf("got %v, want ErrOccupied", err)
		}
	})
	// "one or two groups of enemy stones ... are removed", and "the
	// opponent may not play in those locations on their following turn".
	pos := setupDiagram(t, r, "xo-ox--", Black)
	pos = play(t, pos, Place(2))
	if got := pos.String(); got != "x/X/x--" {
		t.Fatalf("two groups captured: got %q, want x/X/x--", got)
	}
	t.Run("no placement where your stones were just removed", func(t *testing.T) {
		for _, p := range []int{1, 3} {
			if err := pos.Legal(Place(p)); !errors.Is(err, ErrForbidden) {
				t.Errorf("point %d: %v, want ErrForbidden", p+1, err)
			}
		}
	})
	t.Run("the ban lasts one turn", func(t *testing.T) {
		later := play(t, play(t, pos, Place(6)), Place(5))
		if err := later.Legal(Place(1)); err != nil {
			t.Errorf("point 2 two moves later: %v, want legal", err)
		}
	})
	t.Run("own groups without liberties are safe", func(t *testing.T) {
		p := play(t, setupDiagram(t, r, "xo-ox--", White), Place(2))
		if got := p.String(); got != "xoOox--" {
			t.Errorf("got %q, want xoOox-- (the white chain stays; the x on point 1 is not next to the new stone)", got)
		}
	})
	t.Run("most stones wins", func(t *testing.T) {
		p := setupDiagram(t, preset(t, "alak", 3, 1), "Oox", Black)
		if o := p.Outcome(); o.Winner != White || o.Score() != "1-2" {
			t.Errorf("got %v, want White winning 1-2 (seed 002, second game)", o)
		}
	})
}

// The code-golf examples as spaced out in SEEDS.md, under golf rules and,
// where they differ, Dewdney's rules without self-capture.
func TestCodeGolfExamples(t *testing.T) {
	cases := []struct {
		name, before string
		from, to     int // 1-based slots
		golf, dewd   string
	}{
		{"slide to the first empty slot", "xoo__o", 1, 4, "_oox_o", "_oox_o"},
		{"capture a flanked run of three", "xxooo_", 1, 6, "_x___x", "_x___x"},
		{"one slot right", "x__oox", 1, 2, "_x_oox", "_x_oox"},
		{"capture two", "x_oox", 1, 2, "_x__x", "_x__x"},
		{"captures first, then the moved piece stays", "o_oxx", 5, 2, "ox_x_", "ox_x_"},
		{"no capture, the moved piece is flanked", "o_oox", 5, 2, "o_oo_", "oxoo_"},
	}
	for _, tc := range cases {
		for _, name := range []string{"golf", "dewdney"} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				r := preset(t, name, 0, 0)
				r.MinPieces = 0 // the examples are fragments of a board
				pos := setupDiagram(t, r, tc.before, Black)
				next := play(t, pos, Slide(tc.from-1, tc.to-1))
				want := tc.golf
				if name == "dewdney" {
					want = tc.dewd
				}
				if got := layout(next); got != want {
					t.Errorf("%s %d-%d: got %s, want %s", tc.before, tc.from, tc.to, got, want)
				}
			})
		}
	}
	t.Run("a piece stops at the first empty slot", func(t *testing.T) {
		pos := setupDiagram(t, preset(t, "golf", 0, 0), "x__oox", Black)
		for _, to := range []int{3, 4} {
			if err := pos.Legal(Slide(0, to-1)); !errors.Is(err, ErrUnreachable) {
				t.Errorf("1-%d: %v, want ErrUnreachable", to, err)
			}
		}
	})
	t.Run("start and first player", func(t *testing.T) {
		pos := start(t, MustPreset("golf"))
		if layout(pos) != "xxxx___oooo" || pos.ToMove() != Black {
			t.Errorf("start %s with %v to move, want xxxx___oooo with x (player 1) to move", layout(pos), pos.ToMove())
		}
	})
	t.Run("a start with both sides short is a draw", func(t *testing.T) {
		pos := start(t, preset(t, "dewdney", 5, 1))
		if o := pos.Outcome(); o.Reason != Eliminated || o.Winner != None {
			t.Errorf("%s: %v, want over at once and drawn (each side has one piece, fewer than two)", layout(pos), o)
		}
	})
	t.Run("a player left with one piece loses", func(t *testing.T) {
		pos := setupDiagram(t, preset(t, "golf", 0, 0), "x_oox_o", Black)
		next := play(t, pos, Slide(0, 1))
		if o := next.Outcome(); o.Reason != Eliminated || o.Winner != Black {
			t.Errorf("got %s %v, want Black winning: White has one piece", layout(next), o)
		}
	})
}

// Alter Igo (seed 004): rule 4 removes every string without liberties, the
// capturing one included; rule 5 makes a placement that leaves the board
// unchanged lose, as in Pajaro's stone played into an eye.
func TestAlterIgo(t *testing.T) {
	cases := []struct {
		name, diagram string
		w, h, point   int // point is 0-based
		want          string
		reason        Reason
		winner        Color
	}{
		{"line: the capturing stone is removed too", "-xo-ox-", 7, 1, 3, "-x---x-", NotOver, None},
		{"grid: the capturing stone is removed too", "ox-|-o-|o--", 3, 3, 3, "-x-|-o-|o--", NotOver, None},
		{"line: a stone in an eye leaves the board unchanged", "-o-o-", 5, 1, 2, "-o-o-", Unchanged, White},
		{"grid: a stone in an eye leaves the board unchanged", "-o-|o--|---", 3, 3, 0, "-o-|o--|---", Unchanged, White},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := preset(t, "alterigo", tc.w, tc.h)
			pos := setupDiagram(t, r, tc.diagram, Black)
			next := play(t, pos, Place(tc.point))
			got := strings.NewReplacer("/", "-", "X", "x", "O", "o").Replace(next.String())
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if o := next.Outcome(); o.Reason != tc.reason || o.Winner != tc.winner {
				t.Errorf("outcome %v (%s), want %s with winner %v", o, o.Reason, tc.reason, tc.winner)
			}
		})
	}
	t.Run("no passing", func(t *testing.T) {
		if err := start(t, MustPreset("alterigo")).Legal(Pass); !errors.Is(err, ErrNoPass) {
			t.Errorf("pass: %v, want ErrNoPass", err)
		}
	})
	t.Run("resigning loses", func(t *testing.T) {
		next := play(t, start(t, MustPreset("alterigo")), Resign)
		if o := next.Outcome(); o.Reason != Resigned || o.Winner != White {
			t.Errorf("Black resigns: %v, want White winning", o)
		}
	})
}

// Traditional Alak (seed 000): no suicide, simple ko, snapback of two or
// more stones allowed, passing, two passes end the game, territory plus
// stones plus prisoners.
func TestTraditional(t *testing.T) {
	r := preset(t, "traditional", 10, 1)
	t.Run("ko", func(t *testing.T) {
		pos := play(t, setupDiagram(t, r, "-----o-ox-", Black), Place(6))
		if got := pos.String(); got != "-----oX/x-" {
			t.Fatalf("capture: got %s", got)
		}
		if err := pos.Legal(Place(7)); !errors.Is(err, ErrKo) {
			t.Errorf("immediate retake: %v, want ErrKo", err)
		}
		later := play(t, play(t, pos, Place(0)), Place(2))
		if err := later.Legal(Place(7)); err != nil {
			t.Errorf("retake after an exchange elsewhere: %v, want legal", err)
		}
	})
	t.Run("snapback of two stones is allowed", func(t *testing.T) {
		pos := play(t, setupDiagram(t, preset(t, "traditional", 7, 1), "-o-oox-", Black), Place(2))
		next, err := pos.Play(Place(3))
		if err != nil {
			t.Fatalf("snapback: %v, want legal", err)
		}
		if got := next.String(); got != "-o/O-x-" {
			t.Errorf("after snapback: got %s, want -o/O-x- (the black stone on 3 captured)", got)
		}
	})
	t.Run("no suicide", func(t *testing.T) {
		pos := setupDiagram(t, preset(t, "traditional", 3, 1), "-o-", Black)
		if err := pos.Legal(Place(0)); !errors.Is(err, ErrSuicide) {
			t.Errorf("x on 1 next to o: %v, want ErrSuicide", err)
		}
	})
	t.Run("two passes end the game", func(t *testing.T) {
		pos := play(t, play(t, start(t, r), Pass), Pass)
		if o := pos.Outcome(); o.Reason != Passes || o.Winner != None {
			t.Errorf("empty board, two passes: %v, want a 0-0 draw", o)
		}
	})
	t.Run("score is territory plus stones plus prisoners", func(t *testing.T) {
		pos := play(t, setupDiagram(t, preset(t, "traditional", 7, 1), "-o-ox--", Black), Place(2))
		// Black: stones on 3 and 5, territory 4, 6 and 7, one prisoner = 6;
		// White: the stone on 2 and territory 1 = 2.
		if b, w := pos.Score(); b != 6 || w != 2 {
			t.Errorf("%s: score %v-%v, want 6-2", pos, b, w)
		}
	})
}

// Tromp-Taylor on a line: positional superko is the Game's.
func TestTrompTaylorSuperko(t *testing.T) {
	r := preset(t, "tromp-taylor", 6, 1)
	pos := setupDiagram(t, r, "-o-ox-", Black)
	g := NewGameFrom(pos)
	if err := g.Play(Place(2)); err != nil {
		t.Fatal(err)
	}
	if err := g.Legal(Place(3)); !errors.Is(err, ErrSuperko) {
		t.Errorf("retake recreating the start: %v, want ErrSuperko", err)
	}
	if err := g.Position().Legal(Place(3)); err != nil {
		t.Errorf("Position alone knows no superko: %v", err)
	}
	if slices.Contains(g.LegalMoves(nil), Place(3)) {
		t.Errorf("Game.LegalMoves lists the superko move")
	}
}

// The n-th occurrence of a position is a draw (the rule for every
// preset): two pieces a side shuttle back and forth under Dewdney's rules.
func TestRepetitionDraw(t *testing.T) {
	r := preset(t, "dewdney", 0, 0)
	if err := r.Set("start", "xx___oo"); err != nil {
		t.Fatal(err)
	}
	g, err := NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	cycle := []Move{Slide(1, 2), Slide(5, 4), Slide(2, 1), Slide(4, 5)}
	for round := 1; round <= 2; round++ {
		for i, m := range cycle {
			if err := g.Play(m); err != nil {
				t.Fatalf("round %d move %d: %v", round, i+1, err)
			}
			over := round == 2 && i == len(cycle)-1
			if g.Over() != over {
				t.Fatalf("round %d move %d: over=%v, want %v (start seen %d times)", round, i+1, g.Over(), over, g.Occurrences())
			}
		}
	}
	if o := g.Outcome(); o.Reason != Repetition || o.Winner != None {
		t.Errorf("outcome %v, want a draw by repetition", o)
	}
	if err := g.Play(Slide(0, 2)); !errors.Is(err, ErrGameOver) {
		t.Errorf("play after the draw: %v, want ErrGameOver", err)
	}
	if err := g.Undo(); err != nil || g.Over() {
		t.Errorf("undo: %v, over=%v; want the game open again", err, g.Over())
	}
}

// The zero Position is safe to ask anything: it has no board and no moves.
func TestZeroPosition(t *testing.T) {
	var pos Position
	w, h := pos.Size()
	pts, ok := pos.LegalPoints()
	b, wh := pos.Score()
	if pos.Points() != 0 || w != 0 || h != 0 || pos.At(0) != None || pos.Count(Black) != 0 ||
		pos.Forbidden(0) || pos.Removed(0) || pts != 0 || ok || b != 0 || wh != 0 ||
		len(pos.LegalMoves(nil)) != 0 || pos.Over() || pos.Outcome().Over() || pos.String() != "" ||
		pos.Territory() != [2]int{} || pos.Rules() != (Rules{}) {
		t.Errorf("the zero Position reports a board")
	}
	if _, err := pos.Play(Place(0)); !errors.Is(err, ErrSetup) {
		t.Errorf("Play on the zero Position: %v, want ErrSetup", err)
	}
	if m := pos.Mirror(); m != pos {
		t.Errorf("Mirror of the zero Position changed it")
	}
}

// Undo forgets what it takes back: a game used as a search stack does not
// grow.
func TestUndoForgets(t *testing.T) {
	g, _ := NewGame(preset(t, "alak", 11, 1))
	base := len(g.seen) + len(g.boards)
	for _, m := range g.LegalMoves(nil) {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(g.seen) + len(g.boards); n != base {
		t.Errorf("after playing and undoing every move the game holds %d keys, want %d", n, base)
	}
}
