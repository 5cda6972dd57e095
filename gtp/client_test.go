package gtp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// setEngineEnv makes the next engine started be the test binary as a fake
// engine in the given mode (see fakeEngine). Under -race it also spares each
// child the race detector's one-second sleep at exit.
func setEngineEnv(t *testing.T, mode string) {
	t.Helper()
	t.Setenv("GTP_TEST_ENGINE", mode)
	t.Setenv("GORACE", "atexit_sleep_ms=0")
}

// startFake starts a fake engine in the given mode and closes it when the
// test ends.
func startFake(t *testing.T, mode string) *Client {
	t.Helper()
	setEngineEnv(t, mode)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Start(ctx, os.Args[0])
	if err != nil {
		t.Fatalf("Start(fake %q): %v", mode, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// The expected texts are what fakeEngine is scripted to answer; the client
// must strip "=", the id and the separating space, and keep inner lines (GTP
// v2 section 2.11: a response is "=[id] result" ended by an empty line).
func TestClientCommand(t *testing.T) {
	c := startFake(t, "")
	cases := []struct {
		name string
		cmd  string
		args []string
		want string
	}{
		{"version", "protocol_version", nil, "2"},
		{"args joined by spaces", "echo", []string{"b", "C1"}, "b C1"},
		{"empty response", "echo", nil, ""},
		{"multi-line response", "lines", nil, "one\ntwo\nthree"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Command(context.Background(), tc.cmd, tc.args...)
			if err != nil {
				t.Fatalf("Command(%q): %v", tc.cmd, err)
			}
			if got != tc.want {
				t.Errorf("Command(%q) = %q, want %q", tc.cmd, got, tc.want)
			}
		})
	}
}

func TestClientFailure(t *testing.T) {
	c := startFake(t, "")
	_, err := c.Command(context.Background(), "fail")
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("Command(fail) error = %v, want a *Failure", err)
	}
	if f.Message != "asked to fail" || f.Command != "fail" {
		t.Errorf("Failure = %+v, want command fail and message %q", f, "asked to fail")
	}
	// The client is still in step after a failure.
	if got, err := c.Command(context.Background(), "echo", "after"); err != nil || got != "after" {
		t.Errorf("echo after a failure = %q, %v; want %q", got, err, "after")
	}
}

func TestClientRejectsBadCommands(t *testing.T) {
	c := startFake(t, "")
	for _, tc := range []struct {
		name string
		cmd  string
		args []string
	}{
		{"empty", "", nil},
		{"newline in an argument", "echo", []string{"a\nquit"}},
		{"carriage return", "echo\r", nil},
		{"comment sign", "echo", []string{"#x"}},
		{"control character", "echo", []string{"a\x00b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := c.Command(context.Background(), tc.cmd, tc.args...); err == nil || !strings.Contains(err.Error(), "one line") {
				t.Errorf("Command(%q, %q) error = %v, want one explaining a command is one line", tc.cmd, tc.args, err)
			}
		})
	}
	// Nothing was sent: the next response still belongs to the next command.
	if got, err := c.Command(context.Background(), "echo", "ok"); err != nil || got != "ok" {
		t.Errorf("echo after rejected commands = %q, %v; want ok", got, err)
	}
}

func TestClientContextAbandonsOnlyThatCommand(t *testing.T) {
	c := startFake(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Command(ctx, "sleep", "1000"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Command(sleep 1000) with a 50ms deadline: error %v, want context.DeadlineExceeded", err)
	}
	// The late "slept" response must be discarded, not returned for echo.
	if got, err := c.Command(context.Background(), "echo", "next"); err != nil || got != "next" {
		t.Errorf("echo after an abandoned command = %q, %v; want %q", got, err, "next")
	}
}

func TestClientConcurrentCommands(t *testing.T) {
	c := startFake(t, "")
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := fmt.Sprint("w", i)
			got, err := c.Command(context.Background(), "echo", want)
			if err != nil || got != want {
				errs <- fmt.Errorf("echo %s = %q, %v", want, got, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestClientIDs(t *testing.T) {
	t.Run("engine without ids is accepted", func(t *testing.T) {
		c := startFake(t, "noid")
		if got, err := c.Command(context.Background(), "echo", "x"); err != nil || got != "x" {
			t.Errorf("echo x = %q, %v; want x", got, err)
		}
	})
	t.Run("wrong id is a protocol error", func(t *testing.T) {
		setEngineEnv(t, "badid")
		_, err := Start(context.Background(), os.Args[0])
		if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "id") {
			t.Errorf("Start(badid engine) error = %v, want ErrProtocol about the id", err)
		}
	})
}

func TestClientGarbledResponse(t *testing.T) {
	c := startFake(t, "")
	_, err := c.Command(context.Background(), "garble")
	if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), `"oops"`) {
		t.Fatalf("Command(garble) error = %v, want ErrProtocol quoting the line", err)
	}
	// Out of step with the engine, the client refuses further commands at
	// once rather than waiting for a response that may never match.
	if _, err2 := c.Command(context.Background(), "echo"); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("Command after a garbled response: %v, want the same error %v", err2, err)
	}
}

func TestClientEngineCrash(t *testing.T) {
	c := startFake(t, "")
	_, err := c.Command(context.Background(), "crash")
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("Command(crash) error = %v, want ErrClosed", err)
	}
	for _, want := range []string{"exited", "exit status 3", "boom"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Command(crash) error %q does not mention %q", err, want)
		}
	}
	if _, err := c.Command(context.Background(), "echo"); !errors.Is(err, ErrClosed) {
		t.Errorf("Command after the crash: error %v, want ErrClosed", err)
	}
}

func TestClientStartFailures(t *testing.T) {
	t.Run("no such program", func(t *testing.T) {
		_, err := Start(context.Background(), "/nonexistent/engine")
		if err == nil || !strings.Contains(err.Error(), "/nonexistent/engine") {
			t.Errorf("Start(/nonexistent/engine) error = %v, want one naming the program", err)
		}
	})
	t.Run("not a GTP engine", func(t *testing.T) {
		setEngineEnv(t, "chatty")
		_, err := Start(context.Background(), os.Args[0])
		if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "not a GTP engine") {
			t.Errorf("Start(chatty) error = %v, want ErrProtocol quoting the line", err)
		}
	})
	t.Run("silent engine", func(t *testing.T) {
		setEngineEnv(t, "silent")
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := Start(ctx, os.Args[0])
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Start(silent) error = %v, want context.DeadlineExceeded", err)
		}
	})
}

func TestClientClose(t *testing.T) {
	t.Run("engine quits", func(t *testing.T) {
		c := startFake(t, "")
		if err := c.Close(); err != nil {
			t.Errorf("Close = %v, want nil", err)
		}
		if err := c.Close(); err != nil {
			t.Errorf("second Close = %v, want nil", err)
		}
		if _, err := c.Command(context.Background(), "echo"); !errors.Is(err, ErrClosed) {
			t.Errorf("Command after Close: %v, want ErrClosed", err)
		}
	})
	t.Run("engine ignores quit and is killed", func(t *testing.T) {
		c := startFake(t, "deaf")
		c.quitTimeout = 100 * time.Millisecond
		err := c.Close()
		if err == nil || !strings.Contains(err.Error(), "killed") {
			t.Errorf("Close(deaf engine) = %v, want an error saying it was killed", err)
		}
	})
}

// TestWrapperScriptKilled: an engine run through a shell script that never
// answers is killed with everything it started, so that Start returns (the
// script's own child held the output open, and a match waited for it).
func TestWrapperScriptKilled(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	script := filepath.Join(dir, "engine.sh")
	body := "#!/bin/sh\nsleep 1000 &\necho $! > " + pidFile + "\nwait\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := Start(ctx, script); err == nil {
		t.Fatal("a silent engine started")
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// Killed: gone, or a zombie waiting for a parent that reaps (in a
	// container the first process may not). A SIGKILL takes effect at once
	// but the process may still be seen running for a moment: look again
	// for up to 10 s.
	state := func() string {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return "gone"
		}
		// The state follows the command name in parentheses.
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 {
			if f := strings.Fields(string(stat)[i+1:]); len(f) > 0 {
				return f[0]
			}
		}
		return "?"
	}
	deadline := time.Now().Add(10 * time.Second)
	for st := state(); st != "gone" && st != "Z" && st != "X"; st = state() {
		if time.Now().After(deadline) {
			t.Errorf("the script's child %d is still running: state %s", pid, st)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}
