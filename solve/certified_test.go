package solve

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"alak/notation"
	"alak/rules"
)

var update = flag.Bool("update", false, "write certified.txt again from proofdata/SHA256SUMS")

// certifiedHead starts certified.txt.
const certifiedHead = `# The results the proof certificates of proofdata/ prove, one a line:
# the rules, the moves from the start ("-" for none), the claim (x or o,
# then win, or draw for a draw or better), the certificate's file name and
# its SHA-256. Written by go test ./solve -run TestCertificates -update
# from proofdata/SHA256SUMS (the names say the claims:
# traditional-N-P-GOAL[-after-M].alakproof, N = 11 the preset's own
# size); alak check-proof checks each file and its claim (cmd/alak's
# TestCheckProofData).
`

// TestCertificates: the table of shipped results (certified.txt, in the
// binary) names every certificate of proofdata/SHA256SUMS, with the claim
// its file name states and the file's SHA-256; each line of play is
// legal. With -update it writes the table from SHA256SUMS. It skips where
// proofdata/ is absent (the alak module's zip leaves it out).
func TestCertificates(t *testing.T) {
	dir := filepath.Join("..", "proofdata")
	data, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr != nil {
		t.Skipf("no proof data here (%v): it is in the repository, not the module", serr)
	}
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(certifiedHead)
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		sum, name, ok := strings.Cut(l, "  ")
		parts := strings.Split(strings.TrimSuffix(name, ".alakproof"), "-")
		if !ok || len(sum) != 64 || len(parts) != 4 && (len(parts) != 6 || parts[4] != "after") || parts[0] != "traditional" {
			t.Fatalf("SHA256SUMS: %q is not a checksum of traditional-N-P-GOAL[-after-M].alakproof", l)
		}
		r, err := rules.Parse("traditional size=" + parts[1])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		line := "-"
		if len(parts) == 6 {
			line = parts[5]
		}
		fmt.Fprintf(&b, "%s\t%s\t%s %s\t%s\t%s\n", r.String(), line, parts[2], parts[3], name, sum)
		n++
	}
	if n < 60 {
		t.Fatalf("%d certificates in SHA256SUMS, want those of 5 to 11 points", n)
	}
	if *update {
		if err := os.WriteFile("certified.txt", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if b.String() != certifiedText {
		t.Fatalf("certified.txt does not list proofdata/SHA256SUMS as it is: run go test ./solve -run TestCertificates -update")
	}
	cs := Certificates()
	if len(cs) != n {
		t.Fatalf("%d certificates read, %d checksums", len(cs), n)
	}
	for _, c := range cs {
		r, err := rules.Parse(c.Rules)
		if err != nil {
			t.Fatalf("%s: %v", c.File, err)
		}
		g, err := rules.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.Line {
			m, err := notation.Human.Decode(r, w)
			if err == nil {
				err = g.Play(m)
			}
			if err != nil {
				t.Errorf("%s: move %s: %v", c.File, w, err)
			}
		}
	}
	if got := cs[slices.IndexFunc(cs, func(c Certificate) bool { return c.File == "traditional-7-x-draw-after-3.alakproof" })].Claim(); got != "x can force a draw or better after 3 (traditional size=7)" {
		t.Errorf("claim %q", got)
	}
}
