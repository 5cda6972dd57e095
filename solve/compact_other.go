//go:build !linux

package solve

// hugePages is a hint that only Linux takes (compact_linux.go).
func hugePages[T any](s []T) {}
