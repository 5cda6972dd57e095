package solve

import (
	"syscall"
	"unsafe"
)

// hugePages asks Linux to back the memory of s with transparent huge pages
// (madvise MADV_HUGEPAGE), which spares the table's random probes most of
// their TLB misses. It is a hint: errors are ignored.
func hugePages[T any](s []T) {
	if len(s) == 0 {
		return
	}
	size := len(s) * int(unsafe.Sizeof(s[0]))
	if size < 4<<20 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), size)
	const madvHugePage = 14
	_ = syscall.Madvise(b, madvHugePage)
}
