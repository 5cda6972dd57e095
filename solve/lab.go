package solve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"alak/rules"
)

// The rule lab (docs/rulelab.md, `alak solve --table --variants`): the
// alak preset with one option changed at a time, solved from the empty
// line. A variant is taken only when the value of a position under it is
// a property of the position (its stones, player to move and forbidden
// points) and not of the game's history, so that the state-graph methods
// give it exactly (docs/solver.md, "Why the values are exact").

// Variant is the alak preset with one option set to another value; the
// zero Variant is the preset itself.
type Variant struct {
	Option, Value string
}

// String writes the variant as NAME=VALUE, or "alak" for the preset.
func (v Variant) String() string {
	if v.Option == "" {
		return "alak"
	}
	return v.Option + "=" + v.Value
}

// LabVariants returns the rule lab's variants in the order of its table:
// every single option of the alak preset that changes the game and keeps
// its state free of history. The options left out, and why, are in
// ParseVariants's refusals and docs/rulelab.md.
func LabVariants() []Variant {
	return []Variant{
		{"edge", "off"},
		{"own", "illegal"}, {"own", "removed"}, {"own", "together"},
		{"ko", "none"}, {"ko", "simple"},
		{"score", "area"},
		{"safe", "eye"}, {"safe", "field"},
	}
}

// ErrHistory is returned for a variant under which a position's value
// depends on the game's history: the rule lab does not take it.
var ErrHistory = errors.New("under these rules a position's value depends on the game's history, not on the position alone")

// ErrVariant is returned for a variant the rule lab does not take for a
// reason other than history: it is not a change of the alak preset, or it
// changes nothing.
var ErrVariant = errors.New("not a variant of the rule lab")

// ParseVariants reads a list of variants separated by commas: "all" for
// LabVariants, or NAME=VALUE options of the alak preset, such as
// "all,komi=0.5" or "edge=off,ko=none". Each must change the preset, keep
// the state free of history (HistoryFree) and appear once.
func ParseVariants(spec string) ([]Variant, error) {
	var out []Variant
	add := func(v Variant) error {
		for _, o := range out {
			if o == v {
				return fmt.Errorf("%w: %s is listed twice", ErrVariant, v)
			}
		}
		out = append(out, v)
		return nil
	}
	for _, f := range strings.Split(spec, ",") {
		f = strings.TrimSpace(f)
		if strings.EqualFold(f, "all") {
			for _, v := range LabVariants() {
				if err := add(v); err != nil {
					return nil, err
				}
			}
			continue
		}
		name, value, ok := strings.Cut(f, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("%w: %q: write all, or options of the alak preset as NAME=VALUE separated by commas, such as edge=off,ko=none", ErrVariant, f)
		}
		v := Variant{strings.ToLower(strings.TrimSpace(name)), strings.ToLower(strings.TrimSpace(value))}
		if _, err := v.Rules(1); err != nil {
			return nil, err
		}
		if err := add(v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Rules returns the alak rules on a line of n points with the variant's
// option set, or an error saying why the rule lab does not take it.
func (v Variant) Rules(n int) (rules.Rules, error) {
	r := rules.MustPreset("alak")
	r.SetSize(n, 1)
	if v.Option == "" {
		return r, r.Validate()
	}
	if v.Option == "size" {
		return r, fmt.Errorf("%w: size: the sizes are the table's rows (--sizes)", ErrVariant)
	}
	base := r
	if err := r.Set(v.Option, v.Value); err != nil {
		return r, err
	}
	old, _ := base.Get(v.Option)
	if err := r.CheckApplies(v.Option); err != nil {
		return r, err
	}
	if now, _ := r.Get(v.Option); now == old {
		return r, fmt.Errorf("%w: %s is the alak preset's own value: a variant changes it", ErrVariant, v)
	}
	switch {
	case r.UnchangedLoses:
		return r, fmt.Errorf("%w: unchanged=on has no effect under alak: the stone placed always stays (own=stays), so no placement leaves the board unchanged", ErrVariant)
	case r.Scoring == rules.ScoreNone:
		return r, fmt.Errorf("%w: score=none: alak wins no game by rule, so with nothing counted every game is a draw", ErrVariant)
	}
	if err := HistoryFree(r); err != nil {
		return r, fmt.Errorf("%s: %w", v, err)
	}
	return r, r.Validate()
}

// HistoryFree returns nil when the value of a position under the rules r
// (placement on a line) is a property of the position alone, given a fresh
// history: the state-graph methods (docs/solver.md, methods 1 to 1b) then
// solve it exactly. Otherwise it says why, wrapping ErrHistory.
func HistoryFree(r rules.Rules) error {
	why := ""
	switch {
	case r.Ko == rules.KoPositional || r.Ko == rules.KoSituational:
		why = "superko forbids recreating any earlier board of the game"
	case r.Pass:
		why = "with passing, the repetition rule compares positions without the count of passes, which the position holds (docs/solver.md, method 2)"
	case r.Scoring == rules.ScoreTerritory || r.Scoring == rules.ScoreAreaPrisoners:
		why = "the score counts prisoners, the captures of the whole game"
	case r.Repetition == 0:
		why = "with no repetition rule a game need not end: positions repeat on every board of 7 or more points"
	case r.Komi*2 != math.Trunc(r.Komi*2):
		return fmt.Errorf("komi %v: the solver counts in half points: %w", r.Komi, ErrUnsupported)
	default:
		return nil
	}
	return fmt.Errorf("%w: %s", ErrHistory, why)
}

// SolveLab solves the empty line of the rules r by ts (Tables.Solve, with
// opt): the dense solver where it applies, the state graph elsewhere, as
// Tables decides; Result.Method says which answered (MethodDense or
// MethodSearch, here the state graph). The lab takes only rules whose
// positions' values are free of the history (HistoryFree); others are
// refused with ErrHistory.
func SolveLab(ctx context.Context, ts *Tables, r rules.Rules, opt Options) (Result, error) {
	if err := HistoryFree(r); err != nil {
		return Result{}, err
	}
	g, err := rules.NewGame(r)
	if err != nil {
		return Result{}, err
	}
	return ts.Solve(ctx, g, opt)
}
