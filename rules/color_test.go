package rules

import (
	"errors"
	"testing"
)

// TestColorText: Letter writes the letters of the seeds' diagrams (x for
// Black, who moves first; o for White; docs/rules.md), ParseColor reads
// them back and the words String writes, and refuses anything else with
// ErrSyntax.
func TestColorText(t *testing.T) {
	for _, tc := range []struct {
		c      Color
		letter string
		sym    byte
	}{{Black, "x", 'x'}, {White, "o", 'o'}, {None, "", '-'}} {
		if got := tc.c.Letter(); got != tc.letter {
			t.Errorf("%v.Letter() = %q, want %q", tc.c, got, tc.letter)
		}
		if got := tc.c.Symbol(); got != tc.sym {
			t.Errorf("%v.Symbol() = %q, want %q", tc.c, got, tc.sym)
		}
		if tc.c == None {
			continue
		}
		for _, s := range []string{tc.c.Letter(), tc.c.String()} {
			if got, err := ParseColor(s); err != nil || got != tc.c {
				t.Errorf("ParseColor(%q) = %v, %v; want %v", s, got, err, tc.c)
			}
		}
	}
	for _, s := range []string{"", "-", "none", "xo", "blue"} {
		if c, err := ParseColor(s); !errors.Is(err, ErrSyntax) || c != None {
			t.Errorf("ParseColor(%q) = %v, %v; want None and ErrSyntax", s, c, err)
		}
	}
}
