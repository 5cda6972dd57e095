package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"alak/notation"
	"alak/rules"
)

// replaySession runs `alak replay ARGS` with input as standard input.
func replaySession(t *testing.T, terminal bool, input string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(input), stdout: &out, stderr: &errOut, terminal: terminal}
	code = run(e, append([]string{"replay"}, args...))
	return out.String(), errOut.String(), code
}

// replayObject runs replay --json and decodes its one object.
func replayObject(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, errOut, code := replaySession(t, false, "", append([]string{"--json"}, args...)...)
	if code != 0 {
		t.Fatalf("alak replay %v: status %d: %s", args, code, errOut)
	}
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("want exactly one line of JSON, got %q", out)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	return obj
}

// replayAlak6 is seed 002's Alak-6 game: the diagrams as Baljeu printed them
// and the points played, read off each line's capital (0-based in the seed,
// 1-based here). The second line omits the capital: its new stone is the o
// on the seed's point 3.
var replayAlak6 = []struct{ move, seed string }{
	{"1", "X-----"}, {"4", "x--o--"}, {"5", "x--oX-"}, {"6", "x--o/O"}, {"2", "xX-o-o"},
	{"3", "//Oo-o"}, {"5", "--ooX/"}, {"1", "O-oox-"}, {"2", "/X//x-"}, {"6", "-x--xO"},
	{"4", "-x-Xxo"}, {"3", "-xO//o"}, {"1", "Xxo--o"}, {"5", "xxo-Oo"}, {"4", "xx/X//"},
}

// replayLegacy keeps the fields alak replay --json printed before the
// snapshot grew: their names and values are unchanged.
func replayLegacy(obj map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range []string{"rules", "options", "size", "board", "to_move", "forbidden", "legal", "over", "result", "winner"} {
		if v, ok := obj[k]; ok {
			out[k] = v
		}
	}
	return out
}

func TestReplayAlak6JSON(t *testing.T) {
	// The command of the brief; the expected object is seed 002's end:
	// "xx/X//" (no capitals, no /), 3-0, White to move and unable to.
	obj := replayObject(t, "--rules", "alak", "--size", "6", "1", "4", "5", "6", "2", "3", "5", "1", "2", "6", "4", "3", "1", "5", "4")
	want := map[string]any{"rules": "alak", "size": 6.0, "board": "xx-x--", "to_move": "o", "forbidden": []any{},
		"legal": []any{}, "over": true, "result": "3-0", "winner": "x"}
	if got := replayLegacy(obj); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	// The snapshot's other fields: seed 002's last line xx/X//, the X just
	// played on 4 having taken o's 3, 5 and 6; 15 moves; Black counts 3.
	more := map[string]any{"diagram": "xx/X//", "ply": 15.0, "last_move": 4.0, "captured": []any{3.0, 5.0, 6.0},
		"stones": map[string]any{"x": 3.0, "o": 0.0}, "reason": "no legal move", "result_words": "Black wins 3-0 on the count (White had no legal move, which ends the game)"}
	for k, v := range more {
		if !reflect.DeepEqual(obj[k], v) {
			t.Errorf("%s: got %v, want %v", k, obj[k], v)
		}
	}
}

func TestReplayAlak6MoveByMove(t *testing.T) {
	// Every prefix of the game prints the seed's diagram (spaced into
	// columns) as the first line of the board; on line 2 the seed leaves out
	// the capital, so the capital is added there.
	var moves []string
	for i, step := range replayAlak6 {
		moves = append(moves, step.move)
		t.Run(strconv.Itoa(i+1), func(t *testing.T) {
			out, errOut, code := replaySession(t, false, "", append([]string{"--size", "6"}, moves...)...)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errOut)
			}
			want := step.seed
			if i == 1 {
				want = "x--O--"
			}
			first, _, _ := strings.Cut(out, "\n")
			if got := strings.ReplaceAll(first, " ", ""); got != want {
				t.Errorf("diagram %q, want the seed's %q", got, want)
			}
			obj := replayObject(t, append([]string{"--size", "6"}, moves...)...)
			board := strings.NewReplacer("/", "-", "X", "x", "O", "o").Replace(step.seed)
			if obj["board"] != board {
				t.Errorf("board %v, want %q", obj["board"], board)
			}
		})
	}
	// "-x--xO (forced)": after move 9, Black's move 10 ... the seed marks
	// White's move 10 on point 6 as forced, so point 6 is White's only move.
	obj := replayObject(t, "--size", "6", "1", "4", "5", "6", "2", "3", "5", "1", "2")
	if got := obj["legal"]; !reflect.DeepEqual(got, []any{6.0}) {
		t.Errorf("legal before move 10 = %v, want only 6 (seed: forced)", got)
	}
}

func TestReplayAlak3(t *testing.T) {
	// Seed 002: "all 3 possible Alak-3 games", their last diagrams and scores.
	cases := []struct {
		name   string
		moves  []string
		board  string
		result string
		winner string
	}{
		{"X-- x-O xX/", []string{"1", "3", "2"}, "xx-", "2-0", "x"},
		{"X-- /O- -oX Oox", []string{"1", "2", "3", "1"}, "oox", "1-2", "o"},
		{"-X- Ox- oxX", []string{"2", "1", "3"}, "oxx", "2-1", "x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := replayObject(t, append([]string{"--rules", "alak", "--size", "3"}, c.moves...)...)
			if obj["board"] != c.board || obj["result"] != c.result || obj["winner"] != c.winner || obj["over"] != true {
				t.Errorf("got %v, want board %s result %s winner %s", obj, c.board, c.result, c.winner)
			}
		})
	}
}

func TestReplayJSONForms(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want map[string]any
	}{
		{
			// Seed 002, Alak-6 line 4 given as a diagram: / on point 5 is
			// forbidden to Black; the capital O says Black is to move.
			name: "position",
			args: []string{"--position", "x--o/O"},
			want: map[string]any{"rules": "alak", "size": 6.0, "board": "x--o-o", "to_move": "x", "forbidden": []any{5.0},
				"legal": []any{2.0, 3.0}, "over": false, "result": nil, "winner": nil},
		},
		{
			// SEEDS.md: "1 4"-style slides under golf; x from slot 4 to 5,
			// then o from slot 8 to 7 (the nearest empty slot on its left).
			name: "golf slides",
			args: []string{"--rules", "golf", "4-5", "8 7"},
			want: map[string]any{"rules": "golf", "size": 11.0, "board": "xxx-x-o-ooo", "to_move": "x", "forbidden": []any{},
				"legal": []any{"1-4", "2-4", "3-4", "5-4", "5-6"}, "over": false, "result": nil, "winner": nil},
		},
		{
			name: "grid",
			args: []string{"--rules", "alterigo", "--size", "2x2", "A1"},
			want: map[string]any{"rules": "alterigo", "size": "2x2", "board": "--|x-", "to_move": "o", "forbidden": []any{},
				"legal": []any{"A2", "B2", "B1"}, "over": false, "result": nil, "winner": nil},
		},
		{
			name: "options",
			args: []string{"--size", "3", "--edge", "off", "2"},
			want: map[string]any{"rules": "alak", "options": map[string]any{"edge": "off"}, "size": 3.0, "board": "-x-", "to_move": "o",
				"forbidden": []any{}, "legal": []any{1.0, 3.0}, "over": false, "result": nil, "winner": nil},
		},
		{
			// Seed 000's Traditional Alak has simple ko: in "/Xo-" the X just
			// captured an o on point 1 (against the end), and o retaking
			// there would capture the X and recreate "o-o-", the board before
			// X was played. On 4, o would leave its chain 3-4 without
			// liberties: suicide.
			name: "simple ko",
			args: []string{"--rules", "traditional", "--position", "/Xo-"},
			want: map[string]any{"rules": "traditional", "size": 4.0, "board": "-xo-", "to_move": "o", "forbidden": []any{1.0},
				"legal": []any{"pass"}, "over": false, "result": nil, "winner": nil},
		},
		{
			// Prisoners taken before a set-up start count under the seed's
			// Traditional Alak scoring. Final board x-ox--, by hand: Black
			// 2 stones + 2 territory (points 5-6) + 2 prisoners = 6; White
			// 1 stone + 1 prisoner = 2.
			name: "prisoners",
			args: []string{"--rules", "traditional", "--size", "6", "--position", "x-o---", "--to-move", "x", "--prisoners", "2-1", "4", "pass", "pass"},
			want: map[string]any{"rules": "traditional", "size": 6.0, "board": "x-ox--", "to_move": "o", "forbidden": []any{},
				"legal": []any{}, "over": true, "result": "6-2", "winner": "x"},
		},
		{
			name: "pass and letters",
			args: []string{"--rules", "tromp-taylor", "--size", "2", "a", "pass", "pass"},
			want: map[string]any{"rules": "tromp-taylor", "size": 2.0, "board": "x-", "to_move": "o", "forbidden": []any{},
				"legal": []any{}, "over": true, "result": "2-0", "winner": "x"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := replayLegacy(replayObject(t, c.args...)); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %v\nwant %v", got, c.want)
			}
		})
	}
}

func TestReplaySuperkoForbidden(t *testing.T) {
	// Positional superko forbids recreating any earlier board. Along a game
	// on 5 points, forbidden must list exactly the empty points whose
	// placement gives a board seen before, computed here by brute force from
	// the boards of the game. Under Tromp-Taylor the game opens pass 1 pass
	// 3 2: x on 2 captures the o on 1 against the end, and o retaking on 1
	// would recreate o-o--; then it goes on at random. Under alak with
	// superko (no passing) it is random from the start.
	cases := []struct {
		name    string
		flags   []string
		opening []rules.Move
		seed    uint64
	}{
		{"tromp-taylor", []string{"--rules", "tromp-taylor", "--size", "5"}, []rules.Move{rules.Pass, 0, rules.Pass, 2, 1}, 5},
		{"alak superko", []string{"--rules", "alak", "--size", "5", "--ko", "superko"}, nil, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rules.MustPreset(c.flags[1])
			r.SetSize(5, 1)
			r.Ko = rules.KoPositional
			g, _ := rules.NewGame(r)
			rng := rand.New(rand.NewPCG(c.seed, 5))
			var args []string
			boards := map[string]bool{"-----": true}
			lower := strings.NewReplacer("/", "-", "X", "x", "O", "o")
			sawSuperko := false
			for ply := 0; ply < 60 && !g.Over(); ply++ {
				pos := g.Position()
				var want []any
				for p := range 5 {
					if pos.At(p) != rules.None {
						continue
					}
					next, err := pos.Play(rules.Place(p))
					if err == nil && boards[lower.Replace(next.String())] {
						want = append(want, float64(p+1))
						sawSuperko = true
					}
				}
				obj := replayObject(t, append(append([]string{}, c.flags...), args...)...)
				got, _ := obj["forbidden"].([]any)
				if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
					t.Fatalf("after %v: forbidden %v, want %v", args, got, want)
				}
				legal := g.LegalMoves(nil)
				m := legal[rng.IntN(len(legal))]
				if ply < len(c.opening) {
					m = c.opening[ply]
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
				args = append(args, notation.Human.Encode(r, m))
				boards[lower.Replace(g.Position().String())] = true
			}
			if !sawSuperko {
				t.Error("the game never met a superko point: choose another seed")
			}
		})
	}
}

func TestReplayErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string
	}{
		// Seed 002, Alak-6: after 1 4 5 6 White's O captured on point 5.
		{"forbidden", []string{"--size", "6", "1", "4", "5", "6", "5"}, []string{"move 5", `"5"`, "forbidden"}},
		{"occupied", []string{"--size", "6", "1", "1"}, []string{"move 2", `"1"`, "occupied"}},
		{"after the end", []string{"--size", "3", "1", "3", "2", "1"}, []string{"move 4", "game is over"}},
		{"off board", []string{"--size", "6", "7"}, []string{"move 1", `"7"`, "points are 1 to 6"}},
		{"not a move", []string{"--size", "6", "1", "x"}, []string{"move 2", `"x"`}},
		{"slide under placement", []string{"--size", "6", "1-2"}, []string{"move 1", `"1-2"`}},
		{"golf unreachable", []string{"--rules", "golf", "1-2"}, []string{"move 1", `"1-2"`, "cannot reach"}},
		{"golf not yours", []string{"--rules", "golf", "8-7"}, []string{"move 1", "no piece of yours"}},
		{"pass not allowed", []string{"pass"}, []string{"move 1", "passing is not allowed"}},
		{"unknown rules", []string{"--rules", "chess"}, []string{"unknown rules", "alak, traditional"}},
		{"bad option", []string{"--edge", "maybe"}, []string{"edge", "on, off"}},
		{"bad size", []string{"--size", "0"}, []string{"size"}},
		{"bad position", []string{"--position", "x-q", "--to-move", "x"}, []string{"--position", "'q' is not a point"}},
		{"no player", []string{"--position", "x-o"}, []string{"--to-move", "say which player is to move, x or o"}},
		{"bad player", []string{"--position", "x-o", "--to-move", "z"}, []string{"--to-move", "x (black) or o (white)"}},
		{"to-move alone", []string{"--to-move", "x"}, []string{"--to-move", "goes with a start diagram"}},
		{"bad prisoners", []string{"--rules", "traditional", "--prisoners", "2", "1"}, []string{"--prisoners", "such as 2-1"}},
		{"negative prisoners", []string{"--rules", "traditional", "--prisoners", "-1-0", "1"}, []string{"--prisoners", "from 0 to 10000"}},
		{"size disagrees", []string{"--size", "5", "--position", "x-o", "--to-move", "x"}, []string{"--position", "but the size is 5"}},
		{"step without file", []string{"--step", "1"}, []string{"--step"}},
		{"unknown flag", []string{"--colour", "1"}, []string{"flag provided but not defined"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := replaySession(t, false, "", c.args...)
			if code != 2 {
				t.Errorf("status %d, want 2", code)
			}
			if out != "" {
				t.Errorf("printed %q on standard output", out)
			}
			for _, w := range c.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("error %q does not say %q", errOut, w)
				}
			}
		})
	}
}

// replayWrite writes a record to a file in a temporary folder.
func replayWrite(t *testing.T, name string, rec notation.Record, sgf bool) string {
	t.Helper()
	var buf bytes.Buffer
	write := notation.WriteMoveList
	if sgf {
		write = notation.WriteSGF
	}
	if err := write(&buf, rec); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func replayAlak6Record(t *testing.T) notation.Record {
	t.Helper()
	r := rules.MustPreset("alak")
	r.SetSize(6, 1)
	g, _ := rules.NewGame(r)
	for _, s := range replayAlak6 {
		m, _ := notation.Human.Decode(r, s.move)
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	rec := notation.NewRecord(g)
	rec.Black, rec.Date = "Alan Baljeu", "2001-12-30"
	rec.Comments = map[int]string{10: "(forced)", 12: "(to do otherwise would lose 4-2)"}
	return rec
}

var replayMoveHeader = regexp.MustCompile(`(?m)^Move (\d+): ([xo]) (\S+)$`)

func TestReplayFile(t *testing.T) {
	rec := replayAlak6Record(t)
	for _, sgf := range []bool{true, false} {
		name := map[bool]string{true: "game.sgf", false: "game.txt"}[sgf]
		t.Run(name, func(t *testing.T) {
			path := replayWrite(t, name, rec, sgf)
			out, errOut, code := replaySession(t, false, "", path)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errOut)
			}
			heads := replayMoveHeader.FindAllStringSubmatch(out, -1)
			if len(heads) != len(replayAlak6) {
				t.Fatalf("%d moves printed, want the seed's %d:\n%s", len(heads), len(replayAlak6), out)
			}
			for i, h := range heads {
				if h[1] != strconv.Itoa(i+1) || h[2] != "xo"[i%2:i%2+1] || h[3] != replayAlak6[i].move {
					t.Errorf("move header %q, want move %d by %c on %s", h[0], i+1, "xo"[i%2], replayAlak6[i].move)
				}
			}
			// Each move's board is the seed's line (the capital restored on
			// line 2, where the seed omits it).
			blocks := replayMoveHeader.Split(out, -1)[1:]
			for i, b := range blocks {
				want := replayAlak6[i].seed
				if i == 1 {
					want = "x--O--"
				}
				first := strings.SplitN(strings.TrimPrefix(b, "\n"), "\n", 2)[0]
				if got := strings.ReplaceAll(first, " ", ""); got != want {
					t.Errorf("move %d: diagram %q, want %q", i+1, got, want)
				}
			}
			for _, w := range []string{"Rules: alak size=6", "Black (x): Alan Baljeu", "Date: 2001-12-30", "(forced)",
				"(to do otherwise would lose 4-2)", "Result: Black wins 3-0 on the count (White had no legal move, which ends the game)"} {
				if !strings.Contains(out, w) {
					t.Errorf("output does not say %q", w)
				}
			}
			obj := replayObject(t, path)
			if obj["board"] != "xx-x--" || obj["result"] != "3-0" || obj["winner"] != "x" {
				t.Errorf("--json of the file: %v", obj)
			}
			// The flags after the file are read as well.
			out2, _, _ := replaySession(t, false, "", path, "--json")
			if !strings.Contains(out2, `"board":"xx-x--"`) {
				t.Errorf("FILE --json printed %q", out2)
			}
		})
	}
}

// A record whose moves do not end the game but whose result is a draw
// ("0", as alak match writes a game stopped at its move limit) is reported
// as the record's draw, not as a draw by agreement, which the SGF result
// does not say; the record's first comment, which says why, is printed.
func TestReplayDrawnByTheRecord(t *testing.T) {
	rec := replayAlak6Record(t)
	rec.Moves = rec.Moves[:4] // four plies of the seed game: it goes on
	rec.Comments = map[int]string{0: "stopped as a draw at the move limit of 4"}
	for _, res := range []string{"0", "Draw"} {
		rec.Result = res
		path := replayWrite(t, "limit.sgf", rec, true)
		out, errOut, code := replaySession(t, false, "", path)
		if code != 0 {
			t.Fatalf("RE[%s]: status %d: %s", res, code, errOut)
		}
		for _, w := range []string{"stopped as a draw at the move limit of 4",
			"Result: draw, as the record says (the moves do not end the game)"} {
			if !strings.Contains(out, w) {
				t.Errorf("RE[%s]: output does not say %q:\n%s", res, w, out)
			}
		}
		if strings.Contains(out, "agreement") || strings.Contains(out, "The record's result is") {
			t.Errorf("RE[%s]: output names a reason the record does not give, or a disagreement:\n%s", res, out)
		}
		// --json says the same: the record's result, no agreement.
		if obj := replayObject(t, path); obj["reason"] != "the record's result" || obj["result"] != "draw, as the record says" || obj["winner"] != "draw" {
			t.Errorf("RE[%s]: --json reason %v, result %v, winner %v", res, obj["reason"], obj["result"], obj["winner"])
		}
	}
	// The long form of a resignation is the same result as alak's own.
	rec.Result = "B+Resign"
	path := replayWrite(t, "resigned.sgf", rec, true)
	out, errOut, code := replaySession(t, false, "", path)
	if code != 0 || !strings.Contains(out, "Result: Black wins (White resigned)") || strings.Contains(out, "The record's result is") {
		t.Errorf("RE[B+Resign]: status %d, stderr %q, output:\n%s", code, errOut, out)
	}
}

func TestReplayFileStep(t *testing.T) {
	path := replayWrite(t, "game.sgf", replayAlak6Record(t), true)
	cases := []struct {
		name     string
		terminal bool
		input    string
		moves    int
	}{
		{"two moves then q", true, "\n\nq\n", 2},
		{"end of input stops", true, "\n\n\n", 3},
		{"all", true, strings.Repeat("\n", 15), 15},
		{"not a terminal: no waiting", false, "", 15},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := replaySession(t, c.terminal, c.input, "--step", path)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errOut)
			}
			if n := len(replayMoveHeader.FindAllString(playANSI.ReplaceAllString(out, ""), -1)); n != c.moves {
				t.Errorf("%d moves shown, want %d", n, c.moves)
			}
		})
	}
}

func TestReplayFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		// Seed 002: 5 is forbidden to Black after 1 4 5 6.
		{"illegal move in a list", []string{write("bad.txt", "# rules: alak size=6\n1 4 5 6 5\n")}, []string{"bad.txt", "move 5", "forbidden"}},
		{"illegal move in SGF", []string{write("bad.sgf", "(;SZ[6:1];B[aa];W[aa])")}, []string{"bad.sgf", "move 2", "occupied"}},
		{"broken SGF", []string{write("broken.sgf", "(;SZ[6:1];B[aa]")}, []string{"broken.sgf", "closed with ')'"}},
		{"bad rules line", []string{write("rules.txt", "# rules: chess\n1\n")}, []string{"rules.txt", "unknown rules"}},
		{"missing file", []string{filepath.Join(dir, "missing.sgf")}, []string{"missing.sgf: no such file"}},
		// A move is never taken for a file, even when a file of that name
		// exists; see TestReplayMoveNotFile.
		{"a folder", []string{dir}, []string{"not a regular file"}},
		{"flags with a file", []string{"--size", "6", write("ok.txt", "1\n")}, []string{"--size", "carries its own rules"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := replaySession(t, false, "", c.args...)
			if code != 2 || out != "" {
				t.Errorf("status %d, output %q; want 2 and nothing", code, out)
			}
			for _, w := range c.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("error %q does not say %q", errOut, w)
				}
			}
		})
	}
}

func TestReplayColour(t *testing.T) {
	// On a terminal the board is coloured; without the escapes it is the
	// plain board.
	plain, _, _ := replaySession(t, false, "", "--size", "6", "1", "4")
	col, _, _ := replaySession(t, true, "", "--size", "6", "1", "4")
	if col == plain || !strings.Contains(col, "\x1b[") {
		t.Errorf("no colour on a terminal: %q", col)
	}
	if got := playANSI.ReplaceAllString(col, ""); got != plain {
		t.Errorf("coloured board without escapes %q, want %q", got, plain)
	}
}

// FuzzReplayMoves checks that any move arguments are either all legal, and
// replay prints one JSON object whose board is the kernel's after those
// moves, or exits with status 2 and an error naming a move.
func FuzzReplayMoves(f *testing.F) {
	for _, s := range []string{"1 4 5 6 2 3 5 1 2 6 4 3 1 5 4", "1 1", "a d e", "pass", "7", "1-2", "F1 resign", ""} {
		f.Add(false, s)
		f.Add(true, s)
	}
	f.Fuzz(func(t *testing.T, golf bool, moves string) {
		preset, size := "alak", "6"
		if golf {
			preset, size = "golf", "11"
		}
		args := append([]string{"--json", "--rules", preset, "--size", size, "--"}, strings.Fields(moves)...)
		out, errOut, code := replaySession(t, false, "", args...)
		switch code {
		case 0:
			var obj map[string]any
			if err := json.Unmarshal([]byte(out), &obj); err != nil {
				t.Fatalf("%q: not JSON: %q", moves, out)
			}
			r, _ := rules.Parse(preset + " size=" + size)
			g, _ := rules.NewGame(r)
			for _, w := range strings.Fields(moves) {
				m, err := notation.Human.Decode(r, w)
				if err != nil {
					t.Fatalf("%q accepted but %q does not parse: %v", moves, w, err)
				}
				if err := g.Play(m); err != nil {
					t.Fatalf("%q accepted but %q is illegal: %v", moves, w, err)
				}
			}
			board := strings.NewReplacer("/", "-", "X", "x", "O", "o").Replace(g.Position().String())
			if obj["board"] != board {
				t.Fatalf("%q: board %v, want %s", moves, obj["board"], board)
			}
		case 2:
			if out != "" || !strings.HasPrefix(errOut, "alak replay: ") || !strings.Contains(errOut, "move") {
				t.Fatalf("%q: status 2 with output %q and error %q", moves, out, errOut)
			}
		default:
			t.Fatalf("%q: status %d", moves, code)
		}
	})
}

var replayUpdate = flag.Bool("replay-update", false, "rewrite the .out transcripts under testdata/replay")

func TestReplaySeedRecords(t *testing.T) {
	// Records under testdata/replay written by hand from seed 002 (and one
	// golf game followed by hand: 8-3 flanks x on 4 5 6 between o on 3 and
	// 7); --json must give the seed's end.
	cases := []struct {
		file, board, result, winner string
	}{
		{"alak6.sgf", "xx-x--", "3-0", "x"},
		{"alak3-1.txt", "xx-", "2-0", "x"},
		{"alak3-2.txt", "oox", "1-2", "o"},
		{"alak3-3.txt", "oxx", "2-1", "x"},
		// A win by rule says so (a result is a count only where the
		// board was counted).
		{"golf.txt", "x-o---o--oo", "o wins by too few pieces", "o"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			obj := replayObject(t, filepath.Join("testdata", "replay", c.file))
			if obj["board"] != c.board || obj["result"] != c.result || obj["winner"] != c.winner || obj["over"] != true {
				t.Errorf("got %v, want board %s result %s winner %s", obj, c.board, c.result, c.winner)
			}
		})
	}
	// In alak6.sgf each move's comment is the seed's line for it, so the
	// board printed after each move must show that line (the capital
	// restored on line 2, where the seed omits it).
	out, _, _ := replaySession(t, false, "", filepath.Join("testdata", "replay", "alak6.sgf"))
	blocks := replayMoveHeader.Split(out, -1)[1:]
	if len(blocks) != len(replayAlak6) {
		t.Fatalf("%d moves shown, want %d", len(blocks), len(replayAlak6))
	}
	for i, b := range blocks {
		lines := strings.Split(strings.TrimPrefix(b, "\n"), "\n")
		want := replayAlak6[i].seed
		if i == 1 {
			want = "x--O--"
		}
		if got := strings.ReplaceAll(lines[0], " ", ""); got != want {
			t.Errorf("move %d: board %q, want %q", i+1, got, want)
		}
		if !strings.HasPrefix(lines[4], replayAlak6[i].seed) {
			t.Errorf("move %d: comment %q, want the seed's line %q", i+1, lines[4], replayAlak6[i].seed)
		}
	}
}

func TestReplayTranscripts(t *testing.T) {
	// What `alak replay FILE` prints for each record under testdata/replay,
	// kept as NAME.out (go test -run TestReplayTranscripts -replay-update
	// rewrites them); TestReplaySeedRecords checks them against the seed.
	files, _ := filepath.Glob("testdata/replay/*")
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".out") {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, errOut, code := replaySession(t, false, "", f)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errOut)
			}
			golden := f + ".out"
			if *replayUpdate {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("got\n%s\n%s says\n%s", out, golden, want)
			}
		})
	}
	if n == 0 {
		t.Fatal("no records under testdata/replay")
	}
}
