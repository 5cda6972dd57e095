package notation

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"alak/rules"
)

func TestWriteMoveListAlak6(t *testing.T) {
	// Seed 002's Alak-6 game; the result is the seed's 3-0, the comments
	// its two annotations, after moves 10 and 12.
	g, err := Record{Rules: sized(t, "alak", "6"), Moves: places(alak6)}.Game()
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecord(g)
	rec.Black = "Alan Baljeu"
	rec.Comments = map[int]string{0: "rec.games.abstract, 2001", 10: "(forced)", 12: "(to do otherwise would lose 4-2)"}
	var buf bytes.Buffer
	if err := WriteMoveList(&buf, rec); err != nil {
		t.Fatal(err)
	}
	want := `# rules: alak size=6
# black: Alan Baljeu
# result: B+3
# rec.games.abstract, 2001
1 4 5 6 2 3 5 1 2 6
# (forced)
4 3
# (to do otherwise would lose 4-2)
1 5 4
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestReadMoveList(t *testing.T) {
	cases := []struct {
		name   string
		text   string
		rules  string
		start  string
		moves  string
		result string
	}{
		// Seed 002's Alak-6 game as a bare list: the default rules are alak
		// on 11 points unless a rules line says otherwise.
		{"bare", "1 4 5 6", "alak", "----------- x", "1 4 5 6", ""},
		{"header and letters", "# rules: alak size=6\n# a note\na d e f b\n\n  c e  # comment\n", "alak size=6", "------ x", "1 4 5 6 2 3 5", ""},
		// Seed 002, Alak-6 line 4 set up with Black to move.
		{"position", "# rules: alak size=6\n# position: x--o/O x\n2", "alak size=6", "x--o/O x", "2", ""},
		{"grid", "# rules: alterigo size=3x3\nB2 A1 c3", "alterigo size=3x3", "---|---|--- x", "B2 A1 C3", ""},
		{"slides", "# rules: golf\n4-5 8-7", "golf", "xxxx---oooo x", "4-5 8-7", ""},
		{"black resigns", "# rules: alak size=6\n1 2 resign", "alak size=6", "------ x", "1 2", "W+R"},
		{"white resigns", "# rules: alak size=6\n1 resign", "alak size=6", "------ x", "1", "B+R"},
		{"result line", "# rules: tromp-taylor size=3\n# result: 0\npass pass", "tromp-taylor size=3", "--- x", "pass pass", "0"},
		{"crlf", "# rules: alak size=4\r\n1 4\r\n", "alak size=4", "---- x", "1 4", ""},
		{"empty", "", "alak", "----------- x", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, err := ReadMoveList([]byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			checkRead(t, rec, c.rules, c.start, c.moves)
			if rec.Result != c.result {
				t.Errorf("result %q, want %q", rec.Result, c.result)
			}
		})
	}
}

func TestReadMoveListComments(t *testing.T) {
	rec, err := ReadMoveList([]byte("# rules: alak size=6\n# first\n# second\n1 4 # after two\n# still two\n5\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{0: "first\nsecond", 2: "after two\nstill two"}
	if len(rec.Comments) != len(want) || rec.Comments[0] != want[0] || rec.Comments[2] != want[2] {
		t.Errorf("comments %v, want %v", rec.Comments, want)
	}
}

func TestReadMoveListErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"bad rules", "# rules: chess\n1", "unknown rules"},
		{"bad option", "# rules: alak edge=maybe\n1", "accepted values are on, off"},
		{"bad position", "# rules: alak size=6\n# position: x--q-- x\n1", "line 2: position"},
		{"position without player", "# rules: alak size=6\n# position: x--o--\n1", "write x (black) or o (white)"},
		{"position size", "# rules: alak size=6\n# position: x-- o\n1", "the rules say 6"},
		{"off board", "# rules: alak size=6\n1 7", "line 2, move 2"},
		{"word", "# rules: alak size=6\n1 hello", "not a point"},
		{"slide in placement", "# rules: alak size=6\n1-4", "not a point"},
		{"placement in sliding", "# rules: golf\n4", "from-to"},
		{"after resign", "# rules: alak size=6\n1 resign 2", "after resign"},
		{"resign disagrees", "# rules: alak size=6\n# result: W+R\n1 resign", "the result line says W+R"},
		{"duplicate", "# rules: alak\n# rules: golf\n", "a second \"rules\" line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadMoveList([]byte(c.text))
			if err == nil {
				t.Fatalf("no error for %q", c.text)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
			if !errors.Is(err, ErrNotation) && !errors.Is(err, rules.ErrRules) {
				t.Errorf("error %q wraps neither ErrNotation nor ErrRules", err)
			}
		})
	}
}
