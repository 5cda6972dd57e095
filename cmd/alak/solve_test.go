package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"alak/internal/testlong"
	"alak/rules"
	"alak/solve"
)

// solveSession runs `alak CMD ARGS` and returns its output and status.
func solveSession(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code = run(e, args)
	return out.String(), errOut.String(), code
}

// computeSession is solveSession for the commands whose work is the
// solver's or the checker's alone (tables, certificates, matches of
// timed players): under the race detector, which slows that work tenfold
// and more, it runs them in the alak binary built without it (buildServe),
// as a user would; the solver's and the checker's concurrency is checked
// under the race detector by their own packages' tests. Without the race
// detector it is solveSession.
func computeSession(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if !raceEnabled {
		return solveSession(t, args...)
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(buildServe(t), args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(""), &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("alak %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

type solveJSONOut struct {
	Value   float64            `json:"value"`
	Outcome string             `json:"outcome"`
	Best    []string           `json:"best"`
	PV      []string           `json:"pv"`
	Moves   map[string]float64 `json:"moves"`
	Nodes   int64              `json:"nodes"`
	Seconds float64            `json:"seconds"`
}

func solveJSONRun(t *testing.T, args ...string) solveJSONOut {
	t.Helper()
	out, errOut, code := solveSession(t, append([]string{"solve", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("alak solve %v: status %d: %s", args, code, errOut)
	}
	var res solveJSONOut
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("alak solve %v: %v in %q", args, err, out)
	}
	return res
}

// The seed's Alak-6 game (seed 002), 1-based.
var solveSeedGame = strings.Fields("1 4 5 6 2 3 5 1 2 6 4 3 1 5 4")

// TestSolveSeedPositions checks two positions of seed 002's Alak-6 game. Move
// 10 was "(forced)": the only legal move is 6. Before move 12 White's
// choices are worth 2 (point 1) and 3 (point 3) to Black; solve/seeds_test.go
// checks these values against the brute force.
func TestSolveSeedPositions(t *testing.T) {
	dir := t.TempDir()
	res := solveJSONRun(t, "--size", "6", "--table-dir", dir, strings.Join(solveSeedGame[:9], " "))
	if !reflect.DeepEqual(res.Best, []string{"6"}) || len(res.Moves) != 1 {
		t.Errorf("before move 10: best %v moves %v; seed 002 says 6 was forced", res.Best, res.Moves)
	}
	args := append([]string{"--size", "6", "--table-dir", dir}, solveSeedGame[:11]...)
	res = solveJSONRun(t, args...)
	want := solveJSONOut{Value: 2, Outcome: "x", Best: []string{"1"}, Moves: map[string]float64{"1": 2, "3": 3}}
	if res.Value != want.Value || res.Outcome != want.Outcome || !reflect.DeepEqual(res.Best, want.Best) || !reflect.DeepEqual(res.Moves, want.Moves) {
		t.Errorf("before move 12: got %+v, want %+v", res, want)
	}
	if len(res.PV) == 0 || res.PV[0] != "1" {
		t.Errorf("before move 12: pv %v should start with the best move 1", res.PV)
	}
	// The table kept what was solved: the same query now searches nothing.
	again := solveJSONRun(t, args...)
	if again.Nodes != 0 || again.Value != 2 || !reflect.DeepEqual(again.Moves, want.Moves) {
		t.Errorf("second query: %+v; want the table's answer with 0 positions searched", again)
	}
}

// TestSolveJSONShape checks the exact form of the example: keys in
// order, spaces after colons and commas.
func TestSolveJSONShape(t *testing.T) {
	out, errOut, code := solveSession(t, "solve", "--json", "--size", "3", "--table-dir", "none")
	if code != 0 {
		t.Fatal(errOut)
	}
	// Alak-3: Black wins 2-1 by opening in the centre (brute force in
	// solve/brute_test.go; seed 002's third game is that line).
	prefix := `{"value":1,"outcome":"x","complete":true,"best":["2"],"pv":["2","1","3"],"moves":{"1":-1,"2":1,"3":-1},"nodes":`
	if !strings.HasPrefix(out, prefix) || !strings.Contains(out, `,"seconds":`) {
		t.Errorf("got %q, want it to start %q", out, prefix)
	}
}

// TestSolveTable checks the Markdown table against the brute-force values
// of solve/brute_test.go for sizes 1 to 5.
func TestSolveTable(t *testing.T) {
	out, errOut, code := solveSession(t, "solve", "--table", "--sizes", "1-5", "--table-dir", "none")
	if code != 0 {
		t.Fatal(errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "| size | value | outcome | best openings | positions searched | seconds |") {
		t.Fatalf("table:\n%s", out)
	}
	want := []string{"| 1 | 1 | x | 1 |", "| 2 | -1 | o | 1 2 |", "| 3 | 1 | x | 2 |", "| 4 | -2 | o | 1 2 3 4 |", "| 5 | 1 | x | 2 3 4 |"}
	for i, w := range want {
		if !strings.HasPrefix(lines[i+2], w) {
			t.Errorf("row %d: %q, want it to start %q", i+1, lines[i+2], w)
		}
	}
}

func TestSolveBadInput(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"grid of 81 points", []string{"solve", "--rules", "alterigo", "--table-dir", "none"}, "at most 64 points"},
		{"bad move", []string{"solve", "--size", "5", "--table-dir", "none", "9"}, "move 1"},
		{"illegal move", []string{"solve", "--size", "5", "--table-dir", "none", "1", "1"}, "move 2"},
		{"bad sizes", []string{"solve", "--table", "--sizes", "5-2"}, "--sizes"},
		{"sizes without table", []string{"solve", "--sizes", "1-3"}, "--table"},
		{"to-move alone", []string{"solve", "--to-move", "x"}, "--to-move: invalid position: a player to move goes with a start diagram"},
		{"bad at-least", []string{"solve", "--at-least", "1.25", "--table-dir", "none"}, "multiple of 0.5"},
		{"at-least with table", []string{"solve", "--table", "--sizes", "1-3", "--at-least", "1"}, "--at-least"},
		{"bad position", []string{"solve", "--position", "xqx", "--to-move", "o", "--table-dir", "none"}, "--position"},
		{"split without at-least", []string{"solve", "--split", "1000", "--table-dir", "none"}, "--at-least"},
		{"negative split", []string{"solve", "--at-least", "1", "--split", "-5", "--table-dir", "none"}, "--split -5"},
		{"bad split depth", []string{"solve", "--at-least", "1", "--split", "9", "--split-depth", "0", "--table-dir", "none"}, "--split-depth 0"},
		{"bad jobs", []string{"solve", "--at-least", "1", "--split", "9", "--jobs", "65", "--table-dir", "none"}, "--jobs 65"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, code := solveSession(t, c.args...)
			if code != 2 || !strings.Contains(errOut, c.want) {
				t.Errorf("status %d, stderr %q; want 2 and a message naming %q", code, errOut, c.want)
			}
		})
	}
}

// TestSolvePosition solves a set-up position: seed 002's diagram before
// move 10, "/X//x-" with White to move, where 6 is the only legal move.
func TestSolvePosition(t *testing.T) {
	res := solveJSONRun(t, "--position", "/X//x-", "--to-move", "o", "--table-dir", "none")
	if !reflect.DeepEqual(res.Best, []string{"6"}) || len(res.Moves) != 1 {
		t.Errorf("got %+v; seed 002 says 6 was forced", res)
	}
}

// TestSolveGridAndValueOnly: a small grid is solved, its moves written as
// GTP vertices (Alter Igo 2×2 is a draw: solve/brute_test.go checks it
// against the brute force), and --value-only on positional linear Go 1×6
// gives the full solve's value (1, Drange's table) with one best move and
// no move values.
func TestSolveGridAndValueOnly(t *testing.T) {
	res := solveJSONRun(t, "--rules", "alterigo", "--size", "2x2", "--table-dir", "none")
	if res.Value != 0 || res.Outcome != "draw" || len(res.Moves) != 4 || res.Moves["A1"] != 0 {
		t.Errorf("alterigo 2x2: %+v", res)
	}
	res = solveJSONRun(t, "--rules", "tromp-taylor", "--size", "6", "--value-only", "--table-dir", "none")
	if res.Value != 1 || res.Outcome != "x" || len(res.Best) != 1 || (res.Best[0] != "2" && res.Best[0] != "5") || len(res.Moves) != 0 || len(res.PV) == 0 {
		t.Errorf("tromp-taylor 6 --value-only: %+v", res)
	}
}

// TestSolveAtLeast: --at-least on positional linear Go 1×8, whose value is 3
// (Drange's table; solve/superko_test.go), and on alak 5 points, whose
// value is 1 (the brute force in solve/brute_test.go and TestSolveTable).
func TestSolveAtLeast(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--rules", "tromp-taylor", "--size", "8", "--at-least", "3"}, `{"at_least":3,"holds":true,"bound":3,"nodes":`},
		{[]string{"--rules", "tromp-taylor", "--size", "8", "--at-least", "3.5"}, `{"at_least":3.5,"holds":false,"bound":3,"nodes":`},
		{[]string{"--size", "5", "--at-least", "-0.5"}, `{"at_least":-0.5,"holds":true,"bound":1,"nodes":`},
	}
	for _, c := range cases {
		out, errOut, code := solveSession(t, append([]string{"solve", "--json", "--table-dir", "none"}, c.args...)...)
		if code != 0 || !strings.HasPrefix(out, c.want) {
			t.Errorf("alak solve %v: status %d, %q %q; want it to start %q", c.args, code, out, errOut, c.want)
		}
	}
}

// TestSolveAtLeastSplit: --split on positional linear Go 1×8 (value 3,
// Drange's table) answers as the single search does and lists its parts,
// the first being the question itself, cut off at the budget; the text
// form prints one line a part (one job: the same parts in the same order
// both times).
func TestSolveAtLeastSplit(t *testing.T) {
	args := []string{"solve", "--table-dir", "none", "--rules", "tromp-taylor", "--size", "8", "--at-least", "3.5", "--split", "3000", "--split-depth", "4", "--memory", "16", "--jobs", "1"}
	out, errOut, code := solveSession(t, append(args, "--json")...)
	var res struct {
		AtLeast float64 `json:"at_least"`
		Holds   bool
		Bound   float64
		Parts   []struct {
			Moves    []string
			Answered bool
			Holds    *bool
			Bound    *float64
			Nodes    int64
		}
	}
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if res.AtLeast != 3.5 || res.Holds || res.Bound != 3 || len(res.Parts) < 2 {
		t.Fatalf("1×8 at least 3.5 split: %+v", res)
	}
	if p := res.Parts[0]; len(p.Moves) != 0 || p.Answered || p.Holds != nil || p.Nodes < 3000 {
		t.Errorf("first part %+v: want the question itself, cut off at 3000 positions", p)
	}
	answered := 0
	for _, p := range res.Parts {
		if p.Answered {
			answered++
			if p.Holds == nil || p.Bound == nil {
				t.Errorf("answered part %+v without its answer", p)
			}
		}
	}
	if answered == 0 {
		t.Error("no part was answered")
	}
	out, errOut, code = solveSession(t, args...)
	if code != 0 || !strings.Contains(out, "at least 3.5: no, the value is at most 3") ||
		!strings.Contains(out, fmt.Sprintf("parts:    %d questions, %d answered", len(res.Parts), answered)) ||
		!strings.Contains(out, "\n  (start): cut off (") || !strings.Contains(out, "\n  pass: at most 0 (1 positions") {
		t.Errorf("text form: status %d, %q %q", code, out, errOut)
	}
}

// TestSolveSplitParts: --parts keeps every searched part in a file; the
// same question asked again with it searches nothing and gives the same
// answer; --plan on a file with a line taken out lists that line as open
// (and the question as not settled); a file for other rules is refused.
func TestSolveSplitParts(t *testing.T) {
	file := filepath.Join(t.TempDir(), "8.parts")
	args := []string{"solve", "--table-dir", "none", "--rules", "tromp-taylor", "--size", "8", "--at-least", "3.5", "--split", "3000", "--split-depth", "4", "--memory", "16", "--parts", file, "2"}
	out, errOut, code := solveSession(t, args...)
	if code != 0 || !strings.Contains(out, "at least 3.5: no, the value is at most 3") {
		t.Fatalf("first run: status %d, %q %q", code, out, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 4 || lines[0] != "rules: tromp-taylor size=8" || lines[1] != "start: --------, x to move" || !strings.HasPrefix(lines[2], "2: cut off (") {
		t.Fatalf("parts file:\n%s", data)
	}
	// Every line the text output lists is in the file, moves from the start.
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  ") && !strings.Contains(string(data), strings.TrimSpace(l)+"\n") {
			t.Errorf("listed but not in the file: %q", l)
		}
	}
	out, errOut, code = solveSession(t, args...)
	if code != 0 || !strings.Contains(out, "at least 3.5: no, the value is at most 3") || !strings.Contains(out, "searched: 0 positions") || strings.Contains(out, "positions, ") {
		t.Errorf("resumed run: status %d, %q %q", code, out, errOut)
	}
	again, err := os.ReadFile(file)
	if err != nil || string(again) != string(data) {
		t.Errorf("the resumed run changed the file (%v):\n%s", err, again)
	}

	// Take out the deepest answered line: the plan lists it, open.
	var last string
	for _, l := range lines[2:] {
		if !strings.Contains(l, "cut off") && len(strings.Fields(l)) > len(strings.Fields(last)) {
			last = l
		}
	}
	cut := strings.Replace(string(data), last+"\n", "", 1)
	if err := os.WriteFile(file, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	moves, _, _ := strings.Cut(last, ":")
	out, errOut, code = solveSession(t, append(args, "--plan")...)
	if code != 0 || !strings.Contains(out, "at least 3.5: not settled by the known parts") || !strings.Contains(out, "\n  "+moves+": open\n") {
		t.Errorf("plan without %q: status %d, %q %q", last, code, out, errOut)
	}
	out, errOut, code = solveSession(t, append(args, "--plan", "--json")...)
	var plan struct {
		Open  bool
		Holds *bool
		Parts []struct {
			Moves []string
			Open  bool
		}
	}
	if err := json.Unmarshal([]byte(out), &plan); code != 0 || err != nil || !plan.Open || plan.Holds != nil {
		t.Errorf("plan --json: status %d, %v, %q %q", code, err, out, errOut)
	}
	if after, err := os.ReadFile(file); err != nil || string(after) != cut {
		t.Errorf("the plan changed the file (%v)", err)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--table-dir", "none", "--rules", "tromp-taylor", "--size", "9", "--at-least", "3", "--split", "3000", "--parts", file}, `the file is for the rules "tromp-taylor size=8"`},
		{[]string{"solve", "--table-dir", "none", "--rules", "tromp-taylor", "--size", "8", "--at-least", "3", "--parts", file}, "give --split B too"},
		{[]string{"solve", "--table-dir", "none", "--rules", "tromp-taylor", "--size", "8", "--at-least", "3", "--split", "3000", "--plan"}, "--plan lists"},
	} {
		if _, errOut, code := solveSession(t, c.args...); code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q; want an error saying %q", c.args, code, errOut, c.want)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.parts")
	if err := os.WriteFile(bad, []byte("2 2: at most 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := solveSession(t, "solve", "--table-dir", "none", "--rules", "tromp-taylor", "--size", "8", "--at-least", "3", "--split", "3000", "--parts", bad); code == 0 || !strings.Contains(errOut, "parts line 1: move 2 (2)") {
		t.Errorf("illegal line: status %d, stderr %q", code, errOut)
	}
	if b, _ := os.ReadFile(bad); string(b) != "2 2: at most 1\n" {
		t.Errorf("a refused parts file was changed: %q", b)
	}
}

// TestSolveSplitProof: --proof writes the parts a split's answer rests on;
// a plan over that file alone settles the question the same way, searching
// nothing; an unsettled plan writes no proof; misuse is refused.
func TestSolveSplitProof(t *testing.T) {
	dir := t.TempDir()
	proof := filepath.Join(dir, "proof")
	parts := filepath.Join(dir, "parts")
	args := []string{"solve", "--table-dir", "none", "--rules", "tromp-taylor", "--size", "8", "--at-least", "3.5", "--split", "3000", "--split-depth", "4", "--memory", "16", "2"}
	out, errOut, code := solveSession(t, append(args, "--parts", parts, "--proof", proof)...)
	if code != 0 || !strings.Contains(out, "at least 3.5: no, the value is at most 3") {
		t.Fatalf("split: status %d, %q %q", code, out, errOut)
	}
	data, err := os.ReadFile(proof)
	if err != nil {
		t.Fatal(err)
	}
	all, err := os.ReadFile(parts)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 4 || lines[0] != "rules: tromp-taylor size=8" || !strings.HasPrefix(lines[2], "# the proof that Black's margin is below 3.5: ") || lines[3] != "2: cut off (split)" {
		t.Fatalf("proof file:\n%s", data)
	}
	leaves := 0
	for _, l := range lines[3:] {
		if strings.Contains(l, "cut off") {
			continue
		}
		leaves++
		if !strings.Contains(string(all), l+"\n") {
			t.Errorf("proof line %q is not a line of the parts file", l)
		}
	}
	if leaves == 0 || leaves >= strings.Count(string(all), "\n")-2 {
		t.Errorf("%d proof leaves, of %d parts", leaves, strings.Count(string(all), "\n")-2)
	}
	out, errOut, code = solveSession(t, append(args, "--parts", proof, "--plan")...)
	if code != 0 || !strings.Contains(out, "at least 3.5: no, the value is at most 3") || !strings.Contains(out, "searched: 0 positions") {
		t.Errorf("plan over the proof alone: status %d, %q %q", code, out, errOut)
	}
	// Take a leaf out of the proof: the plan is open and writes no proof.
	cut := strings.Replace(string(data), lines[len(lines)-1]+"\n", "", 1)
	if err := os.WriteFile(proof, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(dir, "again")
	out, errOut, code = solveSession(t, append(args, "--parts", proof, "--plan", "--proof", again)...)
	if _, err := os.Stat(again); code == 0 || err == nil || !strings.Contains(errOut, "not settled") {
		t.Errorf("plan without a leaf: status %d, proof written: %v, %q %q", code, err == nil, out, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--table-dir", "none", "--rules", "tromp-taylor", "--size", "8", "--at-least", "3", "--proof", proof}, "give --split B too"},
		{[]string{"solve", "--table-dir", "none", "--rules", "tromp-taylor", "--size", "8", "--at-least", "3", "--split", "3000", "--parts", proof, "--proof", proof}, "same file"},
	} {
		if _, errOut, code := solveSession(t, c.args...); code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q; want an error saying %q", c.args, code, errOut, c.want)
		}
	}
}

// TestPublishedParts: the parts file of docs/results-tromp-taylor.md ("1×12, openings 2
// and 4, split further") proves what the page says it proves. --plan
// searches nothing: it combines the file's answered lines by the minimax
// rule over the kernel's legal moves, so this checks the page's reading of
// its data, not the searches themselves (each line can be asked again).
func TestPublishedParts(t *testing.T) {
	file := filepath.Join("..", "..", "docs", "data", "tromp-taylor-12-at-least-2.txt")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, file, "12", "2", "80000000", []planWant{
		{moves: "1", bound: 1},
		{moves: "3", bound: 1},
		{moves: "5", bound: 1},
		{moves: "6", bound: 1},
		{moves: "pass", bound: 0},
		{moves: "2 3", holds: true, bound: 2},
		{moves: "2 11 1", bound: 1},
		{moves: "4 7 2", bound: 1},
		{moves: "4 7 1", bound: 1},
		{moves: "4 7 8", bound: 1},
		{moves: "4 7 11 2 3", bound: 0},
		{moves: "4 7 6", open: true},
		{moves: "4 7 11", holds: true, bound: 2},
		{moves: "4 7", holds: true, bound: 2},
		{moves: "4", holds: true, bound: 2},
		{moves: "2 11 9 5", holds: true, bound: 2},
		{moves: "2 11 9 6", holds: true, bound: 2},
		{moves: "2 11 9", holds: true, bound: 2},
		{moves: "2", holds: true, bound: 2},
		{moves: "", holds: true, bound: 2},
	})
	if after, err := os.ReadFile(file); err != nil || !bytes.Equal(after, before) {
		t.Errorf("--plan changed %s (%v)", file, err)
	}
}

// TestPublished14Parts: the parts file of the 1×14 split (docs/data,
// read by solver-superko.md, "How far method 4 reaches") proves what the
// page says of it and no more: Black's opening 1 and a pass stay below 1,
// nine of White's thirteen replies to 2 leave Black at least 1, the
// other four, the opening 2 and the question itself are still open, and
// under 2 6 and 2 13 what the page names is settled or open as it says.
// --plan searches nothing.
func TestPublished14Parts(t *testing.T) {
	file := filepath.Join("..", "..", "docs", "data", "tromp-taylor-14-at-least-1.txt")
	checkPlan(t, file, "14", "1", "50000000", []planWant{
		{moves: "1", bound: 0},
		{moves: "pass", bound: 0},
		{moves: "2 3", holds: true, bound: 1},
		{moves: "2 4", holds: true, bound: 1},
		{moves: "2 5", holds: true, bound: 1},
		{moves: "2 7", holds: true, bound: 1},
		{moves: "2 8", holds: true, bound: 1},
		{moves: "2 10", holds: true, bound: 1},
		{moves: "2 12", holds: true, bound: 1},
		{moves: "2 14", holds: true, bound: 1},
		{moves: "2 pass", holds: true, bound: 14},
		{moves: "2 6", open: true},
		{moves: "2 6 3", open: true},
		{moves: "2 6 3 4", holds: true, bound: 1},
		{moves: "2 6 3 14", holds: true, bound: 1},
		{moves: "2 6 3 8", open: true},
		{moves: "2 6 3 13", open: true},
		{moves: "2 9", open: true},
		{moves: "2 11", open: true},
		{moves: "2 13", open: true},
		{moves: "2 13 3 14", holds: true, bound: 1},
		{moves: "2 13 pass", bound: 0},
		{moves: "2", open: true},
		{moves: "3", open: true},
		{moves: "", open: true},
	})
}

// planWant is what a published parts file settles after a line of moves:
// open, or whether "at least" holds and the bound proved.
type planWant struct {
	moves string
	open  bool
	holds bool
	bound float64
}

// checkPlan asks --plan over a published parts file after each line of
// moves and checks the answer against what the page says of it, and that
// the plan searched nothing.
func checkPlan(t *testing.T, file, size, atLeast, split string, wants []planWant) {
	t.Helper()
	for _, w := range wants {
		args := append([]string{"solve", "--rules", "tromp-taylor", "--size", size, "--at-least", atLeast, "--split", split, "--parts", file, "--plan", "--json"}, strings.Fields(w.moves)...)
		out, errOut, code := solveSession(t, args...)
		var res struct {
			Open  bool
			Holds *bool
			Bound *float64
			Nodes int64
		}
		if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
			t.Fatalf("%q: status %d, %v, %q %q", w.moves, code, err, out, errOut)
		}
		switch {
		case res.Nodes != 0:
			t.Errorf("after %q: the plan searched %d positions", w.moves, res.Nodes)
		case w.open != res.Open:
			t.Errorf("after %q: open %v, the page says %v", w.moves, res.Open, w.open)
		case !w.open && (res.Holds == nil || res.Bound == nil):
			t.Errorf("after %q: settled with no answer (%s), want holds %v, bound %v", w.moves, out, w.holds, w.bound)
		case !w.open && (*res.Holds != w.holds || *res.Bound != w.bound):
			t.Errorf("after %q: holds %v, bound %v; want holds %v, bound %v from the known parts", w.moves, *res.Holds, *res.Bound, w.holds, w.bound)
		}
	}
}

// TestPublishedProof: the proofs of docs/results-tromp-taylor.md ("1×12 is worth at
// least 2", its opening 2 too, "1×12 is worth exactly 2", and the two
// halves of "1×13 is worth 0") settle their questions alone, every leaf of
// them is a line of the data file, and every leaf that was answered with
// tables kept from part to part is settled the same way by the searches
// with an empty table of the fresh-checks file (one search each, or an
// old-style split), but for the few the page counts as not settled there.
// The first proof is a published file; the others are written by --plan
// --proof from the data file. Like TestPublishedParts this checks the
// page's reading of its data by --plan, searching nothing.
func TestPublishedProof(t *testing.T) {
	t.Parallel() // seconds of the processor, reading committed files and writing its own: they overlap the other tests' waits
	dir := filepath.Join("..", "..", "docs", "data")
	for _, c := range []struct {
		name    string
		bound   string
		moves   []string
		data    string
		proof   string // the proof file; when empty, --plan --proof writes it from the data file
		kept    string // the comment after which the data file's kept-table lines stand
		fresh   string
		settled string
		size    string // the board's points; empty: 12
		leaves  int    // at least this many leaves
		checked int    // at least this many kept-table leaves settled alike by the fresh file
		open    int    // exactly this many kept-table leaves the fresh file does not settle (results-tromp-taylor.md counts them)
	}{
		{"at least 2", "2", nil, "tromp-taylor-12-at-least-2.txt", "tromp-taylor-12-at-least-2-proof.txt",
			"# tables kept from part to part", "tromp-taylor-12-at-least-2-fresh.txt", "at least 2: yes, the value is at least 2",
			"", 114, 35, 1},
		{"at least 2 after 2", "2", []string{"2"}, "tromp-taylor-12-at-least-2.txt", "",
			"# tables kept from part to part", "tromp-taylor-12-at-least-2-fresh.txt", "at least 2: yes, the value is at least 2",
			"", 165, 79, 1},
		{"below 3", "3", nil, "tromp-taylor-12-at-least-3.txt", "",
			"# the run at 04e4b7d, tables kept", "tromp-taylor-12-at-least-3-fresh.txt", "at least 3: no, the value is at most 2",
			"", 17, 12, 0},
		{"1×13 at least 0", "0", nil, "tromp-taylor-13-at-least-0.txt", "",
			"# Every line below was answered with tables kept", "tromp-taylor-13-at-least-0-fresh.txt", "at least 0: yes, the value is at least 0",
			"13", 21, 21, 0},
		{"1×13 below 1", "1", nil, "tromp-taylor-13-at-least-1.txt", "",
			"# Every line below was answered with tables kept", "tromp-taylor-13-at-least-1-fresh.txt", "at least 1: no, the value is at most 0",
			"13", 18, 18, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, c.data))
			if err != nil {
				t.Fatal(err)
			}
			size := c.size
			if size == "" {
				size = "12"
			}
			base := []string{"solve", "--rules", "tromp-taylor", "--size", size, "--at-least", c.bound, "--split", "80000000", "--plan"}
			proofFile := filepath.Join(dir, c.proof)
			if c.proof == "" {
				proofFile = filepath.Join(t.TempDir(), "proof.txt")
				args := append(append(base, "--parts", filepath.Join(dir, c.data), "--proof", proofFile), c.moves...)
				if out, errOut, code := solveSession(t, args...); code != 0 || !strings.Contains(out, c.settled) {
					t.Fatalf("plan over the data file: status %d, %q %q", code, firstLines(out, 3), errOut)
				}
			}
			proof, err := os.ReadFile(proofFile)
			if err != nil {
				t.Fatal(err)
			}
			out, errOut, code := solveSession(t, append(append(base, "--parts", proofFile), c.moves...)...)
			if code != 0 || !strings.Contains(out, c.settled) || !strings.Contains(out, "searched: 0 positions") {
				t.Fatalf("plan over the proof alone: status %d, %q %q", code, out, errOut)
			}
			_, kept, ok := strings.Cut(string(data), c.kept)
			if !ok {
				t.Fatalf("%s has no block of lines found with kept tables (%q)", c.data, c.kept)
			}
			leaves, checked, open := 0, 0, 0
			for _, l := range strings.Split(strings.TrimSpace(string(proof)), "\n") {
				if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "rules:") || strings.HasPrefix(l, "start:") || strings.Contains(l, ": cut off") {
					continue
				}
				leaves++
				if !strings.Contains(string(data), "\n"+l+"\n") {
					t.Errorf("proof leaf %q is not a line of the data file", l)
					continue
				}
				if !strings.Contains(kept, "\n"+l+"\n") {
					continue
				}
				moves, answer, _ := strings.Cut(l, ": ")
				want := "at least " + c.bound + ": yes"
				if strings.HasPrefix(answer, "at most") {
					want = "at least " + c.bound + ": no"
				}
				out, errOut, code := solveSession(t, append(append(base, "--parts", filepath.Join(dir, c.fresh)), strings.Fields(moves)...)...)
				switch {
				case code == 0 && strings.Contains(out, "not settled by the known parts"):
					open++
				case code != 0 || !strings.Contains(out, want):
					t.Errorf("leaf %q, by the searches with an empty table: status %d, %q %q", l, code, firstLines(out, 3), errOut)
				default:
					checked++
				}
			}
			if leaves < c.leaves || checked < c.checked || open != c.open {
				t.Errorf("%d proof leaves, %d kept-table leaves settled alike by the fresh searches and %d not settled; want at least %d, at least %d and %d",
					leaves, checked, open, c.leaves, c.checked, c.open)
			}
		})
	}
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	ls := strings.SplitN(s, "\n", n+1)
	return strings.Join(ls[:min(n, len(ls))], "\n")
}

// TestPublished12Line: the principal variation results-tromp-taylor.md gives for 1×12,
// `4 2 7 5 6 8 9 11 5 1 8 pass pass`, is a legal game that Black wins by
// 2, the proved value; its first move is one the at-least-2 proof holds,
// and its second is White's reply of the at-most-2 proof (the rest is a
// value search from there, too slow for a test: 113 s). Checked by
// `alak replay` and by --plan over the two data files.
func TestPublished12Line(t *testing.T) {
	line := strings.Fields("4 2 7 5 6 8 9 11 5 1 8 pass pass")
	out, errOut, code := solveSession(t, append([]string{"replay", "--rules", "tromp-taylor", "--size", "12", "--json"}, line...)...)
	var res struct {
		Over   bool
		Result string
		Winner string
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("replay: status %d, %v, %q %q", code, err, out, errOut)
	}
	var black, white int
	if _, err := fmt.Sscanf(res.Result, "%d-%d", &black, &white); err != nil || !res.Over || res.Winner != "x" || black-white != 2 {
		t.Errorf("the line ends %+v (%s), want a finished game Black wins by 2", res, out)
	}
	dir := filepath.Join("..", "..", "docs", "data")
	for _, c := range []struct{ bound, file, moves, want string }{
		{"2", "tromp-taylor-12-at-least-2.txt", "4", "at least 2: yes"},
		{"3", "tromp-taylor-12-at-least-3.txt", "4 2", "at least 3: no"},
	} {
		args := append([]string{"solve", "--rules", "tromp-taylor", "--size", "12", "--at-least", c.bound, "--split", "80000000", "--plan", "--parts", filepath.Join(dir, c.file)}, strings.Fields(c.moves)...)
		if out, errOut, code := solveSession(t, args...); code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("after %s: status %d, %q %q; want %q", c.moves, code, firstLines(out, 3), errOut, c.want)
		}
	}
}

// TestPublished13Openings checks the 1×13 best openings of results-tromp-taylor.md by
// --plan over the published parts (no search): each of Black's first moves
// up to mirror keeps "at least 0" except 1. The answers come from the runs
// described in the data file's comments.
func TestPublished13Openings(t *testing.T) {
	file := filepath.Join("..", "..", "docs", "data", "tromp-taylor-13-openings.txt")
	for _, c := range []struct{ move, want string }{
		{"1", "at least 0: no, the value is at most -1"},
		{"3", "at least 0: yes"}, {"4", "at least 0: yes"}, {"5", "at least 0: yes"},
		{"6", "at least 0: yes"}, {"7", "at least 0: yes"}, {"pass", "at least 0: yes"},
	} {
		out, errOut, code := solveSession(t, "solve", "--rules", "tromp-taylor", "--size", "13", "--at-least", "0",
			"--split", "20000000", "--plan", "--parts", file, c.move)
		if code != 0 || !strings.Contains(out, c.want) || !strings.Contains(out, "searched: 0 positions") {
			t.Errorf("after %s: status %d, %q %q; want %q from the parts alone", c.move, code, firstLines(out, 4), errOut, c.want)
		}
	}
}

// TestSolveDefaults: without --jobs alak solve takes every core (the dense
// solver's goroutines; --jobs 1 takes one), and on 21 points its default
// method is the dense solver (Tables.Plan), which the command lets take up
// to half of the machine's memory without --memory: 7,996 MB there.
func TestSolveDefaults(t *testing.T) {
	for _, c := range []struct {
		args []string
		jobs int
	}{{nil, min(runtime.NumCPU(), 64)}, {[]string{"--jobs", "1"}, 1}, {[]string{"--jobs", "2"}, 2}} {
		e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
		fs := newFlagSet(e, "solve", solveUsage)
		sf := solveAddFlags(fs)
		method := sf.addMethodFlags(fs)
		if err := fs.Parse(append([]string{"--size", "21", "--table-dir", "none"}, c.args...)); err != nil {
			t.Fatal(err)
		}
		sf.visited(fs)
		if err := sf.solveMethod(*method, *sf.dense); err != nil {
			t.Fatal(err)
		}
		ts, err := sf.solveTables(e, "solve")
		if err != nil {
			t.Fatal(err)
		}
		if ts.Jobs != c.jobs {
			t.Errorf("%v: %d cores, want %d", c.args, ts.Jobs, c.jobs)
		}
		r, err := sf.rules()
		if err != nil {
			t.Fatal(err)
		}
		g, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ts.Plan(g, solve.Options{Method: sf.method})
		switch {
		case physicalMB()/2 < 8000:
			if !errors.Is(err, solve.ErrMemory) {
				t.Errorf("%v on %d MB: %q %v, want the dense solver's memory error", c.args, physicalMB(), m, err)
			}
		case m != solve.MethodDense || err != nil:
			t.Errorf("%v: 21 points by %q (%v), want the dense solver", c.args, m, err)
		}
	}
}

// TestSolveTraditional: alak solve on traditional answers at once where
// the proof certificates of alak settle the position (7 points: a
// draw, each opening's winner, each certificate named with its SHA-256),
// and says so on standard error; --table lists 1 to 11 points without a
// search past 4 points (docs/results-traditional.md's values); where no certificate
// settles the position and the search does not finish (6 points after 2
// 5), the proof search answers, each step said on standard error as it
// starts (not under the race detector without ALAK_LONG=1).
func TestSolveTraditional(t *testing.T) {
	out, errOut, code := solveSession(t, "solve", "--rules", "traditional", "--size", "7", "--table-dir", "none")
	for _, want := range []string{"value:    0 (draw)\n", "moves:    1:o 2:draw 3:draw 4:draw 5:draw 6:draw 7:o pass:draw ", "best:     2 3 4 5 6 pass\n",
		"x can force a draw or better: certificate traditional-7-x-draw.alakproof (SHA-256 ", "method:   certificate"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("7 points: status %d, %q %q; want %q", code, out, errOut, want)
		}
	}
	if !strings.Contains(errOut, "alak solve: proof certificates of alak (proofdata/, listed in the binary with their checksums) settle the position: ") {
		t.Errorf("7 points: stderr %q", errOut)
	}
	out, _, code = solveSession(t, "solve", "--rules", "traditional", "--size", "7", "--table-dir", "none", "--json", "1")
	var j struct {
		Value   *float64
		Outcome string
		Method  string
		Proofs  []struct{ Claim, Certificate, SHA256 string }
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 0 || j.Value != nil || j.Outcome != "o" || j.Method != "certificate" ||
		len(j.Proofs) != 1 || j.Proofs[0].Certificate != "traditional-7-o-win-after-1.alakproof" || len(j.Proofs[0].SHA256) != 64 {
		t.Errorf("7 points after 1, JSON: %v %q", err, out)
	}
	out, errOut, code = solveSession(t, "solve", "--rules", "traditional", "--table", "--sizes", "1-11", "--table-dir", "none")
	for _, want := range []string{"| 4 | 4 | x | 2 3 |", "| 7 | 0 | draw (by certificate) | 2 3 4 5 6 pass | 0 |", "| 11 | 0 | draw (by certificate) | 2 3 4 5 6 7 8 9 10 pass | 0 |"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--table: status %d, %q %q; want %q", code, out, errOut, want)
		}
	}
	if raceEnabled && !testlong.Enabled(t) {
		t.Log("the proof search of 6 points after 2 5: with ALAK_LONG=1 under the race detector (seconds of search there)")
		return
	}
	out, errOut, code = solveSession(t, "solve", "--rules", "traditional", "--size", "6", "--table-dir", "none", "2", "5")
	if code != 0 || !strings.Contains(out, "value:    0 (draw)\n") || !strings.Contains(out, "method:   proof") ||
		!strings.Contains(errOut, "alak solve: the search did not finish within 2000000 positions") ||
		!strings.Contains(errOut, "alak solve: proving that x can force a draw or better") || !strings.Contains(errOut, "alak solve: x cannot force a win") {
		t.Errorf("6 points after 2 5: status %d, %q %q", code, out, errOut)
	}
}
