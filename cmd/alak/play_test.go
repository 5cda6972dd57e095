package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"alak/notation"
	"alak/player"
	"alak/rules"
	"alak/session"
	"alak/solve"
)

// playSession runs `alak play ARGS` with input as standard input.
func playSession(t *testing.T, terminal bool, input string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(input), stdout: &out, stderr: &errOut, terminal: terminal}
	code = run(e, append([]string{"play"}, args...))
	return out.String(), errOut.String(), code
}

var (
	playANSI   = regexp.MustCompile("\x1b\\[[0-9;]*m")
	playPrompt = regexp.MustCompile(`(?m)^[xo]> `)
	playPlays  = regexp.MustCompile(`(?m)([xo]) plays (\S+)$`)
)

// playDiagrams returns every line diagram of n points the session printed,
// in order: the board rows written without their spacing and colour.
func playDiagrams(out string, n int) []string {
	var ds []string
	for _, line := range strings.Split(playANSI.ReplaceAllString(out, ""), "\n") {
		line = playPrompt.ReplaceAllString(line, "")
		d := strings.ReplaceAll(line, " ", "")
		if len(d) == n && strings.Trim(d, "xoXO-/") == "" && strings.Trim(d, "/") != "" {
			ds = append(ds, d)
		}
	}
	return ds
}

// playMoves returns the moves the session announced, as "x 3", "o 5".
func playMoves(out string) []string {
	var ms []string
	for _, m := range playPlays.FindAllStringSubmatch(out, -1) {
		ms = append(ms, m[1]+" "+m[2])
	}
	return ms
}

// playReplies splits the output at the prompts: element i is what the
// session printed after reading input line i (element 0: before the first).
func playReplies(out string) []string {
	return playPrompt.Split(out, -1)
}

// Baljeu's Alak-6 game, seed 002 (rec.games.abstract, 2001-12-30): the
// diagram after every move, then the score "3-0". The moves are read off
// the diagrams: the capital letter is the stone just played.
func TestPlayBaljeuAlak6(t *testing.T) {
	moves := []string{"1", "4", "5", "6", "2", "3", "5", "1", "2", "6", "4", "3", "1", "5", "4"}
	seed := []string{ // seed 002, in order; the first line is the empty board
		"------",
		// The seed writes the second diagram x--o--, the only one without a
		// capital; by its own convention ("Capitals represent the last piece
		// played") the o just played on 4 is a capital.
		"X-----", "x--O--", "x--oX-", "x--o/O", "xX-o-o", "//Oo-o", "--ooX/",
		"O-oox-", "/X//x-", "-x--xO", "-x-Xxo", "-xO//o", "Xxo--o", "xxo-Oo", "xx/X//",
	}
	out, errOut, code := playSession(t, false, strings.Join(moves, "\n")+"\n", "--size", "6", "--black", "human", "--white", "human")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if got := playDiagrams(out, 6); strings.Join(got, " ") != strings.Join(seed, " ") {
		t.Errorf("diagrams:\n got %v\nwant %v (seed 002)", got, seed)
	}
	var want []string
	for i, m := range moves {
		want = append(want, []string{"x", "o"}[i%2]+" "+m)
	}
	if got := playMoves(out); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("moves: got %v, want %v", got, want)
	}
	// Seed 002 ends the game with "3-0": White, to move on xx/X//, cannot place.
	if !strings.Contains(out, "Game over: Black wins 3-0 on the count (White had no legal move, which ends the game).") {
		t.Errorf("no 3-0 result in:\n%s", out)
	}
	// The result is said once, then save is offered
	// as a command, so that typed-ahead moves are not taken for file names.
	if n := strings.Count(out, "Game over:"); n != 1 {
		t.Errorf("the game-over line is printed %d times:\n%s", n, out)
	}
	if !strings.Contains(out, "Type save FILE to keep the record, or quit.") || !strings.HasSuffix(out, "\n") {
		t.Errorf("the end does not offer to save and end with a newline:\n%s", out)
	}
}

// playReplay plays the announced moves on a fresh game of r and checks that
// every move of the computer side is what that player, built with the same
// spec and seed and asked in the same positions, chooses.
func playReplay(t *testing.T, r rules.Rules, moves []string, computer rules.Color, spec string, seed uint64) *rules.Game {
	t.Helper()
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	p, err := player.New(spec, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range moves {
		side, text, _ := strings.Cut(s, " ")
		if want := g.Position().ToMove().Letter(); side != want {
			t.Fatalf("move %d %q: announced for %s, but %s is to move", i+1, s, side, want)
		}
		m, err := notation.Human.Decode(r, text)
		if err != nil {
			t.Fatalf("move %d %q: %v", i+1, s, err)
		}
		if g.Position().ToMove() == computer {
			want, err := p.Move(context.Background(), g)
			if err != nil {
				t.Fatalf("move %d: %s: %v", i+1, spec, err)
			}
			if want != m {
				t.Fatalf("move %d: the session's %s played %s, the player itself plays %s", i+1, spec, text, notation.Human.Encode(r, want))
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("move %d %q is illegal: %v", i+1, s, err)
		}
	}
	return g
}

// A human who tries the points 1..7 in turn, over and over, plays a whole
// game against each computer player with a fixed seed. The computer's
// moves must be the player's own choices (White's seed is --seed plus one),
// and the printed result the kernel's result of the replayed game. The
// input left at the end answers the save prompt, so the test runs in a
// temporary folder.
func TestPlayAgainstComputer(t *testing.T) {
	t.Chdir(t.TempDir())
	var input strings.Builder
	for range 80 {
		for p := 1; p <= 7; p++ {
			fmt.Fprintf(&input, "%d\n", p)
		}
	}
	r := rules.MustPreset("alak")
	r.SetSize(7, 1)
	level2, err := player.Level(2)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		args   []string
		spec   string // the player that must have made White's moves
		banner string
	}{
		{"random", []string{"--white", "random"}, "random", "o is random."},
		{"greedy", []string{"--white", "greedy"}, "greedy", "o is greedy."},
		{"level 2", []string{"--level", "2"}, level2, "o is level 2 (" + level2 + ")."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := playSession(t, false, input.String(), append([]string{"--size", "7", "--seed", "42"}, c.args...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if !strings.Contains(out, c.banner) {
				t.Errorf("banner does not say %q:\n%s", c.banner, out)
			}
			g := playReplay(t, r, playMoves(out), rules.White, c.spec, 43)
			if !g.Over() {
				t.Fatalf("the game did not end after %d moves:\n%s", g.Len(), out)
			}
			if want := "Game over: " + notation.GameResultWords(g); !strings.Contains(out, want) {
				t.Errorf("no %q in:\n%s", want, out)
			}
		})
	}
}

// Two computers play each other to the end with no input at all.
func TestPlayComputerAgainstComputer(t *testing.T) {
	out, errOut, code := playSession(t, false, "", "--size", "9", "--black", "random", "--white", "greedy", "--seed", "7")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	r := rules.MustPreset("alak")
	r.SetSize(9, 1)
	moves := playMoves(out)
	g := playReplay(t, r, moves, rules.White, "greedy", 8)
	h := playReplay(t, r, moves, rules.Black, "random", 7)
	if !g.Over() || !h.Over() {
		t.Fatalf("the game did not end:\n%s", out)
	}
	if want := "Game over: " + notation.GameResultWords(g); !strings.Contains(out, want) {
		t.Errorf("no %q in:\n%s", want, out)
	}
}

// Every kind of bad line gets one sentence naming the problem, and the game
// is unchanged: the board printed before the bad line and after it are the
// same, and no move was announced.
func TestPlayBadInput(t *testing.T) {
	alak6 := []string{"--size", "6", "--white", "human"}
	cases := []struct {
		name   string
		args   []string
		prefix []string // moves played first
		bad    string
		want   string // in the one-line reply
	}{
		{"garbage", nil, nil, "hello", `Cannot read "hello": not a point`},
		{"off board number", nil, nil, "12", `Cannot read "12": off the board: points are 1 to 11 (or resign)`},
		{"off board letter", nil, nil, "l", `Cannot read "l": off the board: letters are a to k`},
		{"off board vertex", nil, nil, "M1", "write a number from 1 to 11"},
		{"zero", nil, nil, "0", `Cannot read "0": off the board`},
		// The input is quoted as typed, not lower-cased.
		{"case kept", nil, nil, "Hello", `Cannot read "Hello"`},
		// The kernel's reason, rules.ErrOccupied.
		{"occupied", alak6, []string{"1"}, "1", "1 is not legal now: the point is occupied; legal now: 2, 3, 4, 5, 6."},
		// Seed 002's game after six moves: //Oo-o, x's stones on 1 and 2
		// were just captured, so x may not place there (Baljeu's rule 3).
		{"forbidden just captured", alak6, []string{"1", "4", "5", "6", "2", "3"}, "2",
			"2 is not legal now: the point is forbidden: your stones were just captured there; legal now: 5."},
		// o has just captured the x on 4 with its stone on 3: retaking on 4
		// would recreate the board before that move (simple ko, seed 000's
		// Traditional Alak).
		{"ko", []string{"--rules", "traditional", "--position", "-xO/o-", "--white", "human"}, nil, "4",
			"4 is not legal now: ko: the move would recreate the position before the opponent's last move; legal now: pass."},
		{"placement under sliding rules", []string{"--rules", "dewdney"}, nil, "5", "a move slides a piece, written from-to: the slot it leaves and the slot it goes to, such as 1-4 (slots 1 to 11)"},
		// Sliding rules talk about slots, not points.
		{"slot off the line", []string{"--rules", "dewdney"}, nil, "1-12", `Cannot read "1-12": off the line: the slots are 1 to 11`},
		// xxxx___oooo: the piece on 1 is blocked by 2 and jumps to 5, never 6.
		{"unreachable slide", []string{"--rules", "dewdney", "--white", "human"}, nil, "1-6", "the piece cannot reach that slot"},
		{"not your piece", []string{"--rules", "dewdney", "--white", "human"}, nil, "9-7", "there is no piece of yours on that slot"},
		{"pass not allowed", nil, nil, "pass", "Pass is not legal now: passing is not allowed under these rules"},
		{"undo at start", nil, nil, "undo", "There is no move to take back yet"},
		{"save without a file", nil, nil, "save", "Save needs a file name"},
		{"save to a missing folder", nil, nil, "save /nonexistent-alak-dir/x.sgf", "Could not save: open /nonexistent-alak-dir/x.sgf: no such file or directory."},
		{"empty line", nil, nil, "   ", "Type a move such as 1, or help for the commands."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			input := strings.Join(append(append(c.prefix, "board", c.bad, "board"), ""), "\n")
			out, errOut, code := playSession(t, false, input, c.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			replies := playReplies(out)
			k := len(c.prefix)
			if len(replies) != k+5 { // the start, each line, and the prompt at end of input
				t.Fatalf("%d replies to %d lines:\n%s", len(replies), k+3, out)
			}
			before, reply, after := replies[k+1], replies[k+2], replies[k+3]
			if before != after {
				t.Errorf("the board changed:\nbefore %q\nafter  %q", before, after)
			}
			if strings.Count(reply, "\n") != 1 || !strings.HasSuffix(reply, ".\n") {
				t.Errorf("reply %q is not one sentence on one line", reply)
			}
			if !strings.Contains(reply, c.want) {
				t.Errorf("reply %q does not contain %q", reply, c.want)
			}
			if n := len(playMoves(out)); n != k {
				t.Errorf("%d moves announced, want the %d of the prefix", n, k)
			}
		})
	}
}

// save writes the game so far, which reads back as the same game, and the
// game goes on; at the end the prompt takes a file name, and a name that
// cannot be written is asked for again.
func TestPlaySave(t *testing.T) {
	dir := t.TempDir()
	alak6 := []string{"--size", "6", "--white", "human"}
	baljeu := "1\n4\n5\n6\n2\n3\n5\n1\n2\n6\n4\n3\n1\n5\n4\n" // seed 002
	cases := []struct {
		name    string
		args    []string
		input   string
		file    string
		read    func([]byte) (notation.Record, error)
		moves   []string // the moves in the file, 1-based
		diagram string   // the position after them
		result  string   // SGF RE
		also    string   // also in the output
	}{
		// Seed 002 after three moves: x--oX-.
		{"sgf mid-game", alak6, "1\n4\n5\nsave F\n2\n", "mid.sgf", notation.ReadSGF, []string{"1", "4", "5"}, "x--oX-", "", ""},
		{"tab after save", alak6, "1\nsave\tF\n", "tab.sgf", notation.ReadSGF, []string{"1"}, "X-----", "", ""},
		{"move list", alak6, "1\n4\nsave F\n", "mid.txt", notation.ReadMoveList, []string{"1", "4"}, "x--O--", "", ""},
		// Seed 002's last diagram and score 3-0: RE[B+3] as the issue writes it.
		{"at the end", alak6, baljeu + "save F\n", "end.sgf", notation.ReadSGF,
			strings.Fields(baljeu), "xx/X//", "B+3", ""},
		{"at the end after a bad name", alak6, baljeu + "save " + dir + "/missing/x.sgf\nsave F\n", "end2.sgf", notation.ReadSGF,
			strings.Fields(baljeu), "xx/X//", "B+3", "Could not save: open " + dir + "/missing/x.sgf: no such file or directory.\n> "},
		// Moves typed ahead after the end are refused, never taken for a
		// file name.
		{"typed ahead after the end", alak6, baljeu + "3\nsave F\n", "end3.sgf", notation.ReadSGF,
			strings.Fields(baljeu), "xx/X//", "B+3", "The game is over (Black wins 3-0 on the count (White had no legal move, which ends the game)): type save FILE"},
		{"set-up position", []string{"--position", "x--o/O", "--to-move", "x", "--white", "human"}, "2\nsave F\n", "setup.sgf", notation.ReadSGF,
			[]string{"2"}, "xX-o-o", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := dir + "/" + c.file
			out, errOut, code := playSession(t, false, strings.ReplaceAll(c.input, "F\n", file+"\n"), c.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if !strings.Contains(out, "Saved the game ("+fmt.Sprint(len(c.moves))+" move"+plural(len(c.moves))+") to "+file) {
				t.Errorf("no save message in:\n%s", out)
			}
			if !strings.Contains(out, c.also) {
				t.Errorf("no %q in:\n%s", c.also, out)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := c.read(data)
			if err != nil {
				t.Fatalf("reading back %s: %v\n%s", file, err, data)
			}
			var got []string
			for _, m := range rec.Moves {
				got = append(got, notation.Human.Encode(rec.Rules, m))
			}
			if strings.Join(got, " ") != strings.Join(c.moves, " ") {
				t.Errorf("moves read back %v, want %v", got, c.moves)
			}
			g, err := rec.Game()
			if err != nil {
				t.Fatal(err)
			}
			if d := g.Position().String(); d != c.diagram {
				t.Errorf("position read back %s, want %s", d, c.diagram)
			}
			if rec.Result != c.result {
				t.Errorf("result read back %q, want %q", rec.Result, c.result)
			}
			if rec.Black != "human" || rec.White != "human" {
				t.Errorf("players read back %q, %q, want human, human", rec.Black, rec.White)
			}
		})
	}
}

// undo takes back the human's last move, and the computer's reply with it;
// the diagrams are seed 002's.
func TestPlayUndo(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		input    string
		reply    string   // to the undo
		diagrams []string // every board shown, the last after the undo
		moves    int      // moves announced
	}{
		{"human against human", []string{"--size", "6", "--white", "human"}, "1\n4\nundo\n",
			"Took back 1 move.", []string{"------", "X-----", "x--O--", "X-----"}, 2},
		{"twice", []string{"--size", "6", "--white", "human"}, "1\n4\nundo\nundo\nundo\n",
			"There is no move to take back yet", []string{"------", "X-----", "x--O--", "X-----", "------"}, 2},
		{"against the computer", []string{"--size", "6", "--white", "greedy", "--seed", "3"}, "1\nundo\n",
			"Took back 2 moves.", nil, 2},
		{"computer's move only", []string{"--size", "6", "--black", "greedy", "--white", "human", "--seed", "3"}, "undo\n",
			"There is no move of yours to take back", nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := playSession(t, false, c.input, c.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			replies := playReplies(out)
			lines := strings.Count(c.input, "\n")
			if last := replies[lines]; !strings.HasPrefix(last, c.reply) {
				t.Errorf("reply to the last undo %q, want it to start %q", last, c.reply)
			}
			ds := playDiagrams(out, 6)
			if c.diagrams != nil && strings.Join(ds, " ") != strings.Join(c.diagrams, " ") {
				t.Errorf("diagrams %v, want %v", ds, c.diagrams)
			}
			if c.name == "against the computer" && ds[len(ds)-1] != "------" {
				t.Errorf("after undo the board is %s, want the empty board", ds[len(ds)-1])
			}
			if n := len(playMoves(out)); n != c.moves {
				t.Errorf("%d moves announced, want %d", n, c.moves)
			}
		})
	}
}

// End of input ends the program with status 0 and a final newline, at the
// first prompt, in the middle of a game and in a last line without its
// line ending (which is still played).
func TestPlayEndOfInput(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		input string
		moves int
	}{
		{"no input", nil, "", 0},
		{"mid-game against the computer", []string{"--seed", "1"}, "1\n", 2},
		{"last line without newline", []string{"--white", "human"}, "1\n4", 2},
		{"after a bad line", []string{"--white", "human"}, "1\nzzz\n", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := playSession(t, false, c.input, c.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if !strings.HasSuffix(out, "> \n") {
				t.Errorf("the output does not end with the prompt and a newline: %q", out[max(0, len(out)-40):])
			}
			if n := len(playMoves(out)); n != c.moves {
				t.Errorf("%d moves announced, want %d", n, c.moves)
			}
		})
	}
}

// Every preset starts and accepts a first move; the move is the kernel's
// first legal move, written by notation.Human.Encode.
func TestPlayPresets(t *testing.T) {
	for _, name := range rules.Presets() {
		t.Run(name, func(t *testing.T) {
			g, err := rules.NewGame(rules.MustPreset(name))
			if err != nil {
				t.Fatal(err)
			}
			ms := g.LegalMoves(nil)
			if len(ms) == 0 {
				t.Fatal("no legal move at the start")
			}
			move := notation.Human.Encode(g.Rules(), ms[0])
			out, errOut, code := playSession(t, false, move+"\n", "--rules", name, "--white", "human")
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if !strings.HasPrefix(out, "alak play: "+name+" rules on ") {
				t.Errorf("banner %q does not name the rules", strings.SplitN(out, "\n", 2)[0])
			}
			if got := playMoves(out); len(got) != 1 || got[0] != "x "+move {
				t.Errorf("moves %v, want [x %s]", got, move)
			}
		})
	}
}

// Flags that cannot start a game exit with status 2 and say why.
func TestPlayFlagErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown rules", []string{"--rules", "chess"}, `unknown rules "chess"; the presets are alak`},
		{"bad size", []string{"--size", "0"}, `size="0": a line is N (1 to 64)`},
		{"bad option", []string{"--ko", "maybe"}, `ko="maybe": accepted values are none, captured`},
		{"unknown player", []string{"--black", "wizard"}, `--black: unknown player "wizard"`},
		{"level and white", []string{"--level", "2", "--white", "random"}, "--level and --white both choose White's player: give one of them"},
		{"level out of range", []string{"--level", "0"}, "--level: level 0: the levels are 1 (random) to"},
		{"to-move alone", []string{"--to-move", "o"}, "a player to move goes with a start diagram"},
		{"bad to-move", []string{"--position", "x--", "--to-move", "z"}, `player "z": write x (black) or o (white)`},
		{"bad diagram", []string{"--position", "x-q", "--to-move", "x"}, `invalid position: diagram "x-q": 'q' is not a point`},
		{"no player to move", []string{"--position", "x-o"}, "has no capital stone to tell who played last"},
		// An option the rules do not use is an error, not ignored.
		{"start on placement rules", []string{"--start", "xx__oo"}, "--start: invalid rules: start has no effect under alak"},
		{"selfcapture on alak", []string{"--selfcapture", "piece"}, "--selfcapture: invalid rules: selfcapture has no effect under alak"},
		{"prisoners under stone scoring", []string{"--prisoners", "2-1"}, "prisoners count only under score=territory or score=area+prisoners"},
		{"diagram against size", []string{"--size", "7", "--position", "x--oX-"}, `the diagram "x--oX-" is 6 but the size is 7`},
		{"slash without forbidden points", []string{"--rules", "tromp-taylor", "--position", "x--o/O"}, "no point is forbidden after a capture"},
		{"argument", []string{"now"}, `unexpected argument "now"`},
		{"unknown flag", []string{"--colour"}, "flag provided but not defined: -colour"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := playSession(t, false, "1\n", c.args...)
			if code != 2 || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
			}
			if !strings.Contains(errOut, c.want) {
				t.Errorf("stderr %q does not contain %q", errOut, c.want)
			}
		})
	}
}

// The other lines a human can type: a set-up position, resign, quit, help,
// a grid vertex, and the colours on a terminal.
func TestPlaySession(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		terminal bool
		input    string
		want     []string // in the output, in order
		code     int
	}{
		// Seed 002's fourth diagram: x's stone on 5 was just captured.
		{"set-up position", []string{"--position", "x--o/O", "--white", "human"}, false, "5\n2\n",
			[]string{" x - - o / O\n", "5 is not legal now: the point is forbidden", "x plays 2", " x X - o - o\n"}, 0},
		{"capital names the player to move", []string{"--position", "X-o", "--white", "greedy", "--black", "human", "--seed", "1"}, false, "",
			[]string{"o plays 2"}, 0},
		{"resign", []string{"--white", "human"}, false, "resign\n",
			[]string{"x resigns.", "Game over: White wins (Black resigned).", "Type save FILE"}, 0},
		{"draw between people", []string{"--white", "human"}, false, "draw\n1\ndraw\n",
			[]string{"x offers a draw; o accepts by typing draw, or plays on.", "x plays 1", "Both players agree: the game is drawn.", "Game over: draw by agreement."}, 0},
		{"draw against the computer", []string{"--seed", "1"}, false, "draw\n",
			[]string{"o (greedy) plays on: no draw."}, 0},
		{"rules", []string{"--size", "1"}, false, "rules\n",
			[]string{"alak play: alak rules on 1 point;", "Rules: alak.", "You may not place, on the very next move, where your stones were just captured: the points marked /."}, 0},
		{"help explains /", nil, false, "help\n", []string{"/ is a point just captured, which the player whose stones stood there may not take back at once."}, 0},
		{"quit", []string{"--white", "human"}, false, "1\nquit\n", []string{"x plays 1", "Game abandoned after 1 move.\n"}, 0},
		{"help on a line", nil, false, "help\n",
			[]string{"Moves: a point as a number 1 to 11, a letter a to k or a GTP vertex A1 to L1, or resign.", "undo", "hint", "save FILE", "quit"}, 0},
		{"help with passing", []string{"--rules", "traditional"}, false, "help\n", []string{"A1 to L1, pass, or resign."}, 0},
		{"help on a grid", []string{"--rules", "alterigo"}, false, "help\n",
			[]string{"Moves: a point as a GTP vertex such as A9 (columns A to J without I, rows 1 to 9 from the bottom), or resign."}, 0},
		{"help for slides", []string{"--rules", "golf"}, false, "help\n", []string{"Moves: a slide from-to such as 1-4 (slots 1 to 11), or resign."}, 0},
		{"letters and vertices", []string{"--white", "human"}, false, "c\nE1\n", []string{"x plays 3", "o plays 5"}, 0},
		{"grid vertex", []string{"--rules", "alterigo", "--white", "human"}, false, "e5\n", []string{"x plays E5"}, 0},
		{"board", []string{"--size", "4"}, false, "board\n", []string{"x> ", " - - - -\n 1 2 3 4\n a b c d\nBlack (x) to move."}, 0},
		{"colour on a terminal", []string{"--white", "human"}, true, "1\n", []string{"x plays 1", "\x1b["}, 0},
		{"thinking on a terminal", []string{"--white", "greedy", "--seed", "1"}, true, "1\n", []string{"x plays 1", "o (greedy) is thinking...\r\x1b[Ko plays "}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := playSession(t, c.terminal, c.input, c.args...)
			if code != c.code || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			rest := out
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("no %q (in order) in:\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
			if !c.terminal && strings.Contains(out, "\x1b[") {
				t.Errorf("colour escapes in plain output:\n%q", out)
			}
		})
	}
}

// playFuzzGames are the games FuzzPlayLine types into: a line with points
// just captured (seed 002 after six moves), sliding rules, a grid, and
// passing with simple ko.
var playFuzzGames = []struct {
	args  []string
	moves string
}{
	{[]string{"--size", "6"}, "1 4 5 6 2 3"},
	{[]string{"--rules", "dewdney"}, "4-5"},
	{[]string{"--rules", "alterigo", "--size", "5x5"}, "C3"},
	{[]string{"--rules", "traditional", "--size", "7"}, "2 3 pass"},
}

// FuzzPlayLine types any line into a game in progress. The session never
// panics; a line either plays the one legal move it names, takes back a
// move (undo), or leaves the game as it was; and every line that changes
// nothing and is not a command gets exactly one line of reply.
func FuzzPlayLine(f *testing.F) {
	for i, line := range []string{"1", "5", "e", "C1", "pass", "resign", "4-5", "4 5", "C3", "undo", "board", "help", "hint", "quit", "", "x", "99", "-1", "1-", "A0", "ZZ9", "\x00", "5\r"} {
		f.Add(uint8(i), line)
	}
	defer func(d time.Duration) { playHintTime = d }(playHintTime)
	playHintTime = 100 * time.Millisecond
	f.Fuzz(func(t *testing.T, which uint8, line string) {
		if w, _, _ := strings.Cut(strings.TrimSpace(line), " "); strings.EqualFold(w, "save") {
			return // save writes files; TestPlaySave covers it
		}
		setup := playFuzzGames[int(which)%len(playFuzzGames)]
		fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
		build := rulesFlags(fs)
		if err := fs.Parse(setup.args); err != nil {
			t.Fatal(err)
		}
		r, err := build()
		if err != nil {
			t.Fatal(err)
		}
		game, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range strings.Fields(setup.moves) {
			m, err := notation.Human.Decode(r, s)
			if err == nil {
				err = game.Play(m)
			}
			if err != nil {
				t.Fatalf("setting up %v: %s: %v", setup, s, err)
			}
		}
		var out bytes.Buffer
		sess := session.New(game, session.Seat{Name: "human"}, session.Seat{Name: "human"}, session.Options{HintTime: 100 * time.Millisecond})
		g := &playGame{e: &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out}, s: sess, r: r, tableDir: "none"}
		g.in = bufio.NewReader(g.e.stdin)
		before, n := game.Position().Hash(), game.Len()
		parsed, perr := notation.Human.Decode(r, line)
		legal := perr == nil && game.Legal(parsed) == nil
		g.handle(line)
		game = sess.Game()
		word := strings.ToLower(strings.Fields(line + " x")[0])
		switch {
		case game.Len() == n+1:
			if !legal || game.Moves()[n] != parsed {
				t.Fatalf("line %q played %v, but it does not name a legal move", line, game.Moves()[n])
			}
		case sess.Over() && word == "resign":
			if o := sess.Outcome(); o.Reason != rules.Resigned {
				t.Fatalf("line %q ended the game with %v", line, o)
			}
		case game.Len() == n-1:
			if word != "undo" {
				t.Fatalf("line %q took back a move", line)
			}
		case game.Len() != n || game.Position().Hash() != before:
			t.Fatalf("line %q changed the game from %d to %d moves", line, n, game.Len())
		case legal:
			t.Fatalf("line %q names a legal move that was not played", line)
		case word != "help" && word != "?" && word != "board" && strings.Count(out.String(), "\n") != 1:
			t.Fatalf("line %q got %d lines of reply: %q", line, strings.Count(out.String(), "\n"), out.String())
		}
	})
}

var playUpdate = flag.Bool("play-update", false, "rewrite the golden transcripts of alak play under testdata/play")

// The whole text of some sessions, kept as golden transcripts so that any
// change to what a player sees shows in review. The facts in them are
// checked against the seeds by the tests above; go test -run
// TestPlayGolden -play-update rewrites them.
func TestPlayGolden(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		input string
	}{
		{"baljeu6", []string{"--size", "6", "--white", "human"}, "1\n4\n5\n6\n2\n3\n5\n1\n2\n6\n4\n3\n1\n5\n4\n\n"},
		{"messages", []string{"--size", "6", "--white", "human"}, "hello\n12\npass\nundo\n1\n1\nsave\nhelp\nboard\nundo\nquit\n"},
		{"dewdney", []string{"--rules", "dewdney", "--white", "greedy", "--seed", "1"}, "5\n4-5\n3-4\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := playSession(t, false, c.input, c.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			text := "$ alak play " + strings.Join(c.args, " ") + "\n" + out
			file := "testdata/play/" + c.name + ".golden"
			if *playUpdate {
				if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (go test -run TestPlayGolden -play-update writes it)", err)
			}
			if text != string(want) {
				t.Errorf("the session differs from %s (go test -run TestPlayGolden -play-update rewrites it):\n%s", file, text)
			}
		})
	}
}

// playBrute is an independent evaluation for the hint tests: plain minimax
// over the kernel's legal moves, to the end of the game. It is only used on
// boards of up to 6 points, where positions never repeat (SEEDS.md: cycles
// appear from 7 points) and the whole tree is a few ten thousand
// games. It returns Black's margin under perfect play and the best moves of
// the player to move.
func playBrute(g *rules.Game) (value float64, best []rules.Move) {
	if o := g.Outcome(); o.Over() {
		return o.Margin, nil
	}
	sign := 1.0
	if g.Position().ToMove() == rules.White {
		sign = -1
	}
	bestV := math.Inf(-1)
	for _, m := range g.LegalMoves(nil) {
		if err := g.Play(m); err != nil {
			panic(err)
		}
		v, _ := playBrute(g)
		if err := g.Undo(); err != nil {
			panic(err)
		}
		switch {
		case sign*v > bestV:
			bestV, best = sign*v, []rules.Move{m}
		case sign*v == bestV:
			best = append(best, m)
		}
	}
	return sign * bestV, best
}

// hint names every best move the brute force finds and the value it
// proves, in words, and its example line is a game of that value.
func TestPlayHint(t *testing.T) {
	cases := []struct {
		name  string
		size  int
		moves []string // played before the hint
	}{
		{"5 points from the start", 5, nil},
		{"6 points after Baljeu's first two moves", 6, []string{"1", "4"}},
		{"6 points after Baljeu's first five moves", 6, []string{"1", "4", "5", "6", "2"}},
		{"6 points from the start", 6, nil},
	}
	hintRE := regexp.MustCompile(`Hint: best moves? ([^;]*); with perfect play (.*) \(for example (.*)\)\.\n`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rules.MustPreset("alak")
			r.SetSize(c.size, 1)
			g, err := rules.NewGame(r)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.moves {
				m, err := notation.Human.Decode(r, s)
				if err == nil {
					err = g.Play(m)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			value, best := playBrute(g.Clone())
			var wantBest []string
			for _, m := range best {
				wantBest = append(wantBest, notation.Human.Encode(r, m))
			}
			wantWords := "the game is a draw"
			switch {
			case value > 0:
				wantWords = fmt.Sprintf("Black wins by %v", value)
			case value < 0:
				wantWords = fmt.Sprintf("White wins by %v", -value)
			}

			input := strings.Join(append(c.moves, "hint"), "\n") + "\n"
			out, errOut, code := playSession(t, false, input, "--size", fmt.Sprint(c.size), "--white", "human", "--table-dir", "none")
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			sub := hintRE.FindStringSubmatch(out)
			if sub == nil {
				t.Fatalf("no hint in:\n%s", out)
			}
			if sub[1] != strings.Join(wantBest, ", ") || sub[2] != wantWords {
				t.Errorf("hint: best %s, %s; the brute force: best %s, %s", sub[1], sub[2], strings.Join(wantBest, ", "), wantWords)
			}
			line := g.Clone()
			for _, s := range strings.Fields(sub[3]) {
				m, err := notation.Human.Decode(r, s)
				if err == nil {
					err = line.Play(m)
				}
				if err != nil {
					t.Fatalf("example line %s: %s: %v", sub[3], s, err)
				}
			}
			if o := line.Outcome(); o.Over() && o.Margin != value {
				t.Errorf("example line %s ends %s, margin %v, not the value %v", sub[3], o, o.Margin, value)
			}
			if n := len(playMoves(out)); n != len(c.moves) {
				t.Errorf("%d moves announced, want %d: hint must not play", n, len(c.moves))
			}
		})
	}
}

// When the solver cannot finish in time, or cannot solve the board, hint
// says so in one sentence and the game goes on unchanged.
func TestPlayHintCannot(t *testing.T) {
	defer func(d time.Duration) { playHintTime = d }(playHintTime)
	playHintTime = 50 * time.Millisecond
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"too long", []string{"--size", "40"}, "No hint: the solver could not finish in 50ms ("},
		{"grid", []string{"--rules", "alterigo"}, "No hint: the solver handles boards of at most 64 points, not a 9x9 board.\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := playSession(t, false, "hint\n", append(c.args, "--table-dir", "none")...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			replies := playReplies(out)
			if len(replies) != 3 || !strings.HasPrefix(replies[1], c.want) || strings.Count(replies[1], "\n") != 1 {
				t.Errorf("reply %q, want one line starting %q", replies[1], c.want)
			}
		})
	}
}

// A game that ends by repetition (the alak preset's third occurrence of a
// position) ends the session with a draw. The moves come from
// seeded random playouts of the kernel, the first that repeats a position
// three times; SEEDS.md says positions repeat on boards of 7 or more points.
func TestPlayRepetitionDraw(t *testing.T) {
	r := rules.MustPreset("alak")
	r.SetSize(7, 1)
	var moves []string
	rng := rand.New(rand.NewPCG(1, 2))
	for try := 0; try < 100000 && moves == nil; try++ {
		g, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			ms := g.LegalMoves(nil)
			if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		if g.Outcome().Reason == rules.Repetition {
			for _, m := range g.Moves() {
				moves = append(moves, notation.Human.Encode(r, m))
			}
		}
	}
	if moves == nil {
		t.Fatal("no random game on 7 points ended by repetition")
	}
	out, errOut, code := playSession(t, false, strings.Join(moves, "\n")+"\n", "--size", "7", "--white", "human")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if n := len(playMoves(out)); n != len(moves) {
		t.Errorf("%d moves announced, want %d", n, len(moves))
	}
	if !strings.Contains(out, "Game over: draw by repetition. Stones: ") || !strings.HasSuffix(out, "Type save FILE to keep the record, or quit.\n> \n") {
		t.Errorf("no draw by repetition at the end of:\n%s", out[max(0, len(out)-400):])
	}
}

// save never overwrites a file: the existing file keeps its content and the
// game goes on unchanged.
func TestPlaySaveExisting(t *testing.T) {
	file := t.TempDir() + "/kept.sgf"
	if err := os.WriteFile(file, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := playSession(t, false, "1\nboard\nsave "+file+"\nboard\n", "--size", "6", "--white", "human")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	replies := playReplies(out)
	if want := "Could not save: " + file + " already exists; give a new file name.\n"; replies[3] != want {
		t.Errorf("reply %q, want %q", replies[3], want)
	}
	if replies[2] != replies[4] {
		t.Errorf("the board changed:\nbefore %q\nafter  %q", replies[2], replies[4])
	}
	if data, err := os.ReadFile(file); err != nil || string(data) != "keep me\n" {
		t.Errorf("the file now holds %q (%v), want it kept", data, err)
	}
}

// hint reads the solver's results table: with a table that a full solve of
// the 8-point board filled, it answers within a budget of 50 positions what
// the full solve found; without a table, the same budget is too small
// (solving 8 points searches thousands of positions). A table file it
// cannot read is reported and hint goes on without it.
func TestPlayHintTable(t *testing.T) {
	defer func(n int64) { playHintNodes = n }(playHintNodes)
	r := rules.MustPreset("alak")
	r.SetSize(8, 1)
	dir := t.TempDir()
	tab, err := solve.LoadTable(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	res, err := solve.Solve(context.Background(), g, solve.Options{Table: tab})
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Save(); err != nil {
		t.Fatal(err)
	}
	var best []string
	for _, m := range res.Best {
		best = append(best, notation.Human.Encode(r, m))
	}
	broken := t.TempDir()
	if err := os.WriteFile(broken+"/"+solve.FileName(r), []byte("not a table"), 0o644); err != nil {
		t.Fatal(err)
	}
	playHintNodes = 50
	cases := []struct {
		name, dir, want, stderr string
	}{
		{"with the table", dir, "Hint: best move" + map[bool]string{true: "s"}[len(best) > 1] + " " + strings.Join(best, ", ") + "; with perfect play " + session.ValueWords(r, res.Value) + " (for example ", ""},
		{"without a table", "none", "No hint: the solver could not finish within 50 positions.\n", ""},
		{"unreadable table", broken, "No hint: the solver could not finish within 50 positions.\n", "alak play: hint goes on without the results table: table " + broken},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := playSession(t, false, "hint\n", "--size", "8", "--table-dir", c.dir)
			if code != 0 || !strings.HasPrefix(errOut, c.stderr) || (c.stderr == "") != (errOut == "") {
				t.Fatalf("exit %d, stderr %q, want %q", code, errOut, c.stderr)
			}
			if replies := playReplies(out); len(replies) != 3 || !strings.HasPrefix(replies[1], c.want) {
				t.Errorf("reply %q, want it to start %q", replies[1], c.want)
			}
		})
	}
}
