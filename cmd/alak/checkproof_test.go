package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"alak/internal/testlong"
)

// TestProveCertificateCommand writes the certificate of "o holds a draw on
// 5 points" (docs/results-traditional.md) in parts of 100 bytes, checks it whole and
// one part alone, then breaks it: a part missing, a byte changed.
func TestProveCertificateCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t5.alakproof")
	out, errOut, code := solveSession(t, "prove", "--rules", "traditional", "--size", "5", "--for", "o", "--draw",
		"--certificate", file, "--part-size", "100", "--json")
	if code != 0 {
		t.Fatalf("prove: status %d: %s", code, errOut)
	}
	var pr struct {
		Proved bool
		Cert   struct {
			File  string
			Parts int
			Bytes int64
		} `json:"certificate"`
	}
	if err := json.Unmarshal([]byte(out), &pr); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if !pr.Proved || pr.Cert.File != file || pr.Cert.Parts < 3 {
		t.Fatalf("prove: %s; want a proof written in several parts", out)
	}
	out, errOut, code = solveSession(t, "check-proof", "--json", file)
	var chk struct {
		Claim       string
		For, Goal   string
		Parts       int
		Nodes, Ends int64
	}
	if err := json.Unmarshal([]byte(out), &chk); code != 0 || err != nil {
		t.Fatalf("check-proof: status %d, %v: %s%s", code, err, out, errOut)
	}
	if chk.Claim != "o can force a draw or better from the start (traditional size=5)" || chk.For != "o" || chk.Goal != "draw" ||
		chk.Parts != pr.Cert.Parts || chk.Nodes == 0 || chk.Ends == 0 {
		t.Errorf("check-proof: %s", out)
	}
	out, _, code = solveSession(t, "check-proof", "--part", "0", file)
	if code != 0 || !strings.Contains(out, "Proved: o can force a draw or better") || !strings.Contains(out, "Given the parts it leaves to others: "+file+".part1") {
		t.Errorf("the main part alone: status %d, %q", code, out)
	}
	last := file + ".part" + strconv.Itoa(pr.Cert.Parts-1)
	data, err := os.ReadFile(last)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(last); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = solveSession(t, "check-proof", file)
	if code != 1 || !strings.Contains(errOut, "no such file") {
		t.Errorf("a part missing: status %d, %q", code, errOut)
	}
	data[len(data)-1] ^= 2 // the last node is an end: its result changes
	if err := os.WriteFile(last, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = solveSession(t, "check-proof", file)
	if code != 1 || !strings.Contains(errOut, "does not prove its claim") {
		t.Errorf("a result changed: status %d, %q", code, errOut)
	}
}

// TestCheckProofData checks the certificates of proofdata/ (a module of
// its own, so that the alak module's users do not download them;
// docs/results-traditional.md, "Proof certificates"): every stored file has the
// checksum SHA256SUMS gives, each listed in MIRRORS is made again by
// mirror-proof from its original with that checksum, and each proves the
// claim its name says. Those over quickProofSize (32 KB) only with
// ALAK_LONG=1, as .ci/run sets it; the four over 8 MB (White's wins
// on 10 points after 3 and 8, 17.6 MB, 29 s each, and on 11 after 1 and
// 11, 11.2 MB, 12 s each) only without the race detector, which .ci/run
// runs this test again without.
func TestCheckProofData(t *testing.T) {
	t.Parallel() // seconds of the processor in this process: they overlap the other tests' waits
	dir := proofData(t)
	sums := proofDataSums(t, dir)
	mirrors := proofDataMirrors(t, dir)
	stored, err := filepath.Glob(filepath.Join(dir, "traditional-*.alakproof"))
	if err != nil || len(stored)+len(mirrors) != len(sums) || len(sums) < 60 {
		t.Fatalf("%d certificates stored and %d mirrors under %s, %d checksums (%v): want one checksum each, for 5 to 11 points", len(stored), len(mirrors), dir, len(sums), err)
	}
	for _, f := range stored {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(data)); got != sums[filepath.Base(f)] {
			t.Errorf("%s: sha256 %s, SHA256SUMS says %q", f, got, sums[filepath.Base(f)])
		}
	}
	long := testlong.Enabled(t)
	skip := func(f string, size int64) bool {
		if size > quickProofSize && !long {
			t.Logf("%s (%d bytes): checked with %s=1", f, size, testlong.Env)
			return true
		} else if size > 8<<20 && raceEnabled {
			t.Logf("%s (%d bytes): checked without the race detector (.ci/run does)", f, size)
			return true
		}
		return false
	}
	for _, f := range stored {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if skip(f, fi.Size()) {
			continue
		}
		out, errOut, code := computeSession(t, "check-proof", f)
		if want := proofDataClaim(f); code != 0 || !strings.Contains(out, "Proved: "+want+".") {
			t.Errorf("%s: status %d, %q %q; want %q", f, code, out, errOut, want)
		}
	}
	tmp := t.TempDir()
	for to, from := range mirrors {
		fi, err := os.Stat(filepath.Join(dir, from))
		if err != nil {
			t.Fatalf("%s is made from %s: %v", to, from, err)
		}
		if skip(to, fi.Size()) {
			continue
		}
		// mirror-proof checks what it writes.
		made := filepath.Join(tmp, to)
		out, errOut, code := computeSession(t, "mirror-proof", filepath.Join(dir, from), made)
		if want := proofDataClaim(to); code != 0 || !strings.Contains(out, "Proved: "+want+".") {
			t.Errorf("mirror-proof %s: status %d, %q %q; want %q", to, code, out, errOut, want)
			continue
		}
		data, err := os.ReadFile(made)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(data)); got != sums[to] {
			t.Errorf("%s made by mirror-proof: sha256 %s, SHA256SUMS says %q", to, got, sums[to])
		}
	}
}

// quickProofSize is the largest certificate TestCheckProofData and
// TestCheckProofDataSuperko check without ALAK_LONG=1: those of 32 KB or
// less are 34 of the 53 stored Traditional Alak certificates (those of 5
// to 7 points, 7 of the 11 of 8) and 20 of the 24 of positional linear
// Go, each a different claim checked end to end; the larger ones add
// seconds of the processor under the race detector, not another path
// through check-proof and mirror-proof. Every file's checksum is checked whatever its size.
const quickProofSize = 32 << 10

// proofDataClaim is the claim a certificate's name says:
// traditional-6-o-draw.alakproof, traditional-6-x-draw-after-3.alakproof.
func proofDataClaim(f string) string {
	parts := strings.Split(strings.TrimSuffix(filepath.Base(f), ".alakproof"), "-")
	size, who, goal := parts[1], parts[2], parts[3]
	want := who + " can force " + map[string]string{"win": "a win", "draw": "a draw or better"}[goal] + " "
	if len(parts) > 5 {
		want += "after " + parts[5]
	} else {
		want += "from the start"
	}
	if size == "11" {
		return want + " (traditional)" // the preset's own size
	}
	return want + " (traditional size=" + size + ")"
}

// proofData is the folder of the committed certificates, proofdata/ at
// the top of the repository; the test skips where it is absent (the alak
// module's zip leaves it out).
func proofData(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "proofdata")
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Skipf("no proof data here (%v): it is in the repository, not the module", err)
	}
	return dir
}

// proofDataSums reads SHA256SUMS (sha256sum's format): file name → hex.
func proofDataSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		sum, name, ok := strings.Cut(l, "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("SHA256SUMS: %q is not a line of sha256sum", l)
		}
		sums[name] = sum
	}
	return sums
}

// proofDataMirrors reads MIRRORS: the certificates made by mirror-proof,
// each from its original (name → original's name).
func proofDataMirrors(t *testing.T, dir string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "MIRRORS"))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		if len(f) != 2 {
			t.Fatalf("MIRRORS: %q is not TO FROM", l)
		}
		m[f[0]] = f[1]
	}
	return m
}

// TestCheckProofDataSuperko checks the certificates of positional linear Go
// under proofdata/tromp-taylor/, one for each bound of a value: tromp-taylor-N-x-draw
// [-komi-V][-after-M] says Black's margin on 1×N (after the opening M) is
// at least V (0 where the name has no komi), tromp-taylor-N-o-draw… at
// most V. Each claim is the one its name says, and from the start V is
// the value of results-tromp-taylor.md's table (made with alak solve --table at
// 43b615e; 1×12 and 1×13 from their split proofs). Those over
// quickProofSize are checked with ALAK_LONG=1, and those over 1 MB only
// without the race detector (.ci/run checks them so): White's bound on 1×12, 3.5 MB, takes
// 10 s of CPU without it, its shared subtrees' board sets kept and
// compared at each reference.
func TestCheckProofDataSuperko(t *testing.T) {
	t.Parallel() // seconds of the processor in this process: they overlap the other tests' waits
	value := map[string]string{"1": "0", "2": "0", "3": "3", "4": "4", "5": "0", "6": "1", "7": "2", "8": "3", "9": "0", "10": "1", "11": "2", "12": "2", "13": "0"}
	dir := filepath.Join(proofData(t), "tromp-taylor")
	files, err := filepath.Glob(filepath.Join(dir, "tromp-taylor-*.alakproof"))
	if err != nil || len(files) < 22 {
		t.Fatalf("%d certificates of positional linear Go under %s (%v), want both bounds of 1×1 to 1×11 at least", len(files), dir, err)
	}
	sums := proofDataSums(t, dir)
	if len(sums) != len(files) {
		t.Errorf("%d certificates, %d lines in %s/SHA256SUMS", len(files), len(sums), dir)
	}
	long := testlong.Enabled(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(data)); got != sums[filepath.Base(f)] {
			t.Errorf("%s: sha256 %s, SHA256SUMS says %q", f, got, sums[filepath.Base(f)])
		}
		if fi, err := os.Stat(f); err != nil {
			t.Fatal(err)
		} else if fi.Size() > quickProofSize && !long {
			t.Logf("%s (%d bytes): checked with %s=1", f, fi.Size(), testlong.Env)
			continue
		} else if fi.Size() > 1<<20 && raceEnabled {
			t.Logf("%s (%d bytes): checked without the race detector (.ci/run does)", f, fi.Size())
			continue
		}
		// tromp-taylor-12-o-draw-komi-2.alakproof, tromp-taylor-9-x-draw.alakproof,
		// tromp-taylor-12-x-draw-komi--1-after-1.alakproof
		m := boundName.FindStringSubmatch(filepath.Base(f))
		if m == nil {
			t.Errorf("%s: not a name of a bound (tromp-taylor-N-x|o-draw[-komi-V][-after-MOVE])", f)
			continue
		}
		size, who, komi, after := m[1], m[2], m[3], m[4]
		if komi == "" {
			komi = "0"
		}
		if after == "" && komi != value[size] {
			t.Errorf("%s: a bound at %s, but 1×%s is worth %s (results-tromp-taylor.md)", f, komi, size, value[size])
		}
		if v, ok := openingValue[size+" "+after]; after != "" && (!ok || komi != v) {
			t.Errorf("%s: a bound at %s after %s, but results-tromp-taylor.md gives the opening the value %q", f, komi, after, v)
		}
		rules := "tromp-taylor size=" + size
		if komi != "0" {
			rules += " komi=" + komi
		}
		if size == "11" {
			rules = strings.Replace(rules, " size=11", "", 1) // the preset's own size
		}
		where := "from the start"
		if after != "" {
			where = "after " + after
		}
		want := who + " can force a draw or better " + where + " (" + rules + ")"
		out, errOut, code := computeSession(t, "check-proof", f)
		if code != 0 || !strings.Contains(out, "Proved: "+want+".") {
			t.Errorf("%s: status %d, %q %q; want %q", f, code, out, errOut, want)
		}
	}
}

// boundName is the name of a certificate of a bound of positional linear
// Go: the size, the player, the komi (absent: 0) and the opening.
// openingValue is the value of each opening of results-tromp-taylor.md
// whose bounds proofdata/tromp-taylor/ holds ("12 4": on 1×12 after 4).
var openingValue = map[string]string{"12 1": "-3", "12 2": "2", "12 3": "-2", "12 4": "2", "12 5": "-1", "12 6": "1", "12 pass": "-2"}

var boundName = regexp.MustCompile(`^tromp-taylor-(\d+)-([xo])-draw(?:-komi-(-?\d+))?(?:-after-(\w+))?\.alakproof$`)

// No proof, no certificate: White cannot win on 3 points (Black takes the
// centre, TestProveCommand).
func TestProveNoCertificateCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "none.alakproof")
	out, errOut, code := solveSession(t, "prove", "--rules", "traditional", "--size", "3", "--for", "o", "--depth", "6", "--certificate", file)
	if code != 0 || !strings.Contains(out, "No certificate written to "+file) {
		t.Errorf("status %d, %q %q", code, out, errOut)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("a certificate without a proof: %v", err)
	}
}

func TestCheckProofErrors(t *testing.T) {
	junk := filepath.Join(t.TempDir(), "junk")
	if err := os.WriteFile(junk, []byte("(;GM[1])"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"check-proof"}, 2, "give one certificate FILE"},
		{[]string{"check-proof", "a", "b"}, 2, "give one certificate FILE"},
		{[]string{"check-proof", filepath.Join(t.TempDir(), "none")}, 1, "no such file"},
		{[]string{"check-proof", junk}, 1, "not a readable proof certificate"},
		{[]string{"prove", "--for", "x", "--certificate", "x", "--part-size", "0"}, 2, "positive"},
	} {
		_, errOut, code := solveSession(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q, want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// TestMirrorProofCommand: Black's draw on 7 points after 3 (proofdata/)
// mirrored is Black's draw after 5, checked; a part in parts mirrors part
// by part; an input that does not read leaves no file behind.
func TestMirrorProofCommand(t *testing.T) {
	dir := t.TempDir()
	out1 := filepath.Join(dir, "t7-x-draw-after-5.alakproof")
	out, errOut, code := solveSession(t, "mirror-proof", filepath.Join(proofData(t), "traditional-7-x-draw-after-3.alakproof"), out1)
	if code != 0 || !strings.Contains(out, "Proved: x can force a draw or better after 5 (traditional size=7).") || !strings.Contains(out, "Written to "+out1+" and checked") {
		t.Fatalf("status %d, %q %q", code, out, errOut)
	}
	if out, errOut, code = solveSession(t, "check-proof", out1); code != 0 || !strings.Contains(out, "after 5 (traditional size=7)") {
		t.Errorf("check-proof of the mirror image: status %d, %q %q", code, out, errOut)
	}
	// A certificate in parts: White's win on 7 points after 1 written in
	// parts of 40 bytes, mirrored to after 7.
	parted := filepath.Join(dir, "t7-o-win-after-1.alakproof")
	if out, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "7", "--for", "o", "--depth", "20", "--certificate", parted, "--part-size", "40", "1"); code != 0 || !strings.Contains(out, "part(s)") || strings.Contains(out, "in 1 part(s)") {
		t.Fatalf("a certificate in parts: status %d, %q %q", code, out, errOut)
	}
	out2 := filepath.Join(dir, "t7-o-win-after-7.alakproof")
	if out, errOut, code = solveSession(t, "mirror-proof", parted, out2); code != 0 || !strings.Contains(out, "Proved: o can force a win after 7 (traditional size=7).") || strings.Contains(out, " 1 part(s)") {
		t.Errorf("a certificate in parts: status %d, %q %q", code, out, errOut)
	}
	junk := filepath.Join(dir, "junk")
	if err := os.WriteFile(junk, []byte("ALAKPROOF\n\x02"), 0o644); err != nil {
		t.Fatal(err)
	}
	out3 := filepath.Join(dir, "out3")
	if _, errOut, code = solveSession(t, "mirror-proof", junk, out3); code != 1 || !strings.Contains(errOut, "not a readable proof certificate") {
		t.Errorf("a file that does not read: status %d, %q", code, errOut)
	}
	if _, err := os.Stat(out3); !os.IsNotExist(err) {
		t.Errorf("a file that does not read left %s behind: %v", out3, err)
	}
	for _, args := range [][]string{{"mirror-proof", out1}, {"mirror-proof", out1, out1}} {
		if _, errOut, code = solveSession(t, args...); code != 2 {
			t.Errorf("%v: status %d, %q; want 2", args, code, errOut)
		}
	}
}

// TestJoinProofCommand: White's bound on 1×6 (the value is 1:
// results-tromp-taylor.md), proved after each of Black's first moves 1 to
// 3 and the pass, the other three mirrored, joins into White's bound from
// the empty board, which check-proof proves; a move left out, a
// certificate in parts, no --out and an OUT that is an IN are refused, and
// nothing is left behind.
func TestJoinProofCommand(t *testing.T) {
	dir := t.TempDir()
	name := func(m string) string { return filepath.Join(dir, "tt6-o-after-"+m+".alakproof") }
	var ins []string
	for _, m := range []string{"1", "2", "3", "pass"} {
		if out, errOut, code := solveSession(t, "prove", "--rules", "tromp-taylor", "--size", "6", "--komi", "1", "--for", "o", "--draw", "--superko", "--certificate", name(m), m); code != 0 {
			t.Fatalf("prove after %s: status %d, %q %q", m, code, out, errOut)
		}
		ins = append(ins, name(m))
	}
	for m := 1; m <= 3; m++ {
		if out, errOut, code := solveSession(t, "mirror-proof", name(strconv.Itoa(m)), name(strconv.Itoa(7-m))); code != 0 {
			t.Fatalf("mirror-proof after %d: status %d, %q %q", m, code, out, errOut)
		}
		ins = append(ins, name(strconv.Itoa(7-m)))
	}
	joined := filepath.Join(dir, "tt6-o.alakproof")
	out, errOut, code := solveSession(t, append([]string{"join-proof", "--out", joined}, ins...)...)
	if code != 0 || !strings.Contains(out, "Proved: o can force a draw or better from the start (tromp-taylor size=6 komi=1).") {
		t.Fatalf("join-proof: status %d, %q %q", code, out, errOut)
	}
	if out, errOut, code = solveSession(t, "check-proof", joined); code != 0 || !strings.Contains(out, "from the start (tromp-taylor size=6 komi=1)") {
		t.Errorf("check-proof of the joined certificate: status %d, %q %q", code, out, errOut)
	}
	bad := filepath.Join(dir, "bad.alakproof")
	if _, errOut, code = solveSession(t, append([]string{"join-proof", "--out", bad}, ins[1:]...)...); code != 1 || !strings.Contains(errOut, "no certificate after 1") {
		t.Errorf("the opening 1 left out: status %d, %q", code, errOut)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a join refused left %s behind: %v", bad, err)
	}
	parted := filepath.Join(dir, "t7-o-win-after-1.alakproof")
	if out, errOut, code = solveSession(t, "prove", "--rules", "traditional", "--size", "7", "--for", "o", "--depth", "20", "--certificate", parted, "--part-size", "40", "1"); code != 0 {
		t.Fatalf("a certificate in parts: status %d, %q %q", code, out, errOut)
	}
	for _, args := range [][]string{
		{"join-proof", "--out", bad, parted},
		{"join-proof", ins[0]},
		{"join-proof", "--out", ins[0], ins[0]},
		{"join-proof", "--out", bad},
	} {
		if _, errOut, code = solveSession(t, args...); code != 2 {
			t.Errorf("%v: status %d, %q; want 2", args, code, errOut)
		}
	}
}

// TestExtractProofCommand: Black's bound on 1×6 after the opening 2 (the
// value is 1 and 2 a best opening: results-tromp-taylor.md), joined into
// Black's bound from the start and taken out again, is the same
// certificate, which check-proof proves; a line the proof does not follow
// is refused with nothing left behind, and missing arguments are usage
// errors.
func TestExtractProofCommand(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "got.alakproof")
	x := filepath.Join(dir, "x6-after-2.alakproof")
	if out, errOut, code := solveSession(t, "prove", "--rules", "tromp-taylor", "--size", "6", "--komi", "1", "--for", "x", "--draw", "--superko", "--certificate", x, "2"); code != 0 {
		t.Fatalf("prove: status %d, %q %q", code, out, errOut)
	}
	joined := filepath.Join(dir, "x6.alakproof")
	if out, errOut, code := solveSession(t, "join-proof", "--out", joined, x); code != 0 || !strings.Contains(out, "x can force a draw or better from the start") {
		t.Fatalf("join-proof: status %d, %q %q", code, out, errOut)
	}
	out, errOut, code := solveSession(t, "extract-proof", "--out", got, joined, "2")
	if code != 0 || !strings.Contains(out, "Proved: x can force a draw or better after 2 (tromp-taylor size=6 komi=1).") {
		t.Fatalf("extract-proof: status %d, %q %q", code, out, errOut)
	}
	a, errA := os.ReadFile(x)
	b, errB := os.ReadFile(got)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Errorf("the subtree taken out differs from the certificate joined: %d and %d bytes (%v, %v)", len(a), len(b), errA, errB)
	}
	bad := filepath.Join(dir, "bad.alakproof")
	if _, errOut, code = solveSession(t, "extract-proof", "--out", bad, joined, "3"); code != 1 || !strings.Contains(errOut, "does not reach the position after 3") {
		t.Errorf("a line the proof does not follow: status %d, %q", code, errOut)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("an extraction refused left %s behind: %v", bad, err)
	}
	for _, args := range [][]string{
		{"extract-proof", "--out", bad, joined},
		{"extract-proof", joined, "2"},
		{"extract-proof", "--out", joined, joined, "2"},
	} {
		if _, errOut, code = solveSession(t, args...); code != 2 {
			t.Errorf("%v: status %d, %q; want 2", args, code, errOut)
		}
	}
}

// TestSwapProofCommand: Black's bound on 1×7 (at least 2:
// results-tromp-taylor.md), with the colours exchanged after a first pass,
// is White's bound after Black's pass with komi -2, which check-proof
// proves; White's bound, whose root answers Black's pass, does not hold
// after a pass and is refused with nothing left behind; missing arguments
// are usage errors.
func TestSwapProofCommand(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x7.alakproof")
	o := filepath.Join(dir, "o7.alakproof")
	for _, c := range []struct{ who, file string }{{"x", x}, {"o", o}} {
		if out, errOut, code := solveSession(t, "prove", "--rules", "tromp-taylor", "--size", "7", "--komi", "2", "--for", c.who, "--draw", "--superko", "--certificate", c.file); code != 0 {
			t.Fatalf("prove for %s: status %d, %q %q", c.who, code, out, errOut)
		}
	}
	got := filepath.Join(dir, "o7-after-pass.alakproof")
	out, errOut, code := solveSession(t, "swap-proof", "--out", got, x)
	if code != 0 || !strings.Contains(out, "Proved: o can force a draw or better after pass (tromp-taylor size=7 komi=-2).") {
		t.Fatalf("swap-proof: status %d, %q %q", code, out, errOut)
	}
	if out, errOut, code = solveSession(t, "check-proof", got); code != 0 || !strings.Contains(out, "after pass (tromp-taylor size=7 komi=-2)") {
		t.Errorf("check-proof: status %d, %q %q", code, out, errOut)
	}
	bad := filepath.Join(dir, "bad.alakproof")
	if _, errOut, code = solveSession(t, "swap-proof", "--out", bad, o); code != 1 || !strings.Contains(errOut, "does not check") {
		t.Errorf("White's bound exchanged: status %d, %q", code, errOut)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a refused exchange left %s behind: %v", bad, err)
	}
	for _, args := range [][]string{{"swap-proof", x}, {"swap-proof", "--out", bad}, {"swap-proof", "--out", x, x}, {"swap-proof", "--out", bad, x, o}} {
		if _, errOut, code = solveSession(t, args...); code != 2 {
			t.Errorf("%v: status %d, %q; want 2", args, code, errOut)
		}
	}
}
