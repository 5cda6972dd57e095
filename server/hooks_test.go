package server

import (
	"context"
	"slices"
	"testing"
)

// TestHookList: the hooks run in the order registered; an end's hooks
// only after a change that ended the game.
func TestHookList(t *testing.T) {
	var ran []string
	var l hookList
	l.onChange(func(context.Context, *State) { ran = append(ran, "a") })
	l.onEnd(func(context.Context, *State) { ran = append(ran, "b") })
	l.onChange(func(context.Context, *State) { ran = append(ran, "c") })
	l.onEnd(func(context.Context, *State) { ran = append(ran, "d") })
	for _, c := range []struct {
		ended bool
		want  []string
	}{
		{false, []string{"a", "c"}},
		{true, []string{"a", "b", "c", "d"}},
	} {
		ran = nil
		l.run(context.Background(), &State{}, c.ended)
		if !slices.Equal(ran, c.want) {
			t.Errorf("ended %v: ran %v, want %v", c.ended, ran, c.want)
		}
	}
}
