package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"sync"

	"alak/notation"
	"alak/rules"
	"alak/session"
	"alak/solve"
)

// rulesFlags adds --rules, --size and one flag per rule option (--edge,
// --ko, ...) to fs. After fs.Parse, the returned function builds the rules:
// the preset, then the size, then every option given, validated. An option
// given that has no effect under the rules (--start on placement rules,
// --selfcapture on alak, ...) is an error, never ignored.
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
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		for _, o := range rules.Options() { // in order: size before start
			if !given[o.Name] {
				continue
			}
			if err := r.Set(o.Name, *set[o.Name]); err != nil {
				return r, fmt.Errorf("--%s: %w", o.Name, err)
			}
		}
		for _, o := range rules.Options() {
			if given[o.Name] {
				if err := r.CheckApplies(o.Name); err != nil {
					return r, fmt.Errorf("--%s: %w", o.Name, err)
				}
			}
		}
		if err := r.Validate(); err != nil {
			return r, err
		}
		return r, nil
	}
}

// sizeGiven reports whether --size was given on fs.
func sizeGiven(fs *flag.FlagSet) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "size" })
	return given
}

func presetNames() []string { return rules.Presets() }

// fail prints an error for a subcommand and returns the exit status 2. An
// error about part of a set-up names the flag that gave that part.
func fail(e *env, cmd string, err error) int {
	var se *session.SetupError
	if errors.As(err, &se) {
		if flag := setupFlagNames[se.Part]; flag != "" {
			err = fmt.Errorf("%s: %w", flag, err)
		}
	}
	fmt.Fprintf(e.stderr, "alak %s: %v\n", cmd, err)
	return 2
}

// setupFlagNames are the flags that give each part of a session.Setup.
var setupFlagNames = map[string]string{"diagram": "--position", "to_move": "--to-move", "prisoners": "--prisoners"}

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

// tableDir reads --table-dir: the solver's default directory when dir is
// "", no directory ("") when dir is "none".
func tableDir(dir string) (string, error) {
	switch dir {
	case "none":
		return "", nil
	case "":
		return solve.DefaultDir()
	}
	return dir, nil
}

// flagUsage holds each subcommand's usage text, printed before its flags,
// by flag set: a sync.Map, since the tests run subcommands at once.
var flagUsage sync.Map

// newFlagSet returns a flag set for a subcommand. Its errors go to the
// env's stderr; -h is answered by flagStatus, on standard output.
func newFlagSet(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {}
	flagUsage.Store(fs, usage)
	return fs
}

// flagStatus is the exit status of a failed flag parse: -h prints the
// usage and the flags on standard output and is a success (0); a bad flag,
// which the flag package has already reported on standard error, is 2.
func flagStatus(e *env, fs *flag.FlagSet, err error) int {
	if !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(e.stderr, "run 'alak %s -h' for the flags\n", fs.Name())
		return 2
	}
	usage, _ := flagUsage.Load(fs)
	u, _ := usage.(string)
	fmt.Fprintln(e.stdout, u)
	fs.SetOutput(e.stdout)
	fs.PrintDefaults()
	fs.SetOutput(e.stderr)
	return 0
}

// setupFlagsGiven lists, as --NAME, the flags given on fs other than those
// named in keep: the flags a record FILE argument cannot go with.
func setupFlagsGiven(fs *flag.FlagSet, keep ...string) []string {
	var out []string
	fs.Visit(func(f *flag.Flag) {
		for _, k := range keep {
			if f.Name == k {
				return
			}
		}
		out = append(out, "--"+f.Name)
	})
	return out
}

// readRecordArg reads the record file a command was given (SGF or a move
// list, notation.ReadRecordFile); the error says when it does not exist.
func readRecordArg(path string) (notation.Record, error) {
	return notation.ReadRecordFile(path)
}

// setupFlags adds --position, --to-move and --prisoners to fs: the start
// of a game, read by session.Setup. After fs.Parse, the returned function
// gives the set-up of the rules r and the moves.
func setupFlags(fs *flag.FlagSet) func(r rules.Rules, moves []string) session.Setup {
	diagram := fs.String("position", "", "start from this position, a seed diagram such as x--o/O (/ marks points just captured)")
	toMove := fs.String("to-move", "", "with --position: the player to move, x or o (default: the opponent of the capital stone)")
	prisoners := fs.String("prisoners", "", "the prisoners each side took before the start, Black's first, such as 2-1 (under territory scoring)")
	return func(r rules.Rules, moves []string) session.Setup {
		return session.Setup{Rules: r, SizeGiven: sizeGiven(fs), Diagram: *diagram, ToMove: *toMove, Prisoners: *prisoners, Moves: moves}
	}
}

// positionGiven reports whether a start was set up on fs: --position,
// --to-move or --prisoners.
func positionGiven(fs *flag.FlagSet) bool {
	given := false
	fs.Visit(func(f *flag.Flag) {
		given = given || f.Name == "position" || f.Name == "to-move" || f.Name == "prisoners"
	})
	return given
}
