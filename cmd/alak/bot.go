package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"alak/bot"
)

func init() {
	register(command{name: "bot", summary: "keep an engine playing on a play server, through a bot account", run: botRun})
}

const botUsage = `usage: alak bot --url URL --token TOKEN --engine SPEC [--rules PATTERN,...] [--max-games N] [--json]
             [--log-level info]
Keeps an engine playing on an alak play server as a bot account: it
accepts the challenges addressed to the account whose rules the engine
can play (and --rules matches), declines the others with a reason, plays
several games at once, and reconnects after a lost connection or a server
restart, resuming every game. SPEC is a built-in player (mcts, perfect,
level:5, mcts:time=500ms) or an external engine "gtp:COMMAND ARGS" (one
process per game; "gtp:setup=10s genmove=30s COMMAND" sets its time
limits, as for alak match). The token may come from $ALAK_BOT_TOKEN
instead of --token (the command line is visible to other users). SIGTERM
or Ctrl-C stops accepting and leaves the games to their clocks. --json
prints a line per finished game on standard output; logs go to standard
error. docs/bots.md describes it.`

func botRun(e *env, args []string) int {
	fs := newFlagSet(e, "bot", botUsage)
	url := fs.String("url", "", "the server, such as http://localhost:8080")
	token := fs.String("token", "", "a bearer token of the bot account (POST /api/tokens); default $ALAK_BOT_TOKEN")
	engine := fs.String("engine", "", `the engine: mcts, perfect, level:N, or "gtp:COMMAND ARGS"`)
	rulesPat := fs.String("rules", "", "accept only these rules: patterns with * and ?, comma-separated, matched against the rules string or its preset (alak, golf*, alak size=*)")
	maxGames := fs.Int("max-games", 4, "games played at once; challenges beyond them are declined")
	asJSON := fs.Bool("json", false, "print a JSON line per finished game")
	level := fs.String("log-level", "info", "log level: debug, info, warn, error")
	seed := fs.Uint64("seed", 1, "seed of the built-in players")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if len(words) > 0 {
		return fail(e, "bot", fmt.Errorf("unexpected argument %q: the bot takes flags only (quote a gtp: engine's command with its arguments)", words[0]))
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return fail(e, "bot", fmt.Errorf("--log-level %q: debug, info, warn or error", *level))
	}
	if *maxGames < 1 {
		return fail(e, "bot", fmt.Errorf("--max-games %d: play at least one game at once", *maxGames))
	}
	if *token == "" {
		*token = os.Getenv("ALAK_BOT_TOKEN")
	}
	if _, err := bot.NewClient(*url, *token); err != nil { // before an engine is started
		return fail(e, "bot", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	eng, err := bot.NewEngine(ctx, *engine)
	if err != nil {
		return fail(e, "bot", err)
	}
	var mu sync.Mutex
	cfg := bot.Config{URL: *url, Token: *token, Engine: eng, Rules: *rulesPat, MaxGames: *maxGames, Seed: *seed,
		Logger: slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: lv}))}
	if *asJSON {
		cfg.Result = func(r bot.Result) {
			b, _ := json.Marshal(r)
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintln(e.stdout, string(b))
		}
	}
	b, err := bot.New(cfg)
	if err != nil {
		return fail(e, "bot", err)
	}
	if err := b.Run(ctx); err != nil {
		return fail(e, "bot", err)
	}
	return 0
}
