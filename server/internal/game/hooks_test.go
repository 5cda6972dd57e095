package game

import (
	"context"
	"slices"
	"testing"
)

// TestHookList: the hooks run in the order registered; an end's hooks
// only after a change that ended the game.
func TestHookList(t *testing.T) {
	var ran []string
	var l HookList
	l.OnChange(func(context.Context, *State) { ran = append(ran, "a") })
	l.OnEnd(func(context.Context, *State) { ran = append(ran, "b") })
	l.OnChange(func(context.Context, *State) { ran = append(ran, "c") })
	l.OnEnd(func(context.Context, *State) { ran = append(ran, "d") })
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
