package solve

import (
	"flag"
	"testing"

	"alak/internal/testlong"
)

// Every test of this package but TestCompactWideSlots calls t.Parallel:
// they share nothing, and
// their searches, one thread each mostly, then fill the machine's cores
// (the race detector's run of the package took 264 s on one before).

// sweep returns how far a test's size sweep goes: quick by default, full
// with ALAK_LONG=1 (internal/testlong), and race with ALAK_LONG=1 under the
// race detector, which slows these searches tenfold; .ci/run runs this
// package a second time with ALAK_LONG=1 and without it, for the full sizes.
func sweep(t *testing.T, quick, race, full int) int {
	t.Helper()
	switch {
	case !testlong.Enabled(t):
		return quick
	case raceEnabled:
		return race
	}
	return full
}

// flagGiven reports whether the flag name was set on the command line: a
// size asked for by hand (-dense.compare 14) is run whatever the switch.
func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
