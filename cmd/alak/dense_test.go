package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSolveDense: alak solve --dense gives the value, best moves and move
// values of the search, from the start and after moves, and writes the
// dense table of every position, from which the next solve answers
// without searching.
func TestSolveDense(t *testing.T) {
	dir := t.TempDir()
	for _, moves := range [][]string{nil, {"5", "4"}, {"1", "2", "3"}} {
		args := append([]string{"--size", "9", "--table-dir", "none", "--method", "search"}, moves...)
		want := solveJSONRun(t, args...)
		got := solveJSONRun(t, append([]string{"--dense", "--jobs", "2", "--table-dir", dir, "--size", "9"}, moves...)...)
		if got.Value != want.Value || !reflect.DeepEqual(got.Best, want.Best) || !reflect.DeepEqual(got.Moves, want.Moves) {
			t.Errorf("after %v: --dense %+v; solve %+v", moves, got, want)
		}
		if got.Nodes != 35472 { // the states of the dense index of 9 points
			t.Errorf("after %v: --dense counted %d states", moves, got.Nodes)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "alak_size=9.dense")); err != nil {
		t.Fatal(err)
	}
	again := solveJSONRun(t, "--size", "9", "--table-dir", dir, "5", "4")
	if again.Nodes != 0 {
		t.Errorf("with the dense table: %d positions searched, want 0", again.Nodes)
	}
}

// TestSolveMakesDense: with a table directory, solving an alak line of up
// to 16 points makes its dense table first; analyze reads it.
func TestSolveMakesDense(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := solveSession(t, "solve", "--size", "8", "--table-dir", dir, "4")
	if code != 0 || !strings.Contains(errOut, "alak_size=8.dense") {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	out, errOut, code := solveSession(t, "analyze", "--size", "8", "--table-dir", dir, "4", "5", "3")
	if code != 0 || !strings.Contains(out, "3. x 3") || strings.Contains(errOut, ".dense") {
		t.Errorf("analyze: status %d, %q, stderr %q", code, out, errOut)
	}
	// Other rules have no dense table.
	_, errOut, _ = solveSession(t, "solve", "--rules", "tromp-taylor", "--size", "4", "--table-dir", dir)
	if strings.Contains(errOut, ".dense") {
		t.Errorf("tromp-taylor: %q", errOut)
	}
}

// TestSolveDenseTable: --table --dense prints the rows of the default
// solver's values.
func TestSolveDenseTable(t *testing.T) {
	out, errOut, code := solveSession(t, "solve", "--table", "--dense", "--sizes", "1-5", "--table-dir", "none")
	if code != 0 {
		t.Fatal(errOut)
	}
	want := []string{"| 1 | 1 | x | 1 |", "| 2 | -1 | o | 1 2 |", "| 3 | 1 | x | 2 |", "| 4 | -2 | o | 1 2 3 4 |", "| 5 | 1 | x | 2 3 4 |"}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, w := range want {
		if len(lines) < i+3 || !strings.HasPrefix(lines[i+2], w) {
			t.Errorf("row %d: %q, want it to start %q", i+1, lines, w)
		}
	}
}

// TestSolveDenseBadInput: what --dense refuses.
func TestSolveDenseBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--dense", "--rules", "tromp-taylor", "--size", "5", "--table-dir", "none"}, "--dense takes the alak rules"},
		{[]string{"solve", "--dense", "--at-least", "1", "--table-dir", "none"}, "not with --at-least"},
		{[]string{"solve", "--dense-margins", "--table-dir", "none"}, "go with --dense"},
		{[]string{"solve", "--dense-spill", "/tmp", "--table-dir", "none"}, "go with --dense"},
		{[]string{"solve", "--dense", "--size", "12", "--memory", "1", "--table-dir", "none"}, "need"},
	} {
		_, errOut, code := solveSession(t, c.args...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
}

// TestSolveDefaultMethod: alak solve picks the fastest exact method that
// answers and says which (--json "method", the text's method line): the
// dense solver on alak lines, the search on tromp-taylor; --method forces
// one, with the same answer; --dense goes with --value-only; on 20 points
// a --memory too small for the dense solver is said at once (before, the
// search ran without end; without --memory the dense solver may take half
// of the machine's memory, and answers).
func TestSolveDefaultMethod(t *testing.T) {
	type out struct {
		solveJSONOut
		Method string `json:"method"`
	}
	solveM := func(args ...string) out {
		t.Helper()
		o, errOut, code := solveSession(t, append([]string{"solve", "--json", "--table-dir", "none"}, args...)...)
		var res out
		if err := json.Unmarshal([]byte(o), &res); code != 0 || err != nil {
			t.Fatalf("alak solve %v: status %d, %v, %q", args, code, err, errOut)
		}
		return res
	}
	auto := solveM("--size", "9", "4")
	for _, c := range []struct {
		args   []string
		method string
	}{
		{[]string{"--size", "9", "4"}, "dense"},
		{[]string{"--size", "9", "--method", "dense", "4"}, "dense"},
		{[]string{"--size", "9", "--dense", "--value-only", "4"}, "dense"},
		{[]string{"--size", "9", "--method", "search", "4"}, "search"},
		{[]string{"--rules", "dewdney", "--size", "7"}, "dense"},
		{[]string{"--rules", "tromp-taylor", "--size", "4"}, "search"},
		{[]string{"--rules", "alterigo", "--size", "2x2"}, "search"},
	} {
		res := solveM(c.args...)
		if res.Method != c.method {
			t.Errorf("%v: method %q, want %q", c.args, res.Method, c.method)
		}
		if c.args[0] == "--size" && (res.Value != auto.Value || !reflect.DeepEqual(res.Best, auto.Best) || !reflect.DeepEqual(res.Moves, auto.Moves)) {
			t.Errorf("%v: %+v; the default gives %+v", c.args, res, auto)
		}
	}
	o, _, code := solveSession(t, "solve", "--size", "9", "--table-dir", "none")
	if code != 0 || !strings.Contains(o, "\nmethod:   dense") {
		t.Errorf("text: status %d, %q", code, o)
	}
	_, errOut, code := solveSession(t, "solve", "--method", "graph", "--table-dir", "none")
	if code != 2 || !strings.Contains(errOut, "want auto") {
		t.Errorf("--method graph: status %d, %q", code, errOut)
	}
	_, errOut, code = solveSession(t, "solve", "--size", "20", "--table-dir", "none", "--memory", "256")
	if code != 1 || !strings.Contains(errOut, "dense solver") || !strings.Contains(errOut, "raise it with --memory") {
		t.Errorf("size 20, --memory 256: status %d, %q", code, errOut)
	}
	if mb := physicalMB(); mb < 1024 {
		t.Errorf("the machine's memory read as %d MB", mb)
	}
}
