package solve

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"alak/notation"
	"alak/rules"
)

// playLine plays the moves (the project's notation) on a new game of the
// preset on n points.
func playLine(t *testing.T, preset string, n int, line string) *rules.Game {
	t.Helper()
	g := newGame(t, preset, n)
	for _, w := range strings.Fields(line) {
		m, err := notation.Human.Decode(g.Rules(), w)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	return g
}

// outcomes writes the winner after each move of s, in board order.
func outcomes(r rules.Rules, s Settled) string {
	var parts []string
	for _, m := range SortedMoves(func() map[rules.Move]float64 {
		out := map[rules.Move]float64{}
		for m := range s.Moves {
			out[m] = 0
		}
		return out
	}()) {
		parts = append(parts, notation.Human.Encode(r, m)+":"+OutcomeWord(s.Moves[m]))
	}
	return strings.Join(parts, " ")
}

// TestSettleCertified: the shipped certificates settle traditional on 7
// points at once, searching nothing: a draw (value 0), 1 and 7 lose, the
// other openings and a pass keep the draw (docs/results-traditional.md, "7 points is a
// draw"); after 1 White wins, the margin not proved; on 11 points after 3
// a draw (Black's certificate after 3, White's from the start, which
// answers every first move). A set-up position is not a certificate's.
func TestSettleCertified(t *testing.T) {
	t.Parallel()
	ts := &Tables{}
	s, err := ts.Settle(context.Background(), newGame(t, "traditional", 7), SettleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Method != MethodCertificate || s.Outcome != rules.None || !s.Margin || s.Value != 0 || s.Nodes != 0 || len(s.Proofs) != 2 {
		t.Fatalf("7 points: %+v", s)
	}
	r := newGame(t, "traditional", 7).Rules()
	if got, want := outcomes(r, s), "1:o 2:draw 3:draw 4:draw 5:draw 6:draw 7:o pass:draw"; got != want {
		t.Errorf("7 points: moves %s, want %s", got, want)
	}
	if got := fmt.Sprint(s.Best); got != fmt.Sprint([]rules.Move{rules.Place(1), rules.Place(2), rules.Place(3), rules.Place(4), rules.Place(5), rules.Pass}) {
		t.Errorf("7 points: best %v", s.Best)
	}
	files := map[string]bool{}
	for _, p := range s.Proofs {
		files[p.Certificate.File] = true
		if len(p.Certificate.SHA256) != 64 {
			t.Errorf("%s: checksum %q", p.Certificate.File, p.Certificate.SHA256)
		}
	}
	if !files["traditional-7-x-draw.alakproof"] || !files["traditional-7-o-draw.alakproof"] {
		t.Errorf("7 points: proved by %v", files)
	}
	s, err = ts.Settle(context.Background(), playLine(t, "traditional", 7, "1"), SettleOptions{})
	if err != nil || s.Method != MethodCertificate || s.Outcome != rules.White || s.Margin || s.Proofs[0].Certificate.File != "traditional-7-o-win-after-1.alakproof" {
		t.Errorf("7 points after 1: %v %+v", err, s)
	}
	s, err = ts.Settle(context.Background(), playLine(t, "traditional", 11, "3"), SettleOptions{})
	if err != nil || s.Method != MethodCertificate || s.Outcome != rules.None || len(s.Proofs) != 2 {
		t.Errorf("11 points after 3: %v %+v", err, s)
	}
	set, err := settleSetUp(t)
	if err != nil || set.Method == MethodCertificate {
		t.Errorf("a set-up position: %v %+v", err, set)
	}
}

// settleSetUp settles a position set up as a diagram, that of traditional
// on 5 points after 3 with White to move, which no certificate starts
// from (the search answers it).
func settleSetUp(t *testing.T) (Settled, error) {
	t.Helper()
	r := newGame(t, "traditional", 5).Rules()
	pos, err := rules.ParsePosition(r, "--x-- o")
	if err != nil {
		t.Fatal(err)
	}
	return (&Tables{}).Settle(context.Background(), rules.NewGameFrom(pos), SettleOptions{})
}

// TestSettleProof: where no certificate and no search within the budget
// answers (here no search at all), the proof search settles positions of
// traditional on 5 points as the search does, which solves them whole
// (method 2): the draws with their value 0, the wins by their winner; and
// on 4 points the search within the budget answers with its margins.
func TestSettleProof(t *testing.T) {
	t.Parallel()
	ts := &Tables{}
	kinds := map[bool]int{}
	for _, line := range []string{"2 4", "1 3"} {
		g := playLine(t, "traditional", 5, line)
		want, err := Solve(context.Background(), g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := ts.Settle(context.Background(), g, SettleOptions{SearchNodes: -1})
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if s.Method != MethodProof || s.Outcome != want.Outcome || s.Margin != (want.Outcome == rules.None) || s.Margin && s.Value != 0 {
			t.Errorf("after %s: %+v; the search: %v (%v)", line, s, want.Value, want.Outcome)
		}
		kinds[want.Outcome == rules.None]++
	}
	if kinds[true] == 0 || kinds[false] == 0 {
		t.Errorf("draws and wins settled: %v, want both", kinds)
	}
	s, err := ts.Settle(context.Background(), newGame(t, "traditional", 4), SettleOptions{})
	if err != nil || s.Method != MethodSearch || !s.Margin || s.Value != 4 || s.Outcome != rules.Black {
		t.Errorf("4 points: %v %+v, want the search's 4 (docs/results-traditional.md)", err, s)
	}
}
