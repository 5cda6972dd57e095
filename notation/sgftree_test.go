package notation

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"alak/rules"
)

// treeText writes a tree as moves in brackets, for comparisons:
// "2{c} (4 5) (6)".
func treeText(r rules.Rules, vs []*Variation) string {
	var parts []string
	for _, v := range vs {
		s := r.MoveText(v.Move)
		if v.Comment != "" {
			s += "{" + v.Comment + "}"
		}
		if rest := treeText(r, v.Children); rest != "" {
			s += " " + rest
		}
		if len(vs) > 1 {
			s = "(" + s + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// The tree of a hand-written SGF with variations (SGF FF[4]'s form: each
// branch in parentheses, the first the main line) is read as written.
func TestReadSGFTree(t *testing.T) {
	text := "(;FF[4]GM[1]SZ[6:1]RU[alak]C[start];B[aa]C[one](;W[da];B[ea]C[main])(;W[fa];C[note]" +
		"(;B[ca])(;B[ba]))(;W[ea]))"
	rec, tree, err := ReadSGFTree([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	// Expected from the text above: 1, then three answers 4, 6 (with two
	// answers of its own) and 5; the comment-only node joins 6.
	want := "1{one} (4 5{main}) (6{note} (3) (2)) (5)"
	if got := treeText(rec.Rules, tree); got != want {
		t.Errorf("tree %q, want %q", got, want)
	}
	if len(rec.Moves) != 3 || rec.Comments[0] != "start" {
		t.Errorf("main line %v, comment %q: want 3 moves and the comment start", rec.Moves, rec.Comments[0])
	}
}

// A tree written with WriteSGFTree reads back as the same tree, and the
// plain reader takes its main line.
func TestWriteSGFTreeRoundTrip(t *testing.T) {
	r := rules.MustPreset("alak")
	r.SetSize(7, 1)
	tree := []*Variation{
		{Move: rules.Place(1), Comment: "win by 3 ] in 5", Children: []*Variation{
			{Move: rules.Place(4), Children: []*Variation{{Move: rules.Place(6)}}},
			{Move: rules.Place(5), Comment: "loss"},
		}},
		{Move: rules.Place(3)},
	}
	rec := Record{Rules: r, Comments: map[int]string{0: "board"}}
	var buf bytes.Buffer
	if err := WriteSGFTree(&buf, rec, tree); err != nil {
		t.Fatal(err)
	}
	back, got, err := ReadSGFTree(buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if a, b := treeText(r, tree), treeText(back.Rules, got); a != b {
		t.Errorf("read back as %q, written %q\n%s", b, a, buf.String())
	}
	main, err := ReadSGF(buf.Bytes())
	if err != nil || len(main.Moves) != 3 || main.Moves[2] != rules.Place(6) {
		t.Errorf("the main line %v, %v: want 2 5 7", main.Moves, err)
	}
}

// An illegal move is refused, in a variation as in the main line, when
// read and when written.
func TestSGFTreeIllegal(t *testing.T) {
	if _, _, err := ReadSGFTree([]byte("(;SZ[6:1];B[aa](;W[ba])(;W[aa]))")); !errors.Is(err, ErrNotation) {
		t.Errorf("a stone on an occupied point in a variation: %v, want ErrNotation", err)
	}
	r := rules.MustPreset("alak")
	r.SetSize(6, 1)
	tree := []*Variation{{Move: rules.Place(0), Children: []*Variation{{Move: rules.Place(0)}}}}
	if err := WriteSGFTree(&bytes.Buffer{}, Record{Rules: r}, tree); !errors.Is(err, ErrNotation) {
		t.Errorf("writing a stone on an occupied point: %v, want ErrNotation", err)
	}
}

// FuzzReadSGFTree checks that ReadSGFTree never panics and that the tree
// it reads is written and read back the same.
func FuzzReadSGFTree(f *testing.F) {
	for _, s := range []string{
		"(;SZ[6:1];B[aa](;W[da];B[ea])(;W[fa]C[x]))",
		"(;SZ[3]RU[tromp-taylor];B[bb](;W[tt](;B[])(;B[aa]))(;W[aa]))",
		"(;RU[golf](;B[daea])(;B[haga]))",
		"(;SZ[6:1]C[a](;B[aa];C[b])(;B[ba];W[ca]))",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, tree, err := ReadSGFTree(data)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteSGFTree(&buf, rec, tree); err != nil {
			if rec.Rules.Width > len(sgfLetters) {
				return
			}
			t.Fatalf("a tree read from %q cannot be written: %v", data, err)
		}
		back, got, err := ReadSGFTree(buf.Bytes())
		if err != nil {
			t.Fatalf("written as %q, it does not read back: %v", buf.String(), err)
		}
		if a, b := treeText(rec.Rules, tree), treeText(back.Rules, got); a != b {
			t.Fatalf("read back as %q, written %q", b, a)
		}
	})
}
