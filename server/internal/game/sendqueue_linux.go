package game

import (
	"net"
	"syscall"
	"unsafe"
)

// sendQueueEmpty reports whether c's socket holds no data the client has
// not acknowledged (SIOCOUTQ, which Go's syscall names TIOCOUTQ: the same
// request on a socket): a write of up to writeNowMax bytes then goes to
// the kernel at once. False when it cannot tell (not a socket, an error).
func sendQueueEmpty(c net.Conn) bool {
	if nc, ok := c.(interface{ NetConn() net.Conn }); ok { // TLS: the connection beneath
		c = nc.NetConn()
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	n := int32(-1)
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCOUTQ, uintptr(unsafe.Pointer(&n)))
	}); err != nil || errno != 0 {
		return false
	}
	return n == 0
}
