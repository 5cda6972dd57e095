package server

import (
	"os"
	"sync"
	"testing"
)

// TestMain runs the tests, then what afterTests registered: what the test
// process shares between its tests (one Chromium, the solver tables)
// lasts until every test is over. The tests run in parallel (t.Parallel),
// one a core (go test's -parallel), but for the few that read what the
// whole process does (the hashes under way, the bytes allocated, the cores
// kept busy on purpose) or grant the shared Chromium a permission. Four at
// once cut the package's time further, but two whole-suite runs each had a
// browser test miss its wait beside the solver's parallel tests.
func TestMain(m *testing.M) {
	code := m.Run()
	atExit.Lock()
	fs := atExit.fs
	atExit.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
	os.Exit(code)
}

// atExit is what afterTests registered.
var atExit struct {
	sync.Mutex
	fs []func()
}

// afterTests registers f to run once the package's tests are over, the
// last registered first.
func afterTests(f func()) {
	atExit.Lock()
	defer atExit.Unlock()
	atExit.fs = append(atExit.fs, f)
}
