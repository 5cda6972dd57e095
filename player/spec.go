package player

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// options are the NAME=VALUE settings after "name:" in a player spec,
// separated by commas or spaces: "alphabeta:depth=8,time=100ms".
type options map[string]string

func parseOptions(player, args string, allowed ...string) (options, error) {
	o := options{}
	for _, f := range strings.FieldsFunc(args, func(r rune) bool { return r == ',' || r == ' ' }) {
		k, v, ok := strings.Cut(f, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || v == "" {
			return nil, fmt.Errorf("player %s: option %q: options are written NAME=VALUE, such as %s=VALUE", player, f, allowed[0])
		}
		if !slices.Contains(allowed, k) {
			return nil, fmt.Errorf("player %s: unknown option %q; the options are %s", player, k, strings.Join(allowed, ", "))
		}
		o[k] = strings.TrimSpace(v)
	}
	return o, nil
}

func (o options) duration(player, key string, def time.Duration) (time.Duration, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("player %s: %s=%q: a positive duration such as 100ms or 2s is accepted", player, key, v)
	}
	return d, nil
}

func (o options) int(player, key string, def, lo, hi int) (int, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("player %s: %s=%q: a whole number from %d to %d is accepted", player, key, v, lo, hi)
	}
	return n, nil
}

// budgetKeys are the options that bound a search player's effort.
var budgetKeys = []string{"time", "depth", "nodes", "playouts"}

// WithBudget returns spec with a budget added for the search players
// (alphabeta, mcts, perfect, strong) whose spec sets none of their own: time=movetime
// when movetime > 0, and for mcts playouts=playouts when playouts > 0 (which
// then takes the place of the time). An external engine's spec whose
// genmove has no limit of its own gets GTPGenmoveLimit(movetime) when
// movetime > 0. Other specs are returned unchanged.
func WithBudget(spec string, movetime time.Duration, playouts int) string {
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.ToLower(name)
	if name == "gtp" {
		return gtpWithGenmove(spec, args, movetime)
	}
	if name != "alphabeta" && name != "mcts" && name != "perfect" && name != "strong" {
		return spec
	}
	for _, f := range strings.FieldsFunc(args, func(r rune) bool { return r == ',' || r == ' ' }) {
		k, _, _ := strings.Cut(f, "=")
		if slices.Contains(budgetKeys, strings.ToLower(k)) {
			return spec
		}
	}
	var add string
	switch {
	case name == "mcts" && playouts > 0:
		add = "playouts=" + strconv.Itoa(playouts)
	case movetime > 0:
		add = "time=" + movetime.String()
	default:
		return spec
	}
	if strings.TrimSpace(args) == "" {
		return name + ":" + add
	}
	return name + ":" + args + "," + add
}

// gtpWithGenmove adds genmove=GTPGenmoveLimit(movetime) before the command
// of a GTP spec that sets no genmove limit.
func gtpWithGenmove(spec, args string, movetime time.Duration) string {
	if movetime <= 0 {
		return spec
	}
	for _, w := range strings.Fields(args) {
		if !isOptionWord(w) {
			break
		}
		if k, _, _ := strings.Cut(w, "="); strings.EqualFold(k, "genmove") {
			return spec
		}
	}
	return "gtp:genmove=" + GTPGenmoveLimit(movetime).String() + " " + strings.TrimSpace(args)
}
