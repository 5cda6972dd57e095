package solve

import (
	"reflect"
	"testing"

	"alak/rules"
)

// TestResultAnswer: a Result written as an Answer, the moves in board
// order and pass last in the notation the API and alak solve --json write
// (3 for the third point, "pass"); a result cut off keeps only its proved
// moves, with no value, outcome, best nor pv. The results are made by hand.
func TestResultAnswer(t *testing.T) {
	r, err := rules.Parse("tromp-taylor size=4")
	if err != nil {
		t.Fatal(err)
	}
	p := func(i int) rules.Move { return rules.Place(i - 1) }
	res := Result{Value: 0, Outcome: rules.None, Complete: true, Best: []rules.Move{p(2), rules.Pass}, PV: []rules.Move{p(2), p(4), rules.Pass},
		Moves: map[rules.Move]float64{rules.Pass: 0, p(4): -1, p(2): 0, p(1): -4}, Nodes: 77, Method: MethodSearch}
	zero := 0.0
	want := Answer{Value: &zero, Outcome: "draw", Complete: true, Best: []string{"2", "pass"}, PV: []string{"2", "4", "pass"},
		Moves: []MoveValue{{"1", -4}, {"2", 0}, {"4", -1}, {"pass", 0}}, Nodes: 77, Method: MethodSearch}
	if got := res.Answer(r); !reflect.DeepEqual(got, want) {
		t.Errorf("complete: %+v, want %+v", got, want)
	}
	res = Result{Value: 3, Outcome: rules.Black, Best: []rules.Move{p(3)}, PV: []rules.Move{p(3)}, Moves: map[rules.Move]float64{p(3): 3}, Nodes: 5}
	want = Answer{Best: []string{}, PV: []string{}, Moves: []MoveValue{{"3", 3}}, Nodes: 5}
	if got := res.Answer(r); !reflect.DeepEqual(got, want) {
		t.Errorf("cut off: %+v, want %+v", got, want)
	}
	for c, w := range map[rules.Color]string{rules.Black: "x", rules.White: "o", rules.None: "draw"} {
		if got := OutcomeWord(c); got != w {
			t.Errorf("OutcomeWord(%v) = %q, want %q", c, got, w)
		}
	}
}
