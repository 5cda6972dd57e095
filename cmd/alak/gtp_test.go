package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"alak/gtp"
	"alak/notation"
	"alak/rules"
)

// gtpReply is one parsed GTP response.
type gtpReply struct {
	ok   bool   // "=" rather than "?"
	id   string // the id echoed, "" if none
	text string
}

func (r gtpReply) String() string {
	mark := "="
	if !r.ok {
		mark = "?"
	}
	return mark + r.id + " " + r.text
}

// gtpSession runs `alak gtp ARGS` on the given input lines and returns the
// responses. It fails the test unless the output is a sequence of GTP
// responses, each "=" or "?", an optional id, a space and the text, ended by
// an empty line (GTP v2, section 2.6), and the command exits with status 0.
func gtpSession(t *testing.T, args []string, lines ...string) []gtpReply {
	t.Helper()
	var out, errOut bytes.Buffer
	input := strings.Join(lines, "\n") + "\n"
	e := &env{stdin: strings.NewReader(input), stdout: &out, stderr: &errOut}
	if code := run(e, append([]string{"gtp"}, args...)); code != 0 {
		t.Fatalf("alak gtp %v: exit status %d, stderr %q", args, code, errOut.String())
	}
	return gtpParse(t, out.String())
}

func gtpParse(t *testing.T, out string) []gtpReply {
	t.Helper()
	if out == "" {
		return nil
	}
	if !strings.HasSuffix(out, "\n\n") {
		t.Fatalf("output does not end with an empty line: %q", out)
	}
	var replies []gtpReply
	for _, block := range strings.Split(strings.TrimSuffix(out, "\n\n"), "\n\n") {
		if block == "" || (block[0] != '=' && block[0] != '?') {
			t.Fatalf("response %q does not start with = or ?; output %q", block, out)
		}
		head, text, ok := strings.Cut(block[1:], " ")
		if !ok {
			t.Fatalf("response %q has no space after its mark and id", block)
		}
		if strings.Trim(head, "0123456789") != "" {
			t.Fatalf("response %q: %q is not an id", block, head)
		}
		replies = append(replies, gtpReply{ok: block[0] == '=', id: head, text: text})
	}
	return replies
}

// gtpLast runs a session and returns its last response.
func gtpLast(t *testing.T, args []string, lines ...string) gtpReply {
	t.Helper()
	rs := gtpSession(t, args, lines...)
	if len(rs) == 0 {
		t.Fatalf("no response to %q", lines)
	}
	return rs[len(rs)-1]
}

// gtpRow returns the line diagram in a showboard response on a line: its
// first row with the spacing removed.
func gtpRow(showboard string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(showboard, "\n"), "\n")
	return strings.ReplaceAll(first, " ", "")
}

var gtpSeed = []string{"--seed", "1"}

// The commands of GTP 2 and the extensions docs/gtp.md lists, in the order
// list_commands gives them.
var gtpWantCommands = []string{
	"protocol_version", "name", "version", "known_command", "list_commands", "quit",
	"boardsize", "rectangular_boardsize", "clear_board", "komi", "play", "genmove",
	"undo", "showboard", "final_score", "alak-rules",
	"gogui-rules_game_id", "gogui-rules_board_size", "gogui-rules_board",
	"gogui-rules_legal_moves", "gogui-rules_side_to_move", "gogui-rules_final_result",
	"gogui-analyze_commands",
}

// TestGTPCommands checks the answer to every command on a fresh engine
// (alak rules, 11 points unless the case changes them).
func TestGTPCommands(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		lines []string
		want  string // the text of the last response, which must succeed
	}{
		// GTP v2 section 6.3.1: protocol_version answers 2.
		{"protocol_version", nil, []string{"protocol_version"}, "2"},
		{"name", nil, []string{"name"}, "alak"},
		{"known_command known", nil, []string{"known_command genmove"}, "true"},
		{"known_command any case", nil, []string{"known_command ALAK-RULES"}, "true"},
		{"known_command unknown", nil, []string{"known_command loadsgf"}, "false"},
		{"list_commands", nil, []string{"list_commands"}, strings.Join(gtpWantCommands, "\n")},
		{"quit", nil, []string{"quit"}, ""},
		// GTP v2 section 6.3.2: boardsize N is an N×N board; 3×3 has 9 points.
		{"boardsize", []string{"--rules", "alterigo"}, []string{"boardsize 3", "gogui-rules_legal_moves"}, "A3 B3 C3 A2 B2 C2 A1 B1 C1"},
		// On a line, boardsize of the line's own length is a new game there.
		{"boardsize of the line", []string{"--size", "3"}, []string{"play b A1", "boardsize 3", "gogui-rules_legal_moves"}, "A1 B1 C1"},
		// KataGo's extension: rectangular_boardsize WIDTH HEIGHT; a line is one row.
		{"rectangular_boardsize line", nil, []string{"rectangular_boardsize 4 1", "gogui-rules_legal_moves"}, "A1 B1 C1 D1"},
		{"rectangular_boardsize grid", nil, []string{"rectangular_boardsize 3 2", "gogui-rules_legal_moves"}, "A2 B2 C2 A1 B1 C1"},
		{"clear_board", []string{"--size", "3"}, []string{"play b B1", "clear_board", "gogui-rules_legal_moves"}, "A1 B1 C1"},
		// Under tromp-taylor on 3 points, b A1 leaves B1 and C1 to Black by
		// area: 3-0 before komi, so komi 1.5 leaves B+1.5.
		{"komi", []string{"--rules", "tromp-taylor", "--size", "3"}, []string{"play b A1", "komi 1.5", "final_score"}, "B+1.5"},
		{"play", []string{"--size", "3"}, []string{"play b B1", "gogui-rules_legal_moves"}, "A1 C1"},
		{"play colour words", []string{"--size", "3"}, []string{"play BLACK b1", "play White a1", "gogui-rules_side_to_move"}, "black"},
		// GTP v2 section 6.3.3: a colour may play twice; White is to move.
		{"play same colour twice", []string{"--size", "5"}, []string{"play b A1", "play b E1", "gogui-rules_board"}, ".....\n.....\n.....\n.....\nX...X"},
		{"genmove for the colour not to move", []string{"--size", "1"}, []string{"genmove w"}, "A1"},
		{"genmove", []string{"--size", "1"}, []string{"genmove b"}, "A1"},
		{"undo", []string{"--size", "3"}, []string{"play b B1", "undo", "gogui-rules_legal_moves"}, "A1 B1 C1"},
		// notation.Board on 4 points after b B1: the diagram -X-- in
		// two-character columns, numbers and letters beneath, the status.
		{"showboard", []string{"--size", "4"}, []string{"play b B1", "showboard"},
			"\n - X - -\n 1 2 3 4\n a b c d\nWhite (o) to move. Stones: x 1, o 0."},
		// An unfinished alak game counts stones as they stand: 1-0.
		{"final_score unfinished", []string{"--size", "3"}, []string{"play b B1", "final_score"}, "B+1"},
		{"alak-rules query", nil, []string{"alak-rules"}, "alak"},
		{"alak-rules set", nil, []string{"alak-rules traditional size=5 komi=0.5"}, "traditional size=5 komi=0.5"},
		{"alak-rules preset size", []string{"--size", "5"}, []string{"alak-rules alterigo"}, "alterigo"},
		{"gogui-rules_legal_moves", []string{"--size", "2"}, []string{"gogui-rules_legal_moves"}, "A1 B1"},
		// Under traditional rules passing is a legal move.
		{"gogui-rules_legal_moves with pass", []string{"--rules", "traditional", "--size", "2"}, []string{"gogui-rules_legal_moves"}, "A1 B1 pass"},
		// dewdney's start on 11 slots is xxxx___oooo: the pieces beside
		// the gap reach its near side only; the others jump to E1 or G1.
		{"gogui-rules_legal_moves slides", []string{"--rules", "dewdney"}, []string{"gogui-rules_legal_moves"}, "A1-E1 B1-E1 C1-E1 D1-E1"},
		{"gogui-rules_side_to_move", nil, []string{"play b A1", "gogui-rules_side_to_move"}, "white"},
		{"gogui-rules_final_result", nil, []string{"gogui-rules_final_result"}, "unknown"},
		{"gogui-rules_game_id", nil, []string{"gogui-rules_game_id"}, "alak"},
		{"gogui-rules_board_size", nil, []string{"gogui-rules_board_size"}, "11"},
		{"gogui-rules_board", []string{"--rules", "alterigo", "--size", "3x3"}, []string{"play b A3", "play w C1", "gogui-rules_board"}, "X..\n...\n..O"},
		{"gogui-analyze_commands", nil, []string{"gogui-analyze_commands"},
			"string/Rules/alak-rules\nstring/Legal moves/gogui-rules_legal_moves\nstring/Side to move/gogui-rules_side_to_move\nstring/Final score/final_score\nstring/Final result/gogui-rules_final_result"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs := gtpSession(t, append(append([]string{}, gtpSeed...), tc.args...), tc.lines...)
			if len(rs) != len(tc.lines) {
				t.Fatalf("%d responses to %d commands: %v", len(rs), len(tc.lines), rs)
			}
			for i, r := range rs {
				if !r.ok {
					t.Fatalf("%q failed: %s", tc.lines[i], r.text)
				}
			}
			if got := rs[len(rs)-1].text; got != tc.want {
				t.Errorf("%q answered %q, want %q", tc.lines[len(tc.lines)-1], got, tc.want)
			}
		})
	}
	t.Run("version", func(t *testing.T) {
		r := gtpLast(t, nil, "version")
		if !r.ok || r.text == "" || strings.ContainsAny(r.text, " \n") {
			t.Errorf("version answered %v, want one word", r)
		}
	})
	t.Run("every command is covered", func(t *testing.T) {
		if got := gtp.Commands(); !slices.Equal(got, gtpWantCommands) {
			t.Errorf("gtp.Commands() = %v, want %v", got, gtpWantCommands)
		}
	})
}

// TestGTPProtocol checks ids, comments, empty lines and the other rules of
// GTP v2 sections 2.5 to 2.10 and 3.1 on whole inputs.
func TestGTPProtocol(t *testing.T) {
	cases := []struct {
		name  string
		input string
		want  []string // each response as gtpReply.String writes it
	}{
		{"id echoed", "12 name\n", []string{"=12 alak"}},
		{"id on a failure", "3 nonsense\n", []string{`?3 unknown command "nonsense": list_commands lists the 23 commands this engine knows`}},
		{"id zero", "0 protocol_version\n", []string{"=0 2"}},
		{"comment and blank lines ignored", "# a comment\n\n   \nname # trailing\n", []string{"= alak"}},
		{"tabs and spaces separate", "\t7\tknown_command\t \tplay\n", []string{"=7 true"}},
		{"carriage returns dropped", "name\r\nprotocol_version\r\n", []string{"= alak", "= 2"}},
		{"control characters dropped", "na\x01me\x7f\n", []string{"= alak"}},
		{"command names in any case", "NAME\nProtocol_Version\n", []string{"= alak", "= 2"}},
		{"id without command", "5\n", []string{"?5 syntax error: the line has an id but no command: write [ID] COMMAND [ARGUMENTS]"}},
		{"quit ends the session", "1 quit\nname\n", []string{"=1 "}},
		{"end of input ends the session", "name", []string{"= alak"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			e := &env{stdin: strings.NewReader(tc.input), stdout: &out, stderr: &errOut}
			if code := run(e, []string{"gtp", "--seed", "1"}); code != 0 {
				t.Fatalf("exit status %d, stderr %q", code, errOut.String())
			}
			var got []string
			for _, r := range gtpParse(t, out.String()) {
				got = append(got, r.String())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("responses %q, want %q", got, tc.want)
			}
		})
	}
}

// TestGTPBadInput checks that every kind of bad command fails with a
// message that says what was wrong and what is accepted, and changes
// nothing: the rules, the board, the side to move and the history are the
// same before and after.
func TestGTPBadInput(t *testing.T) {
	// The set-up: 6 points, b C1 w B1 b A1 captures B1 (flanked by A1 and
	// C1), so B1 is forbidden to White (Baljeu's rule): X/x---, White to move.
	setup := []string{"alak-rules alak size=6", "play b C1", "play w B1", "play b A1"}
	state := []string{"alak-rules", "showboard", "gogui-rules_legal_moves", "final_score"}
	cases := []struct {
		name, cmd string
		want      []string // phrases the failure message must contain
	}{
		{"unknown command", "frobnicate", []string{"unknown command", "list_commands"}},
		{"too few arguments", "play b", []string{"syntax error", "play COLOR MOVE"}},
		{"too many arguments", "genmove b w", []string{"syntax error", "genmove COLOR"}},
		{"bad colour", "play x D1", []string{"not a colour", "b, black, w or white"}},
		{"bad vertex", "play w 4", []string{"not a GTP vertex", "such as C1"}},
		{"column I is skipped", "play w I1", []string{"not a GTP vertex", "without I"}},
		{"vertex off the line", "play w G1", []string{"off the 6 board"}},
		{"row off the line", "play w D2", []string{"off the 6 board"}},
		{"occupied point", "play w A1", []string{"illegal move A1", "occupied"}},
		{"point just captured", "play w B1", []string{"illegal move B1", "forbidden"}},
		{"pass not allowed", "play w pass", []string{"illegal move pass", "passing is not allowed"}},
		{"slide under placement rules", "play w D1-E1", []string{"not a GTP vertex"}},
		{"boardsize on a line", "boardsize 9", []string{"unacceptable size", "line of 6 points", "rectangular_boardsize N 1", "alak-rules alterigo size=9x9"}},
		{"boardsize zero", "boardsize 0", []string{"unacceptable size", "rectangular_boardsize N 1"}},
		{"boardsize too large", "boardsize 20", []string{"unacceptable size", "up to 19×19"}},
		{"boardsize not a number", "boardsize nine", []string{"syntax error", "whole number"}},
		{"line too long", "rectangular_boardsize 65 1", []string{"unacceptable size 65×1", "1 to 64"}},
		{"column instead of row", "rectangular_boardsize 1 6", []string{"unacceptable size 1×6", "rectangular_boardsize 6 1"}},
		{"rectangle not numbers", "rectangular_boardsize 9 x", []string{"syntax error", "whole numbers"}},
		{"komi not a number", "komi seven", []string{"syntax error", "komi"}},
		{"unknown preset", "alak-rules chess", []string{"unknown rules", "alak, traditional"}},
		{"bad option", "alak-rules alak ko=sometimes", []string{"ko=", "accepted values"}},
		{"option without value", "alak-rules alak edge", []string{"NAME=VALUE"}},
		{"bad size option", "alak-rules alak size=0", []string{"size="}},
	}
	baseline := gtpSession(t, gtpSeed, append(setup, state...)...)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs := gtpSession(t, gtpSeed, append(append(setup, tc.cmd), state...)...)
			bad := rs[len(setup)]
			if bad.ok {
				t.Fatalf("%q succeeded with %q, want a failure", tc.cmd, bad.text)
			}
			for _, w := range tc.want {
				if !strings.Contains(bad.text, w) {
					t.Errorf("%q failed with %q, which does not mention %q", tc.cmd, bad.text, w)
				}
			}
			if got, want := rs[len(setup)+1:], baseline[len(setup):]; !slices.Equal(got, want) {
				t.Errorf("after %q the state is %v, want it unchanged: %v", tc.cmd, got, want)
			}
		})
	}
	t.Run("undo at the start", func(t *testing.T) {
		r := gtpLast(t, gtpSeed, "undo")
		if r.ok || !strings.Contains(r.text, "cannot undo") {
			t.Errorf("undo on an empty board answered %v, want a failure saying it cannot undo", r)
		}
	})
	t.Run("sliding rules take no grid", func(t *testing.T) {
		r := gtpLast(t, []string{"--rules", "golf", "--seed", "1"}, "boardsize 9")
		if r.ok || !strings.Contains(r.text, "rectangular_boardsize N 1") {
			t.Errorf("boardsize 9 under golf answered %v, want a failure pointing to a line", r)
		}
	})
	t.Run("finished game", func(t *testing.T) {
		// On 1 point Black's A1 ends the game: White has no point left.
		rs := gtpSession(t, []string{"--size", "1", "--seed", "1"}, "play b A1", "play w A1", "play w pass", "genmove w", "final_score")
		want := []gtpReply{{ok: true}, {ok: false}, {ok: true}, {ok: true, text: "pass"}, {ok: true, text: "B+1"}}
		if rs[1].ok || !strings.Contains(rs[1].text, "the game is over") {
			t.Errorf("play after the end answered %v, want a failure saying the game is over", rs[1])
		}
		rs[1].text = ""
		if !slices.Equal(rs, want) {
			t.Errorf("responses %v, want %v", rs, want)
		}
	})
}

// gtpBaljeu6 is Baljeu's annotated Alak-6 game (seed 002): the moves as
// points 1..6 and the diagram after each, as the post prints them.
var gtpBaljeu6 = []struct {
	point   int
	diagram string
}{
	{1, "X-----"}, {4, "x--O--"}, {5, "x--oX-"}, {6, "x--o/O"}, {2, "xX-o-o"},
	{3, "//Oo-o"}, {5, "--ooX/"}, {1, "O-oox-"}, {2, "/X//x-"}, {6, "-x--xO"},
	{4, "-x-Xxo"}, {3, "-xO//o"}, {1, "Xxo--o"}, {5, "xxo-Oo"}, {4, "xx/X//"},
}

// TestGTPBaljeuAlak6 plays the seed's Alak-6 game through GTP vertices (point
// n is column n on row 1: A1 D1 E1 F1 B1 C1 E1 A1 B1 F1 D1 C1 A1 E1 D1) and
// checks every diagram against the seed, that White's tenth move was forced,
// and the final 3-0.
func TestGTPBaljeu6(t *testing.T) {
	lines := []string{"alak-rules alak size=6"}
	for i, m := range gtpBaljeu6 {
		if i == 9 {
			lines = append(lines, "gogui-rules_legal_moves")
		}
		color := []string{"b", "w"}[i%2]
		lines = append(lines, fmt.Sprintf("play %s %s1", color, string(rune('A'+m.point-1))), "showboard")
	}
	lines = append(lines, "final_score", "gogui-rules_final_result", "gogui-rules_legal_moves", "gogui-rules_side_to_move")
	rs := gtpSession(t, gtpSeed, lines...)
	for i, r := range rs {
		if !r.ok {
			t.Fatalf("%q failed: %s", lines[i], r.text)
		}
	}
	rs = rs[1:]
	for i, m := range gtpBaljeu6 {
		if i == 9 {
			// Seed 002: "-x--xO (forced)": White's only legal point is 6.
			if rs[0].text != "F1" {
				t.Errorf("before move 10 White's legal moves are %q, want F1 only (the seed: forced)", rs[0].text)
			}
			rs = rs[1:]
		}
		if got := gtpRow(rs[1].text); got != m.diagram {
			t.Errorf("after move %d (%d) the board is %s, want %s (seed 002)", i+1, m.point, got, m.diagram)
		}
		rs = rs[2:]
	}
	// Seed 002 ends "xx/X//  3-0": Black wins by 3, White cannot move.
	want := []string{"B+3", "black", "", "white"}
	for i, w := range want {
		if rs[i].text != w {
			t.Errorf("%q answered %q, want %q", lines[len(lines)-len(want)+i], rs[i].text, w)
		}
	}
}

// TestGTPAlterIgo plays Alter Igo (seed 004) through GTP: the rules' two
// distinctive points on small boards, then a whole 9x9 game by genmove,
// refereed by the kernel.
func TestGTPAlterIgo(t *testing.T) {
	t.Run("the capturing string is removed too", func(t *testing.T) {
		// Rule 4: Black's A2 takes the last liberty of White's A1 and has
		// none itself (A1, A3 and B2 are White's): both strings are removed,
		// while B1 (liberty C1), A3 and B2 stay.
		rs := gtpSession(t, gtpSeed, "alak-rules alterigo", "play b B1", "play w A1", "play b E5", "play w A3", "play b F5", "play w B2", "play b A2", "showboard")
		rows := strings.Split(strings.ReplaceAll(rs[8].text, " ", ""), "\n")
		if got, want := rows[7:10], []string{"3o--------", "2/o-------", "1/x-------"}; !slices.Equal(got, want) {
			t.Errorf("rows 3 to 1 after Black's A2 are %q, want %q", got, want)
		}
	})
	t.Run("a move that changes nothing loses", func(t *testing.T) {
		// Rule 5: White's A1 between Black's B1 and A2 is removed at once,
		// leaving the board as it was: White loses.
		rs := gtpSession(t, gtpSeed, "alak-rules alterigo", "rectangular_boardsize 9 9", "play b B1", "play w E5", "play b A2", "play w A1", "gogui-rules_final_result", "final_score")
		if rs[6].text != "black" || rs[7].text != "B+" {
			t.Errorf("after White's unchanging A1: final_result %q, final_score %q; want black, B+", rs[6].text, rs[7].text)
		}
	})
	t.Run("a 9x9 game by genmove", func(t *testing.T) {
		// Plays genmove in turn for up to 300 moves in one session, then
		// replays the answers on the kernel to check each was legal and the
		// result the engine reports.
		lines := []string{"alak-rules alterigo", "rectangular_boardsize 9 9"}
		const plies = 300
		for i := range plies {
			lines = append(lines, "genmove "+[]string{"b", "w"}[i%2])
		}
		lines = append(lines, "gogui-rules_final_result", "final_score")
		rs := gtpSession(t, []string{"--player", "random", "--seed", "7"}, lines...)
		g, err := rules.NewGame(rules.MustPreset("alterigo"))
		if err != nil {
			t.Fatal(err)
		}
		r := g.Rules()
		for i, reply := range rs[2 : 2+plies] {
			if !reply.ok {
				t.Fatalf("genmove %d failed: %s", i+1, reply.text)
			}
			if g.Over() {
				if reply.text != "pass" {
					t.Fatalf("genmove %d after the end answered %q, want pass", i+1, reply.text)
				}
				continue
			}
			m, err := notation.GTP.Decode(r, reply.text)
			if err != nil {
				t.Fatalf("genmove %d answered %q: %v", i+1, reply.text, err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("genmove %d answered %q, illegal on the kernel: %v", i+1, reply.text, err)
			}
		}
		o := g.Outcome()
		wantResult := map[rules.Color]string{rules.Black: "black", rules.White: "white", rules.None: "draw"}[o.Winner]
		if !o.Over() {
			wantResult = "unknown"
		}
		if got := rs[2+plies].text; got != wantResult {
			t.Errorf("final_result %q, want %q (the kernel's outcome %v after %d moves)", got, wantResult, o, g.Len())
		}
		if o.Over() && rs[3+plies].text != notation.ResultString(o) {
			t.Errorf("final_score %q, want %q", rs[3+plies].text, notation.ResultString(o))
		}
	})
}

// TestGTPHelperEngine is not a test: it is the engine process that
// TestGTPEnginesPlayEachOther starts (the test binary run again), with the
// arguments of `alak gtp` in ALAK_GTP_HELPER. Run normally it skips.
func TestGTPHelperEngine(t *testing.T) {
	args, ok := os.LookupEnv("ALAK_GTP_HELPER")
	if !ok {
		t.Skip("the engine process of TestGTPEnginesPlayEachOther")
	}
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	os.Exit(run(e, append([]string{"gtp"}, strings.Fields(args)...)))
}

// gtpStartEngine starts `alak gtp ARGS` as a subprocess through the client.
func gtpStartEngine(t *testing.T, args string) *gtp.Client {
	t.Helper()
	t.Setenv("ALAK_GTP_HELPER", args)
	t.Setenv("GORACE", "atexit_sleep_ms=0") // under -race, no second's pause at exit
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := gtp.Start(ctx, os.Args[0], "-test.run=^TestGTPHelperEngine$")
	if err != nil {
		t.Fatalf("starting alak gtp %s: %v", args, err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("closing alak gtp %s: %v", args, err)
		}
	})
	return c
}

// TestGTPEnginesPlayEachOther runs two `alak gtp` processes, random as Black
// and greedy as White, and relays each one's genmove to the other with play,
// as a GTP arena does, refereed by the kernel. Both engines must agree with
// the referee on every move and on the result.
func TestGTPEnginesPlayEachOther(t *testing.T) {
	for _, size := range []string{"11", "6"} {
		t.Run("alak size "+size, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			engines := [2]*gtp.Client{
				gtpStartEngine(t, "--player random --seed 3 --size "+size),
				gtpStartEngine(t, "--player greedy --seed 4 --size "+size),
			}
			r := rules.MustPreset("alak")
			if err := r.Set("size", size); err != nil {
				t.Fatal(err)
			}
			ref, err := rules.NewGame(r)
			if err != nil {
				t.Fatal(err)
			}
			do := func(c *gtp.Client, cmd string, args ...string) string {
				t.Helper()
				text, err := c.Command(ctx, cmd, args...)
				if err != nil {
					t.Fatalf("%s %v: %v", cmd, args, err)
				}
				return text
			}
			for ply := 0; !ref.Over(); ply++ {
				if ply > 500 {
					t.Fatal("no end after 500 moves")
				}
				side := ref.Position().ToMove()
				color := []string{"b", "w"}[side]
				mover, other := engines[side], engines[1-side]
				mv := do(mover, "genmove", color)
				m, err := notation.GTP.Decode(r, mv)
				if err != nil {
					t.Fatalf("move %d: genmove %s answered %q: %v", ply+1, color, mv, err)
				}
				if err := ref.Play(m); err != nil {
					t.Fatalf("move %d: genmove %s answered %s, illegal: %v", ply+1, color, mv, err)
				}
				do(other, "play", color, mv)
			}
			want := notation.ResultString(ref.Outcome())
			for i, c := range engines {
				if got := do(c, "final_score"); got != want {
					t.Errorf("engine %d: final_score %q, want the referee's %q", i, got, want)
				}
			}
			if a, b := do(engines[0], "showboard"), do(engines[1], "showboard"); a != b {
				t.Errorf("the engines' boards differ:\n%s\n%s", a, b)
			}
		})
	}
}

func TestGTPFlags(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"unknown player", []string{"--player", "oracle"}, "unknown player"},
		{"bad rules", []string{"--rules", "chess"}, "unknown rules"},
		{"bad size", []string{"--size", "0"}, "size"},
		{"stray argument", []string{"moves.sgf"}, "standard input"},
		{"unknown flag", []string{"--colour"}, "flag provided but not defined"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			e := &env{stdin: strings.NewReader("name\n"), stdout: &out, stderr: &errOut}
			if code := run(e, append([]string{"gtp"}, tc.args...)); code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			if !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("stderr %q does not mention %q", errOut.String(), tc.want)
			}
			if out.Len() != 0 {
				t.Errorf("stdout %q, want nothing: the engine must not start", out.String())
			}
		})
	}
	t.Run("flags set the rules", func(t *testing.T) {
		r := gtpLast(t, []string{"--rules", "traditional", "--size", "7", "--komi", "0.5", "--seed", "1"}, "alak-rules")
		if r.text != "traditional size=7 komi=0.5" {
			t.Errorf("alak-rules answered %q, want traditional size=7 komi=0.5", r.text)
		}
	})
	t.Run("same seed, same moves", func(t *testing.T) {
		lines := []string{"genmove b", "genmove w", "genmove b", "genmove w"}
		a := gtpSession(t, []string{"--player", "random", "--seed", "9"}, lines...)
		b := gtpSession(t, []string{"--player", "random", "--seed", "9"}, lines...)
		if !slices.Equal(a, b) {
			t.Errorf("two runs with --seed 9 played %v and %v", a, b)
		}
	})
}

// gtpDocBlock returns the first code block after the heading line that
// starts with heading in the Markdown file path: its first line (the
// command, after "$ ") and the lines after it.
func gtpDocBlock(t *testing.T, path, heading string) (command string, body []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n"+heading)
	if !ok {
		t.Fatalf("%s has no heading %q", path, heading)
	}
	_, after, ok = strings.Cut(after, "\n```")
	if !ok {
		t.Fatalf("%s: no code block after %q", path, heading)
	}
	block, _, ok := strings.Cut(after, "\n```")
	if !ok {
		t.Fatalf("%s: the code block after %q does not end", path, heading)
	}
	lines := strings.Split(block, "\n")[1:] // the rest of the opening fence's line goes
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "$ ") {
		t.Fatalf("%s: the code block after %q does not start with a $ command", path, heading)
	}
	return strings.TrimPrefix(lines[0], "$ "), lines[1:]
}

// gtpRunText runs `alak gtp ARGS` on input and returns its output.
func gtpRunText(t *testing.T, args []string, input string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(input), stdout: &out, stderr: &errOut}
	if code := run(e, append([]string{"gtp"}, args...)); code != 0 {
		t.Fatalf("alak gtp %v: exit status %d, stderr %q", args, code, errOut.String())
	}
	return out.String()
}

// TestGTPReadmeExample runs the `alak gtp` example of the README and of
// docs/commands.md, a printf of commands piped into `./alak gtp ARGS`, and
// checks that the output each shows is exactly what the command prints
// (but for the empty line that ends the last response, which the code
// block cannot end with).
func TestGTPReadmeExample(t *testing.T) {
	for _, doc := range []struct{ path, heading string }{
		{"../../README.md", "### `alak gtp`"},
		{"../../docs/commands.md", "## `alak gtp`"},
	} {
		t.Run(doc.path, func(t *testing.T) {
			command, body := gtpDocBlock(t, doc.path, doc.heading)
			const pipe = " | ./alak gtp"
			printf, args, ok := strings.Cut(command, pipe)
			if !ok || !strings.HasPrefix(printf, "printf '") || !strings.HasSuffix(printf, "'") {
				t.Fatalf("the example %q is not printf '...'%s ARGS", command, pipe)
			}
			if !strings.Contains(args, "--seed") {
				t.Errorf("the example %q has no --seed, so its genmove is not reproducible", command)
			}
			input := strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(printf, "printf '"), "'"), `\n`, "\n")
			got := gtpRunText(t, strings.Fields(args), input)
			if want := strings.Join(body, "\n") + "\n\n"; got != want {
				t.Errorf("%s shows\n%s\nbut %s prints\n%s", doc.path, want, command, got)
			}
		})
	}
}

// TestGTPDocsExample runs the example sessions of docs/gtp.md: the lines
// that start with an id are the commands, the others the output (but for
// the empty line that ends the last response).
func TestGTPDocsExample(t *testing.T) {
	for _, heading := range []string{"## Example session", "## More examples"} {
		t.Run(heading, func(t *testing.T) {
			command, body := gtpDocBlock(t, "../../docs/gtp.md", heading)
			args, ok := strings.CutPrefix(command, "alak gtp ")
			if !ok || !strings.Contains(args, "--seed") {
				t.Fatalf("the example %q is not alak gtp ARGS with a --seed", command)
			}
			var input, want strings.Builder
			for _, l := range body {
				if l != "" && l[0] >= '0' && l[0] <= '9' {
					input.WriteString(l + "\n")
					continue
				}
				want.WriteString(l + "\n")
			}
			if got := gtpRunText(t, strings.Fields(args), input.String()); got != want.String()+"\n" {
				t.Errorf("docs/gtp.md shows\n%s\nbut %s prints\n%s", want.String(), command, got)
			}
		})
	}
}

// gtpLongReader yields n bytes of 'a', then the rest.
type gtpLongReader struct {
	n    int
	rest io.Reader
}

func (r *gtpLongReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return r.rest.Read(p)
	}
	k := min(len(p), r.n)
	for i := range k {
		p[i] = 'a'
	}
	r.n -= k
	return k, nil
}

// TestGTPLongLine checks that `alak gtp` answers a 10 MB line with a short
// failure instead of echoing it, and goes on.
func TestGTPLongLine(t *testing.T) {
	var out, errOut bytes.Buffer
	in := io.MultiReader(strings.NewReader("3 komi "), &gtpLongReader{n: 10 << 20, rest: strings.NewReader("\n4 name\n")})
	e := &env{stdin: in, stdout: &out, stderr: &errOut}
	if code := run(e, []string{"gtp", "--seed", "1"}); code != 0 {
		t.Fatalf("exit status %d, stderr %q", code, errOut.String())
	}
	if out.Len() > 300 {
		t.Fatalf("alak gtp answered a 10 MB line with %d bytes, want a short failure", out.Len())
	}
	rs := gtpParse(t, out.String())
	if len(rs) != 2 || rs[0].ok || rs[0].id != "3" || !strings.Contains(rs[0].text, "longer than 65536 bytes") || rs[1].String() != "=4 alak" {
		t.Errorf("responses %v, want a failure for the long line saying the limit, then =4 alak", rs)
	}
}
