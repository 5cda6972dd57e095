package main

import (
	"strings"
	"testing"
)

// TestServeMailFlags: --mail-domain alone is refused before anything
// starts (mail for the domain would reach nothing); the server's own checks
// of --mail-listen (it needs --smtp and --mail-domain) are
// server.TestMailListenNeeds.
func TestServeMailFlags(t *testing.T) {
	_, errOut, code := runWith(t, "", -1, "serve", "--db", t.TempDir()+"/a.db", "--mail-domain", "play.example.org")
	if code == 0 || !strings.Contains(errOut, "--mail-domain without --mail-listen") {
		t.Errorf("--mail-domain alone: exit %d, %q", code, errOut)
	}
	help, _, _ := runWith(t, "", -1, "serve", "-h")
	for _, flag := range []string{"-mail-listen", "-mail-domain"} {
		if !strings.Contains(help, flag) {
			t.Errorf("serve -h does not describe %s:\n%s", flag, help)
		}
	}
}

// TestServeTableMemoryFlag: --table-memory takes the megabytes of small
// lines' tables to keep, --graph-memory those of their state graphs; a
// negative number is refused before anything starts, saying what is
// taken.
func TestServeTableMemoryFlag(t *testing.T) {
	for flag, want := range map[string]string{
		"--table-memory": "--table-memory -1: give the megabytes of tables to keep",
		"--graph-memory": "--graph-memory -1: give the megabytes of state graphs to keep",
	} {
		_, errOut, code := runWith(t, "", -1, "serve", "--db", t.TempDir()+"/a.db", flag, "-1")
		if code == 0 || !strings.Contains(errOut, want) {
			t.Errorf("%s -1: exit %d, %q", flag, code, errOut)
		}
		if help, _, _ := runWith(t, "", -1, "serve", "-h"); !strings.Contains(help, flag[1:]) {
			t.Errorf("serve -h does not describe %s:\n%s", flag[1:], help)
		}
	}
}
