package rules

import (
	"errors"
	"testing"
)

// WithPrisoners sets the prisoners of a set-up position, refuses counts
// out of range with ErrSetup, and leaves its receiver alone.
func TestWithPrisoners(t *testing.T) {
	pos := start(t, MustPreset("traditional"))
	got, err := pos.WithPrisoners(3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got.Prisoners(Black) != 3 || got.Prisoners(White) != 4 {
		t.Errorf("prisoners %d-%d, want 3-4", got.Prisoners(Black), got.Prisoners(White))
	}
	if pos.Prisoners(Black) != 0 || pos.Prisoners(White) != 0 {
		t.Error("WithPrisoners changed its receiver")
	}
	// Captures add to the set-up counts: x on point 1 takes the o on
	// point 2, closed by x on point 3.
	p, err := ParseDiagram(MustPreset("traditional"), "-ox--------", Black)
	if err == nil {
		p, err = p.WithPrisoners(5, 0)
	}
	if err == nil {
		p, err = p.Play(Place(0))
	}
	if err != nil {
		t.Fatal(err)
	}
	if p.Prisoners(Black) != 6 || p.Prisoners(White) != 0 {
		t.Errorf("after the capture prisoners %d-%d, want 6-0", p.Prisoners(Black), p.Prisoners(White))
	}
	for _, c := range []struct{ b, w int }{{-1, 0}, {0, -2}, {MaxPrisoners + 1, 0}} {
		if _, err := pos.WithPrisoners(c.b, c.w); !errors.Is(err, ErrSetup) {
			t.Errorf("WithPrisoners(%d, %d): %v, want ErrSetup", c.b, c.w, err)
		}
	}
	if _, err := (Position{}).WithPrisoners(1, 1); !errors.Is(err, ErrSetup) {
		t.Errorf("zero Position: %v, want ErrSetup", err)
	}
}
