//go:build unix

package gtp

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the engine in a process group of its own, so that
// killing it also kills what it started (an engine run through a shell
// script leaves its real process behind otherwise, holding the output open).
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// kill kills the engine and its process group.
func kill(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
