package rules

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// perft counts the move sequences of length depth from pos (passes and
// slides included, resignation not), with the position's own rules only.
func perft(pos Position, depth int) int64 {
	if depth == 0 || pos.Over() {
		if depth == 0 {
			return 1
		}
		return 0
	}
	var n int64
	for _, m := range pos.LegalMoves(nil) {
		next, err := pos.Play(m)
		if err != nil {
			panic(err)
		}
		n += perft(next, depth-1)
	}
	return n
}

// games counts the complete games from g, with the game's history rules
// (repetition, superko), and the games won by Black, drawn and won by White.
func games(g *Game) (total, black, draws, white int64) {
	if o := g.Outcome(); o.Over() {
		switch o.Winner {
		case Black:
			return 1, 1, 0, 0
		case White:
			return 1, 0, 0, 1
		}
		return 1, 0, 1, 0
	}
	for _, m := range g.LegalMoves(nil) {
		if err := g.Play(m); err != nil {
			panic(err)
		}
		t, b, d, w := games(g)
		total, black, draws, white = total+t, black+b, draws+d, white+w
		if err := g.Undo(); err != nil {
			panic(err)
		}
	}
	return
}

type perftCase struct {
	rules string
	depth int
}

func perftCases() []perftCase {
	var cs []perftCase
	for _, spec := range []string{"alak size=11", "alak size=6", "traditional size=7", "tromp-taylor size=7", "alterigo size=7", "alterigo size=3x3", "alak size=3x3 edge=off", "dewdney", "golf", "golf size=8"} {
		for d := 1; d <= 5; d++ {
			cs = append(cs, perftCase{spec, d})
		}
	}
	return cs
}

// gameSizes are the boards whose complete games are counted.
var gameSizes = map[string][]int{
	"alak": {1, 2, 3, 4, 5, 6}, "traditional": {1, 2}, "tromp-taylor": {1, 2, 3},
	"alterigo": {1, 2, 3},
}

func TestPerft(t *testing.T) {
	var out strings.Builder
	out.WriteString("# perft: move sequences of a given length (Position rules only)\n")
	for _, c := range perftCases() {
		r, err := Parse(c.rules)
		if err != nil {
			t.Fatal(err)
		}
		n := perft(start(t, r), c.depth)
		fmt.Fprintf(&out, "perft %s | %d | %d\n", c.rules, c.depth, n)
		// Cross-check: the grid engine on a one-row board, or the naive
		// slider, must give the same count.
		switch {
		case r.Movement == Sliding:
			if m := naivePerft([]byte(r.StartLayout()), Black, r, c.depth); m != n {
				t.Errorf("%s depth %d: kernel %d, naive slider %d", c.rules, c.depth, n, m)
			}
		case r.IsLine():
			if m := perft(asGrid(t, r), c.depth); m != n {
				t.Errorf("%s depth %d: line engine %d, grid engine %d", c.rules, c.depth, n, m)
			}
		}
	}
	out.WriteString("# games: complete games from the empty board (Game rules: repetition, superko): total, Black wins, draws, White wins\n")
	for _, name := range []string{"alak", "traditional", "tromp-taylor", "alterigo"} {
		for _, n := range gameSizes[name] {
			g, err := NewGame(preset(t, name, n, 1))
			if err != nil {
				t.Fatal(err)
			}
			tot, b, d, w := games(g)
			fmt.Fprintf(&out, "games %s size=%d | %d | %d %d %d\n", name, n, tot, b, d, w)
		}
	}
	golden(t, "testdata/perft.golden", out.String())
}

// naivePerft is perft over naiveSlide, with the minimum-pieces rule.
func naivePerft(cells []byte, c Color, r Rules, depth int) int64 {
	if depth == 0 {
		return 1
	}
	count := func(b byte) int { return strings.Count(string(cells), string(b)) }
	if count('x') < r.MinPieces || count('o') < r.MinPieces {
		return 0 // the game ended: no further moves
	}
	var n int64
	for from := range cells {
		if cells[from] != c.Symbol() {
			continue
		}
		for to := range cells {
			if out, ok := naiveSlide(cells, from, to, r.EdgeCapture, r.SelfCapture); ok {
				n += naivePerft(out, c.Opp(), r, depth-1)
			}
		}
	}
	return n
}

// golden compares got with the file, or rewrites it under -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./rules -run %s -update to create it)", err, t.Name())
	}
	if string(want) == got {
		return
	}
	ws := bufio.NewScanner(strings.NewReader(string(want)))
	gs := bufio.NewScanner(strings.NewReader(got))
	for line := 1; ; line++ {
		wok, gok := ws.Scan(), gs.Scan()
		if !wok && !gok {
			break
		}
		if ws.Text() != gs.Text() {
			t.Errorf("%s line %d:\n got  %s\n want %s", path, line, gs.Text(), ws.Text())
		}
	}
}
