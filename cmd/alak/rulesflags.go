package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"alak/notation"
	"alak/rules"
	"alak/solve"
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

// parseInterspersed parses fs's flags wherever they stand among the
// arguments (alak solve 3 5 --json) and returns the other arguments in
// order. Everything after "--" is an argument.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		left := fs.Args()
		if len(left) == 0 {
			return rest, nil
		}
		if len(args) > len(left) && args[len(args)-len(left)-1] == "--" {
			return append(rest, left...), nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

// openTable loads the solver's results table of r from dir: the solver's
// default directory when dir is "", no table (nil) when dir is "none".
func openTable(dir string, r rules.Rules) (*solve.Table, error) {
	switch dir {
	case "none":
		return nil, nil
	case "":
		d, err := solve.DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	return solve.LoadTable(dir, r)
}

// newFlagSet returns a flag set for a subcommand that reports errors on the
// env's stderr and prints usage, then the flags, for -h.
func newFlagSet(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// isFile reports whether arg names an existing regular file (a record to
// read rather than a move).
func isFile(arg string) bool {
	st, err := os.Stat(arg)
	return err == nil && st.Mode().IsRegular()
}

// withPrisoners gives a start position the prisoners of --prisoners ("2-1",
// Black's first); an empty flag leaves it alone.
func withPrisoners(pos rules.Position, flagValue string) (rules.Position, error) {
	if flagValue == "" {
		return pos, nil
	}
	b, w, err := notation.ParsePrisoners(flagValue)
	if err != nil {
		return pos, fmt.Errorf("--prisoners %q: %w", flagValue, err)
	}
	return pos.WithPrisoners(b, w)
}
