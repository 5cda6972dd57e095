package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrClosed is returned by Command after Close, or once the engine has exited.
var ErrClosed = errors.New("gtp: the engine is closed")

// ErrProtocol is wrapped by errors about output that is not a GTP response.
var ErrProtocol = errors.New("gtp: protocol error")

// Failure is a failure response from an engine: "? message".
type Failure struct {
	Command string // the command as sent, without its id
	Message string // the text after "?"
}

func (f *Failure) Error() string {
	return fmt.Sprintf("gtp: engine refused %q: %s", f.Command, f.Message)
}

// QuitTimeout is how long Close waits for an engine to exit after quit
// before it kills the process.
const QuitTimeout = 3 * time.Second

// Client speaks GTP to an engine running as a subprocess. Its methods are
// safe for concurrent use; commands are sent one at a time.
type Client struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *tailWriter

	mu          sync.Mutex // serialises commands and Close
	id          int        // the id of the last command sent
	skip        int        // responses still owed to commands abandoned by their context
	closed      bool
	broken      error // set once the engine wrote something that is not a response
	quitTimeout time.Duration

	resp   chan response // responses read from the engine, in order
	stop   chan struct{} // closed by Close: the reader stops delivering
	exited chan struct{} // closed when the engine's output ended and it was waited for
	werr   error         // the process's exit status, set before exited is closed
}

type response struct {
	id   int // -1 when the engine gave none
	ok   bool
	text string
	err  error // a read error or a line that is not a response
}

// Start runs command with args as a GTP engine and checks that it answers
// protocol_version within ctx. The engine lives until Close, whatever
// becomes of ctx. The last few kilobytes the engine writes on its standard
// error are kept and quoted when it fails.
func Start(ctx context.Context, command string, args ...string) (*Client, error) {
	cmd := exec.Command(command, args...)
	ownGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("gtp: starting %s: %w", command, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("gtp: starting %s: %w", command, err)
	}
	c := &Client{
		cmd:    cmd,
		stdin:  stdin,
		stderr: &tailWriter{max: 4096},
		resp:   make(chan response),
		stop:   make(chan struct{}),
		exited: make(chan struct{}),

		quitTimeout: QuitTimeout,
	}
	cmd.Stderr = c.stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("gtp: starting %s: %w", command, err)
	}
	go c.read(stdout)
	if _, err := c.Command(ctx, "protocol_version"); err != nil {
		var f *Failure
		if !errors.As(err, &f) { // a refusal still proves it speaks GTP
			c.Close()
			return nil, fmt.Errorf("gtp: %s does not answer as a GTP engine: %w", command, err)
		}
	}
	return c, nil
}

// read delivers the engine's responses until its output ends, then waits
// for the process.
func (c *Client) read(stdout io.Reader) {
	defer close(c.exited)
	defer close(c.resp)
	br := bufio.NewReader(stdout)
	for {
		r, err := readResponse(br)
		if err == io.EOF {
			break
		}
		if err != nil {
			r.err = err
		}
		select {
		case c.resp <- r:
		case <-c.stop:
			io.Copy(io.Discard, br)
			c.werr = c.cmd.Wait()
			return
		}
		if err != nil {
			io.Copy(io.Discard, br)
			break
		}
	}
	c.werr = c.cmd.Wait()
}

// readResponse reads one response: a line starting with = or ? (blank lines
// before it are skipped), then every line up to an empty one.
func readResponse(br *bufio.Reader) (response, error) {
	r := response{id: -1}
	var lines []string
	for {
		line, err := br.ReadString('\n')
		if err != nil && (line == "" || err != io.EOF) {
			if len(lines) > 0 { // the engine ended a response without its blank line
				break
			}
			return r, err
		}
		line = strings.TrimRight(line, "\r\n")
		if len(lines) == 0 {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if line[0] != '=' && line[0] != '?' {
				return r, fmt.Errorf("%w: the engine wrote %q where a response starting with = or ? was due", ErrProtocol, line)
			}
		} else if line == "" {
			break
		}
		lines = append(lines, line)
		if err == io.EOF {
			break
		}
	}
	first := lines[0]
	r.ok = first[0] == '='
	rest := first[1:]
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits > 0 {
		if n, err := strconv.Atoi(rest[:digits]); err == nil {
			r.id = n
		}
		rest = rest[digits:]
	}
	lines[0] = strings.TrimLeft(rest, " \t")
	r.text = strings.TrimRight(strings.Join(lines, "\n"), " \t\n")
	return r, nil
}

// Command sends one command with its arguments and returns the text of the
// success response (after "=" and the id), lines joined by "\n". A failure
// response is returned as a *Failure error. If ctx ends first, Command
// returns ctx.Err() and the response, when it comes, is discarded.
func (c *Client) Command(ctx context.Context, cmd string, args ...string) (string, error) {
	line := strings.Join(append([]string{cmd}, args...), " ")
	if strings.TrimSpace(cmd) == "" || strings.ContainsAny(line, "\r\n#") || strings.ContainsFunc(line, isControl) {
		return "", fmt.Errorf("gtp: command %q: a command is a name and arguments on one line, without control characters or #", line)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return "", ErrClosed
	}
	if c.broken != nil {
		return "", c.broken
	}
	c.id++
	id := c.id
	if _, err := fmt.Fprintf(c.stdin, "%d %s\n", id, line); err != nil {
		return "", c.deadErr(line, err)
	}
	for {
		select {
		case <-ctx.Done():
			c.skip++
			return "", ctx.Err()
		case r, ok := <-c.resp:
			if !ok {
				return "", c.deadErr(line, nil)
			}
			if r.err != nil {
				c.broken = fmt.Errorf("gtp: %q: %w%s", line, r.err, c.stderrNote())
				return "", c.broken
			}
			if c.skip > 0 {
				c.skip--
				continue
			}
			if r.id >= 0 && r.id != id {
				c.broken = fmt.Errorf("%w: %q was sent with id %d but the response has id %d", ErrProtocol, line, id, r.id)
				return "", c.broken
			}
			if !r.ok {
				return "", &Failure{Command: line, Message: r.text}
			}
			return r.text, nil
		}
	}
}

func isControl(r rune) bool { return r < 32 && r != '\t' || r == 127 }

// deadErr describes an engine that stopped answering.
func (c *Client) deadErr(line string, err error) error {
	msg := "the engine stopped answering"
	timer := time.NewTimer(c.quitTimeout)
	defer timer.Stop()
	select {
	case <-c.exited:
		msg = "the engine exited"
		if c.werr != nil {
			msg += " (" + c.werr.Error() + ")"
		}
	case <-timer.C:
	}
	if err != nil && !errors.Is(err, io.ErrClosedPipe) {
		msg += ": " + err.Error()
	}
	return fmt.Errorf("gtp: %q: %s%s: %w", line, msg, c.stderrNote(), ErrClosed)
}

func (c *Client) stderrNote() string {
	if s := strings.TrimSpace(c.stderr.String()); s != "" {
		return "; its standard error ends: " + s
	}
	return ""
}

// Stderr returns the last few kilobytes the engine wrote on standard error.
func (c *Client) Stderr() string { return c.stderr.String() }

// Close sends quit, closes the engine's input and waits for it to exit,
// killing it after QuitTimeout. It returns nil when the engine exited of its
// own accord with status 0. Calling Close again does nothing.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	close(c.stop)
	fmt.Fprintf(c.stdin, "quit\n")
	c.stdin.Close()
	timer := time.NewTimer(c.quitTimeout)
	defer timer.Stop()
	select {
	case <-c.exited:
		if c.werr != nil {
			return fmt.Errorf("gtp: the engine exited with %v%s", c.werr, c.stderrNote())
		}
		return nil
	case <-timer.C:
		kill(c.cmd)
		<-c.exited
		return fmt.Errorf("gtp: the engine did not exit within %v of quit and was killed", c.quitTimeout)
	}
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-w.max:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}
