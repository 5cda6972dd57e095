package clip

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"short", "short"},
		{strings.Repeat("a", Max), strings.Repeat("a", Max)},
		{strings.Repeat("a", Max+1), strings.Repeat("a", Max) + "..."},
		// A two-byte character across the cut is dropped whole, never split.
		{strings.Repeat("a", Max-1) + "é" + "zzz", strings.Repeat("a", Max-1) + "..."},
	}
	for _, c := range cases {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
