package player

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"alak/gtp"
	"alak/rules"
)

// TestMain lets the test binary serve as the external engine of the GTP
// player's tests: with ALAK_TEST_GTP set it runs alak's own GTP engine
// (greedy) on standard input and output instead of the tests. With
// ALAK_TEST_GTP=plain it pretends not to know alak-rules, and with
// ALAK_TEST_GTP_LOG it writes every command it receives to that file.
// ALAK_TEST_GTP=mute and stall are the stuck engines of TestGTPTimeout.
func TestMain(m *testing.M) {
	switch mode := os.Getenv("ALAK_TEST_GTP"); mode {
	case "":
	case "mute", "stall":
		os.Exit(stuckGTP(mode, os.Getenv("ALAK_TEST_GTP_LOG")))
	default:
		os.Exit(serveGTP(mode, os.Getenv("ALAK_TEST_GTP_LOG")))
	}
	os.Exit(m.Run())
}

// stuckGTP is an engine that does not answer. It appends its process id
// to logPath. mute answers nothing and stays when its input ends (it must
// be killed); stall answers every command with an empty success except
// genmove, which it never answers, and exits when its input ends.
func stuckGTP(mode, logPath string) int {
	f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return 1
	}
	fmt.Fprintln(f, os.Getpid())
	f.Close()
	if mode == "mute" {
		time.Sleep(time.Hour) // until killed
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		id, cmd, _ := strings.Cut(sc.Text(), " ")
		if !strings.HasPrefix(cmd, "genmove") {
			fmt.Printf("=%s\n\n", id)
		}
	}
	return 0
}

func serveGTP(mode, logPath string) int {
	e, err := gtp.NewEngine(rules.MustPreset("alak"), NewGreedy(1))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var log io.Writer = io.Discard
	if logPath != "" {
		f, err := os.Create(logPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		log = f
	}
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(log, line)
			f := strings.Fields(line)
			if mode == "plain" && len(f) == 3 && f[1] == "known_command" && f[2] == "alak-rules" {
				fmt.Fprintf(os.Stdout, "=%s false\n\n", f[0])
				continue
			}
			// clock: an engine that knows time_left (alak's own does not).
			if mode == "clock" && len(f) == 3 && f[1] == "known_command" && f[2] == "time_left" {
				fmt.Fprintf(os.Stdout, "=%s true\n\n", f[0])
				continue
			}
			if mode == "clock" && len(f) > 1 && f[1] == "time_left" {
				fmt.Fprintf(os.Stdout, "=%s\n\n", f[0])
				continue
			}
			fmt.Fprintln(pw, line)
		}
		pw.Close()
	}()
	if err := e.Run(context.Background(), pr, os.Stdout); err != nil {
		return 1
	}
	return 0
}

// noExitPause spares the engine processes (this test binary, built with
// the race detector under -race) the race runtime's second of sleep at
// exit (GORACE atexit_sleep_ms, 1000 by default): each engine's end would
// cost the test a second of waiting.
func noExitPause(t *testing.T) {
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
}

// TestGTPPlayer plays games against random with the test binary as the
// external engine, once through alak-rules and once through plain GTP
// (rectangular_boardsize), and checks the commands it was sent.
func TestGTPPlayer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode, rules string
		want        []string // commands the engine must have received
		never       string
	}{
		{"alak", "alak size=9", []string{"alak-rules alak size=9", "clear_board", "genmove"}, "rectangular_boardsize"},
		{"plain", "alak size=9", []string{"rectangular_boardsize 9 1", "komi 0", "clear_board", "genmove"}, "alak-rules alak"},
		// A plain engine keeps its own rules (here alak) and only learns the
		// board, so the game must be played under those rules.
		{"plain", "alak size=5x5", []string{"boardsize 5", "clear_board", "play b", "play w"}, "alak-rules alak"},
		{"alak", "golf", []string{"alak-rules golf", "genmove"}, "boardsize"},
	} {
		t.Run(tc.mode+"/"+tc.rules, func(t *testing.T) {
			logPath := t.TempDir() + "/commands"
			t.Setenv("ALAK_TEST_GTP", tc.mode)
			t.Setenv("ALAK_TEST_GTP_LOG", logPath)
			noExitPause(t)
			p, err := New("gtp:"+exe+" -test.run=^$", 1)
			if err != nil {
				t.Fatal(err)
			}
			defer p.(*GTP).Close()
			r := mustRules(t, tc.rules)
			for side := range 2 {
				players := [2]Player{p, NewRandom(uint64(side))}
				if side == 1 {
					players = [2]Player{NewRandom(uint64(side)), p}
				}
				g := playGame(t, r, players[0], players[1], 300)
				if !g.Over() && g.Len() < 300 {
					t.Fatalf("game stopped at move %d", g.Len())
				}
			}
			if err := p.(*GTP).Close(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(logPath)
			if err != nil {
				t.Fatal(err)
			}
			log := string(data)
			for _, w := range tc.want {
				if !strings.Contains(log, w) {
					t.Errorf("the engine never received %q; it received:\n%s", w, log)
				}
			}
			if strings.Contains(log, tc.never) {
				t.Errorf("the engine received %q:\n%s", tc.never, log)
			}
		})
	}
}

// TestGTPTimeLeft checks that the clocks given to TimeLeft reach an engine
// that knows time_left before each genmove, in whole seconds, and that an
// engine that does not know it is never sent it.
func TestGTPTimeLeft(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"clock", "alak"} {
		t.Run(mode, func(t *testing.T) {
			logPath := t.TempDir() + "/commands"
			t.Setenv("ALAK_TEST_GTP", mode)
			t.Setenv("ALAK_TEST_GTP_LOG", logPath)
			p, err := New("gtp:"+exe+" -test.run=^$", 1)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			g, err := rules.NewGame(mustRules(t, "alak size=7"))
			if err != nil {
				t.Fatal(err)
			}
			p.(*GTP).TimeLeft(12500*time.Millisecond, 7*time.Second)
			if _, err := p.Move(context.Background(), g); err != nil {
				t.Fatal(err)
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(logPath)
			if err != nil {
				t.Fatal(err)
			}
			log := string(data)
			// 12.5 s is 12 whole seconds: GTP's time_left takes an integer.
			sent := strings.Contains(log, "time_left b 12 0\n") && strings.Contains(log, "time_left w 7 0\n") &&
				strings.Index(log, "time_left w") < strings.Index(log, "genmove")
			if mode == "clock" && !sent {
				t.Errorf("the engine that knows time_left was not told the clocks before genmove:\n%s", log)
			}
			if mode == "alak" && strings.Contains(log, "time_left b") {
				t.Errorf("an engine that does not know time_left was sent it:\n%s", log)
			}
		})
	}
}

func TestGTPSpecErrors(t *testing.T) {
	if _, err := New("gtp:", 1); err == nil {
		t.Error("gtp: without a command was accepted")
	}
	p, err := New("gtp:/nonexistent/engine --x", 1)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(mustRules(t, "alak"))
	if _, err := p.Move(context.Background(), g); err == nil {
		t.Error("a missing engine played a move")
	}
	if p.Name() != "gtp:/nonexistent/engine --x" {
		t.Errorf("name %q", p.Name())
	}
}

// TestGTPTimeout checks that a command the engine does not answer within
// its limit fails with an *EngineTimeoutError naming the command and the
// limit, that the engine's process is gone when Move returns, and that the
// next move starts a new engine.
func TestGTPTimeout(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rules.NewGame(mustRules(t, "alak size=5"))
	for _, tc := range []struct {
		name, mode, spec string
		ctx              time.Duration // the context's deadline; 0: none
		command          string        // the command not answered; "" when ctx ends first
		moves            int           // moves asked for, each with a new engine
	}{
		// mute stays after quit: Close kills it after gtp.QuitTimeout.
		{"protocol_version", "mute", "setup=200ms", 0, "protocol_version", 1},
		{"genmove", "stall", "setup=5s genmove=200ms", 0, "genmove", 2},
		{"context", "stall", "genmove=1m", 200 * time.Millisecond, "", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pids := t.TempDir() + "/pids"
			t.Setenv("ALAK_TEST_GTP", tc.mode)
			t.Setenv("ALAK_TEST_GTP_LOG", pids)
			noExitPause(t)
			p, err := New("gtp:"+tc.spec+" "+exe+" -test.run=^$", 1)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			for try := 1; try <= tc.moves; try++ {
				ctx := context.Background()
				if tc.ctx > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.ctx)
					defer cancel()
				}
				_, err := p.Move(ctx, g)
				var te *EngineTimeoutError
				switch {
				case tc.command == "":
					if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrEngineTimeout) {
						t.Fatalf("move %d: error %v, want the context's deadline", try, err)
					}
				case !errors.As(err, &te) || te.Command != tc.command || !errors.Is(err, ErrEngineTimeout):
					t.Fatalf("move %d: error %v, want an *EngineTimeoutError for %s", try, err, tc.command)
				case !strings.Contains(err.Error(), "did not answer "+tc.command+" within 200ms"):
					t.Errorf("move %d: message %q", try, err)
				}
				started := gtpPids(t, pids)
				if len(started) != try {
					t.Fatalf("move %d: %d engines started, want %d", try, len(started), try)
				}
				// Close waited for the process: it is gone, not an orphan.
				if err := syscall.Kill(started[try-1], 0); !errors.Is(err, syscall.ESRCH) {
					t.Errorf("move %d: the engine %d is still there after the error (%v)", try, started[try-1], err)
				}
			}
		})
	}
}

// gtpPids reads the process ids the stuck engines wrote.
func gtpPids(t *testing.T, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, n)
	}
	return pids
}

func TestGTPSpecLimits(t *testing.T) {
	for _, tc := range []struct {
		spec            string
		setup, genmove  time.Duration
		name, wantError string
	}{
		{"gtp:engine -x", DefaultGTPSetup, DefaultGTPGenmove, "gtp:engine -x", ""},
		{"gtp:setup=1s genmove=2m  engine  -x", time.Second, 2 * time.Minute, "gtp:setup=1s genmove=2m engine -x", ""},
		{"gtp:GENMOVE=500ms engine a=b", DefaultGTPSetup, 500 * time.Millisecond, "gtp:GENMOVE=500ms engine a=b", ""},
		{"gtp:/usr/bin/env FOO=1 engine", DefaultGTPSetup, DefaultGTPGenmove, "gtp:/usr/bin/env FOO=1 engine", ""},
		{"gtp:timeout=1s engine", 0, 0, "", "unknown option \"timeout\""},
		{"gtp:setup=-1s engine", 0, 0, "", "a positive duration"},
		{"gtp:genmove=soon engine", 0, 0, "", "a positive duration"},
		{"gtp:setup=1s", 0, 0, "", "name the engine's command"},
	} {
		p, err := New(tc.spec, 1)
		if tc.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantError) {
				t.Errorf("%q: error %v, want one saying %s", tc.spec, err, tc.wantError)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.spec, err)
			continue
		}
		setup, genmove := p.(*GTP).Limits()
		if setup != tc.setup || genmove != tc.genmove || p.Name() != tc.name {
			t.Errorf("%q: limits %v and %v, name %q; want %v, %v, %q", tc.spec, setup, genmove, p.Name(), tc.setup, tc.genmove, tc.name)
		}
	}
}
