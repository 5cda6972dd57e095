// Package clip shortens untrusted text before it is quoted in an error or a
// log line, so that a long bad input is never echoed whole.
package clip

import "unicode/utf8"

// Max is the most bytes of the input that Text keeps.
const Max = 40

// Text returns s when it is at most Max bytes long, otherwise its first Max
// bytes (cut at a character boundary) followed by "...".
func Text(s string) string {
	if len(s) <= Max {
		return s
	}
	n := Max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
