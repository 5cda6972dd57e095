package server

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// TestMain runs the tests, then what afterTests registered: what the test
// process shares between its tests (one Chromium, the solver tables)
// lasts until every test is over. The tests run in parallel (t.Parallel),
// but for the few that read what the whole process does (the hashes under
// way, the bytes allocated, the cores kept busy on purpose); they mostly
// wait, on pages, events, the databases and clusters, so four run at once
// rather than one a core (go test's -parallel, which a -parallel on the
// command line still sets).
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
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
