package solve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"alak/internal/testlong"
	"alak/rules"
)

// TestParseVariants: "all" is the rule lab's list, options add to it, and
// the variants the lab does not take are refused with the reason: those
// whose positions' values depend on the history (ErrHistory), those that
// change nothing (ErrVariant), and what the rules refuse (rules.ErrRules).
func TestParseVariants(t *testing.T) {
	t.Parallel()
	vs, err := ParseVariants("all, komi=0.5")
	if err != nil {
		t.Fatal(err)
	}
	if want := append(LabVariants(), Variant{"komi", "0.5"}); !slices.Equal(vs, want) {
		t.Errorf("all, komi=0.5: %v, want %v", vs, want)
	}
	for _, v := range LabVariants() {
		if _, err := v.Rules(11); err != nil {
			t.Errorf("%v: %v", v, err)
		}
	}
	cases := []struct {
		spec string
		want error
		says string
	}{
		{"ko=superko", ErrHistory, "any earlier board"},
		{"ko=situational", ErrHistory, "any earlier board"},
		{"pass=on", ErrHistory, "count of passes"},
		{"score=territory", ErrHistory, "prisoners"},
		{"score=area+prisoners", ErrHistory, "prisoners"},
		{"repetition=off", ErrHistory, "need not end"},
		{"edge=on", ErrVariant, "own value"},
		{"unchanged=on", ErrVariant, "no effect"},
		{"score=none", ErrVariant, "draw"},
		{"size=5", ErrVariant, "--sizes"},
		{"edge", ErrVariant, "NAME=VALUE"},
		{"all,ko=none", ErrVariant, "twice"},
		{"komi=0.25", ErrUnsupported, "half points"},
		{"passes=3", rules.ErrRules, "passing is not allowed"},
		{"min=2", rules.ErrRules, "sliding"},
		{"colour=red", rules.ErrRules, "unknown option"},
		{"own=maybe", rules.ErrRules, "accepted values"},
	}
	for _, c := range cases {
		_, err := ParseVariants(c.spec)
		if !errors.Is(err, c.want) || !strings.Contains(fmt.Sprint(err), c.says) {
			t.Errorf("%s: %v; want %v saying %q", c.spec, err, c.want, c.says)
		}
	}
}

// TestSolveLabAgainstSolve: every column of the rule lab's table, the
// preset and each variant (with half-point komi either way), up to 8
// points (6 with the race detector or -short, 5 with the race detector
// without ALAK_LONG=1), gives Solve's value, best
// openings and the value of every opening; the dense solver answers every
// column (own=together by the gap descriptors of dense_gaps.go). Solve is
// itself checked against the brute force on small boards (brute_test.go;
// the generic family's variants in TestDenseGenericAgainstSolve,
// own=together here up to 3 points, where the brute force finishes). A
// game over at the start (one point under own=illegal) is Solve's.
func TestSolveLabAgainstSolve(t *testing.T) {
	t.Parallel()
	maxN := 8
	if raceEnabled || testing.Short() {
		maxN = 6
	}
	if raceEnabled && !testlong.Enabled(t) {
		maxN = 5
	}
	cols := append([]Variant{{}}, LabVariants()...)
	cols = append(cols, Variant{"komi", "0.5"}, Variant{"komi", "-0.5"})
	for _, v := range cols {
		for n := 1; n <= maxN; n++ {
			r, err := v.Rules(n)
			if err != nil {
				t.Fatal(err)
			}
			g, err := rules.NewGame(r)
			if err != nil {
				t.Fatal(err)
			}
			if v.Option == "own" && v.Value == "together" && n <= 3 {
				t.Run(fmt.Sprintf("brute/%v/%d", v, n), func(t *testing.T) { agreesWithBrute(t, g, 64) })
			}
			want, err := Solve(context.Background(), g, Options{MemoryMB: 512})
			if err != nil {
				t.Fatal(err)
			}
			got, err := SolveLab(context.Background(), &Tables{Jobs: 2, MemoryMB: 512}, r, Options{})
			if err != nil {
				t.Fatal(err)
			}
			wantMethod := MethodDense
			if g.Over() || r.Safe != rules.SafeOff { // safe points: the state graph (safe.go)
				wantMethod = MethodSearch
			}
			if got.Method != wantMethod {
				t.Errorf("%v %d: answered by %q, want %q", v, n, got.Method, wantMethod)
			}
			if got.Value != want.Value || !slices.Equal(got.Best, want.Best) || fmt.Sprint(got.Moves) != fmt.Sprint(want.Moves) {
				t.Errorf("%v %d: lab %v best %v moves %v; Solve %v best %v moves %v", v, n, got.Value, got.Best, got.Moves, want.Value, want.Best, want.Moves)
			}
		}
	}
}

// TestSolveLabRefused: SolveLab refuses rules whose positions' values
// depend on the history, as HistoryFree says.
func TestSolveLabRefused(t *testing.T) {
	t.Parallel()
	for _, opts := range [][]string{{"ko", "superko"}, {"pass", "on"}, {"score", "territory"}, {"repetition", "off"}} {
		r := newGame(t, "alak", 5, opts...).Rules()
		if _, err := SolveLab(context.Background(), &Tables{}, r, Options{}); !errors.Is(err, ErrHistory) {
			t.Errorf("%v: %v, want ErrHistory", opts, err)
		}
	}
}
