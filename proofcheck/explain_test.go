package proofcheck

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"alak/rules"
)

// docExample is a worked example of docs/proofs.md: the bytes its hex
// block prints and the rows of the table that follows it.
type docExample struct {
	data []byte
	rows []string
}

// docExamples reads the worked examples of docs/proofs.md: each ```hex
// block (lines "offset: bytes", 16 bytes a line) and the Markdown table
// after it.
func docExamples(t *testing.T) []docExample {
	t.Helper()
	text, err := os.ReadFile("../docs/proofs.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []docExample
	lines := strings.Split(string(text), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```hex" {
			continue
		}
		var ex docExample
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			off, hexes, ok := strings.Cut(lines[i], ":")
			if n, err := strconv.Atoi(strings.TrimSpace(off)); !ok || err != nil || n != len(ex.data) {
				t.Fatalf("docs/proofs.md line %d: %q does not start with the offset %d", i+1, lines[i], len(ex.data))
			}
			b, err := hex.DecodeString(strings.ReplaceAll(hexes, " ", ""))
			if err != nil {
				t.Fatalf("docs/proofs.md line %d: %v", i+1, err)
			}
			ex.data = append(ex.data, b...)
		}
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "| offset |"); i++ {
		}
		for i += 2; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
			ex.rows = append(ex.rows, lines[i])
		}
		out = append(out, ex)
	}
	return out
}

// TestDocExamples: the worked examples of docs/proofs.md are certificates
// that check, and their tables are what Explain reads from their bytes,
// row for row.
func TestDocExamples(t *testing.T) {
	examples := docExamples(t)
	if len(examples) != 2 {
		t.Fatalf("%d worked examples in docs/proofs.md, want 2", len(examples))
	}
	claims := []string{
		"x can force a win from the start (traditional size=3)",
		"x can force a win from the start (tromp-taylor size=4 komi=3.5)",
	}
	for k, ex := range examples {
		rep, err := check(ex.data)
		if err != nil {
			t.Errorf("example %d: %v", k+1, err)
		} else if rep.Claim() != claims[k] {
			t.Errorf("example %d claims %q, want %q", k+1, rep.Claim(), claims[k])
		}
		var got []string
		if err := Explain(bytes.NewReader(ex.data), func(f Field) error {
			got = append(got, strings.TrimSuffix(string(AppendExplained(nil, f)), "\n"))
			return nil
		}); err != nil {
			t.Fatalf("example %d: %v", k+1, err)
		}
		if len(got) != len(ex.rows) {
			t.Errorf("example %d: %d rows in docs/proofs.md, %d fields read", k+1, len(ex.rows), len(got))
		}
		for i := range min(len(got), len(ex.rows)) {
			if got[i] != ex.rows[i] {
				t.Errorf("example %d, row %d:\n docs: %s\n read: %s", k+1, i+1, ex.rows[i], got[i])
			}
		}
	}
}

// explainAll returns the fields Explain reads from data.
func explainAll(data []byte) ([]Field, error) {
	var fs []Field
	err := Explain(bytes.NewReader(data), func(f Field) error {
		fs = append(fs, f)
		return nil
	})
	return fs, err
}

// TestExplain: the fields of every committed certificate follow each
// other from the first byte to the last, and a file that does not read
// is refused as Check refuses it (ErrFormat), at every cut.
func TestExplain(t *testing.T) {
	for _, name := range []string{"traditional-5-o-draw.alakproof", "traditional-6-o-draw-shared.alakproof", "traditional-8-o-win-after-1-shared.alakproof", "tromp-taylor-7-o-win-komi-2.5.alakproof"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		fs, err := explainAll(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkFields(t, name, data, fs)
		if len(fs) == 0 || fs[len(fs)-1].Off+int64(len(fs[len(fs)-1].Bytes)) != int64(len(data)) {
			t.Errorf("%s: the fields do not reach the end of the file", name)
		}
		for n := 0; n < len(data); n += 1 + n/128*16 {
			if _, err := explainAll(data[:n]); !errors.Is(err, ErrFormat) {
				t.Fatalf("%s cut to %d bytes: %v, want ErrFormat", name, n, err)
			}
		}
		if _, err := explainAll(append(data[:len(data):len(data)], 'E', 0)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s with bytes after the tree: %v, want ErrFormat", name, err)
		}
	}
	stop := errors.New("stop")
	if err := Explain(bytes.NewReader(golden5(t)), func(Field) error { return stop }); err != stop {
		t.Errorf("a refusal by the callback: %v, want it returned", err)
	}
}

// checkFields checks that the fields of data follow each other from its
// first byte, each its own bytes.
func checkFields(t *testing.T, name string, data []byte, fs []Field) {
	t.Helper()
	off := int64(0)
	for _, f := range fs {
		if f.Off != off || !bytes.Equal(f.Bytes, data[f.Off:f.Off+int64(len(f.Bytes))]) || len(f.Bytes) == 0 && f.Name != "line length" {
			t.Fatalf("%s: field %s at %d (%d bytes), want it at %d with the file's bytes", name, f.Name, f.Off, len(f.Bytes), off)
		}
		off += int64(len(f.Bytes))
	}
}

// FuzzExplain: on any input, Explain stops with an error or reads the
// whole input, its fields following each other with the input's bytes;
// what it reads whole, Check does not refuse as unreadable for a reason
// of the format's syntax.
func FuzzExplain(f *testing.F) {
	for _, name := range []string{"traditional-5-o-draw.alakproof", "tromp-taylor-7-o-win-komi-2.5.alakproof"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		fs, err := explainAll(data)
		if len(fs) > 0 && fs[0].Off != 0 {
			t.Fatalf("the first field at %d", fs[0].Off)
		}
		for i := 1; i < len(fs); i++ {
			if fs[i].Off != fs[i-1].Off+int64(len(fs[i-1].Bytes)) {
				t.Fatalf("field %d at %d, after %d bytes from %d", i, fs[i].Off, len(fs[i-1].Bytes), fs[i-1].Off)
			}
		}
		for _, fl := range fs {
			if end := fl.Off + int64(len(fl.Bytes)); end > int64(len(data)) || !bytes.Equal(fl.Bytes, data[fl.Off:end]) {
				t.Fatalf("field %s at %d is not the input's bytes", fl.Name, fl.Off)
			}
		}
		if err == nil {
			if last := fs[len(fs)-1]; last.Off+int64(len(last.Bytes)) != int64(len(data)) {
				t.Fatal("read whole, but the fields stop short of the end")
			}
		} else if !errors.Is(err, ErrFormat) {
			t.Fatalf("an error that is not ErrFormat: %v", err)
		}
	})
}

// TestRulesText: the text the rules hash is taken of, as docs/proofs.md
// prints it for traditional size=6, hashes to the hash of the committed
// certificate of that size (written before passend existed); passend is
// named only where it is draw, and the value an option has where it does
// not apply (min, selfcapture, start) is written all the same.
func TestRulesText(t *testing.T) {
	const want = "size=6\nedge=on\nown=illegal\nko=simple\npass=on\npasses=2\nscore=area+prisoners\nkomi=0\nrepetition=3\nunchanged=off\nmin=0\nselfcapture=off\nstart=\nsafe=off\n"
	r, err := rules.Parse("traditional size=6")
	if err != nil {
		t.Fatal(err)
	}
	if got := RulesText(r); got != want {
		t.Errorf("traditional size=6:\n%s\nwant\n%s", got, want)
	}
	data, err := os.ReadFile("../proofdata/traditional-6-o-draw.alakproof")
	if _, serr := os.Stat("../proofdata/go.mod"); serr != nil {
		t.Skipf("no proof data here (%v): it is in the repository, not the module", serr)
	}
	if err != nil {
		t.Fatal(err)
	}
	h, _ := split(t, data)
	if h.RulesHash != sha256.Sum256([]byte(want)) || h.RulesHash != RulesHash(r) {
		t.Errorf("the committed certificate's hash %x is not that of the text", h.RulesHash)
	}
	for _, c := range []struct{ rules, last string }{
		{"traditional size=6 passend=score", "safe=off\n"},
		{"traditional size=6 passend=draw", "safe=off\npassend=draw\n"},
	} {
		r, err := rules.Parse(c.rules)
		if err != nil {
			t.Fatal(err)
		}
		if got := RulesText(r); !strings.HasSuffix(got, c.last) || (c.last == "safe=off\n") != (got == want) {
			t.Errorf("%s: %q, want it to end %q", c.rules, got, c.last)
		}
	}
}
