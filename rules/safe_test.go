package rules

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// playText plays moves written as MoveText writes them.
func playText(t *testing.T, r Rules, moves ...string) Position {
	t.Helper()
	pos := start(t, r)
	for _, s := range moves {
		m, err := r.ParseMoveText(s)
		if err != nil {
			t.Fatal(err)
		}
		pos = play(t, pos, m)
	}
	return pos
}

func mustParse(t *testing.T, s string) Rules {
	t.Helper()
	r, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return r
}

func TestSafeEyeOption(t *testing.T) {
	r := mustParse(t, "alak size=5 safe=eye")
	if r.Safe != SafeEyeOnly || r.String() != "alak size=5 safe=eye" {
		t.Fatalf("got %v, %q", r.Safe, r.String())
	}
	if r := MustPreset("alak"); r.Safe != SafeOff || r.String() != "alak" {
		t.Fatalf("the preset has safe=%v, written %q: the option must be off by default", r.Safe, r.String())
	}
	for _, bad := range []string{"dewdney safe=eye", "alterigo safe=field", "alak safe=maybe"} {
		if _, err := Parse(bad); !errors.Is(err, ErrRules) {
			t.Errorf("Parse(%q) = %v, want an ErrRules error", bad, err)
		}
	}
}

// The passage's own case: Black's two stones with the point between them,
// the second eye of 2-D Go. Size 5, Black 1 and 3, White 5 and 4: point 2
// is Black's eye; White may not declare it, Black may.
func TestSafeEyeDeclare(t *testing.T) {
	r := mustParse(t, "alak size=5 safe=eye")
	pos := playText(t, r, "1", "5", "3")
	if err := pos.Legal(Declare(1)); !errors.Is(err, ErrNotEye) {
		t.Fatalf("White declares Black's eye: %v, want ErrNotEye", err)
	}
	if err := pos.Legal(Declare(3)); !errors.Is(err, ErrNotEye) {
		t.Fatalf("White declares point 4, between Black 3 and White 5: %v, want ErrNotEye", err)
	}
	if got := pos.LegalMoves(nil); slices.ContainsFunc(got, Move.IsDeclare) {
		t.Fatalf("White has no eye but LegalMoves lists %v", got)
	}
	pos = play(t, pos, Place(3)) // White 4
	if got := pos.LegalMoves(nil); !slices.Equal(got, []Move{Place(1), Declare(1)}) {
		t.Fatalf("Black's moves %v, want [2 *2]", got)
	}
	// Without the declaration Black must fill its own eye and White then
	// captures nothing (own stones stay): the line is full.
	next := play(t, pos, Declare(1))
	if !next.Safe(1) || next.At(1) != None || next.LastMove().String() != "*2" {
		t.Fatalf("after *2: safe=%v at=%v last=%v", next.Safe(1), next.At(1), next.LastMove())
	}
	// White has no empty point but the safe one, and no eye: the game is
	// over, and the count is the stones: 2 to 2.
	if !next.Over() {
		t.Fatalf("White has no legal move after *2 but the game goes on: %v", next.LegalMoves(nil))
	}
	if o := NewGameFrom(pos); o.Play(Declare(1)) != nil || o.Outcome().Margin != 0 {
		t.Fatalf("outcome %+v, want a draw 2 to 2", o.Outcome())
	}
}

// A safe point is a liberty for good: the chain beside it cannot be
// captured. Size 5 safe=field: Black 2, White 1, Black *3, White 5; White
// can never place on 3, which alone would capture Black's 2 (edge capture).
func TestSafePointIsLiberty(t *testing.T) {
	r := mustParse(t, "alak size=5 safe=field")
	pos := playText(t, r, "2", "1", "*3", "5")
	if pos.At(1) != Black || !pos.Safe(2) {
		t.Fatalf("board %s safe=%v", layout(pos), pos.Safe(2))
	}
	for _, m := range []Move{Place(2), Declare(2)} {
		if err := pos.Legal(m); !errors.Is(err, ErrSafe) {
			t.Fatalf("%v on a safe point: %v, want ErrSafe", m, err)
		}
	}
	// The same moves without the rule, White 3 in place of Black's
	// declaration: it captures Black 2, which is what the safe point stops.
	plain := playText(t, mustParse(t, "alak size=5"), "2", "1", "5", "3")
	if got := layout(plain); got != "o_o_x" {
		t.Fatalf("without the rule White 3 should capture Black 2: %s", got)
	}
}

func TestSafeMoveText(t *testing.T) {
	r := mustParse(t, "alak size=5 safe=field")
	m, err := r.ParseMoveText("*3")
	if err != nil || m != Declare(2) || r.MoveText(m) != "*3" || m.Point() != 2 || m.IsPlace() || m.IsSlide() {
		t.Fatalf("ParseMoveText(*3) = %v, %v", m, err)
	}
	for _, bad := range []string{"*0", "*6", "*x", "*"} {
		if _, err := r.ParseMoveText(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseMoveText(%q) = %v, want ErrSyntax", bad, err)
		}
	}
	if _, err := MustPreset("alak").ParseMoveText("*3"); !errors.Is(err, ErrSyntax) {
		t.Errorf("a declaration without the rule: %v, want ErrSyntax", err)
	}
	var e *MoveError
	if err := start(t, r).Legal(Declare(20)); !errors.As(err, &e) || e.Error() != "declaration *21: the point is off the board (the board has 5 points)" {
		t.Errorf("off-board declaration: %v", err)
	}
}

// The hash tells the safe points apart, and Mirror moves them.
func TestSafeHashMirror(t *testing.T) {
	r := mustParse(t, "alak size=5 safe=field")
	a := playText(t, r, "*2", "5", "*4")
	b := playText(t, r, "*4", "5", "*2")
	if a.Hash() != b.Hash() || layout(a) != layout(b) {
		t.Fatalf("the same position by two orders hashes apart")
	}
	c := playText(t, r, "*2", "5", "4")
	if c.Hash() == a.Hash() {
		t.Fatal("a safe point and a stone hash alike")
	}
	m := a.Mirror()
	if !m.Safe(1) || !m.Safe(3) || m.At(0) != White || m.Hash() == a.Hash() {
		t.Fatalf("mirror: safe %v %v at %v", m.Safe(1), m.Safe(3), m.At(0))
	}
}

// Every random game under either choice ends, and every move LegalMoves
// lists is accepted while every other move is refused.
func TestSafeRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 2003))
	for _, s := range []string{"alak size=6 safe=eye", "alak size=7 safe=field", "traditional size=6 safe=eye", "tromp-taylor size=5 safe=field"} {
		r := mustParse(t, s)
		for range 50 {
			g, err := NewGame(r)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; !g.Over(); ply++ {
				if ply > 500 {
					t.Fatalf("%s: no end after 500 plies: %v", s, g.Moves())
				}
				legal := g.LegalMoves(nil)
				for p := range r.Points() {
					for _, m := range []Move{Place(p), Declare(p)} {
						if g.Legal(m) == nil != slices.Contains(legal, m) {
							t.Fatalf("%s after %v: %v legal=%v, listed %v", s, g.Moves(), m, g.Legal(m), legal)
						}
					}
				}
				if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// Diagrams show a safe point as *, and a declaration as the last move
// with last=*N; both read back.
func TestSafeDiagram(t *testing.T) {
	r := mustParse(t, "alak size=5 safe=eye")
	pos := playText(t, r, "1", "5", "3", "4", "*2")
	text, err := pos.MarshalText()
	if err != nil || string(text) != "x*xoo o last=*2" {
		t.Fatalf("MarshalText = %q, %v", text, err)
	}
	back, err := ParsePosition(r, string(text))
	if err != nil || back.Hash() != pos.Hash() || back.LastMove() != Declare(1) || !back.Over() {
		t.Fatalf("read back %v (%v): hash equal %v, over %v", back, err, back.Hash() == pos.Hash(), back.Over())
	}
	if _, err := ParsePosition(MustPreset("alak"), "x*x-- o"); !errors.Is(err, ErrSetup) {
		t.Fatalf("a safe point without the rule: %v, want ErrSetup", err)
	}
}
