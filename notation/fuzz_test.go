package notation

import (
	"bytes"
	"strings"
	"testing"

	"alak/rules"
)

// fuzzRules are the rule sets the point and move fuzzers choose from.
func fuzzRules() []rules.Rules {
	var rs []rules.Rules
	for _, spec := range []string{"alak", "alak size=6", "alak size=30", "alak size=64", "alterigo", "alterigo size=19x19", "golf", "tromp-taylor size=3x2"} {
		rs = append(rs, must(rules.Parse(spec)))
	}
	return rs
}

func must(r rules.Rules, err error) rules.Rules {
	if err != nil {
		panic(err)
	}
	return r
}

func FuzzParsePoint(f *testing.F) {
	for _, s := range []string{"1", "11", "c", "C1", "a", "z", "0", "-3", " 4 ", "AA1", "T19", "I1", ""} {
		f.Add(uint8(0), s)
	}
	rs := fuzzRules()
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		r := rs[int(which)%len(rs)]
		p, err := ParsePoint(r, s)
		if err != nil {
			return
		}
		if p < 0 || p >= r.Points() {
			t.Fatalf("ParsePoint(%s, %q) = %d, off the board", r, s, p)
		}
		if q, err := ParsePoint(r, FormatPoint(r, p)); err != nil || q != p {
			t.Fatalf("FormatPoint(%d) = %q reads back as %d, %v", p, FormatPoint(r, p), q, err)
		}
	})
}

func FuzzParseGTPVertex(f *testing.F) {
	for _, s := range []string{"A1", "c3", "T19", "J9", "I1", "AA1", "BZ1", "A0", "A", "1", ""} {
		f.Add(uint8(0), s)
	}
	rs := fuzzRules()
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		r := rs[int(which)%len(rs)]
		p, err := ParseGTPVertex(r, s)
		if err != nil {
			return
		}
		if p < 0 || p >= r.Points() {
			t.Fatalf("ParseGTPVertex(%s, %q) = %d, off the board", r, s, p)
		}
		if q, err := ParseGTPVertex(r, r.Vertex(p)); err != nil || q != p {
			t.Fatalf("Vertex(%d) = %q reads back as %d, %v", p, r.Vertex(p), q, err)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"1", "pass", "resign", "1-4", "4 5", "C1", "k", "PASS", "1-", "-", "99-1"} {
		f.Add(uint8(0), s)
		f.Add(uint8(6), s)
	}
	rs := fuzzRules()
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		r := rs[int(which)%len(rs)]
		m, err := Human.Decode(r, s)
		if err != nil {
			return
		}
		if m.IsPlace() && m.Point() >= r.Points() || m.IsSlide() && (m.From() >= r.Points() || m.To() >= r.Points()) {
			t.Fatalf("Human.Decode(%s, %q) = %v, off the board", r, s, m)
		}
		if back, err := Human.Decode(r, Human.Encode(r, m)); err != nil || back != m {
			t.Fatalf("Human.Encode(%v) = %q reads back as %v, %v", m, Human.Encode(r, m), back, err)
		}
	})
}

// FuzzReadSGF checks that ReadSGF never panics and that whatever it reads
// is written and read back as the same record.
func FuzzReadSGF(f *testing.F) {
	for _, s := range []string{
		"(;FF[4]GM[1]SZ[6:1]RU[alak];B[aa];W[da];B[ea])",
		"(;SZ[6:1]AB[aa]AW[da][fa]PL[B]XD[x--o/O];B[ba]C[a \\] b])",
		"(;SZ[3]RU[tromp-taylor]KM[0.5];B[bb];W[tt](;B[])(;B[aa]))",
		"(;RU[golf];B[daea];W[haga])",
		"(;RU[alterigo]SZ[4:3]AB[aa:bb];W[cc]RE[W+R])",
		"(;RU[dewdney]TM[300]OT[3 fischer]C[ada: hi];B[aaea]BL[299.5];W[ha-ga]WL[12]C[bo: gl\\] hf];B[ca:aa]BL[0.001])",
		"(;RU[golf];XB[aaea];XW[kaga]C[old form];B[cafa])",
		"(;SZ[6:1]TM[60.25];B[aa]BL[-1]WL[3];W[da]BL[x];BL[2])",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ReadSGF(data)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteSGF(&buf, rec); err != nil {
			if rec.Rules.Width > len(sgfLetters) {
				return
			}
			t.Fatalf("a record read from %q cannot be written: %v", data, err)
		}
		back, err := ReadSGF(buf.Bytes())
		if err != nil {
			t.Fatalf("written as %q, it does not read back: %v", buf.String(), err)
		}
		sameRecord(t, rec, back)
	})
}

// FuzzReadMoveList checks that ReadMoveList never panics and that whatever
// it reads is written and read back as the same record.
func FuzzReadMoveList(f *testing.F) {
	for _, s := range []string{
		"# rules: alak size=6\n1 4 5 6 # note\n2 3",
		"# rules: alak size=6\n# position: x--o/O x\n# result: B+3\n2",
		"# rules: golf\n4-5 8-7 resign",
		"# rules: alterigo size=3x3\n# black: A\nB2 A1 pass",
		"1 2 3",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ReadMoveList(data)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteMoveList(&buf, rec); err != nil {
			t.Fatalf("a record read from %q cannot be written: %v", data, err)
		}
		back, err := ReadMoveList(buf.Bytes())
		if err != nil {
			t.Fatalf("written as %q, it does not read back: %v", buf.String(), err)
		}
		sameRecord(t, rec, back)
	})
}

// FuzzReadParts: ReadParts never panics, and what it reads writes back as
// lines that read the same.
func FuzzReadParts(f *testing.F) {
	g, err := rules.NewGame(must(rules.Parse("tromp-taylor size=12")))
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(PartsHeader(g) + "(start): cut off (80 positions, 1.0s)\n4 7 1: at most 1 (349 positions, 27.2s)\n"))
	f.Add([]byte("2 11 9 5: cut off at 80000000 positions, split\n# note\n2 pass: at least 12\n"))
	f.Add([]byte("4 7 6 2: open\n4 7: at least -0.5 (known)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, err := ReadParts(data, g)
		if err != nil {
			return
		}
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(FormatPartLine(g.Rules(), l) + "\n")
		}
		again, err := ReadParts([]byte(b.String()), g)
		if err != nil || len(again) != len(lines) {
			t.Fatalf("written back as\n%s\nreads as %d lines, %v; want %d", b.String(), len(again), err, len(lines))
		}
		for i := range lines {
			if FormatPartLine(g.Rules(), again[i]) != FormatPartLine(g.Rules(), lines[i]) {
				t.Fatalf("line %d: %q reads back as %q", i+1, FormatPartLine(g.Rules(), lines[i]), FormatPartLine(g.Rules(), again[i]))
			}
		}
	})
}
