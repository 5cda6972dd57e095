package bitline

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// The expected values of these tests come from two places: the seeds'
// examples (Baljeu's games of seed S2, the sentences of S0, S1 and S4, the
// code-golf examples of S3 as docs/rules.md quotes them), written out case
// by case; and a slow reference implementation below that plays the rules
// point by point on an array of cells, as docs/rules.md words them, against
// which every board of up to 8 points is checked.

// board reads a diagram: x and X are Black, o and O White, anything else
// (-, _, /) an empty point; point i of the diagram is bit i.
func board(s string) (x, o uint64) {
	for i, ch := range s {
		switch ch {
		case 'x', 'X':
			x |= 1 << i
		case 'o', 'O':
			o |= 1 << i
		}
	}
	return x, o
}

// diagram writes the stones x and o of a line of n points.
func diagram(n int, x, o uint64) string {
	b := []byte(strings.Repeat("-", n))
	for i := range n {
		switch {
		case x>>i&1 != 0:
			b[i] = 'x'
		case o>>i&1 != 0:
			b[i] = 'o'
		}
	}
	return string(b)
}

// points reads the points marked ch in a diagram.
func points(s string, ch byte) uint64 {
	var set uint64
	for i := range len(s) {
		if s[i] == ch {
			set |= 1 << i
		}
	}
	return set
}

// play applies Place for the mover ('x' or 'o') to a diagram, and returns
// the diagram after it and the points captured and lost.
func play(l *Line, before string, mover byte, p int) (after string, capt, lost uint64, ok bool) {
	x, o := board(before)
	me, op := x, o
	if mover == 'o' {
		me, op = o, x
	}
	nme, nop, capt, lost, ok := l.Place(me, op, p)
	if mover == 'o' {
		nme, nop = nop, nme
	}
	return diagram(l.N(), nme, nop), capt, lost, ok
}

// baljeu is Baljeu's Alak-6 game and his three Alak-3 games (seed S2), one
// diagram per move, as rules/seeds_test.go has them: a capital for the
// stone just played, / for the points it captured.
var baljeu = [][]string{
	{"X-----", "x--O--", "x--oX-", "x--o/O", "xX-o-o", "//Oo-o", "--ooX/", "O-oox-", "/X//x-",
		"-x--xO", "-x-Xxo", "-xO//o", "Xxo--o", "xxo-Oo", "xx/X//"},
	{"X--", "x-O", "xX/"},
	{"X--", "/O-", "-oX", "Oox"},
	{"-X-", "Ox-", "oxX"},
}

// TestPlaceBaljeu replays Baljeu's games under alak's rules (captures
// against the ends, the mover's runs stay): every placement must capture
// exactly the points marked / and leave the next diagram. (His Alak-6
// diagram omits the capital of move 2, White's 4; it is written here.)
func TestPlaceBaljeu(t *testing.T) {
	for _, game := range baljeu {
		n := len(game[0])
		l := New(n, true, OwnStays, SelfOff)
		before := strings.Repeat("-", n)
		for i, want := range game {
			p := strings.IndexAny(want, "XO")
			mover := strings.ToLower(want[p : p+1])[0]
			after, capt, lost, ok := play(&l, before, mover, p)
			wantAfter := strings.NewReplacer("X", "x", "O", "o", "/", "-").Replace(want)
			if !ok || after != wantAfter || capt != points(want, '/') || lost != 0 {
				t.Errorf("%s, move %d (%c on %d): %s, captured %b, lost %b, ok %v; want %s, captured %b",
					game[len(game)-1], i+1, mover, p+1, after, capt, lost, ok, wantAfter, points(want, '/'))
			}
			before = wantAfter
		}
	}
}

// TestPlaceRules checks one placement per rule the seeds state, under
// every own-liberty rule and edge setting it concerns.
func TestPlaceRules(t *testing.T) {
	cases := []struct {
		name, source string
		edge         bool
		own          Own
		before       string
		mover        byte
		point        int // 1-based
		after        string
		capt, lost   string // the points captured and lost, marked *
		illegal      bool
	}{
		{"a flanked run of three", "S2 rule 2: xxooo- and x on 6 flanks the three o", true, OwnStays,
			"xxooo-", 'x', 6, "xx---x", "--***-", "", false},
		{"against the end", "F: captures against the board's edge", true, OwnStays,
			"oo-", 'x', 3, "--x", "**-", "", false},
		{"the end is a liberty", "A1, edge=off: a chain touching an end is never captured", false, OwnStays,
			"oo-", 'x', 3, "oox", "", "", false},
		{"flanked with edge=off", "A1: edge=off leaves flanking captures", false, OwnStays,
			"-oox", 'x', 1, "x--x", "-**-", "", false},
		{"two runs at once", "S2 Alak-6 move 8: O-oox- and X on 2", true, OwnStays,
			"o-oox-", 'x', 2, "-x--x-", "*-**--", "", false},
		{"only chains next to the stone", "A3, S2's second Alak-3 game: Oox keeps the x on 3", true, OwnStays,
			"-ox", 'o', 1, "oox", "", "", false},
		{"own run without a liberty stays", "S1: the stones are not suicided, but instead are safe", true, OwnStays,
			"-o-o-", 'x', 3, "-oxo-", "", "", false},
		{"no suicide", "S0 traditional rule 1: a player cannot fill the last liberty of their own group", true, OwnIllegal,
			"-o-", 'x', 1, "-o-", "", "", true},
		{"no suicide, run of two", "S0 traditional rule 1", true, OwnIllegal,
			"-ox-o-", 'x', 4, "-ox-o-", "", "", true},
		{"a capture first gains liberties", "docs/rules.md traditional 1: a placement that captures first gains the liberties it frees", true, OwnIllegal,
			"oxx-o", 'x', 4, "oxxx-", "----*", "", false},
		{"snapback", "S0: if a group of more than 1 stones was just captured, you can snapback", true, OwnIllegal,
			"-o-oox-", 'x', 3, "-ox--x-", "---**--", "", false},
		{"suicide removed", "A2, own=removed: the chain is removed after the captures", true, OwnRemoved,
			"-ox-o-", 'x', 4, "-o--o-", "", "--**--", false},
		{"removed after the captures: the capture saves it", "A2, own=removed", true, OwnRemoved,
			"oxx-o", 'x', 4, "oxxx-", "----*", "", false},
		{"removed together with the captured", "S4 rule 4: every string without an empty neighbour is removed at once, the mover's included", true, OwnRemovedTogether,
			"oxx-o", 'x', 4, "o----", "----*", "-***-", false},
		{"an eye: the stone alone is removed", "S4, Pajaro: a stone played into an eye is removed and leaves the board as it was", true, OwnRemovedTogether,
			"-o-o-", 'x', 3, "-o-o-", "", "--*--", false},
		{"edge off: the end is a liberty of the mover too", "A1", false, OwnIllegal,
			"-o", 'x', 1, "xo", "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := New(len(tc.before), tc.edge, tc.own, SelfOff)
			after, capt, lost, ok := play(&l, tc.before, tc.mover, tc.point-1)
			if ok != !tc.illegal || after != tc.after || capt != points(tc.capt, '*') || lost != points(tc.lost, '*') {
				t.Errorf("%s (%s): %c on %d: %s, captured %b, lost %b, legal %v; want %s, %b, %b, %v",
					tc.before, tc.source, tc.mover, tc.point, after, capt, lost, ok,
					tc.after, points(tc.capt, '*'), points(tc.lost, '*'), !tc.illegal)
			}
		})
	}
}

// TestSlideGolf checks the code-golf examples (seed S3, as SEEDS.md spaces
// them out) under golf's rules (the moved piece is removed when flanked)
// and Dewdney's (never removed), the ends being no flank.
func TestSlideGolf(t *testing.T) {
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
		for _, v := range []struct {
			name string
			self Self
			want string
		}{{"golf", SelfPiece, tc.golf}, {"dewdney", SelfOff, tc.dewd}} {
			t.Run(v.name+"/"+tc.name, func(t *testing.T) {
				n := len(tc.before)
				l := New(n, false, OwnStays, v.self)
				x, o := board(tc.before)
				empty := l.Mask() &^ (x | o)
				if left, right := l.SlideTargets(empty, tc.from-1); left != tc.to-1 && right != tc.to-1 {
					t.Fatalf("%s: targets of %d are %d and %d, not %d", tc.before, tc.from, left+1, right+1, tc.to)
				}
				me, op := x, o
				if tc.before[tc.from-1] == 'o' {
					me, op = o, x
				}
				nme, nop, _, _ := l.Slide(me, op, tc.from-1, tc.to-1)
				if tc.before[tc.from-1] == 'o' {
					nme, nop = nop, nme
				}
				if got := strings.ReplaceAll(diagram(n, nme, nop), "-", "_"); got != v.want {
					t.Errorf("%s %d-%d: %s, want %s", tc.before, tc.from, tc.to, got, v.want)
				}
			})
		}
	}
}

// reference plays a placement of the mover m on point p of the cells (0
// empty, 1 the mover, 2 the opponent) point by point, as docs/rules.md
// words the rules: enemy chains next to the new stone without a liberty
// are removed; then the own-liberty rule. It returns the cells after it
// and whether the placement is legal.
func reference(cells []byte, p int, edge bool, own Own) ([]byte, bool) {
	c := append([]byte(nil), cells...)
	c[p] = 1
	// chain returns the ends of the chain through q, and whether it has a
	// liberty: an empty point next to it, or an end when the ends are
	// liberties.
	chain := func(q int) (lo, hi int, free bool) {
		lo, hi = q, q
		for lo > 0 && c[lo-1] == c[q] {
			lo--
		}
		for hi < len(c)-1 && c[hi+1] == c[q] {
			hi++
		}
		free = (lo == 0 && !edge) || (hi == len(c)-1 && !edge) ||
			(lo > 0 && c[lo-1] == 0) || (hi < len(c)-1 && c[hi+1] == 0)
		return lo, hi, free
	}
	var dead [][2]int
	for _, q := range []int{p - 1, p + 1} {
		if q >= 0 && q < len(c) && c[q] == 2 {
			if lo, hi, free := chain(q); !free {
				dead = append(dead, [2]int{lo, hi})
			}
		}
	}
	if own == OwnRemovedTogether {
		if lo, hi, free := chain(p); !free {
			dead = append(dead, [2]int{lo, hi})
		}
	}
	for _, d := range dead {
		for i := d[0]; i <= d[1]; i++ {
			c[i] = 0
		}
	}
	if own == OwnIllegal || own == OwnRemoved {
		if lo, hi, free := chain(p); !free {
			if own == OwnIllegal {
				return cells, false
			}
			for i := lo; i <= hi; i++ {
				c[i] = 0
			}
		}
	}
	return c, true
}

// slideReference is reference for a slide of the mover's piece from one
// slot to another under the self-capture rule self (the ends never flank
// in the presets; here they do when edge is set, as in Line.Slide).
func slideReference(cells []byte, from, to int, edge bool, self Self) []byte {
	c := append([]byte(nil), cells...)
	c[from], c[to] = 0, 1
	flanked := func(q, colour int) bool { // q off the line, or a piece of colour
		if q < 0 || q >= len(c) {
			return edge
		}
		return int(c[q]) == colour
	}
	for _, step := range []int{-1, 1} {
		q := to + step
		for q >= 0 && q < len(c) && c[q] == 2 {
			q += step
		}
		if q != to+step && flanked(q, 1) {
			for i := to + step; i != q; i += step {
				c[i] = 0
			}
		}
	}
	switch self {
	case SelfPiece:
		if flanked(to-1, 2) && flanked(to+1, 2) {
			c[to] = 0
		}
	case SelfRun:
		lo, hi := to, to
		for lo > 0 && c[lo-1] == 1 {
			lo--
		}
		for hi < len(c)-1 && c[hi+1] == 1 {
			hi++
		}
		if flanked(lo-1, 2) && flanked(hi+1, 2) {
			for i := lo; i <= hi; i++ {
				c[i] = 0
			}
		}
	}
	return c
}

// words returns the mover's and the opponent's words of cells.
func words(c []byte) (me, op uint64) {
	for i, v := range c {
		switch v {
		case 1:
			me |= 1 << i
		case 2:
			op |= 1 << i
		}
	}
	return me, op
}

// eachBoard calls f with the cells of every board of n points.
func eachBoard(n int, f func(cells []byte)) {
	total := 1
	for range n {
		total *= 3
	}
	cells := make([]byte, n)
	for code := range total {
		x := code
		for i := range cells {
			cells[i] = byte(x % 3)
			x /= 3
		}
		f(cells)
	}
}

// TestPlaceReference checks Place, Captures, CapturesFlat and Legal against
// the reference on every board of 1 to 8 points, every empty point, every
// own-liberty rule and both edge settings.
func TestPlaceReference(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for _, edge := range []bool{true, false} {
			for own := OwnStays; own <= OwnRemovedTogether; own++ {
				l := New(n, edge, own, SelfOff)
				eachBoard(n, func(cells []byte) {
					me, op := words(cells)
					var legal uint64
					for p := range n {
						if cells[p] != 0 {
							continue
						}
						want, wantOK := reference(cells, p, edge, own)
						wme, wop := words(want)
						nme, nop, capt, lost, ok := l.Place(me, op, p)
						if wantOK {
							legal |= 1 << p
						}
						name := fmt.Sprintf("n=%d edge=%v own=%d %s, mover x on %d", n, edge, own, diagram(n, me, op), p+1)
						if ok != wantOK || nme != wme || nop != wop {
							t.Fatalf("%s: %s (legal %v), want %s (legal %v)", name, diagram(n, nme, nop), ok, diagram(n, wme, wop), wantOK)
						}
						if ok && (capt != op&^nop || lost != (me|1<<p)&^nme) {
							t.Fatalf("%s: captured %b, lost %b", name, capt, lost)
						}
						bit := uint64(1) << p
						if c, f := l.Captures(op, me|bit, bit), l.CapturesFlat(op, me|bit, bit); (own != OwnRemovedTogether && ok && c != capt) || f != c {
							t.Fatalf("%s: Captures %b, CapturesFlat %b, Place %b", name, c, f, capt)
						}
					}
					if got := l.Legal(me, op, 0); got != legal {
						t.Fatalf("n=%d edge=%v own=%d %s: Legal %b, want %b", n, edge, own, diagram(n, me, op), got, legal)
					}
				})
			}
		}
	}
}

// TestSlideReference checks SlideTargets and Slide against the reference
// on every board of 2 to 8 slots, every piece of the mover and both
// directions, under every self-capture rule and both edge settings.
func TestSlideReference(t *testing.T) {
	for n := 2; n <= 8; n++ {
		for _, edge := range []bool{true, false} {
			for self := SelfOff; self <= SelfRun; self++ {
				l := New(n, edge, OwnStays, self)
				eachBoard(n, func(cells []byte) {
					me, op := words(cells)
					empty := l.Mask() &^ (me | op)
					for from := range n {
						if cells[from] != 1 {
							continue
						}
						left, right := l.SlideTargets(empty, from)
						wl, wr := -1, -1
						for q := from - 1; q >= 0 && wl < 0; q-- {
							if cells[q] == 0 {
								wl = q
							}
						}
						for q := from + 1; q < n && wr < 0; q++ {
							if cells[q] == 0 {
								wr = q
							}
						}
						if left != wl || right != wr {
							t.Fatalf("%s from %d: targets %d %d, want %d %d", diagram(n, me, op), from+1, left+1, right+1, wl+1, wr+1)
						}
						for _, to := range []int{left, right} {
							if to < 0 {
								continue
							}
							wme, wop := words(slideReference(cells, from, to, edge, self))
							nme, nop, capt, lost := l.Slide(me, op, from, to)
							if nme != wme || nop != wop || capt != op&^nop || lost != (me&^(1<<from)|1<<to)&^nme {
								t.Fatalf("n=%d edge=%v self=%d %s %d-%d: %s (captured %b, lost %b), want %s",
									n, edge, self, diagram(n, me, op), from+1, to+1, diagram(n, nme, nop), capt, lost, diagram(n, wme, wop))
							}
						}
					}
				})
			}
		}
	}
}

// xorshift is a tiny seeded generator for the random boards.
type xorshift uint64

func (x *xorshift) next() uint64 {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return uint64(*x)
}

// TestCapturesFlat checks the branch-free captures against Captures on
// random boards of every length from 1 to 64 points (64 exercises the
// carry leaving the word), with captures against the ends on and off.
func TestCapturesFlat(t *testing.T) {
	rng := xorshift(99)
	for n := 1; n <= 64; n++ {
		for _, edge := range []bool{true, false} {
			l := New(n, edge, OwnStays, SelfOff)
			for range 3000 {
				a, b := rng.next()&l.Mask(), rng.next()&l.Mask()
				if rng.next()&1 == 0 { // sparser boards: longer empty runs
					a &= rng.next()
					b &= rng.next()
				}
				me, op := a&^b, b&^a
				p := int(rng.next() % uint64(n))
				bit := uint64(1) << p
				me, op = me|bit, op&^bit
				want := l.Captures(op, me, bit)
				if got := l.CapturesFlat(op, me, bit); got != want {
					t.Fatalf("n=%d edge=%v me=%#x op=%#x p=%d: CapturesFlat %#x, Captures %#x", n, edge, me, op, p, got, want)
				}
			}
		}
	}
}

// TestCapturesShort checks CapturesShort against Captures on every board
// of every line of up to ShortPoints points (each point empty, the mover's
// or the opponent's), edges on and off, for every empty point, with the
// new stone in me and not yet in it.
func TestCapturesShort(t *testing.T) {
	for n := 1; n <= ShortPoints; n++ {
		for _, edge := range []bool{true, false} {
			l := New(n, edge, OwnStays, SelfOff)
			boards := 1
			for range n {
				boards *= 3
			}
			for code := range boards {
				var me, op uint64
				for i, c := 0, code; i < n; i, c = i+1, c/3 {
					switch c % 3 {
					case 1:
						me |= 1 << i
					case 2:
						op |= 1 << i
					}
				}
				for empty := l.Mask() &^ (me | op); empty != 0; empty &= empty - 1 {
					bit := empty & -empty
					want := l.Captures(op, me|bit, bit)
					if got := l.CapturesShort(op, me, bit); got != want {
						t.Fatalf("n=%d edge=%v me=%#x op=%#x bit=%#x: CapturesShort %#x, Captures %#x", n, edge, me, op, bit, got, want)
					}
					if got := l.CapturesShort(op, me|bit, bit); got != want {
						t.Fatalf("n=%d edge=%v me=%#x op=%#x bit=%#x (in me): CapturesShort %#x, Captures %#x", n, edge, me|bit, op, bit, got, want)
					}
				}
			}
		}
	}
}

// TestRuns checks LeftRun, RightRun and RunAt on hand-worked diagrams: the
// run of x next to the point marked ^, and the run through it.
func TestRuns(t *testing.T) {
	cases := []struct {
		line, at    string // the stones, and ^ under the point
		edge        bool
		left, right string // the runs found, marked *
		lc, rc      bool   // closed by o (or the end)
		runAt       string // the run of x holding the point, marked * (when x holds it)
	}{
		{"oxx-xxxo", "---^----", true, "-**-----", "----***-", true, true, ""},
		{"-xx-xxx-", "---^----", true, "-**-----", "----***-", false, false, ""},
		{"xx-xx", "--^--", true, "**---", "---**", true, true, ""},
		{"xx-xx", "--^--", false, "**---", "---**", false, false, ""},
		{"oxxxo", "--^--", true, "-*---", "---*-", true, true, "-***-"},
		{"o-x", "-^-", true, "", "--*", true, true, ""},
		{"xxx-x", "-^---", true, "*----", "--*--", true, false, "***--"},
	}
	for _, tc := range cases {
		l := New(len(tc.line), tc.edge, OwnStays, SelfOff)
		x, o := board(tc.line)
		bit := points(tc.at, '^')
		left, lc := l.LeftRun(x, o, bit)
		right, rc := l.RightRun(x, o, bit)
		if left != points(tc.left, '*') || right != points(tc.right, '*') || lc != tc.lc || rc != tc.rc {
			t.Errorf("%s at %s edge=%v: left %b (closed %v), right %b (closed %v)", tc.line, tc.at, tc.edge, left, lc, right, rc)
		}
		if got := RunAt(x, bit); bit&x != 0 && got != points(tc.runAt, '*') {
			t.Errorf("%s: RunAt %b, want %b", tc.line, got, points(tc.runAt, '*'))
		}
	}
}

// TestRunIterator checks Runs and Closed against a point-by-point walk of
// every board of 1 to 8 points (the empty runs, each with the colour of
// the point on either side, an end counting as closed only with edge
// capture), and Runs on the top point of a 64-point line, where the carry
// leaves the word.
func TestRunIterator(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for _, edge := range []bool{false, true} {
			l := New(n, edge, OwnStays, SelfOff)
			eachBoard(n, func(cells []byte) {
				x, o := words(cells)
				var got []Run
				for r := range Runs(l.Mask() &^ (x | o)) {
					got = append(got, r)
				}
				k := 0
				for lo := 0; lo < n; {
					if cells[lo] != 0 {
						lo++
						continue
					}
					hi := lo
					for hi+1 < n && cells[hi+1] == 0 {
						hi++
					}
					want := Run{(1<<(hi+1) - 1) &^ (1<<lo - 1), lo, hi}
					if k >= len(got) || got[k] != want {
						t.Fatalf("%s: runs %v, want %v as run %d", diagram(n, x, o), got, want, k)
					}
					for _, side := range []struct {
						wall uint64
						c    byte
					}{{x, 1}, {o, 2}} {
						below, above := l.Closed(got[k], side.wall)
						wb := lo == 0 && edge || lo > 0 && cells[lo-1] == side.c
						wa := hi == n-1 && edge || hi < n-1 && cells[hi+1] == side.c
						if below != wb || above != wa {
							t.Fatalf("%s edge=%v: run %v closed by %d: %v %v, want %v %v", diagram(n, x, o), edge, want, side.c, below, above, wb, wa)
						}
					}
					k++
					lo = hi + 1
				}
				if k != len(got) {
					t.Fatalf("%s: runs %v, want %d", diagram(n, x, o), got, k)
				}
			})
		}
	}
	l := New(64, true, OwnStays, SelfOff)
	var got []Run
	for r := range Runs(1<<63 | 1<<62 | 1) {
		got = append(got, r)
	}
	want := []Run{{1, 0, 0}, {1<<63 | 1<<62, 62, 63}}
	if !slices.Equal(got, want) {
		t.Errorf("64 points: runs %v, want %v", got, want)
	}
	if below, above := l.Closed(got[1], 1<<61); !below || !above {
		t.Errorf("64 points: the top run closed %v %v, want both (a stone below, the end above)", below, above)
	}
	for r := range Runs(^uint64(0)) {
		if r != (Run{^uint64(0), 0, 63}) {
			t.Errorf("the full word: run %v", r)
		}
	}
}

// TestClosedRuns checks ClosedRuns against Captures, checked itself
// against the seeds and the reference (TestPlaceReference): on every board
// of 1 to 8 points and every point, the two runs are the captures of a
// stone of me there, the left one below the point, the right one above.
func TestClosedRuns(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for _, edge := range []bool{false, true} {
			l := New(n, edge, OwnStays, SelfOff)
			eachBoard(n, func(cells []byte) {
				me, op := words(cells)
				for p := range n {
					bit := uint64(1) << p
					left, right := l.ClosedRuns(op, me, bit)
					if left|right != l.Captures(op, me, bit) || left >= bit || right != 0 && right <= bit {
						t.Fatalf("%s edge=%v point %d: ClosedRuns %b %b, Captures %b", diagram(n, me, op), edge, p+1, left, right, l.Captures(op, me, bit))
					}
				}
			})
		}
	}
}

// TestTerritory checks Territory on the seed's words and against a
// reference that walks every board of up to 8 points.
func TestTerritory(t *testing.T) {
	cases := []struct {
		line, source string
		x, o         string // the territory of each, marked *
	}{
		{"-x-x-", "S0 traditional rule 6: empty spaces between your own pieces (& the two edges)", "*-*-*", ""},
		{"-----", "docs/rules.md: an empty run between two ends belongs to no one", "", ""},
		{"x--o-", "S0: a run bordered by both colours is no one's", "", "----*"},
		{"-o-ox--", "S0 rule 6: runs between one colour's stones, or its stone and an end", "-----**", "*-*----"},
	}
	for _, tc := range cases {
		l := New(len(tc.line), true, OwnIllegal, SelfOff)
		x, o := board(tc.line)
		tx, to := l.Territory(x, o)
		if tx != points(tc.x, '*') || to != points(tc.o, '*') {
			t.Errorf("%s (%s): territory %b and %b, want %b and %b", tc.line, tc.source, tx, to, points(tc.x, '*'), points(tc.o, '*'))
		}
	}
	for n := 1; n <= 8; n++ {
		l := New(n, true, OwnStays, SelfOff)
		eachBoard(n, func(cells []byte) {
			var want [3]uint64
			for lo := 0; lo < n; {
				if cells[lo] != 0 {
					lo++
					continue
				}
				hi := lo
				for hi < n && cells[hi] == 0 {
					hi++
				}
				var by [3]bool
				if lo > 0 {
					by[cells[lo-1]] = true
				}
				if hi < n {
					by[cells[hi]] = true
				}
				for c := 1; c <= 2; c++ {
					if by[c] && !by[3-c] {
						want[c] |= (1<<hi - 1) &^ (1<<lo - 1)
					}
				}
				lo = hi
			}
			x, o := words(cells)
			if tx, to := l.Territory(x, o); tx != want[1] || to != want[2] {
				t.Fatalf("%s: territory %b and %b, want %b and %b", diagram(n, x, o), tx, to, want[1], want[2])
			}
		})
	}
	// The last point of a 64-point line: the carry leaves the word.
	l := New(64, true, OwnStays, SelfOff)
	if tx, to := l.Territory(1<<62, 0); tx != 1<<63|1<<62-1 || to != 0 {
		t.Errorf("64 points, x on 63: territory %x and %x", tx, to)
	}
}

// TestRev checks the mirror images against a point-by-point reversal of
// the low bits of random words (the bits above them must be dropped).
func TestRev(t *testing.T) {
	rng := xorshift(7)
	for n := 1; n <= 64; n++ {
		for range 100 {
			x := rng.next()
			var want uint64
			for i := range n {
				want |= x >> i & 1 << (n - 1 - i)
			}
			if got := Rev(x, n); got != want {
				t.Fatalf("n=%d: Rev(%b) = %b, want %b", n, x, got, want)
			}
			if n > 32 {
				continue
			}
			want = 0
			for i := range n {
				want |= x >> (2 * i) & 3 << (2 * (n - 1 - i))
			}
			if got := Rev2(x, n); got != want {
				t.Fatalf("n=%d: Rev2(%b) = %b, want %b", n, x, got, want)
			}
		}
	}
}

// TestKey checks that Key is the XOR of the keys of the points of a set.
func TestKey(t *testing.T) {
	var keys [64]uint64
	rng := xorshift(5)
	for i := range keys {
		keys[i] = rng.next()
	}
	for range 1000 {
		a, b := rng.next(), rng.next()
		set := a & b // a quarter of the points, on average
		var want uint64
		for i := range 64 {
			if set>>i&1 != 0 {
				want ^= keys[i]
			}
		}
		if got := Key(&keys, set); got != want {
			t.Fatalf("Key(%b) = %x, want %x (%d points)", set, got, want, bits.OnesCount64(set))
		}
	}
}

// TestRunKeys checks the prefix keys against Key, which loops over the
// points: Run on every run of consecutive points of the word (and the empty
// set), and Around on random captures, a run or none on each side of a
// point.
func TestRunKeys(t *testing.T) {
	var keys [64]uint64
	rng := xorshift(11)
	for i := range keys {
		keys[i] = rng.next()
	}
	rk := NewRunKeys(&keys)
	if got := rk.Run(0); got != 0 {
		t.Fatalf("Run(0) = %x, want 0", got)
	}
	for lo := range 64 {
		for hi := lo + 1; hi <= 64; hi++ {
			run := ^uint64(0) >> (64 - (hi - lo)) << lo // points lo to hi-1
			if got, want := rk.Run(run), Key(&keys, run); got != want {
				t.Fatalf("Run(points %d to %d) = %x, Key %x", lo, hi-1, got, want)
			}
		}
	}
	for range 20000 {
		p := int(rng.next() % 64)
		bit := uint64(1) << p
		// A run ending just below p and one starting just above it, each
		// kept or not.
		var set uint64
		if lo := int(rng.next() % uint64(p+1)); rng.next()&1 == 0 {
			set |= (bit - 1) &^ (uint64(1)<<lo - 1)
		}
		if p < 63 && rng.next()&1 == 0 {
			hi := p + 1 + int(rng.next()%uint64(64-p)) // the point past the run, up to 64
			above := ^uint64(0) << (p + 1)
			if hi < 64 {
				above &= uint64(1)<<hi - 1
			}
			set |= above
		}
		if got, want := rk.Around(set, bit), Key(&keys, set); got != want {
			t.Fatalf("Around(%b, point %d) = %x, Key %x", set, p, got, want)
		}
	}
}

// TestByteKeys checks the byte keys against Key on every set of the 16 low
// points.
func TestByteKeys(t *testing.T) {
	var keys [64]uint64
	rng := xorshift(13)
	for i := range keys {
		keys[i] = rng.next()
	}
	bk := NewByteKeys(&keys)
	for set := range uint64(1 << 16) {
		if got, want := bk.Low16(set), Key(&keys, set); got != want {
			t.Fatalf("Low16(%016b) = %x, Key %x", set, got, want)
		}
	}
}
