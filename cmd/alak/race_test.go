//go:build race

package main

// raceEnabled is true under the race detector, which slows the checks of
// the largest certificates tenfold.
const raceEnabled = true
