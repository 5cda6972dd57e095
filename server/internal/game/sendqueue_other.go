//go:build !linux

package game

import "net"

// sendQueueEmpty cannot tell what a socket holds here: every change's
// event is handed to the streams' goroutines.
func sendQueueEmpty(c net.Conn) bool { return false }
