package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"alak/rules"
	"alak/wire"
)

// Config is a bridge: the server, the account's token, the engine and
// which challenges it takes.
type Config struct {
	URL    string // the server, http://host:port
	Token  string // a bearer token of the bot's account
	Engine *Engine
	// Rules are patterns of the rules the bot accepts, separated by commas:
	// each is matched (path.Match's * ? [...]) against the whole rules
	// string as the server writes it ("alak size=11") and against its
	// preset alone. Empty: every rule set the engine can play.
	Rules string
	// MaxGames is how many games the bot plays at once (default 4):
	// a challenge beyond them is declined.
	MaxGames int
	Logger   *slog.Logger // default slog.Default
	// Result, if set, is called once with each game the bridge saw end.
	Result func(Result)
	// Seed seeds the built-in players (each game its own seed from it and
	// the game's id).
	Seed uint64
	// Retry is the first wait before reconnecting after a lost connection
	// (default 500ms), doubled at each failure up to MaxRetry (default 15s).
	Retry, MaxRetry time.Duration
	// Idle is how long an event stream may stay silent before it is taken
	// for lost and opened again (default 45s: the server sends a comment
	// every 15 s).
	Idle time.Duration
}

// Result is a game the bridge played, once it is over: the line --json
// prints.
type Result struct {
	Game     string  `json:"game"`
	Rules    string  `json:"rules"`
	Color    string  `json:"color"` // the bot's seat, x or o
	Opponent string  `json:"opponent"`
	State    string  `json:"state"`            // finished, aborted
	Result   string  `json:"result,omitempty"` // SGF's form: B+3, W+T, 0, Void
	Winner   string  `json:"winner,omitempty"` // x, o, draw, none
	Reason   string  `json:"reason,omitempty"` // time, resignation, no legal move, ...
	Score    float64 `json:"score"`            // for the bot: 1 a win, 0.5 a draw, 0 otherwise
	Moves    int     `json:"moves"`
	Rated    bool    `json:"rated"`
}

// Bridge keeps an engine playing on a server: it answers the challenges
// addressed to its account and plays every game the account has under
// way, each from its own event stream.
type Bridge struct {
	cfg Config
	api *Client
	log *slog.Logger
	me  wire.Me

	mu       sync.Mutex
	running  map[string]bool // games being played
	joining  int             // challenges being accepted
	answered map[string]bool // challenges accepted or declined
	// ended are the games seen to end: a game_start replayed late (sent
	// while the game was under way) does not play or report one again.
	ended map[string]bool
	wg    sync.WaitGroup
}

// New checks cfg and returns its bridge.
func New(cfg Config) (*Bridge, error) {
	api, err := NewClient(cfg.URL, cfg.Token)
	if err != nil {
		return nil, err
	}
	if cfg.Engine == nil {
		return nil, errors.New("--engine: name the engine: mcts, perfect, level:N (1 to 9), or gtp:COMMAND ARGS")
	}
	if cfg.MaxGames == 0 {
		cfg.MaxGames = 4
	}
	if cfg.MaxGames < 1 || cfg.MaxGames > 1000 {
		return nil, fmt.Errorf("--max-games %d: from 1 to 1000 games at once are accepted", cfg.MaxGames)
	}
	for _, p := range splitPatterns(cfg.Rules) {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("--rules %q: pattern %q: %v; a pattern is a rules string with * and ? (alak size=*, golf*)", cfg.Rules, p, err)
		}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Retry <= 0 {
		cfg.Retry = 500 * time.Millisecond
	}
	if cfg.MaxRetry <= 0 {
		cfg.MaxRetry = 15 * time.Second
	}
	if cfg.Idle <= 0 {
		cfg.Idle = 45 * time.Second
	}
	return &Bridge{cfg: cfg, api: api, log: cfg.Logger, running: map[string]bool{}, answered: map[string]bool{}, ended: map[string]bool{}}, nil
}

func splitPatterns(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Run plays until ctx ends (SIGTERM): it then stops accepting
// challenges, stops its engines and returns, leaving the games under way
// to their clocks (a bridge started again resumes them). It returns an
// error only when the server refuses the token.
func (b *Bridge) Run(ctx context.Context) error {
	defer b.wg.Wait()
	wait := b.cfg.Retry
	for {
		me, err := b.api.Me(ctx)
		if err == nil {
			b.me = me
			break
		}
		var ae *APIError
		if errors.As(err, &ae) && ae.Permanent() {
			return fmt.Errorf("signing in with the token: %w", err)
		}
		b.log.Warn("the server does not answer; trying again", "err", err, "wait", wait)
		if !sleep(ctx, wait) {
			return nil
		}
		wait = min(2*wait, b.cfg.MaxRetry)
	}
	b.log.Info("signed in", "name", b.me.Name, "bot", b.me.Bot, "engine", b.cfg.Engine.Spec(), "max_games", b.cfg.MaxGames)
	wait = b.cfg.Retry
	for ctx.Err() == nil {
		// What happened while the bridge was away: games under way and
		// challenges waiting. The event stream replays them too.
		b.resume(ctx)
		connected := false
		err := b.api.Stream(ctx, "/api/me/events", b.cfg.Idle, func(ev Event) error {
			if !connected {
				connected, wait = true, b.cfg.Retry
			}
			b.handle(ctx, ev)
			return nil
		})
		if ctx.Err() != nil {
			break
		}
		var ae *APIError
		switch {
		case errors.As(err, &ae) && ae.Status == http.StatusUnauthorized:
			return fmt.Errorf("the account's event stream: %w", err)
		case errors.As(err, &ae) && ae.Status == http.StatusNotFound:
			// A server without /api/me/events: look for challenges and
			// games every few seconds instead.
			b.log.Warn("the server has no account event stream (GET /api/me/events): polling instead", "every", 2*time.Second)
			wait = 2 * time.Second
		default:
			b.log.Warn("the account's event stream was lost; reconnecting", "err", err, "wait", wait)
		}
		if !sleep(ctx, wait) {
			break
		}
		wait = min(2*wait, b.cfg.MaxRetry)
	}
	b.log.Info("stopping: no more challenges accepted; games under way are left to their clocks")
	return nil
}

// sleep waits d or until ctx ends; it reports whether ctx is still alive.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// resume starts the games under way that are not being played and
// answers the challenges waiting.
func (b *Bridge) resume(ctx context.Context) {
	mine, err := b.api.MyGames(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Warn("listing the account's games", "err", err)
		}
		return
	}
	for _, g := range mine.Games {
		if g.State == "active" && seatOf(g.Players, b.me.Name) != "" {
			b.start(ctx, g.ID)
		}
	}
	for _, g := range mine.Challenges {
		b.consider(ctx, g.ID)
	}
}

// handle is one event of the account's stream.
func (b *Bridge) handle(ctx context.Context, ev Event) {
	if ev.Type == "ready" { // what was pending has been sent: nothing to do
		return
	}
	id := eventGame(ev.Data)
	if id == "" {
		b.log.Debug("an account event without a game", "type", ev.Type)
		return
	}
	switch ev.Type {
	case "challenge":
		b.consider(ctx, id)
	case "game_start":
		b.start(ctx, id)
	case "game_end":
		b.log.Debug("game over", "game", id)
	}
}

// eventGame returns the game an account event is about, "" when its data
// is not a wire.AccountEvent.
func eventGame(data string) string {
	var ev wire.AccountEvent
	if json.Unmarshal([]byte(data), &ev) != nil {
		return ""
	}
	return ev.ID
}

// consider answers a challenge: accepted when the engine can play its
// rules, they match the patterns and a game is free, declined with the
// reason otherwise. Each challenge is answered once.
func (b *Bridge) consider(ctx context.Context, id string) {
	b.mu.Lock()
	if b.answered[id] || b.running[id] || ctx.Err() != nil {
		b.mu.Unlock()
		return
	}
	b.answered[id] = true
	b.mu.Unlock()
	forget := func() { // not answered after all: a later listing tries again
		b.mu.Lock()
		delete(b.answered, id)
		b.mu.Unlock()
	}
	g, err := b.api.Game(ctx, id)
	if err != nil {
		forget()
		if ctx.Err() == nil {
			b.log.Warn("reading a challenge", "game", id, "err", err)
		}
		return
	}
	if g.State != "waiting" || seatOf(g.Players, b.me.Name) != "" {
		return // taken, expired, or the bot's own
	}
	reason := b.refusal(ctx, &g)
	if reason == "" {
		b.mu.Lock()
		if len(b.running)+b.joining >= b.cfg.MaxGames {
			reason = fmt.Sprintf("the bot is busy: it plays at most %s at once; try again later", plural(b.cfg.MaxGames, "game"))
		} else {
			b.joining++
		}
		b.mu.Unlock()
	}
	if reason != "" {
		if err := b.api.Decline(ctx, id, reason); err != nil {
			if codeOf(err) != "not_waiting" {
				forget()
			}
			b.log.Warn("declining a challenge", "game", id, "err", err)
			return
		}
		b.log.Info("challenge declined", "game", id, "rules", g.Rules, "clock", g.Clock.Spec, "reason", reason)
		return
	}
	err = b.api.Join(ctx, id)
	b.mu.Lock()
	b.joining--
	b.mu.Unlock()
	if err != nil {
		var ae *APIError
		if !errors.As(err, &ae) || !ae.Permanent() {
			forget()
		}
		b.log.Warn("accepting a challenge", "game", id, "err", err)
		return
	}
	b.log.Info("challenge accepted", "game", id, "rules", g.Rules, "clock", g.Clock.Spec)
	b.start(ctx, id)
}

// refusal says why the bot does not take a challenge, "" when it does.
func (b *Bridge) refusal(ctx context.Context, g *wire.Game) string {
	r, err := rules.Parse(g.Rules)
	if err != nil {
		return fmt.Sprintf("the bot does not know the rules %q", g.Rules)
	}
	if pats := splitPatterns(b.cfg.Rules); len(pats) > 0 {
		preset, _, _ := strings.Cut(g.Rules, " ")
		ok := false
		for _, p := range pats {
			if m, _ := path.Match(p, g.Rules); m {
				ok = true
			} else if m, _ := path.Match(p, preset); m {
				ok = true
			}
		}
		if !ok {
			return fmt.Sprintf("the bot plays only the rules %s, not %s", strings.Join(pats, ", "), g.Rules)
		}
	}
	start, err := b.start0(ctx, g.ID, r)
	if err != nil {
		return "" // the game's own stream will say; nothing to refuse on
	}
	if err := b.cfg.Engine.Check(r, start); err != nil {
		return err.Error()
	}
	return ""
}

// start0 returns the position a game starts from.
func (b *Bridge) start0(ctx context.Context, id string, r rules.Rules) (rules.Position, error) {
	own, err := rules.NewPosition(r)
	if err != nil {
		return rules.Position{}, err
	}
	diagram, err := b.api.Start(ctx, id)
	if err != nil {
		return rules.Position{}, err
	}
	if diagram == own.String() {
		return own, nil
	}
	// The colour to move at the start: a diagram does not say it. A
	// set-up game's creator chose it; the snapshot of the start gives it.
	g, err := b.api.Game(ctx, id)
	if err != nil {
		return rules.Position{}, err
	}
	toMove := g.ToMove
	if len(g.Moves)%2 == 1 {
		if toMove == "x" {
			toMove = "o"
		} else {
			toMove = "x"
		}
	}
	return rules.ParsePosition(r, diagram+" "+toMove)
}

// start plays game id unless it is being played.
func (b *Bridge) start(ctx context.Context, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.running[id] || b.ended[id] || ctx.Err() != nil {
		return
	}
	b.running[id] = true
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		b.play(ctx, id)
		b.mu.Lock()
		delete(b.running, id)
		b.mu.Unlock()
	}()
}

// plural writes n things: "1 game", "4 games".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
