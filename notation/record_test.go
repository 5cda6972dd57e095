package notation

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"alak/rules"
)

// alak6 is Baljeu's annotated Alak-6 game (seed 002), its points read off
// the capital letter of each line (0-based there, 1-based here).
var alak6 = []int{1, 4, 5, 6, 2, 3, 5, 1, 2, 6, 4, 3, 1, 5, 4}

func sized(t *testing.T, preset string, size string) rules.Rules {
	t.Helper()
	r := rules.MustPreset(preset)
	if err := r.Set("size", size); err != nil {
		t.Fatal(err)
	}
	return r
}

func places(pts []int) []rules.Move {
	ms := make([]rules.Move, len(pts))
	for i, p := range pts {
		ms[i] = rules.Place(p - 1)
	}
	return ms
}

// randomGame plays up to n random legal moves from start with a seeded
// source, so every run plays the same game.
func randomGame(t testing.TB, start rules.Position, seed uint64, n int) *rules.Game {
	t.Helper()
	g := rules.NewGameFrom(start)
	rng := rand.New(rand.NewPCG(seed, 1))
	for range n {
		legal := g.LegalMoves(nil)
		if len(legal) == 0 {
			break
		}
		if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
			t.Fatalf("a listed legal move was refused: %v", err)
		}
	}
	return g
}

// sameRecord fails unless a and b hold the same game.
// checkRead compares a record read from text with the rules, start
// position (MarshalText form) and moves (Human.Encode, space-separated)
// expected of it.
func checkRead(t *testing.T, rec Record, rules, start, moves string) {
	t.Helper()
	if got := rec.Rules.String(); got != rules {
		t.Errorf("rules %q, want %q", got, rules)
	}
	if got, _ := rec.Start.MarshalText(); string(got) != start {
		t.Errorf("start %q, want %q", got, start)
	}
	var ms []string
	for _, m := range rec.Moves {
		ms = append(ms, Human.Encode(rec.Rules, m))
	}
	if got := strings.Join(ms, " "); got != moves {
		t.Errorf("moves %q, want %q", got, moves)
	}
}

func sameRecord(t *testing.T, a, b Record) {
	t.Helper()
	if a.Rules != b.Rules {
		t.Errorf("rules: %s != %s (%+v != %+v)", a.Rules, b.Rules, a.Rules, b.Rules)
	}
	sa, _ := a.Start.MarshalText()
	sb, _ := b.Start.MarshalText()
	if !bytes.Equal(sa, sb) {
		t.Errorf("start: %q != %q", sa, sb)
	}
	if !reflect.DeepEqual(a.Moves, b.Moves) && (len(a.Moves) > 0 || len(b.Moves) > 0) {
		t.Errorf("moves: %v != %v", a.Moves, b.Moves)
	}
	if len(a.Comments) > 0 || len(b.Comments) > 0 {
		if !reflect.DeepEqual(a.Comments, b.Comments) {
			t.Errorf("comments: %v != %v", a.Comments, b.Comments)
		}
	}
	if a.Black != b.Black || a.White != b.White || a.Result != b.Result || a.Date != b.Date {
		t.Errorf("tags: %q %q %q %q != %q %q %q %q", a.Black, a.White, a.Result, a.Date, b.Black, b.White, b.Result, b.Date)
	}
	if a.Time != b.Time {
		t.Errorf("time control: %+v != %+v", a.Time, b.Time)
	}
	if (len(a.TimeLeft) > 0 || len(b.TimeLeft) > 0) && !reflect.DeepEqual(a.TimeLeft, b.TimeLeft) {
		t.Errorf("time left: %v != %v", a.TimeLeft, b.TimeLeft)
	}
}

// roundTripCases returns, for every preset, records to write and read back:
// a random game from the start, one from a set-up position with comments,
// names and a date, and presets with changed options.
func roundTripCases(t *testing.T) map[string]Record {
	t.Helper()
	cases := map[string]Record{}
	sizes := map[string]string{"alak": "9", "traditional": "7", "tromp-taylor": "6", "alterigo": "4x3", "dewdney": "11", "golf": "9"}
	for i, name := range rules.Presets() {
		r := sized(t, name, sizes[name])
		start, err := rules.NewPosition(r)
		if err != nil {
			t.Fatal(err)
		}
		g := randomGame(t, start, uint64(i), 40)
		cases[name+"/game"] = NewRecord(g)

		mid := randomGame(t, start, uint64(100+i), 5).Position()
		rec := NewRecord(randomGame(t, mid, uint64(200+i), 12))
		rec.Comments = map[int]string{0: "from a set-up position", len(rec.Moves): "two lines\nof comment ] with \\ and #"}
		rec.Black, rec.White, rec.Date = "Alan [Baljeu]", "A.K. Dewdney", "2001-12-30"
		cases[name+"/setup"] = rec

		// A game on a clock (5 minutes and 3 seconds a move, as the play
		// server writes live:5m+3s) with each mover's time left and the
		// players' messages on the nodes after which they were sent.
		rec = NewRecord(randomGame(t, start, uint64(300+i), 30))
		rec.Time = TimeControl{Main: 5 * time.Minute, Overtime: "3 fischer"}
		rec.TimeLeft = map[int]time.Duration{}
		for k := 1; k <= len(rec.Moves); k++ {
			rec.TimeLeft[k] = 5*time.Minute - time.Duration(k)*1234*time.Millisecond
		}
		rec.AddComment(0, "alak game abc, live 5m+3s")
		rec.AddComment(0, "ada: good luck")
		rec.AddComment(len(rec.Moves)/2, "bo: nice [move]")
		rec.AddComment(len(rec.Moves)/2, "ada: thanks \\o/")
		cases[name+"/clock"] = rec
	}
	r := sized(t, "alak", "12")
	for _, kv := range [][2]string{{"edge", "off"}, {"komi", "0.5"}, {"ko", "none"}, {"own", "removed"}, {"repetition", "off"}} {
		if err := r.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	start, _ := rules.NewPosition(r)
	cases["alak/options"] = NewRecord(randomGame(t, start, 7, 30))
	sk := sized(t, "alak", "7")
	if err := sk.Set("ko", "superko"); err != nil {
		t.Fatal(err)
	}
	start, _ = rules.NewPosition(sk)
	cases["alak/superko"] = NewRecord(randomGame(t, start, 9, 40))
	d := rules.MustPreset("dewdney")
	if err := d.Set("start", "xxx_x_o_ooo"); err != nil {
		t.Fatal(err)
	}
	start, _ = rules.NewPosition(d)
	cases["dewdney/start"] = NewRecord(randomGame(t, start, 8, 30))
	return cases
}

func TestRoundTrip(t *testing.T) {
	for name, rec := range roundTripCases(t) {
		for _, f := range []struct {
			format string
			write  func(w *bytes.Buffer, rec Record) error
			read   func([]byte) (Record, error)
		}{
			{"sgf", func(w *bytes.Buffer, rec Record) error { return WriteSGF(w, rec) }, ReadSGF},
			{"movelist", func(w *bytes.Buffer, rec Record) error { return WriteMoveList(w, rec) }, ReadMoveList},
			{"detected-sgf", func(w *bytes.Buffer, rec Record) error { return WriteSGF(w, rec) }, ReadRecord},
			{"detected-movelist", func(w *bytes.Buffer, rec Record) error { return WriteMoveList(w, rec) }, ReadRecord},
		} {
			t.Run(name+"/"+f.format, func(t *testing.T) {
				var buf bytes.Buffer
				if err := f.write(&buf, rec); err != nil {
					t.Fatal(err)
				}
				got, err := f.read(buf.Bytes())
				if err != nil {
					t.Fatalf("%v\n%s", err, buf.String())
				}
				want := rec
				if !strings.HasSuffix(f.format, "sgf") {
					want.Time, want.TimeLeft = TimeControl{}, nil // move lists carry no clock
				}
				sameRecord(t, want, got)
				// The record read back replays to the same final position.
				g1, err1 := rec.Game()
				g2, err2 := got.Game()
				if err1 != nil || err2 != nil {
					t.Fatalf("replay: %v, %v", err1, err2)
				}
				if a, b := g1.Position().String(), g2.Position().String(); a != b {
					t.Errorf("final position %s != %s", a, b)
				}
			})
		}
	}
}

func TestResultString(t *testing.T) {
	// Each expected result follows SGF FF[4]'s RE definition applied to a
	// game whose end is known from a seed or from the rules.
	cases := []struct {
		name  string
		r     rules.Rules
		moves []rules.Move
		want  string
	}{
		// Seed 002: the Alak-6 game ends 3-0, White unable to move.
		{"alak6 3-0", sized(t, "alak", "6"), places(alak6), "B+3"},
		// Seed 002, the second Alak-3 game: 1-2.
		{"alak3 1-2", sized(t, "alak", "3"), places([]int{1, 2, 3, 1}), "W+1"},
		// Seed 002, the first Alak-3 game: 2-0.
		{"alak3 2-0", sized(t, "alak", "3"), places([]int{1, 3, 2}), "B+2"},
		{"unfinished", sized(t, "alak", "6"), places([]int{1, 4}), ""},
		// Tromp-Taylor 1x2: x on 1, o passes, x passes: x owns both points.
		{"two passes", sized(t, "tromp-taylor", "2"), []rules.Move{rules.Place(0), rules.Pass, rules.Pass}, "B+2"},
		// Passing at once on the empty board: 0-0, a draw.
		{"empty draw", sized(t, "tromp-taylor", "3"), []rules.Move{rules.Pass, rules.Pass}, "0"},
		{"resign", sized(t, "alak", "6"), []rules.Move{rules.Place(0), rules.Resign}, "B+R"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := playAll(t, c.r, c.moves)
			if got := ResultString(g.Outcome()); got != c.want {
				t.Errorf("ResultString = %q, want %q", got, c.want)
			}
			rec := NewRecord(g)
			if rec.Result != c.want {
				t.Errorf("NewRecord result %q, want %q", rec.Result, c.want)
			}
			for _, m := range rec.Moves {
				if m == rules.Resign {
					t.Errorf("NewRecord kept the resignation as a move")
				}
			}
			back, err := rec.Game()
			if err != nil {
				t.Fatal(err)
			}
			if back.Outcome() != g.Outcome() {
				t.Errorf("replayed outcome %v, want %v", back.Outcome(), g.Outcome())
			}
		})
	}
}

func TestRecordGameErrors(t *testing.T) {
	r := sized(t, "alak", "6")
	start, _ := rules.NewPosition(r)
	cases := []struct {
		name  string
		moves []rules.Move
		want  []string
	}{
		// Point 1 is taken by the first move.
		{"occupied", places([]int{1, 1}), []string{"move 2", "(1 by White)", "occupied"}},
		// Seed 002, line 4: O on 6 captures the x on 5 (x--o/O); Black may not place on 5.
		{"forbidden", places([]int{1, 4, 5, 6, 5}), []string{"move 5", "(5 by Black)", "forbidden"}},
		{"off board", places([]int{7}), []string{"move 1", "point 7", "off the board"}},
		{"after the end", append(places(alak6), rules.Place(2)), []string{"move 16", "over"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Record{Rules: r, Start: start, Moves: c.moves}.Game()
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
