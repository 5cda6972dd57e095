package computer

import (
	"log/slog"
	"testing"
)

// TestScheduleOnce: a game's move at one version is queued once however
// often it is scheduled (the server's sweep schedules every game where a
// computer is to move, each second), a later version is queued beside it,
// and once the job has been played it may be scheduled again.
func TestScheduleOnce(t *testing.T) {
	b := New(Config{Queue: 8, Log: slog.New(slog.DiscardHandler)})
	for range 3 {
		b.Schedule("g1", 4)
	}
	if d := b.Depth(); d != 1 {
		t.Fatalf("scheduled three times at one version: %d queued, want 1", d)
	}
	b.Schedule("g1", 5)
	b.Schedule("g2", 4)
	if d := b.Depth(); d != 3 {
		t.Fatalf("another version and another game: %d queued, want 3", d)
	}
	// Taken by a worker and ended (play ends with finished), the job may
	// come again.
	j := <-b.queue
	b.finished(j)
	b.Schedule(j.id, j.version)
	if d := b.Depth(); d != 3 {
		t.Fatalf("after the job was taken and ended, scheduled again: %d queued, want 3", d)
	}
}
