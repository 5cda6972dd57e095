package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"alak/puzzle"
)

// puzzlesJSON runs alak puzzles with --json and decodes its output, each
// puzzle through puzzle.Decode (which checks that it holds together).
func puzzlesJSON(t *testing.T, args ...string) (puzzlesOutput, []*puzzle.Puzzle) {
	t.Helper()
	out, errOut, code := runWith(t, "", -1, append([]string{"puzzles", "--json", "--table-dir", "none"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: status %d, stderr %q", args, code, errOut)
	}
	var raw struct {
		puzzlesOutput
		Puzzles []json.RawMessage `json:"puzzles"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	var ps []*puzzle.Puzzle
	for _, b := range raw.Puzzles {
		p, err := puzzle.Decode(b)
		if err != nil {
			t.Fatalf("%v: a puzzle does not decode: %v\n%s", args, err, b)
		}
		ps = append(ps, p)
	}
	return raw.puzzlesOutput, ps
}

func ids(ps []*puzzle.Puzzle) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

// TestPuzzlesCommand makes puzzles from each source; every one is checked
// by the command's second method (none rejected) and decodes, and the
// same seed gives the same puzzles.
func TestPuzzlesCommand(t *testing.T) {
	t.Run("selfplay", func(t *testing.T) {
		o, ps := puzzlesJSON(t, "--rules", "alak", "--size", "7", "--count", "4", "--seed", "5")
		if len(ps) != 4 || o.Rules != "alak size=7" || o.Source != "selfplay" || o.Verified != 4 || o.Rejected != 0 || o.Unchecked != 0 || o.Stats.Puzzles != 4 {
			t.Fatalf("%+v, %d puzzles", o, len(ps))
		}
		for _, p := range ps {
			if p.Rules != "alak size=7" || p.Source.Kind != puzzle.SourceSelfPlay {
				t.Errorf("puzzle %s: rules %s source %+v", p.ID, p.Rules, p.Source)
			}
		}
		_, again := puzzlesJSON(t, "--rules", "alak", "--size", "7", "--count", "4", "--seed", "5")
		if !slices.Equal(ids(ps), ids(again)) {
			t.Errorf("seed 5 twice: %v, then %v", ids(ps), ids(again))
		}
	})
	t.Run("theme", func(t *testing.T) {
		_, ps := puzzlesJSON(t, "--rules", "dewdney", "--size", "7", "--count", "2", "--theme", "end-in")
		if len(ps) != 2 {
			t.Fatalf("%d puzzles", len(ps))
		}
		for _, p := range ps {
			if !p.HasTheme("end-in") || p.End != puzzle.EndOver {
				t.Errorf("puzzle %s: themes %v end %s", p.ID, p.Themes, p.End)
			}
		}
	})
	t.Run("table", func(t *testing.T) {
		o, ps := puzzlesJSON(t, "--rules", "alak", "--size", "8", "--source", "table", "--count", "3")
		if len(ps) != 3 || o.Verified != 3 {
			t.Fatalf("%+v, %d puzzles", o, len(ps))
		}
		for _, p := range ps {
			if p.Source.Kind != puzzle.SourceTable || p.Start == "" || len(p.Moves) != 0 {
				t.Errorf("puzzle %s: source %+v start %q moves %v", p.ID, p.Source, p.Start, p.Moves)
			}
		}
	})
	// Baljeu's Alak-6 game (seed S2): its mistakes at moves 3, 4 and 8
	// (puzzle/sources_test.go) give the puzzles, the first after 1 4.
	t.Run("games", func(t *testing.T) {
		o, ps := puzzlesJSON(t, "--source", "games", "--count", "20", "testdata/replay/alak6.sgf")
		if len(ps) == 0 || o.Stats.Games != 1 || o.Rejected != 0 {
			t.Fatalf("%+v, %d puzzles", o, len(ps))
		}
		if p := ps[0]; p.Source.Kind != puzzle.SourceGame || p.Source.Ply != 2 || !p.Source.Mistake || p.Source.Played != "5" {
			t.Errorf("first puzzle: %+v", p.Source)
		}
	})
	t.Run("traditional", func(t *testing.T) {
		o, ps := puzzlesJSON(t, "--rules", "traditional", "--size", "4", "--count", "2")
		if len(ps) != 2 || o.Verified != 2 {
			t.Fatalf("%+v, %d puzzles", o, len(ps))
		}
	})
}

// TestPuzzlesText: the text output names each puzzle's position, goal,
// answer and line, and what was tried.
func TestPuzzlesText(t *testing.T) {
	out, errOut, code := runWith(t, "", -1, "puzzles", "--rules", "alak", "--size", "6", "--count", "1", "--table-dir", "none")
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"1. ", "alak size=6", "to move and ", "answer ", "line ", "themes ", "1 puzzle from 1 self-play game", "1 verified by a second method, 0 rejected"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// TestPuzzlesErrors: bad input gets one sentence saying what is accepted,
// and exit status 2.
func TestPuzzlesErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rules", "alak", "--size", "17"}, "beyond the puzzles' reach: alak size=17: puzzles are made on boards of at most 12 points"},
		{[]string{"--rules", "traditional", "--size", "7"}, "at most 5 points under these rules (by the search with prisoners)"},
		{[]string{"--rules", "alterigo", "--size", "4x4"}, "at most 9 points under these rules (by the state graph)"},
		{[]string{"--rules", "traditional", "--size", "4", "--source", "table"}, "--source table samples the dense table"},
		{[]string{"--source", "games"}, "none was given"},
		{[]string{"--source", "games", "--size", "5", "testdata/replay/alak6.sgf"}, "--size: a record FILE carries its own rules"},
		{[]string{"--source", "games", "testdata/no-such-file.sgf"}, "no-such-file.sgf"},
		{[]string{"--source", "web"}, `--source "web": want selfplay, table or games`},
		{[]string{"--theme", "mate"}, `--theme: theme "mate": want one of`},
		{[]string{"--count", "0"}, "--count 0: want 1 to 10000"},
		{[]string{"--moves", "40"}, "--moves 40: want 1 to 16"},
		{[]string{"--size", "5", "x.sgf"}, "files are read with --source games"},
	} {
		_, errOut, code := runWith(t, "", -1, append([]string{"puzzles", "--table-dir", "none"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q; want %q", c.args, code, errOut, c.want)
		}
	}
}

// TestPuzzlesDocExamples runs the alak puzzles examples of the README,
// docs/commands.md and docs/puzzles.md (each console block's command,
// without a table directory) and compares the output with the text shown;
// each document must show at least one.
func TestPuzzlesDocExamples(t *testing.T) {
	for _, path := range []string{"../../README.md", "../../docs/commands.md", "../../docs/puzzles.md"} {
		found := 0
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i, line := range lines {
			cmd, ok := strings.CutPrefix(line, "$ ./alak puzzles ")
			if !ok {
				continue
			}
			var want []string
			for _, l := range lines[i+1:] {
				if strings.HasPrefix(l, "```") {
					break
				}
				want = append(want, l)
			}
			args := append([]string{"puzzles"}, strings.Fields(cmd)...)
			if !slices.Contains(args, "--table-dir") {
				args = append(args, "--table-dir", "none")
			}
			out, errOut, code := runWith(t, "", -1, args...)
			if code != 0 || errOut != "" || out != strings.Join(want, "\n")+"\n" {
				t.Errorf("%s: %v: status %d, stderr %q, output\n%s\nwant\n%s", path, args, code, errOut, out, strings.Join(want, "\n"))
			}
			found++
		}
		if found == 0 {
			t.Errorf("%s: no example of alak puzzles found", path)
		}
	}
}
