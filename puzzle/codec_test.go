package puzzle

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestDecodeRefuses: a puzzle changed in one claim that its own data can
// contradict is refused, each with ErrInvalid and a sentence naming what
// is wrong; the changes are made to the hand-analysed "alak4 two moves"
// (find_test.go).
func TestDecodeRefuses(t *testing.T) {
	c := handPuzzles[3]
	p, err := Find(context.Background(), newSolver(), newGame(t, c.spec, c.moves...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	good, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name, want string
		change     func(p *Puzzle)
	}{
		{"rules", "rules", func(p *Puzzle) { p.Rules = "alak size=4 edge=on" }},
		{"moves", "the puzzle's moves lead to", func(p *Puzzle) { p.Moves = []string{"3"} }},
		{"off the board", "the board has 4 points", func(p *Puzzle) { p.Moves = []string{"9"} }},
		{"illegal move", "occupied", func(p *Puzzle) { p.Moves = []string{"4", "4"} }},
		{"id", "id", func(p *Puzzle) { p.ID = "0000000000000000" }},
		{"goal", "goal", func(p *Puzzle) { p.Goal = GoalDraw }},
		{"value", "goal", func(p *Puzzle) { p.Value = 1 }},
		{"accepted", "accepted", func(p *Puzzle) { p.Accepted = []string{"2"} }},
		{"step accepted", "accepts", func(p *Puzzle) { p.Line[0].Accepted = []string{"2", "3"}; p.Accepted = p.Line[0].Accepted }},
		{"after", "worth", func(p *Puzzle) { p.Line[0].After = 0 }},
		{"before", "before", func(p *Puzzle) { p.Line[1].Before = 1 }},
		{"a value", "keep the outcome", func(p *Puzzle) { p.Line[0].Values[0].Value = -2 }},
		{"legal moves", "legal", func(p *Puzzle) { p.Line[0].Values = p.Line[0].Values[1:] }},
		{"best reply", "best", func(p *Puzzle) { p.Line[1].Best = []string{"2"} }},
		{"even line", "odd number", func(p *Puzzle) { p.Line = p.Line[:2] }},
		{"end", "end", func(p *Puzzle) { p.End = EndOver; p.EndReply = "" }},
		{"end reply", "end reply", func(p *Puzzle) { p.EndReply = "1" }},
		{"themes", "themes", func(p *Puzzle) { p.Themes = []string{ThemeWin} }},
		{"rating", "rated", func(p *Puzzle) { p.Rating++ }},
		{"method", "method", func(p *Puzzle) { p.Method = "guess" }},
		{"source", "source", func(p *Puzzle) { p.Source.Kind = "web" }},
	} {
		t.Run(m.name, func(t *testing.T) {
			var q Puzzle
			if err := json.Unmarshal(good, &q); err != nil {
				t.Fatal(err)
			}
			m.change(&q)
			b, err := json.Marshal(&q)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Decode(b)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), m.want) {
				t.Errorf("got %v, want ErrInvalid about %q", err, m.want)
			}
		})
	}
	for name, text := range map[string]string{
		"unknown field": strings.Replace(string(good), `"id"`, `"idx":1,"id"`, 1),
		"not json":      "{",
		"too long":      `{"id":"` + strings.Repeat("a", MaxBytes) + `"}`,
	} {
		if _, err := Decode([]byte(text)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// FuzzDecode: no input makes Decode panic, and what it accepts writes
// back as JSON that decodes to the same bytes again. The seed corpus is
// in testdata/fuzz/FuzzDecode (the hand-analysed puzzles, as Find writes
// them) and below.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"id":"x","rules":"alak size=3","moves":[],"position":"---","to_move":"x","line":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			return
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		q, err := Decode(b)
		if err != nil {
			t.Fatalf("re-decode: %v\n%s", err, b)
		}
		if c, _ := json.Marshal(q); string(c) != string(b) {
			t.Fatalf("round trip differs:\n%s\n%s", b, c)
		}
		// An accepted puzzle can be attempted without panicking.
		_, _ = Check(p, p.Solution()[:1])
	})
}
