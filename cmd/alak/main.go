// Command alak plays, checks, solves and analyses Alak and its family of
// rule sets. Each subcommand lives in its own file and registers itself;
// the work is done by the library packages.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"

	"alak/internal/version"
	"alak/loadtest"

	"golang.org/x/term"
)

// env is what a subcommand may touch of the outside world, so that tests can
// drive whole sessions through strings.
type env struct {
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	terminal bool // stdout is a terminal: colour and progress lines are wanted
	// interrupt returns the context a long search runs under, cancelled
	// by Ctrl-C; nil is signal.NotifyContext on os.Interrupt. Tests set it
	// to interrupt a search without a signal.
	interrupt func() (context.Context, context.CancelFunc)
}

// searchContext is the context of a long search: cancelled by Ctrl-C.
func (e *env) searchContext() (context.Context, context.CancelFunc) {
	if e.interrupt != nil {
		return e.interrupt()
	}
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

type command struct {
	name    string
	summary string // one line for the command list
	run     func(e *env, args []string) int
}

var commands = map[string]command{}

// exitInterrupted is the exit status of a search stopped by Ctrl-C (128 +
// SIGINT, as shells report it): solve, prove and analyze print what they
// finished and exit with it.
const exitInterrupted = 130

func register(c command) { commands[c.name] = c }

func main() {
	loadtest.BusyLoop() // alak loadtest --busy's neighbour process: spins and never returns
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		terminal: term.IsTerminal(int(os.Stdout.Fd())) && os.Getenv("NO_COLOR") == ""}
	os.Exit(run(e, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		usage(e.stdout)
		return 0
	}
	switch args[0] {
	case "--version", "-version", "version":
		fmt.Fprintf(e.stdout, "alak %s\n", version.String())
		return 0
	case "help":
		if len(args) == 1 {
			usage(e.stdout)
			return 0
		}
		if _, ok := commands[args[1]]; !ok {
			fmt.Fprintf(e.stderr, "alak help: unknown command %q\n", args[1])
			usage(e.stderr)
			return 2
		}
		return run(e, []string{args[1], "-h"})
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
	width := 0
	for n := range commands {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintln(w, "\n'alak help COMMAND' (or 'alak COMMAND -h') describes a command's flags; 'alak --version'")
	fmt.Fprintln(w, "prints the version; docs/rules.md describes the rules:")
	fmt.Fprintln(w, "  presets: "+strings.Join(presetNames(), ", "))
}
