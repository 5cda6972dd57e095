//go:build race

package solve

// raceEnabled is true under the race detector, which slows the long
// searches of some tests tenfold.
const raceEnabled = true
