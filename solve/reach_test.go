package solve

import (
	"slices"
	"testing"
)

// TestReachCombine checks the reach arithmetic on hand-made reaches: the
// most of each position over the children, the node's own position once
// more, nil at the repetition count or past reachMax; holds against the
// line's counts before the node.
func TestReachCombine(t *testing.T) {
	x := newReachIndex()
	for _, h := range []uint64{10, 20, 30, 40} { // indices 0 to 3
		x.index(h)
	}
	x.push(10) // the line: 10 20 then the node 30
	x.push(20)
	x.push(30)
	ids := func(r *reach) []uint32 {
		if r == nil {
			return nil
		}
		return r.ids
	}
	a := &reach{ids: []uint32{0<<4 | 1, 3<<4 | 2}} // position 10 once, 40 twice
	b := &reach{ids: []uint32{2<<4 | 1, 3<<4 | 1}} // 30 once, 40 once
	// The other side's node: the most of each, and 30 (the node) once more.
	if got, want := ids(x.combine([]*reach{a, b}, 3)), []uint32{0<<4 | 1, 2<<4 | 2, 3<<4 | 2}; !slices.Equal(got, want) {
		t.Errorf("combine(a, b) = %v, want %v", got, want)
	}
	// The winner's node: one child, the node's position added.
	if got, want := ids(x.combine([]*reach{a}, 3)), []uint32{0<<4 | 1, 2<<4 | 1, 3<<4 | 2}; !slices.Equal(got, want) {
		t.Errorf("combine(a) = %v, want %v", got, want)
	}
	// 30 twice below the node and the node itself: three times, a draw.
	c := &reach{ids: []uint32{2<<4 | 2}}
	if r := x.combine([]*reach{c}, 3); r != nil {
		t.Errorf("combine(c) = %v, want nil: a line of it would be drawn", r.ids)
	}
	if r := x.combine([]*reach{c, b}, 3); r != nil {
		t.Errorf("combine(c, b) = %v, want nil", r.ids)
	}
	long := &reach{}
	for i := range uint32(reachMax + 1) {
		long.ids = append(long.ids, (i+10)<<4|1)
	}
	if r := x.combine([]*reach{long}, 3); r != nil {
		t.Errorf("a reach of %d positions kept", len(r.ids))
	}
	// holds: before the node 10 and 20 occurred once each, 30 none.
	for _, c := range []struct {
		r    *reach
		want bool
	}{
		{&reach{ids: []uint32{0<<4 | 1}}, true},            // 10: once before, once in it
		{&reach{ids: []uint32{0<<4 | 2}}, false},           // 10: once before, twice in it
		{&reach{ids: []uint32{2<<4 | 2}}, true},            // 30, the node: none before
		{&reach{ids: []uint32{1<<4 | 1, 3<<4 | 2}}, true},  // 20 once and once; 40 not before
		{&reach{ids: []uint32{1<<4 | 2, 3<<4 | 1}}, false}, // 20 once before, twice in it
	} {
		if got := x.holds(c.r, 3); got != c.want {
			t.Errorf("holds(%v) = %v, want %v", c.r.ids, got, c.want)
		}
	}
	// fromOccurrences: counts on the game less those before the node.
	r := x.fromOccurrences(map[uint64]uint8{30: 1, 10: 2, 50: 1}, 3)
	if got, want := ids(r), []uint32{0<<4 | 1, 2<<4 | 1, 4<<4 | 1}; !slices.Equal(got, want) {
		t.Errorf("fromOccurrences = %v, want %v", got, want)
	}
	x.pop()
	if x.cnt[2] != 0 || len(x.line) != 2 {
		t.Errorf("after pop: count %d, line %v", x.cnt[2], x.line)
	}
}
