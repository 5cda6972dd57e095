package solve

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"alak/rules"
)

// TestDenseFileRoundTrip: a saved table reads back the same, by ReadDense,
// OpenDense (once per process) and LoadTable, and answers every position
// of the alak graph on 9 points as the compact solver does.
func TestDenseFileRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := denseRules(t, 9)
	tab := denseTable(t, r, 2)
	path, err := tab.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "alak_size=9.dense" || tab.Path() != path {
		t.Errorf("saved as %s (path %q)", path, tab.Path())
	}
	back, err := ReadDense(path, r)
	if err != nil {
		t.Fatal(err)
	}
	if back.States() != tab.States() || !slices.Equal(back.margins, tab.margins) {
		t.Fatalf("read back %d states, saved %d (margins equal: %v)", back.States(), tab.States(), slices.Equal(back.margins, tab.margins))
	}
	denseAgreesWithCompact(t, r, back)
	again, err := OpenDense(dir, r)
	if err != nil || again == nil {
		t.Fatalf("OpenDense: %v, %v", again, err)
	}
	if twice, _ := OpenDense(dir, r); twice != again {
		t.Errorf("OpenDense read the file twice")
	}
	if none, err := OpenDense(t.TempDir(), r); none != nil || err != nil {
		t.Errorf("OpenDense of an empty directory: %v, %v", none, err)
	}
	// Lookup answers positions of the game, and nothing else.
	g := newGame(t, "alak", 9)
	for _, m := range []int{4, 3, 5, 2} {
		if err := g.Play(rules.Place(m)); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Solve(context.Background(), g, Options{MemoryMB: 64})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := DenseLookup(dir, g.Position()); !ok || v != res.Value {
		t.Errorf("after 5 4 6 3: dense %v (%v), Solve %v", v, ok, res.Value)
	}
	other := newGame(t, "alak", 8)
	if _, ok := back.Lookup(other.Position()); ok {
		t.Errorf("a table of 9 points answered a position of 8")
	}
	setUp, err := rules.ParseDiagram(r, "x/-o-/---", rules.Black)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := back.Lookup(setUp); ok {
		t.Errorf("answered a set-up position whose forbidden points no capture leaves")
	}
}

// TestDenseFileDamage: a file with any byte changed, or cut short, or
// lengthened, or of other rules, is refused.
func TestDenseFileDamage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := denseRules(t, 7)
	path, err := denseTable(t, r, 1).Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.dense")
	check := func(name string, data []byte, rr rules.Rules) {
		t.Helper()
		if err := os.WriteFile(bad, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if tab, err := ReadDense(bad, rr); !errors.Is(err, ErrDenseFormat) || tab != nil {
			t.Errorf("%s: %v, want ErrDenseFormat", name, err)
		}
	}
	for _, at := range []int{0, 17, 21, 30, len(good) / 2, len(good) - 9, len(good) - 1} {
		data := bytes.Clone(good)
		data[at] ^= 0x10
		check("byte "+strconv.Itoa(at)+" changed", data, r)
	}
	for _, n := range []int{0, 10, 40, len(good) - 8, len(good) - 1} {
		check("cut to "+strconv.Itoa(n)+" bytes", good[:n], r)
	}
	check("a byte added", append(bytes.Clone(good), 0), r)
	check("other rules", good, denseRules(t, 7, "komi", "0.5"))
	// LoadTable refuses a directory whose dense file is damaged.
	data := bytes.Clone(good)
	data[len(good)/2] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTable(dir, r); !errors.Is(err, ErrDenseFormat) {
		t.Errorf("LoadTable with a corrupt dense file: %v", err)
	}
}

// TestDenseTableServesSolve: a results table loaded from a directory with a
// dense file answers Solve at once (no position searched), with the value,
// best moves and move values of the compact solver, from the start and
// along a game.
func TestDenseTableServesSolve(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := denseRules(t, 8)
	if _, err := denseTable(t, r, 2).Save(dir); err != nil {
		t.Fatal(err)
	}
	tab, err := LoadTable(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Dense() == nil {
		t.Fatal("LoadTable did not open the dense file")
	}
	g := newGame(t, "alak", 8)
	for _, m := range []int{4, 5, 3, 6, 2, 7} {
		got, err := Solve(context.Background(), g, Options{MemoryMB: 64, Table: tab})
		if err != nil {
			t.Fatal(err)
		}
		want, err := Solve(context.Background(), g, Options{MemoryMB: 64})
		if err != nil {
			t.Fatal(err)
		}
		if got.Nodes != 0 || got.Value != want.Value || !slices.Equal(got.Best, want.Best) || !maps.Equal(got.Moves, want.Moves) {
			t.Errorf("after %v: with the dense table %+v; compact %+v", g.Moves(), got, want)
		}
		if err := g.Play(rules.Place(m)); err != nil {
			t.Fatal(err)
		}
	}
}
