package player

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"alak/gtp"
	"alak/rules"
)

// TestMain lets the test binary serve as the external engine of the GTP
// player's tests: with ALAK_TEST_GTP set it runs alak's own GTP engine
// (greedy) on standard input and output instead of the tests. With
// ALAK_TEST_GTP=plain it pretends not to know alak-rules, and with
// ALAK_TEST_GTP_LOG it writes every command it receives to that file.
func TestMain(m *testing.M) {
	if mode := os.Getenv("ALAK_TEST_GTP"); mode != "" {
		os.Exit(serveGTP(mode, os.Getenv("ALAK_TEST_GTP_LOG")))
	}
	os.Exit(m.Run())
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
			fmt.Fprintln(pw, line)
		}
		pw.Close()
	}()
	if err := e.Run(context.Background(), pr, os.Stdout); err != nil {
		return 1
	}
	return 0
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
