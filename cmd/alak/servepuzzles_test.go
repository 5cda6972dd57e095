package main

import (
	"strings"
	"testing"
)

// TestServePuzzleSeedFlag: --puzzle-seed takes the puzzles to make a
// preset at start; a number out of range is refused before anything
// starts, saying what is taken.
func TestServePuzzleSeedFlag(t *testing.T) {
	for _, n := range []string{"-1", "1001"} {
		_, errOut, code := runWith(t, "", -1, "serve", "--db", t.TempDir()+"/a.db", "--puzzle-seed", n)
		if code == 0 || !strings.Contains(errOut, "--puzzle-seed "+n+": give 0 to 1000 puzzles a preset") {
			t.Errorf("--puzzle-seed %s: exit %d, %q", n, code, errOut)
		}
	}
	if help, _, _ := runWith(t, "", -1, "serve", "-h"); !strings.Contains(help, "-puzzle-seed") {
		t.Errorf("serve -h does not describe -puzzle-seed:\n%s", help)
	}
}
