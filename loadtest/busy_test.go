package loadtest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestMain lets the test binary be a busy loop too (startBusy starts this
// program again).
func TestMain(m *testing.M) {
	BusyLoop()
	os.Exit(m.Run())
}

// stat reads process pid's session and CPU time in clock ticks (utime +
// stime) from /proc/PID/stat; -1 for what cannot be read.
func stat(pid int) (session, ticks int) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1, -1
	}
	// The fields after the command's name, which is in parentheses:
	// state, ppid, pgrp, session, ..., utime (the 12th), stime.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(f) < 13 {
		return -1, -1
	}
	session, err = strconv.Atoi(f[3])
	if err != nil {
		session = -1
	}
	u, err1 := strconv.Atoi(f[11])
	s, err2 := strconv.Atoi(f[12])
	if err1 != nil || err2 != nil {
		return session, -1
	}
	return session, u + s
}

// TestBusyLoop: --busy's loop is another process, in a session of its
// own, that uses the CPU while it runs and is gone once stopped, having
// reported the CPU it used.
func TestBusyLoop(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc to read a process's CPU time from")
	}
	b, err := startBusy(1)
	if err != nil {
		t.Fatal(err)
	}
	pid := b.cmds[0].Process.Pid
	if pid == os.Getpid() {
		t.Fatal("the busy loop is this process")
	}
	if sid, _ := stat(pid); sid != pid {
		t.Errorf("the busy loop's session is %d, want its own, %d", sid, pid)
	}
	// It spins: its CPU time grows past a tick (bounded by a count of
	// looks, each a yield, not by a clock).
	spinning := false
	for range 1000000 {
		if _, ticks := stat(pid); ticks > 0 {
			spinning = true
			break
		}
		syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
	}
	cpu, err := b.stop()
	if err != nil {
		t.Error(err)
	}
	if !spinning || cpu <= 0 {
		t.Errorf("the busy loop used no CPU (spinning %v, %v)", spinning, cpu)
	}
	if ps := b.cmds[0].ProcessState; ps == nil || !ps.Exited() {
		t.Errorf("the busy loop is not gone after stop: %v", ps)
	}
}
