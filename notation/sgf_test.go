package notation

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"alak/rules"
)

func TestWriteSGFAlak6(t *testing.T) {
	// Seed 002's Alak-6 game. The coordinates are the seed's 0-based points
	// as SGF column letters (0 = a), row a; the result is the seed's 3-0.
	g, err := Record{Rules: sized(t, "alak", "6"), Moves: places(alak6)}.Game()
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecord(g)
	rec.Black, rec.White, rec.Date = "Alan Baljeu", "White", "2001-12-30"
	rec.Comments = map[int]string{10: "(forced)", 12: "(to do otherwise would lose 4-2)"}
	var buf bytes.Buffer
	if err := WriteSGF(&buf, rec); err != nil {
		t.Fatal(err)
	}
	want := "(;FF[4]GM[1]CA[UTF-8]AP[alak:devel]SZ[6:1]RU[alak]PB[Alan Baljeu]PW[White]DT[2001-12-30]RE[B+3]\n" +
		";B[aa];W[da];B[ea];W[fa];B[ba];W[ca];B[ea];W[aa];B[ba];W[fa]C[(forced)]\n" +
		";B[da];W[ca]C[(to do otherwise would lose 4-2)];B[aa];W[ea];B[da]\n)\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWriteSGFSetUpAndSlides(t *testing.T) {
	// Seed 002, Alak-6 line 4: "x--o/O" with Black to move; point 5 was
	// just captured. AB/AW list the stones, XD keeps the capital and the /.
	r := sized(t, "alak", "6")
	start, err := rules.ParseDiagram(r, "x--o/O", rules.Black)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteSGF(&buf, Record{Rules: r, Start: start, Moves: places([]int{2})}); err != nil {
		t.Fatal(err)
	}
	want := "(;FF[4]GM[1]CA[UTF-8]AP[alak:devel]SZ[6:1]RU[alak]AB[aa]AW[da][fa]PL[B]XD[x--o/O]\n;B[ba]\n)\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}

	// Golf, SEEDS.md: "1 4" style slides; x on slot 4 to slot 5 is the
	// four letters da (slot 4) then ea (slot 5).
	gr := rules.MustPreset("golf")
	buf.Reset()
	if err := WriteSGF(&buf, Record{Rules: gr, Moves: []rules.Move{rules.Slide(3, 4)}}); err != nil {
		t.Fatal(err)
	}
	// A slide is written in B/W as its two points concatenated, from then
	// to, as SGF's Amazons spec (GM[18]) writes a move: B[djdd] there.
	want = "(;FF[4]GM[1]CA[UTF-8]AP[alak:devel]SZ[11:1]RU[golf]\n;B[daea]\n)\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestWriteSGFSizeAndVersion: FF[4] writes a square board's size as SZ[n] (the composed form SZ[n:n]
// is only for rectangles), and AP names the program with its version.
func TestWriteSGFSizeAndVersion(t *testing.T) {
	for _, c := range []struct{ rules, sz string }{
		{"alterigo size=5x5", "SZ[5]"},
		{"alterigo size=3x2", "SZ[3:2]"},
		{"alak size=7", "SZ[7:1]"},
	} {
		r, err := rules.Parse(c.rules)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteSGF(&buf, Record{Rules: r}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), c.sz) || strings.Contains(buf.String(), "SZ[5:5]") {
			t.Errorf("%s: got %s, want %s", c.rules, buf.String(), c.sz)
		}
		if !strings.Contains(buf.String(), "AP[alak:") {
			t.Errorf("%s: AP does not carry the version: %s", c.rules, buf.String())
		}
		back, err := ReadSGF(buf.Bytes())
		if err != nil || back.Rules.String() != r.String() {
			t.Errorf("%s: read back as %v, %v", c.rules, back.Rules, err)
		}
	}
}

// TestReadSGFRealKomi: a Go file's KM[6.75] is a real komi and is read as
// one; it was once refused as not a multiple of 0.5.
func TestReadSGFRealKomi(t *testing.T) {
	rec, err := ReadSGF([]byte("(;GM[1]FF[4]SZ[5]RU[alterigo score=area]KM[6.75];B[cc])"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Rules.Komi != 6.75 {
		t.Errorf("komi %v, want 6.75", rec.Rules.Komi)
	}
}

// TestReadSGFSlides: a slide in B and W, as this project writes it (and
// wrote it before the XB/XW scheme), and with Lines of Action's separators
// (GM[9] writes e1-e3, a capture e1:e3).
func TestReadSGFSlides(t *testing.T) {
	for _, v := range []string{"daea", "da-ea", "da:ea", " daea "} {
		rec, err := ReadSGF([]byte("(;FF[4]GM[1]SZ[11:1]RU[golf];B[" + v + "])"))
		if err != nil {
			t.Fatalf("B[%s]: %v", v, err)
		}
		if len(rec.Moves) != 1 || rec.Moves[0] != rules.Slide(3, 4) {
			t.Errorf("B[%s]: moves %v, want the slide 4-5", v, rec.Moves)
		}
	}
	for _, v := range []string{"da", "daeaa", "da+ea", "dazz"} {
		_, err := ReadSGF([]byte("(;FF[4]GM[1]SZ[11:1]RU[golf];B[" + v + "])"))
		if err == nil || !strings.Contains(err.Error(), "two points") {
			t.Errorf("B[%s]: error %v, want one that says a slide is two points", v, err)
		}
	}
}

// TestReadSGFXBXW: files written with slides in the private XB/XW
// properties (by commit 6a015f2 and earlier: testdata/xbxw-*.sgf, made by
// that commit's WriteSGF from two random games) still read, replay, and
// are written back with the slides in B/W.
func TestReadSGFXBXW(t *testing.T) {
	for _, c := range []struct {
		file, first, last string // the first and last moves, Human.Encode
		n                 int
	}{
		// The files' first and last nodes: XB[aaea] is slot 1 to slot 5;
		// golf ends XW[faea], slot 6 to 5; dewdney ends XW[gaba], 7 to 2.
		{"xbxw-golf.sgf", "1-5", "6-5", 14},
		{"xbxw-dewdney.sgf", "1-5", "7-2", 12},
	} {
		t.Run(c.file, func(t *testing.T) {
			rec, err := ReadRecordFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Moves) != c.n || Human.Encode(rec.Rules, rec.Moves[0]) != c.first || Human.Encode(rec.Rules, rec.Moves[c.n-1]) != c.last {
				t.Fatalf("moves %v, want %d from %s to %s", rec.Moves, c.n, c.first, c.last)
			}
			if rec.Comments[3] != "after move 3" || rec.Black != "ada" {
				t.Errorf("comments %v, black %q", rec.Comments, rec.Black)
			}
			if _, err := rec.Game(); err != nil {
				t.Fatalf("replay: %v", err)
			}
			var buf bytes.Buffer
			if err := WriteSGF(&buf, rec); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(buf.String(), "XB[") || strings.Contains(buf.String(), "XW[") || !strings.Contains(buf.String(), ";B[aaea]") {
				t.Errorf("written back as\n%s\nwant the slides in B/W", buf.String())
			}
			back, err := ReadSGF(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			sameRecord(t, rec, back)
		})
	}
}

// TestSGFClock: a game on a clock carries TM (the main time in seconds),
// OT (the overtime in words) and the mover's time left after each move in
// BL or WL; messages are comments on the node after which they were sent.
// Values: five minutes is TM[300]; the times left are the record's own.
func TestSGFClock(t *testing.T) {
	r := sized(t, "alak", "6")
	start, err := rules.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	rec := Record{Rules: r, Start: start, Moves: places([]int{1, 4, 5})}
	rec.Time = TimeControl{Main: 5 * time.Minute, Overtime: "3 fischer"}
	rec.TimeLeft = map[int]time.Duration{1: 5 * time.Minute, 2: 298500 * time.Millisecond, 3: 1 * time.Millisecond}
	rec.AddComment(0, "alak game x1")
	rec.AddComment(0, "ada: good luck")
	rec.AddComment(2, "bo: ouch")
	var buf bytes.Buffer
	if err := WriteSGF(&buf, rec); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"TM[300]OT[3 fischer]", "C[alak game x1\nada: good luck]", ";B[aa]BL[300];W[da]WL[298.5]C[bo: ouch];B[ea]BL[0.001]"} {
		if !strings.Contains(buf.String(), w) {
			t.Errorf("written as\n%s\nwant %s in it", buf.String(), w)
		}
	}
	back, err := ReadSGF(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	sameRecord(t, rec, back)

	// A time left after a move the record does not hold is refused.
	rec.TimeLeft[4] = time.Second
	if err := WriteSGF(&buf, rec); err == nil || !strings.Contains(err.Error(), "after move 4") {
		t.Errorf("a time left after move 4 of 3: %v", err)
	}
}

// TestReadSGFClock: TM, BL and WL from other programs (KGS and OGS write
// TM[1800]OT[5x30 byo-yomi] and BL/WL on the moves); a BL beside White's
// move, or on a node without a move, is not the mover's and is not read;
// a time that is not a number is refused with what is accepted.
func TestReadSGFClock(t *testing.T) {
	rec, err := ReadSGF([]byte("(;GM[1]FF[4]SZ[5]RU[alterigo]TM[1800]OT[5x30 byo-yomi];B[cc]BL[1795.25]WL[1];W[bb]BL[7];BL[9];B[aa]BL[-2.5])"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]time.Duration{1: 1795250 * time.Millisecond, 3: -2500 * time.Millisecond}
	if rec.Time != (TimeControl{Main: 30 * time.Minute, Overtime: "5x30 byo-yomi"}) || !reflect.DeepEqual(rec.TimeLeft, want) {
		t.Errorf("time %+v, left %v; want 30m, 5x30 byo-yomi, %v", rec.Time, rec.TimeLeft, want)
	}
	// An empty TM, BL or WL is read as none (a program that writes the
	// property without a clock).
	rec, err = ReadSGF([]byte("(;SZ[6:1]TM[]OT[];B[aa]BL[ ];W[ba]WL[])"))
	if err != nil || rec.Time != (TimeControl{}) || len(rec.TimeLeft) != 0 {
		t.Errorf("empty times: %+v %v, %v", rec.Time, rec.TimeLeft, err)
	}
	for _, bad := range []string{"(;TM[5 min])", "(;TM[-1])", "(;TM[1e300])", "(;TM[NaN])", "(;SZ[6:1];B[aa]BL[soon])", "(;SZ[6:1];B[aa];W[ba]WL[Inf])"} {
		_, err := ReadSGF([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), "in seconds") {
			t.Errorf("%s: error %v, want one that says times are in seconds", bad, err)
		}
	}
}

// TestReadSGFTooLong: a record past MaxRecordBytes is refused before it is
// parsed (a 50 MB file once took 2.75 GB), and the error
// does not echo the text.
func TestReadSGFTooLong(t *testing.T) {
	data := []byte("(;C[" + strings.Repeat("x", MaxRecordBytes) + "])")
	for _, read := range []func([]byte) (Record, error){ReadSGF, ReadMoveList, ReadRecord} {
		_, err := read(data)
		if err == nil || !strings.Contains(err.Error(), "at most") || len(err.Error()) > 200 {
			t.Errorf("error %v", err)
		}
	}
}

func TestReadSGF(t *testing.T) {
	cases := []struct {
		name  string
		sgf   string
		rules string // rules.Rules.String of the record
		start string // Start.MarshalText
		moves string // the moves, Human.Encode, space-separated
		check func(t *testing.T, rec Record)
	}{
		{
			name:  "alak6 with variation, FF3 names and escapes",
			sgf:   "\xef\xbb\xbf (;GaMe[1]FF[3]SZ[6:1]RU[alak]C[Baljeu \\] post\\\n 2001]\n;B[aa];W[da]\n(;B[ea]C[main])(;B[ba]C[variation]))",
			rules: "alak size=6", start: "------ x", moves: "1 4 5",
			check: func(t *testing.T, rec Record) {
				if rec.Comments[0] != "Baljeu ] post 2001" || rec.Comments[3] != "main" {
					t.Errorf("comments %v", rec.Comments)
				}
			},
		},
		{
			name:  "SZ[n] is a square grid; tt is a pass on small boards",
			sgf:   "(;GM[1]SZ[3]RU[tromp-taylor];B[bb];W[tt];B[])",
			rules: "tromp-taylor size=3x3", start: "---|---|--- x", moves: "B2 pass pass",
		},
		{
			name:  "no RU: alak; AB rectangle and PL",
			sgf:   "(;SZ[5:1]AB[aa:ba]AW[ea]PL[W];W[da])",
			rules: "alak size=5", start: "xx--o o", moves: "4",
		},
		{
			name:  "the first move gives the player to move when PL is absent",
			sgf:   "(;SZ[4:1]AB[aa];W[da])",
			rules: "alak size=4", start: "x--- o", moves: "4",
		},
		{
			name:  "XD preferred to AB/AW",
			sgf:   "(;SZ[6:1]AB[aa]AW[da][fa]PL[B]XD[x--o/O];B[ba])",
			rules: "alak size=6", start: "x--o/O x", moves: "2",
		},
		{
			name:  "KM sets komi; a vertical line SZ[1:4] is a line",
			sgf:   "(;SZ[1:4]RU[tromp-taylor]KM[0.5];B[ab];W[ad])",
			rules: "tromp-taylor size=4 komi=0.5", start: "---- x", moves: "2 4",
		},
		{
			name:  "golf slides",
			sgf:   "(;GM[1]SZ[11:1]RU[golf];B[daea];W[haga])",
			rules: "golf", start: "xxxx---oooo x", moves: "4-5 8-7",
		},
		{
			name:  "tags",
			sgf:   "(;PB[Alan]PW[Bob]DT[2001-12-30]RE[ W+R ])",
			rules: "alak", start: "----------- x", moves: "",
			check: func(t *testing.T, rec Record) {
				if rec.Black != "Alan" || rec.White != "Bob" || rec.Date != "2001-12-30" || rec.Result != "W+R" {
					t.Errorf("tags %+v", rec)
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, err := ReadSGF([]byte(c.sgf))
			if err != nil {
				t.Fatal(err)
			}
			checkRead(t, rec, c.rules, c.start, c.moves)
			if c.check != nil {
				c.check(t, rec)
			}
		})
	}
}

func TestReadSGFErrors(t *testing.T) {
	cases := []struct{ name, sgf, want string }{
		{"empty", "", "expected '(' to open a game tree"},
		{"not sgf", "hello", "expected '('"},
		{"no node", "()", "expected ';' to start a node"},
		{"unclosed tree", "(;SZ[6:1]", "ends before the game tree is closed"},
		{"unclosed value", "(;C[abc", "never closed with ']'"},
		{"no value", "(;SZ;B[aa])", "property SZ has no value"},
		{"junk", "(;SZ[6:1] 5)", "unexpected '5'"},
		{"gm", "(;GM[2])", "only GM[1]"},
		{"bad size", "(;SZ[0:1])", "SZ[n:1] for a line"},
		{"big grid", "(;SZ[20:20])", "grids are at most 19x19"},
		{"bad rules", "(;RU[Japanese])", "RU[Japanese]"},
		{"bad komi", "(;KM[7,5])", "KM[7,5]"},
		{"huge komi", "(;KM[1e9])", "KM[1e9]"},
		{"bad PL", "(;PL[Z])", "PL[B] or PL[W]"},
		{"off board", "(;SZ[6:1];B[ga])", "move 1 B[ga]"},
		{"row off the line", "(;SZ[6:1];B[ab])", "a line is row a"},
		{"not alternating", "(;SZ[6:1];B[aa];B[ba])", "move 2 is Black's but White is to move"},
		{"two moves in a node", "(;SZ[6:1];B[aa]W[ba])", "at most one move"},
		{"setup later", "(;SZ[6:1];B[aa]AB[ba])", "only read in the first node"},
		{"bad AB", "(;SZ[6:1]AB[zz])", "AB[zz]"},
		{"bad XD", "(;SZ[6:1]XD[x-q---])", "XD[x-q---]"},
		{"XD wrong size", "(;SZ[6:1]XD[x--])", "but SZ says 6"},
		{"slide as placement", "(;RU[golf];B[da])", "two points"},
		{"capital mover", "(;SZ[3:1]PL[B]XD[X--])", "cannot be to move"},
		{"deep", strings.Repeat("(;", 600), "nested more than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadSGF([]byte(c.sgf))
			if err == nil {
				t.Fatalf("no error for %q", c.sgf)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
			if !errors.Is(err, ErrNotation) && !errors.Is(err, rules.ErrRules) && !errors.Is(err, rules.ErrSetup) {
				t.Errorf("error %q wraps neither ErrNotation nor a rules error", err)
			}
		})
	}
}

func TestWriteSGFErrors(t *testing.T) {
	long := sized(t, "alak", "60")
	if err := WriteSGF(&bytes.Buffer{}, Record{Rules: long}); err == nil || !strings.Contains(err.Error(), "needs a move list") {
		t.Errorf("60 points: %v", err)
	}
	r := sized(t, "alak", "6")
	if err := WriteSGF(&bytes.Buffer{}, Record{Rules: r, Comments: map[int]string{3: "x"}}); err == nil {
		t.Error("a comment after a move that does not exist was written")
	}
	if err := WriteSGF(&bytes.Buffer{}, Record{Rules: r, Moves: []rules.Move{rules.Resign}}); err == nil {
		t.Error("a resignation was written as a move")
	}
}
