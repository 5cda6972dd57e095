package game

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzVersionOf: VersionOf reads the version of any Last-Event-ID value,
// or says -1; it never panics, and what it reads is the digits after the
// dot.
func FuzzVersionOf(f *testing.F) {
	for _, seed := range []string{"", "0.2", "12.345", " 3.4 ", "3.", ".4", "3.-4", "3.+4", "3.4.5", "3.999999999", "3.1000000000",
		"a.b", "x.0", "\x00.1", "7.\u0661", "1.0x10", "1.00000000001"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, id string) {
		v := VersionOf(id)
		if v == -1 {
			return
		}
		if v < 0 || v > 999_999_999 {
			t.Fatalf("VersionOf(%q) = %d", id, v)
		}
		_, after, ok := strings.Cut(strings.TrimSpace(id), ".")
		n, err := strconv.Atoi(after)
		if !ok || err != nil || n != v {
			t.Errorf("VersionOf(%q) = %d, but the part after the dot is %q", id, v, after)
		}
		// An id the server writes reads back as its version.
		if got := VersionOf(strconv.Itoa(len(id)) + "." + strconv.Itoa(v)); got != v {
			t.Errorf("VersionOf of the id of version %d: %d", v, got)
		}
	})
}
