package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestSolveDenseSliding: alak solve --dense takes the sliding games: on
// dewdney and golf it gives the value, best moves and move values of the
// default solver (the state graph), from the start, after moves and from a
// set-up position, writes the dense table (named after the rules), and the
// next solve answers from it without searching.
func TestSolveDenseSliding(t *testing.T) {
	t.Parallel() // seconds of the processor, files of its own: they overlap the other tests' waits
	for _, preset := range []string{"dewdney", "golf"} {
		dir := t.TempDir()
		for _, args := range [][]string{nil, {"1-5", "8-6"}, {"--position", "x_o_xxo_o_", "--to-move", "o"}} {
			base := append([]string{"--rules", preset, "--size", "10"}, args...)
			want := solveJSONRun(t, append(base, "--table-dir", "none")...)
			got := solveJSONRun(t, append(base, "--dense", "--jobs", "2", "--table-dir", dir)...)
			if got.Value != want.Value || !reflect.DeepEqual(got.Best, want.Best) || !reflect.DeepEqual(got.Moves, want.Moves) {
				t.Errorf("%s %v: --dense %+v; solve %+v", preset, args, got, want)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, preset+"_size=10.dense")); err != nil {
			t.Fatal(err)
		}
		again := solveJSONRun(t, "--rules", preset, "--size", "10", "--table-dir", dir, "2-5")
		if again.Nodes != 0 {
			t.Errorf("%s with the dense table: %d positions searched, want 0", preset, again.Nodes)
		}
	}
}
