package main

import (
	"flag"
	"fmt"
	"strings"

	"alak/rules"
)

// rulesFlags adds --rules, --size and one flag per rule option (--edge,
// --ko, ...) to fs. After fs.Parse, the returned function builds the rules:
// the preset, then the size, then every option given, validated.
func rulesFlags(fs *flag.FlagSet) func() (rules.Rules, error) {
	preset := fs.String("rules", "alak", "rule preset: "+strings.Join(presetNames(), ", "))
	set := map[string]*string{}
	for _, o := range rules.Options() {
		set[o.Name] = fs.String(o.Name, "", o.Help+" ("+o.Values+")")
	}
	return func() (rules.Rules, error) {
		r, err := rules.Preset(*preset)
		if err != nil {
			return r, err
		}
		for _, o := range rules.Options() { // in order: size before start
			v := *set[o.Name]
			if v == "" {
				continue
			}
			if err := r.Set(o.Name, v); err != nil {
				return r, err
			}
		}
		if err := r.Validate(); err != nil {
			return r, err
		}
		return r, nil
	}
}

func presetNames() []string { return rules.Presets() }

// fail prints an error for a subcommand and returns the exit status 2.
func fail(e *env, cmd string, err error) int {
	fmt.Fprintf(e.stderr, "alak %s: %v\n", cmd, err)
	return 2
}
