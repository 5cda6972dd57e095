// Package testlong is the test suite's switch for its long checks: the
// searches and size sweeps that take minutes run in full only when the
// environment variable ALAK_LONG is 1, which .ci/run sets; otherwise they
// run a smaller form of the same check (a sweep that stops at a smaller
// size, fewer rounds), so that `go test -race ./...` stays quick.
//
//	n := testlong.Size(t, 9, 11) // 1 to 9 points by default, to 11 with ALAK_LONG=1
package testlong

import (
	"fmt"
	"os"
	"testing"
)

// Env is the environment variable that turns the long checks on.
const Env = "ALAK_LONG"

// parse reads the variable's value: "1" turns the long checks on, "" and
// "0" leave them off, anything else is an error.
func parse(v string) (bool, error) {
	switch v {
	case "1":
		return true, nil
	case "", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s=%q: want 1 (run the long checks in full), or 0 or unset (their smaller form)", Env, v)
}

// Enabled reports whether ALAK_LONG=1 asks for the long checks in full; t
// fails on another value, so that a mistyped switch is not read as off.
func Enabled(t testing.TB) bool {
	t.Helper()
	on, err := parse(os.Getenv(Env))
	if err != nil {
		t.Fatal(err)
	}
	return on
}

// Size returns full when the long checks are on and quick otherwise: how
// far a size sweep goes, or how many rounds a check plays.
func Size(t testing.TB, quick, full int) int {
	t.Helper()
	if Enabled(t) {
		return full
	}
	return quick
}

// Skip skips t, saying why and how to run it, unless the long checks are
// on. It is for a check with no smaller form that other tests do not
// already make.
func Skip(t testing.TB, why string) {
	t.Helper()
	if !Enabled(t) {
		t.Skipf("%s; %s=1 runs it", why, Env)
	}
}
