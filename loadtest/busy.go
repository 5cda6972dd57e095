package loadtest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// A server shares its machine, so a run can bring its own neighbour:
// Config.Busy processes that each keep one core busy for as long as the
// moves are made. Each is a process of its own, not a goroutine of the
// tool: a goroutine would compete for the tool's own scheduler and
// threads, not for the machine's cores as another program does. The
// process is this program started again with busyEnv set; its main calls
// BusyLoop first, which spins and never returns.

// busyEnv, set to 1 in a process's environment, makes BusyLoop spin.
const busyEnv = "ALAK_LOADTEST_BUSY"

// spun is what the busy loop writes: a variable it shares with nothing,
// so that the loop is not optimised away.
var spun atomic.Uint64

// BusyLoop is the busy loop's process. In a process started by a run
// with Config.Busy (busyEnv set), it keeps one core busy until its
// standard input closes (the run's end, or the run's process gone) and
// exits; in any other process it returns at once. A program that runs
// the load tool with Config.Busy calls it first thing in main, as alak
// does.
func BusyLoop() {
	if os.Getenv(busyEnv) != "1" {
		return
	}
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	for {
		spun.Add(1)
	}
}

// busyLoops are the processes of a run's busy loops.
type busyLoops struct {
	cmds  []*exec.Cmd
	pipes []io.WriteCloser
	wg    sync.WaitGroup
	mu    sync.Mutex
	early error // a loop that ended before it was stopped
	done  bool
}

// startBusy starts n busy loops: this program again, with one processor
// for Go (GOMAXPROCS=1: one core's worth), in a session of its own, as
// another user's job is (Linux gives each session its share of the
// cores: started in the tool's session, the loop would share the tool's).
func startBusy(n int) (*busyLoops, error) {
	if os.Getenv(busyEnv) == "1" { // this program does not call BusyLoop: do not start it again and again
		return nil, fmt.Errorf("--busy: this process was started as a busy loop; its main must call loadtest.BusyLoop first")
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--busy: finding this program to start the busy loop: %w", err)
	}
	b := &busyLoops{}
	for range n {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), busyEnv+"=1", "GOMAXPROCS=1")
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		setSession(cmd)
		in, err := cmd.StdinPipe()
		if err == nil {
			err = cmd.Start()
		}
		if err != nil {
			b.stop()
			return nil, fmt.Errorf("--busy: starting a busy loop: %w", err)
		}
		b.cmds, b.pipes = append(b.cmds, cmd), append(b.pipes, in)
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			err := cmd.Wait()
			b.mu.Lock()
			defer b.mu.Unlock()
			if !b.done && b.early == nil {
				if err == nil {
					err = errors.New("exited")
				}
				b.early = fmt.Errorf("--busy: a busy loop ended before the run (%v): does this program call loadtest.BusyLoop first?", err)
			}
		}()
	}
	return b, nil
}

// stop ends the busy loops (their standard input closes) and returns the
// CPU time they used, and an error if one ended before it was stopped.
func (b *busyLoops) stop() (time.Duration, error) {
	b.mu.Lock()
	b.done = true
	b.mu.Unlock()
	for _, p := range b.pipes {
		p.Close()
	}
	stopped := make(chan struct{})
	go func() {
		b.wg.Wait()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(5 * time.Second): // it does not read its input: kill it
		for _, c := range b.cmds {
			c.Process.Kill()
		}
		<-stopped
	}
	var cpu time.Duration
	for _, c := range b.cmds {
		if ps := c.ProcessState; ps != nil {
			cpu += ps.UserTime() + ps.SystemTime()
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return cpu, b.early
}
