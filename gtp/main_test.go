package gtp

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as the engines the client tests talk to: run with
// GTP_TEST_ENGINE set, it is a fake engine (see fakeEngine) instead of the
// tests.
func TestMain(m *testing.M) {
	if mode, ok := os.LookupEnv("GTP_TEST_ENGINE"); ok {
		os.Exit(fakeEngine(mode))
	}
	os.Exit(m.Run())
}

// fakeEngine is a scripted GTP engine. Modes: "" answers normally;
// "noid" never echoes ids; "badid" echoes the wrong id; "deaf" ignores quit
// and stays alive after its input ends; "silent" reads and never answers;
// "chatty" writes a line that is not a response. Commands: protocol_version
// (2), echo ARGS (ARGS), fail (? asked to fail), lines (three lines),
// sleep MS (slept, after MS milliseconds), garble (writes a line that is
// not a response), crash (writes "boom" to standard
// error and exits with status 3), quit.
func fakeEngine(mode string) int {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	if mode == "chatty" {
		fmt.Fprint(out, "hello, I am not a GTP engine\n\n")
		out.Flush()
	}
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 || mode == "silent" {
			continue
		}
		id := ""
		if f[0][0] >= '0' && f[0][0] <= '9' {
			id, f = f[0], f[1:]
		}
		switch mode {
		case "noid":
			id = ""
		case "badid":
			id += "9"
		}
		answer := func(ok bool, text string) {
			c := "="
			if !ok {
				c = "?"
			}
			fmt.Fprintf(out, "%s%s %s\n\n", c, id, text)
			out.Flush()
		}
		switch f[0] {
		case "protocol_version":
			answer(true, "2")
		case "echo":
			answer(true, strings.Join(f[1:], " "))
		case "fail":
			answer(false, "asked to fail")
		case "lines":
			answer(true, "one\ntwo\nthree")
		case "sleep":
			var ms int
			fmt.Sscan(f[1], &ms)
			time.Sleep(time.Duration(ms) * time.Millisecond)
			answer(true, "slept")
		case "garble":
			fmt.Fprint(out, "oops\n\n")
			out.Flush()
		case "crash":
			fmt.Fprintln(os.Stderr, "boom")
			return 3
		case "quit":
			answer(true, "")
			if mode != "deaf" {
				return 0
			}
		default:
			answer(false, "unknown command")
		}
	}
	if mode == "deaf" {
		time.Sleep(time.Minute)
	}
	return 0
}
