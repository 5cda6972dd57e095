package notation

import (
	"strings"

	"alak/rules"
)

// Declarations of the safe-eye rule (rules.SafeEye, docs/rules.md): a
// point declared safe is written as the point with a * before it, in
// every notation: *3 (Human, and the stored form rules.Rules.MoveText),
// *C1 (GTP), B[*ca] (SGF, this project's extension: SGF has no such move).

// safeDecode reads a declaration written as * and a point, which point
// reads; ok is false when s does not start with * or the rules have no
// safe points (the caller then reads s as another move and says what
// is accepted).
func safeDecode(r rules.Rules, s string, point func(rules.Rules, string) (int, error)) (m rules.Move, ok bool, err error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), "*")
	if !ok || r.Safe == rules.SafeOff {
		return rules.NoMove, false, nil
	}
	p, err := point(r, strings.TrimSpace(rest))
	if err != nil {
		return rules.NoMove, true, err
	}
	return rules.Declare(p), true, nil
}
