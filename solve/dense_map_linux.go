package solve

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only (pages shared with every
// process that maps the file) and returns them with the function that
// releases them.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if size == 0 {
		return nil, nil, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readFile(f, size)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
