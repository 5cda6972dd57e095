package testlong

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for v, want := range map[string]bool{"1": true, "": false, "0": false} {
		if got, err := parse(v); got != want || err != nil {
			t.Errorf("%s=%q: %v, %v; want %v", Env, v, got, err, want)
		}
	}
	for _, v := range []string{"true", "yes", "2", " 1"} {
		got, err := parse(v)
		if err == nil || got || !strings.Contains(err.Error(), "want 1") {
			t.Errorf("%s=%q: %v, %v; want an error naming the accepted values", Env, v, got, err)
		}
	}
}

func TestSize(t *testing.T) {
	t.Setenv(Env, "1")
	if got := Size(t, 9, 11); got != 11 {
		t.Errorf("%s=1: %d, want 11", Env, got)
	}
	t.Setenv(Env, "")
	if got := Size(t, 9, 11); got != 9 {
		t.Errorf("%s unset: %d, want 9", Env, got)
	}
}

func TestSkip(t *testing.T) {
	t.Setenv(Env, "0")
	ran := t.Run("off", func(t *testing.T) {
		Skip(t, "long")
		t.Error("ran with the long checks off")
	})
	if !ran {
		t.Error("the skipped subtest failed")
	}
	t.Setenv(Env, "1")
	reached := false
	t.Run("on", func(t *testing.T) {
		Skip(t, "long")
		reached = true
	})
	if !reached {
		t.Errorf("skipped with %s=1", Env)
	}
}
