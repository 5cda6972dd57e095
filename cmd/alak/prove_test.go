package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestProveCommand proves, on 3 points under Traditional Alak, Black's
// win by the centre (by hand: White has no legal placement after it, so
// pass, pass, 3-0), and reports no proof for White.
func TestProveCommand(t *testing.T) {
	out, errOut, code := solveSession(t, "prove", "--rules", "traditional", "--size", "3", "--for", "x", "--json")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	var got struct {
		For, Goal string
		Proved    bool
		Plies     int
		PV        []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if got.For != "x" || got.Goal != "win" || !got.Proved || got.Plies != 3 || !reflect.DeepEqual(got.PV, []string{"2", "pass", "pass"}) {
		t.Errorf("got %+v from %s", got, out)
	}
	out, _, code = solveSession(t, "prove", "--rules", "traditional", "--size", "3", "--for", "o", "--draw", "--depth", "10")
	if code != 0 || !strings.Contains(out, "No proof that o can force a draw or better within 10 plies") {
		t.Errorf("status %d, output %q", code, out)
	}
	out, _, code = solveSession(t, "prove", "--rules", "traditional", "--size", "3", "--for", "x", "2")
	if code != 0 || !strings.Contains(out, "x can force a win within 2 plies") || !strings.Contains(out, "Longest defence: pass pass") {
		t.Errorf("after 2: status %d, output %q", code, out)
	}
}

// TestProveCPUProfile: --cpuprofile writes a CPU profile of the search
// (pprof's gzip format), the proof printed as without it; a profile that
// cannot be created is refused before the search.
func TestProveCPUProfile(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	out, errOut, code := solveSession(t, "prove", "--rules", "traditional", "--size", "3", "--for", "x", "--cpuprofile", prof, "2")
	if code != 0 || !strings.Contains(out, "x can force a win within 2 plies") {
		t.Fatalf("status %d, output %q, stderr %q", code, out, errOut)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("the profile is %d bytes and not gzip", len(b))
	}
	_, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "3", "--for", "x", "--cpuprofile", filepath.Join(prof, "no", "such"), "2")
	if code == 0 || !strings.Contains(errOut, "prove") {
		t.Errorf("an unwritable profile: status %d, stderr %q", code, errOut)
	}
}

// TestProveSharedWinsCommand: White's win on 7 points after 1 (docs/
// results-traditional.md), by proof numbers with the table and no graph, shares a
// subtree of its win; alak prove says how many it wrote, referred to and
// put in line, and check-proof finds the subtrees and references it says.
func TestProveSharedWinsCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "o7.alakproof")
	out, errOut, code := solveSession(t, "prove", "--rules", "traditional", "--size", "7", "--for", "o", "--proof-numbers", "--table", "--certificate", file, "1")
	said := regexp.MustCompile(`Shared wins written: (\d+) subtrees \((\d+) at a state whose earlier ones did not hold on the line\), (\d+) references; (\d+) more no reference named, written in line\.`).FindStringSubmatch(out)
	if code != 0 || said == nil {
		t.Fatalf("status %d, output %q, stderr %q", code, out, errOut)
	}
	if said[1] == "0" || said[3] == "0" || said[4] == "0" {
		t.Errorf("%s: want subtrees kept, references and subtrees put in line", said[0])
	}
	out, errOut, code = solveSession(t, "check-proof", file)
	want := fmt.Sprintf("%s shared subtrees referred to %s times", said[1], said[3])
	if code != 0 || !strings.Contains(out, "Proved: o can force a win after 1") || !strings.Contains(out, want) {
		t.Errorf("check-proof: status %d, %q %q; want %q", code, out, errOut, want)
	}
	// --json gives the same counts (the search is deterministic), and
	// the table's.
	jsonFile := filepath.Join(t.TempDir(), "o7-json.alakproof")
	out, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "7", "--for", "o", "--proof-numbers", "--table", "--certificate", jsonFile, "--json", "1")
	var got struct {
		Proved        bool   `json:"proved"`
		Subtrees      int64  `json:"win_subtrees"`
		SubtreesAgain int64  `json:"win_subtrees_again"`
		References    int64  `json:"win_references"`
		InLine        int64  `json:"win_subtrees_in_line"`
		Windows       *int64 `json:"table_window_hits"`
		WinHits       *int64 `json:"table_win_hits"`
	}
	if code != 0 {
		t.Fatalf("--json: status %d, %q %q", code, out, errOut)
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("--json: %v in %q", err, out)
	}
	if text := fmt.Sprintf("%d %d %d %d", got.Subtrees, got.SubtreesAgain, got.References, got.InLine); !got.Proved || text != strings.Join(said[1:], " ") {
		t.Errorf("--json: proved %v, counts %s; the text said %v", got.Proved, text, said[1:])
	}
	if got.Windows == nil && got.WinHits == nil {
		t.Errorf("--json: no table counts in %s", out)
	}
}

func TestProveCommandErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"prove"}, "--for x or --for o"},
		{[]string{"prove", "--for", "z"}, "--for"},
		{[]string{"prove", "--for", "x", "--depth", "-1"}, "from 0 to 1000"},
		{[]string{"prove", "--for", "x", "--size", "3", "4"}, `move 1 "4"`},
		{[]string{"prove", "--for", "x", "--rules", "nope"}, "nope"},
	} {
		_, errOut, code := solveSession(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// With --graph and --table, White's draw on 6 points (docs/results-traditional.md,
// "traditional": 6 points is a draw) is proved again and its certificate
// passes check-proof; rules the graph is not sound for, and a prisoner
// range below twice the points, are refused.
func TestProveGraphCommand(t *testing.T) {
	t.Parallel() // seconds of the processor, files of its own: they overlap the other tests' waits
	file := filepath.Join(t.TempDir(), "t6.alakproof")
	out, errOut, code := solveSession(t, "prove", "--rules", "traditional", "--size", "6", "--for", "o", "--draw", "--graph", "--table", "--certificate", file)
	if code != 0 || !strings.Contains(out, "o can force a draw or better within") || !strings.Contains(out, "Table: ") {
		t.Fatalf("status %d, %q %q", code, out, errOut)
	}
	out, errOut, code = solveSession(t, "check-proof", file)
	if code != 0 || !strings.Contains(out, "Proved: o can force a draw or better from the start (traditional size=6).") {
		t.Errorf("check-proof: status %d, %q %q", code, out, errOut)
	}
	// --plain writes the same proof without shared subtrees: longer, and
	// it checks too; --progress tells each depth searched without a proof.
	plainFile := filepath.Join(t.TempDir(), "t6-plain.alakproof")
	out, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "6", "--for", "o", "--draw", "--graph", "--table", "--certificate", plainFile, "--plain", "--progress")
	if code != 0 || !strings.Contains(errOut, "no proof within 10 plies; ") {
		t.Fatalf("--plain --progress: status %d, %q %q", code, out, errOut)
	}
	shared, err1 := os.Stat(file)
	plain, err2 := os.Stat(plainFile)
	if err1 != nil || err2 != nil || shared.Size() >= plain.Size() {
		t.Errorf("the shared certificate (%v, %v) is not smaller than the plain one (%v, %v)", shared, err1, plain, err2)
	}
	if out, errOut, code = solveSession(t, "check-proof", plainFile); code != 0 || !strings.Contains(out, "Proved: o can force") {
		t.Errorf("check-proof of the plain certificate: status %d, %q %q", code, out, errOut)
	}
	// --proof-numbers settles a claim both ways: White's draw on 6 points
	// proved (and its certificate checks), White's win on 3 disproved.
	pnFile := filepath.Join(t.TempDir(), "t6-pn.alakproof")
	out, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "6", "--for", "o", "--draw", "--graph", "--proof-numbers", "--certificate", pnFile)
	if code != 0 || !strings.Contains(out, "o can force a draw or better within") {
		t.Fatalf("--proof-numbers: status %d, %q %q", code, out, errOut)
	}
	if out, errOut, code = solveSession(t, "check-proof", pnFile); code != 0 || !strings.Contains(out, "Proved: o can force a draw or better from the start (traditional size=6).") {
		t.Errorf("check-proof of the proof-number certificate: status %d, %q %q", code, out, errOut)
	}
	out, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "3", "--for", "o", "--proof-numbers")
	if code != 0 || !strings.Contains(out, "Disproved: o cannot force a win, however long the game") {
		t.Errorf("--proof-numbers, White's win on 3 points: status %d, %q %q", code, out, errOut)
	}
	out, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "3", "--for", "o", "--proof-numbers", "--json")
	if code != 0 || !strings.Contains(out, `"proved":false,"disproved":true`) {
		t.Errorf("--proof-numbers --json: status %d, %q %q", code, out, errOut)
	}
	// A disproof is the opponent's proof: White's win on 6 points after 2
	// disproved, Black's draw written (results-traditional.md: 6 points is a draw).
	counter := filepath.Join(t.TempDir(), "t6-x-draw-after-2.alakproof")
	out, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "6", "--for", "o", "--graph", "--proof-numbers", "--counter-certificate", counter, "2")
	if code != 0 || !strings.Contains(out, "Disproved: o cannot force a win") || !strings.Contains(out, "Certificate that x can force a draw or better") {
		t.Fatalf("--counter-certificate: status %d, %q %q", code, out, errOut)
	}
	if out, errOut, code = solveSession(t, "check-proof", counter); code != 0 || !strings.Contains(out, "Proved: x can force a draw or better after 2 (traditional size=6).") {
		t.Errorf("check-proof of the counter-certificate: status %d, %q %q", code, out, errOut)
	}
	out, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "3", "--for", "o", "--proof-numbers", "--json", "--counter-certificate", filepath.Join(t.TempDir(), "t3.alakproof"))
	if code != 0 || !strings.Contains(out, `"disproved":true`) || !strings.Contains(out, `"counter_certificate":{`) {
		t.Errorf("--counter-certificate --json: status %d, %q %q", code, out, errOut)
	}
	if _, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "3", "--for", "o", "--counter-certificate", counter); code != 2 || !strings.Contains(errOut, "--counter-certificate needs --proof-numbers") {
		t.Errorf("--counter-certificate without --proof-numbers: status %d, %q", code, errOut)
	}
	for _, args := range [][]string{
		{"prove", "--rules", "tromp-taylor", "--size", "3", "--for", "x", "--graph"},
		{"prove", "--rules", "traditional", "--size", "6", "--for", "x", "--graph", "--prisoner-range", "12"},
	} {
		_, errOut, code := solveSession(t, args...)
		if code != 2 || !strings.Contains(errOut, "--graph: ") {
			t.Errorf("%v: status %d, stderr %q; want 2 and a --graph error", args, code, errOut)
		}
	}
}

// With --superko, Black's bound on 1×8 (at least 3: results-tromp-taylor.md, 1×8 = 3)
// is proved by the positional linear Go solver and its certificate passes
// check-proof with the positions and shared subtrees alak prove counted;
// the bound a point beyond is disproved, with White's certificate; other
// rules, and the other searches beside it, are refused.
func TestProveSuperkoCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "x8.alakproof")
	out, errOut, code := solveSession(t, "prove", "--rules", "tromp-taylor", "--size", "8", "--komi", "3", "--for", "x", "--draw", "--superko", "--certificate", file)
	if code != 0 || !strings.Contains(out, "x can force a draw or better (") {
		t.Fatalf("status %d, %q %q", code, out, errOut)
	}
	var positions, plies, kept, refs, inLine int
	if _, err := fmt.Sscanf(out[strings.Index(out, "Certificate: "):], "Certificate: "+file+" (%d bytes, %d positions, longest line %d plies)", new(int), &positions, &plies); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if _, err := fmt.Sscanf(out[strings.Index(out, "Shared subtrees: "):], "Shared subtrees: %d kept, %d references to them; %d more", &kept, &refs, &inLine); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	check, errOut, code := solveSession(t, "check-proof", file)
	want := fmt.Sprintf("%d positions checked (", positions)
	if code != 0 || !strings.Contains(check, "Proved: x can force a draw or better from the start (tromp-taylor size=8 komi=3).") || !strings.Contains(check, want) ||
		!strings.Contains(check, fmt.Sprintf("%d shared subtrees referred to %d times", kept, refs)) {
		t.Errorf("check-proof: status %d, %q %q; want %q and the subtrees alak prove counted (%d, %d)", code, check, errOut, want, kept, refs)
	}
	counter := filepath.Join(dir, "o8.alakproof")
	out, errOut, code = solveSession(t, "prove", "--rules", "tromp-taylor", "--size", "8", "--komi", "4", "--for", "x", "--draw", "--superko", "--budget", "2000", "--counter-certificate", counter)
	if code != 0 || !strings.Contains(out, "Disproved: x cannot force a draw or better") || !strings.Contains(out, "Certificate that o can force a win") {
		t.Fatalf("at least 4: status %d, %q %q", code, out, errOut)
	}
	if out, errOut, code := solveSession(t, "check-proof", counter); code != 0 || !strings.Contains(out, "Proved: o can force a win from the start (tromp-taylor size=8 komi=4).") {
		t.Errorf("the counter-certificate: status %d, %q %q", code, out, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"prove", "--rules", "traditional", "--size", "5", "--for", "x", "--superko"}, "tromp-taylor"},
		{[]string{"prove", "--rules", "tromp-taylor", "--size", "5", "--for", "x", "--superko", "--graph"}, "give one or the other"},
		{[]string{"prove", "--rules", "tromp-taylor", "--size", "5", "--for", "x", "--superko", "--budget", "-1"}, "budget"},
	} {
		_, errOut, code := solveSession(t, c.args...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q, want a refusal saying %q", c.args, code, errOut, c.want)
		}
	}
}

// check-proof --explain prints a certificate field by field, as
// docs/proofs.md's worked examples show them, and refuses a file that does
// not read.
func TestCheckProofExplain(t *testing.T) {
	out, errOut, code := solveSession(t, "check-proof", "--explain", filepath.Join(proofData(t), "tromp-taylor", "tromp-taylor-4-x-draw-komi-4.alakproof"))
	for _, want := range []string{"| offset | bytes | field | value |", "| 0 | 41 4c 41 4b 50 52 4f 4f 46 0a | magic | \"ALAKPROOF\\n\" |", "| 10 | 04 | format | 4 |", "| rules | \"tromp-taylor size=4 komi=4\" |", "M: the proving player's move"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("status %d, %q %q; want %q", code, out, errOut, want)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.alakproof")
	if err := os.WriteFile(bad, []byte("ALAKPROOF\n\x09"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := solveSession(t, "check-proof", "--explain", bad); code != 1 || !strings.Contains(errOut, "format 9") {
		t.Errorf("a file of format 9: status %d, stderr %q", code, errOut)
	}
}
