//go:build !linux

package solve

import (
	"os"
)

// mapFile reads the first size bytes of f (systems other than Linux).
func mapFile(f *os.File, size int64) ([]byte, func() error, error) { return readFile(f, size) }
