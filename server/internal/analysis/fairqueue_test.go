package analysis

import (
	"fmt"
	"testing"
)

// TestFairQueue: jobs come out one owner at a time, in turn (an owner's
// next job after every other waiting owner's, a new owner's first after
// those already waiting), within the bounds a queue is made with, and pop
// returns false once done is closed.
func TestFairQueue(t *testing.T) {
	q := newFairQueue[string](3, 7)
	for _, j := range []string{"a1", "a2", "a3", "b1", "c1", "c2", "b2"} {
		if !q.push(j[:1], j) {
			t.Fatalf("push %s refused", j)
		}
	}
	if q.push("a", "a4") {
		t.Error("a fourth job of one owner taken (bound 3)")
	}
	if q.push("d", "d1") {
		t.Error("an eighth job taken (bound 7)")
	}
	var got []string
	for range 4 {
		j, ok := q.pop(nil)
		if !ok {
			t.Fatal("pop: nothing")
		}
		got = append(got, j)
	}
	if !q.push("d", "d1") {
		t.Error("a job refused with room")
	}
	for q.len() > 0 {
		j, _ := q.pop(nil)
		got = append(got, j)
	}
	if want := "[a1 b1 c1 a2 b2 c2 a3 d1]"; fmt.Sprint(got) != want {
		t.Errorf("order %v, want %s", got, want)
	}
	done := make(chan struct{})
	close(done)
	if _, ok := q.pop(done); ok {
		t.Error("pop from an empty queue after done")
	}
}
