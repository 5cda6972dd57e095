package main

import (
	"strings"
	"testing"
)

// TestBotUsageErrors: alak bot refuses what it cannot run with a sentence
// naming the flag and what is accepted, exit status 2, before it connects
// anywhere. (bot/'s tests play games through the bridge.)
func TestBotUsageErrors(t *testing.T) {
	t.Setenv("ALAK_BOT_TOKEN", "")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no engine", []string{"--url", "http://127.0.0.1:1", "--token", "t"}, "--engine: name the engine"},
		{"unknown engine", []string{"--url", "http://127.0.0.1:1", "--token", "t", "--engine", "deep-thought"}, `unknown player "deep-thought"`},
		{"bad url", []string{"--url", "ftp://example.org", "--token", "t", "--engine", "mcts"}, "an http or https URL"},
		{"no token", []string{"--url", "http://127.0.0.1:1", "--engine", "mcts"}, "--token: a bearer token is needed"},
		{"no games", []string{"--url", "http://127.0.0.1:1", "--token", "t", "--engine", "mcts", "--max-games", "0"}, "--max-games 0"},
		{"bad pattern", []string{"--url", "http://127.0.0.1:1", "--token", "t", "--engine", "mcts", "--rules", "alak size=[7"}, `--rules "alak size=[7"`},
		{"stray word", []string{"--url", "http://127.0.0.1:1", "--token", "t", "--engine", "gtp:gnugo", "--mode", "gtp"}, "flag provided but not defined"},
		{"gtp engine missing", []string{"--url", "http://127.0.0.1:1", "--token", "t", "--engine", "gtp:/nonexistent/engine"}, "/nonexistent/engine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runWith(t, "", -1, append([]string{"bot"}, tc.args...)...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("alak bot %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, stderr, tc.want)
			}
		})
	}
}
