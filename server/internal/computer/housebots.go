package computer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"alak/player"
	"alak/server/internal/game"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// House bots (alak serve --house-bots): one bot account for each
// of the computer's levels, named for it (alak-beginner ... alak-perfect),
// that takes every challenge addressed to it by name, so that a lone
// visitor always has a rated opponent and the rating scale has fixed
// points. A house bot's seat holds its account (so the game is rated, and
// the seat is shown by the account's name, as a bot) and its level's
// player spec (so the computer's workers play its moves, as in a game
// against the computer: bots.go). It has no password: nobody signs in as
// it. It does not take open challenges in the lobby (they are left to
// people and to the bots their creators allowed).

// houseBotPrefix begins every house bot's name.
const houseBotPrefix = "alak-"

// houseLookEvery is how often the house bots look for challenges they have
// not taken (made while no process with --house-bots served, or left by a
// failed acceptance).
const houseLookEvery = 10 * time.Second

// houseBotName is level n's house bot's name: alak-beginner ...
// alak-perfect.
func houseBotName(n int) string {
	return houseBotPrefix + strings.ToLower(strings.ReplaceAll(player.LevelName(n), " ", "-"))
}

// IsHouseBotName reports whether a name (in lower case) is a house bot's:
// nobody may sign up as one, whether or not this server keeps them.
func IsHouseBotName(lower string) bool {
	for n := 1; n <= player.Levels(); n++ {
		if lower == houseBotName(n) {
			return true
		}
	}
	return false
}

// houseBots is the house bots of a server: their accounts and player specs.
type houseBots struct {
	b     *Bots
	mu    sync.Mutex
	spec  map[int64]string // account id → the level's player spec
	ids   []int64
	names []string // by level, for the home page's form
}

// StartHouseBots makes (or finds) the house bots' accounts and starts
// their look for challenges (Config.Spawn). An account of a house bot's
// name that is not a bot (made before the names were reserved) is left
// alone, and its level has no house bot here. Call it once, before the
// server serves.
func (b *Bots) StartHouseBots(ctx context.Context) error {
	c := b.cfg
	h := &houseBots{b: b, spec: map[int64]string{}}
	for n := 1; n <= player.Levels(); n++ {
		level, err := player.Level(n)
		if err != nil {
			return err
		}
		p, err := player.NewUntrusted(level, 1)
		if err != nil {
			return fmt.Errorf("house bot of level %d (%s): %w", n, level, err)
		}
		spec := p.Name() // canonical, as a game against the computer stores it
		p.Close()
		name := houseBotName(n)
		a, err := c.Accounts.AccountByName(ctx, name)
		if errors.Is(err, store.ErrNotFound) {
			a, err = c.Accounts.CreateAccount(ctx, store.Account{Name: name, Bot: true, Created: c.Now()})
			if errors.Is(err, store.ErrDuplicate) { // another process made it meanwhile
				a, err = c.Accounts.AccountByName(ctx, name)
			}
		}
		if err != nil {
			return fmt.Errorf("house bot %s: %w", name, err)
		}
		if !a.Bot {
			c.Log.Error("a person's account has a house bot's name: that level has no house bot", "name", name, "account", a.ID)
			continue
		}
		h.spec[a.ID] = spec
		h.ids = append(h.ids, a.ID)
		h.names = append(h.names, a.Name)
	}
	b.house = h
	c.Spawn(h.run)
	return nil
}

// HouseBotNames lists the house bots' names by level (none without
// StartHouseBots), for the home page's form.
func (b *Bots) HouseBotNames() []string {
	if b.house == nil {
		return nil
	}
	return b.house.names
}

// HouseBotTop is the strongest house bot's name ("" without them).
func (b *Bots) HouseBotTop() string {
	if names := b.HouseBotNames(); len(names) > 0 {
		return names[len(names)-1]
	}
	return ""
}

// Challenged takes a new challenge when it is addressed to a house bot
// (nothing without them).
func (b *Bots) Challenged(g store.Game) {
	h := b.house
	if h == nil {
		return
	}
	if _, ok := h.specOf(g.Opponent); !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.accept(ctx, g.ID, g.Opponent)
}

func (h *houseBots) specOf(id int64) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	spec, ok := h.spec[id]
	return spec, ok
}

// accept seats the house bot in a challenge addressed to it and starts
// the game; when the bot is to move, the computer's workers are asked
// for its move. A challenge no longer waiting (taken back, expired) is
// left.
func (h *houseBots) accept(ctx context.Context, id string, bot int64) {
	c := h.b.cfg
	spec, _ := h.specOf(bot)
	a, err := c.Accounts.AccountByID(ctx, bot)
	if err != nil {
		c.Log.Error("reading a house bot", "account", bot, "err", err)
		return
	}
	_, err = c.Core.Act(ctx, id, func(st *game.State, now time.Time) (*game.Change, error) {
		row := &st.Row
		if row.State != store.StateWaiting || row.Kind != store.KindNamed || row.Opponent != bot {
			return nil, errNotWaiting
		}
		ch, err := c.SeatAndStart(ctx, st, &a, now)
		if err != nil {
			return nil, err
		}
		if row.Black.AccountID == bot {
			row.Black.Bot = spec
		} else {
			row.White.Bot = spec
		}
		return ch, nil
	})
	if errors.Is(err, errNotWaiting) {
		return
	}
	if err != nil {
		c.Log.Error("a house bot taking a challenge", "game", id, "bot", a.Name, "err", err)
		return
	}
	c.Log.Info("a house bot took a challenge", "game", id, "bot", a.Name)
	if st, err := c.Core.Load(ctx, id); err == nil && st.BotToMove() {
		h.b.Schedule(id, st.Row.Version)
	}
}

// errNotWaiting: the challenge is no longer there to take.
var errNotWaiting = httpx.Errf(wire.Conflict, "not_waiting", "the challenge is no longer waiting")

// run looks for the challenges to the house bots that are not taken, at
// the start and then every houseLookEvery, until the server stops.
func (h *houseBots) run() {
	tick := time.NewTicker(houseLookEvery)
	defer tick.Stop()
	for {
		h.lookOnce()
		select {
		case <-h.b.cfg.Done:
			return
		case <-tick.C:
		}
	}
}

func (h *houseBots) lookOnce() {
	c := h.b.cfg
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, id := range h.ids {
		gs, err := c.Games.Games(ctx, store.Filter{States: []string{store.StateWaiting}, Kind: store.KindNamed, Opponent: id, Live: c.Now(), Limit: 200})
		if err != nil {
			c.Log.Error("listing a house bot's challenges", "account", id, "err", err)
			return
		}
		for _, g := range gs {
			h.accept(ctx, g.ID, id)
		}
	}
}
