package rules

import (
	"strings"
	"testing"
)

// preset returns a preset at a size, failing the test on error.
func preset(t testing.TB, name string, w, h int) Rules {
	t.Helper()
	r, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if w > 0 {
		r.SetSize(w, h)
	}
	return r
}

// start returns the start position of r.
func start(t testing.TB, r Rules) Position {
	t.Helper()
	pos, err := NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// asGrid returns the start position of r played by the grid engine, even on
// a line: an independent implementation of the placement rules.
func asGrid(t testing.TB, r Rules) Position {
	t.Helper()
	e, err := newEngine(r)
	if err != nil {
		t.Fatal(err)
	}
	e.line, e.mask = false, 0
	e.buildGrid()
	return e.start()
}

// setupDiagram parses a diagram under r, failing the test on error.
func setupDiagram(t testing.TB, r Rules, diagram string, toMove Color) Position {
	t.Helper()
	pos, err := ParseDiagram(r, diagram, toMove)
	if err != nil {
		t.Fatalf("ParseDiagram(%q): %v", diagram, err)
	}
	return pos
}

// play plays m on pos, failing the test when it is illegal.
func play(t testing.TB, pos Position, m Move) Position {
	t.Helper()
	next, err := pos.Play(m)
	if err != nil {
		t.Fatalf("%s: play %v: %v", pos, m, err)
	}
	return next
}

// layout writes a line's stones in the code-golf alphabet: x, o and _.
func layout(pos Position) string {
	var b strings.Builder
	for p := range pos.Points() {
		switch pos.At(p) {
		case Black:
			b.WriteByte('x')
		case White:
			b.WriteByte('o')
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// recomputeHash computes BoardHash from the stones, without the incremental
// updates of Play.
func recomputeHash(pos Position) uint64 {
	var h uint64
	for p := range pos.Points() {
		if c := pos.At(p); c != None {
			h ^= zobrist.stone[c][p]
		}
	}
	return h
}
