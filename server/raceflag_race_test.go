//go:build race

package server

// raceEnabled says that the tests run under the race detector, which
// slows the solver tenfold: tests that solve whole lines take shorter ones.
const raceEnabled = true
