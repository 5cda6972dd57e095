package rules

import (
	"errors"
	"strings"
	"testing"
)

// TestPassEnd: when the passes that end the game bring a position for the
// n-th time (docs/rules.md, A24), the board is counted (passend=score, the
// default of every preset), or the game is a draw by repetition
// (passend=draw). With repetition=2, "pass pass" from the start does it
// on every placement preset with passing: the start is the first
// occurrence of the empty board with Black to move, and the position after
// the second pass (the same stones, player to move and forbidden points)
// the second. Also from a set-up position with prisoners, where the count
// is not the empty board's. Sliding rules have no passing: the option is
// refused there.
func TestPassEnd(t *testing.T) {
	for _, name := range Presets() {
		t.Run(name, func(t *testing.T) {
			r, err := Preset(name)
			if err != nil {
				t.Fatal(err)
			}
			if r.Movement == Sliding {
				if _, err := Parse(name + " passend=draw"); !errors.Is(err, ErrRules) || !strings.Contains(err.Error(), "pass=on") {
					t.Errorf("%s passend=draw: %v, want a refusal saying it needs passing", name, err)
				}
				return
			}
			if r.PassEnd != PassEndScore {
				t.Errorf("%s: passend is %v, want score (the count first) in every preset", name, r.PassEnd)
			}
			if _, err := Parse(name + " pass=off repetition=2 passend=draw"); !errors.Is(err, ErrRules) {
				t.Errorf("%s without passing: passend=draw accepted (%v)", name, err)
			}
			if _, err := Parse(name + " pass=on repetition=off passend=draw"); !errors.Is(err, ErrRules) {
				t.Errorf("%s without a repetition rule: passend=draw accepted (%v)", name, err)
			}
			base := name + " pass=on repetition=2"
			if r.IsLine() {
				base += " size=5"
			} else {
				base += " size=3x3"
			}
			for _, tc := range []struct {
				opts   string
				reason Reason
			}{
				{"", Passes},
				{" passend=score", Passes},
				{" passend=draw", Repetition},
			} {
				r, err := Parse(base + tc.opts)
				if err != nil {
					t.Fatal(err)
				}
				g, err := NewGame(r)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range []Move{Pass, Pass} {
					if err := g.Play(m); err != nil {
						t.Fatalf("%s: %v", r, err)
					}
				}
				o := g.Outcome()
				if g.Occurrences() != 2 || o.Reason != tc.reason || !g.Over() || g.Legal(Place(0)) == nil {
					t.Errorf("%s: pass pass: %d occurrences, outcome %s; want the second occurrence, ended by %s", r, g.Occurrences(), o, tc.reason)
				}
				if tc.reason == Repetition && (o.Winner != None || o.Margin != 0) {
					t.Errorf("%s: a draw by repetition is %s, want 0", r, o)
				}
			}
		})
	}
}

// TestPassEndCount: under passend=draw the count still decides where the
// passes bring a position for the first time, and the option changes
// nothing where the passes end the game before its n-th occurrence: on
// traditional 5 points after 3, pass, pass (the second occurrence of
// --x-- with Black to move, the third needed), Black wins by the count
// either way.
func TestPassEndCount(t *testing.T) {
	for _, opt := range []string{"", " passend=draw"} {
		r, err := Parse("traditional size=5" + opt)
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []Move{Place(2), Pass, Pass} {
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if o := g.Outcome(); o.Reason != Passes || o.Winner != Black || o.Margin != 5 {
			t.Errorf("%s: 3 pass pass: %s, want Black by 5 (the centre stone and four points of territory) by passes", r, o)
		}
	}
}
