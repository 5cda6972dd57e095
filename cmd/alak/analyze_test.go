package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"alak/notation"
)

type analyzeOut struct {
	Moves []struct {
		Ply            int      `json:"ply"`
		Player         string   `json:"player"`
		Move           string   `json:"move"`
		ValueBefore    float64  `json:"value_before"`
		ValueAfter     float64  `json:"value_after"`
		Best           []string `json:"best"`
		ChangedOutcome bool     `json:"changed_outcome"`
	} `json:"moves"`
}

// TestAnalyzeSeedGame analyses seed 002's Alak-6 game. Expected values:
// move 10 forced (the seed), move 12 worth 3 to Black where point 1 was
// worth 2 (solve/seeds_test.go checks both against the brute force), and
// the game's final 3-0 (the seed) equals the value after move 15.
func TestAnalyzeSeedGame(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := solveSession(t, append([]string{"analyze", "--size", "6", "--table-dir", dir, "--json"}, solveSeedGame...)...)
	if code != 0 {
		t.Fatal(errOut)
	}
	if !strings.HasPrefix(out, `{"moves":[{"ply":1,"player":"x","move":"1","value_before":`) {
		t.Errorf("JSON not in the issue's form: %q", out)
	}
	var a analyzeOut
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Moves) != 15 {
		t.Fatalf("%d plies, want 15", len(a.Moves))
	}
	m10, m12, m15 := a.Moves[9], a.Moves[11], a.Moves[14]
	if m10.Move != "6" || m10.Player != "o" || len(m10.Best) != 1 || m10.Best[0] != "6" || m10.ValueAfter != m10.ValueBefore {
		t.Errorf("ply 10: %+v; the seed says 6 was forced", m10)
	}
	if m12.Move != "3" || m12.ValueBefore != 2 || m12.ValueAfter != 3 || m12.ChangedOutcome || len(m12.Best) != 1 || m12.Best[0] != "1" {
		t.Errorf("ply 12: %+v", m12)
	}
	if m15.ValueAfter != 3 {
		t.Errorf("ply 15: value after %v; the game ended 3-0", m15.ValueAfter)
	}
	for i, p := range a.Moves {
		if p.Ply != i+1 || (p.Player == "x") != (i%2 == 0) {
			t.Errorf("ply %d: %+v", i+1, p)
		}
		if p.ChangedOutcome != ((p.ValueBefore > 0) != (p.ValueAfter > 0) || (p.ValueBefore < 0) != (p.ValueAfter < 0)) {
			t.Errorf("ply %d: changed_outcome %v with values %v -> %v", p.Ply, p.ChangedOutcome, p.ValueBefore, p.ValueAfter)
		}
	}
}

// TestAnalyzeSGF writes the annotations into an SGF record and reads them
// back with the notation package.
func TestAnalyzeSGF(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "game.sgf")
	if _, errOut, code := solveSession(t, append([]string{"analyze", "--size", "6", "--table-dir", "none", "--sgf", out}, solveSeedGame...)...); code != 0 {
		t.Fatal(errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := notation.ReadRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Moves) != 15 {
		t.Fatalf("%d moves read back", len(rec.Moves))
	}
	if c := rec.Comments[12]; !strings.Contains(c, "value 2 before, 3 after; best: 1") {
		t.Errorf("comment after move 12: %q", c)
	}
	// The record can be analysed again from the file.
	if _, errOut, code := solveSession(t, "analyze", "--table-dir", "none", out); code != 0 {
		t.Errorf("analyze FILE: %s", errOut)
	}
}

func TestAnalyzeBadInput(t *testing.T) {
	for name, args := range map[string][]string{
		"nothing":        {"analyze"},
		"illegal":        {"analyze", "--size", "4", "--table-dir", "none", "2", "2"},
		"not a move":     {"analyze", "--size", "4", "--table-dir", "none", "zz"},
		"file and rules": {"analyze", "--size", "4", "analyze_test.go"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, errOut, code := solveSession(t, args...); code != 2 || errOut == "" {
				t.Errorf("status %d, stderr %q", code, errOut)
			}
		})
	}
}

// TestAnalyzeMethod: the text analysis ends with the method that answered
// (solve.Tables): on alak's 6 points, with no table directory, the dense
// table made first in memory answers every ply; tromp-taylor (superko),
// which the dense solver does not take, is searched. An interrupted
// analysis has no such line (TestInterruptedSearches: its plies are a
// prefix of the full output).
func TestAnalyzeMethod(t *testing.T) {
	cases := []struct {
		args  []string
		lines int // the rules, a line a ply, the method
		want  string
	}{
		{[]string{"--size", "6", "2", "4", "3"}, 5, "method: table (the dense table of every position's value)"},
		{[]string{"--rules", "tromp-taylor", "--size", "4", "2", "3"}, 4, "method: search"},
	}
	for _, c := range cases {
		out, errOut, code := solveSession(t, append([]string{"analyze", "--table-dir", "none"}, c.args...)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) != c.lines || lines[c.lines-1] != c.want {
			t.Errorf("%v: status %d, stderr %q, output:\n%s\nwant its last line %q", c.args, code, errOut, out, c.want)
		}
	}
}
