// Command alak plays, checks, solves and analyses Alak and its family of
// rule sets. Each subcommand lives in its own file and registers itself;
// the work is done by the library packages.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/term"
)

// env is what a subcommand may touch of the outside world, so that tests can
// drive whole sessions through strings.
type env struct {
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	terminal bool // stdout is a terminal: colour and progress lines are wanted
}

type command struct {
	name    string
	summary string // one line for the command list
	run     func(e *env, args []string) int
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		terminal: term.IsTerminal(int(os.Stdout.Fd())) && os.Getenv("NO_COLOR") == ""}
	os.Exit(run(e, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(e.stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "alak: unknown command %q\n", args[0])
		usage(e.stderr)
		return 2
	}
	return c.run(e, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: alak COMMAND [flags]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\n'alak COMMAND -h' describes a command's flags; docs/rules.md describes the rules:")
	fmt.Fprintln(w, "  presets: "+strings.Join(presetNames(), ", "))
}
