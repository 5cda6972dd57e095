package notation

import (
	"bytes"
	"errors"
	"strings"
	"testing"

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
	// A slide is written in the private XB/XW, never in B/W, where a Go
	// reader would take the four letters for a malformed point or a pass.
	want = "(;FF[4]GM[1]CA[UTF-8]AP[alak:devel]SZ[11:1]RU[golf]\n;XB[daea]\n)\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestWriteSGFSizeAndVersion is the regression test of issue 18's defect
// 4: FF[4] writes a square board's size as SZ[n] (the composed form SZ[n:n]
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
// one (issue 18, defect 4); it was refused as not a multiple of 0.5.
func TestReadSGFRealKomi(t *testing.T) {
	rec, err := ReadSGF([]byte("(;GM[1]FF[4]SZ[5]RU[alterigo score=area]KM[6.75];B[cc])"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Rules.Komi != 6.75 {
		t.Errorf("komi %v, want 6.75", rec.Rules.Komi)
	}
}

// TestReadSGFOldSlides: files written before the XB/XW scheme hold slides
// as four letters in B and W; they are still read.
func TestReadSGFOldSlides(t *testing.T) {
	rec, err := ReadSGF([]byte("(;FF[4]GM[1]SZ[11:1]RU[golf];B[daea])"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Moves) != 1 || rec.Moves[0] != rules.Slide(3, 4) {
		t.Errorf("moves %v, want the slide 4-5", rec.Moves)
	}
}

// TestReadSGFTooLong: a record past MaxRecordBytes is refused before it is
// parsed (issue 18, defect 6: a 50 MB file took 2.75 GB), and the error
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
		{"slide as placement", "(;RU[golf];B[da])", "four letters"},
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
