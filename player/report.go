package player

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Reporter is a player that says how its moves were made: how many were
// not made by the method its spec promises. The arena sums the reports of
// a match's games and `alak match` prints them, so that a player never
// falls back silently.
type Reporter interface {
	Report() Report
}

// Report counts a player's moves by how they were made. Kinds are short
// phrases ("exact", "alpha-beta fallback: out of time"); Moves is the sum
// of Kinds.
type Report struct {
	Moves int
	Kinds map[string]int
}

// add counts one move of the kind.
func (r *Report) add(kind string) {
	if r.Kinds == nil {
		r.Kinds = map[string]int{}
	}
	r.Kinds[kind]++
	r.Moves++
}

// Add returns the sum of two reports.
func (r Report) Add(o Report) Report {
	out := Report{Moves: r.Moves + o.Moves}
	if len(r.Kinds)+len(o.Kinds) > 0 {
		out.Kinds = maps.Clone(r.Kinds)
		if out.Kinds == nil {
			out.Kinds = map[string]int{}
		}
		for k, n := range o.Kinds {
			out.Kinds[k] += n
		}
	}
	return out
}

// Count returns the moves of the kinds that start with prefix.
func (r Report) Count(prefix string) int {
	n := 0
	for k, c := range r.Kinds {
		if strings.HasPrefix(k, prefix) {
			n += c
		}
	}
	return n
}

// String writes the report on one line, the most frequent kinds first:
// "812 moves: 640 exact, 160 alpha-beta fallback: out of time, ...".
func (r Report) String() string {
	if r.Moves == 0 {
		return "no moves"
	}
	kinds := slices.Collect(maps.Keys(r.Kinds))
	slices.SortFunc(kinds, func(a, b string) int {
		if r.Kinds[a] != r.Kinds[b] {
			return r.Kinds[b] - r.Kinds[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", r.Kinds[k], k)
	}
	return fmt.Sprintf("%d moves: %s", r.Moves, strings.Join(parts, ", "))
}
