package server

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

// isHouseBotName reports whether a name (in lower case) is a house bot's:
// nobody may sign up as one, whether or not this server keeps them.
func isHouseBotName(lower string) bool {
	for n := 1; n <= player.Levels(); n++ {
		if lower == houseBotName(n) {
			return true
		}
	}
	return false
}

// houseBots is the house bots of a server: their accounts and player specs.
type houseBots struct {
	s     *Server
	mu    sync.Mutex
	spec  map[int64]string // account id → the level's player spec
	ids   []int64
	names []string // by level, for the home page's form
}

// startHouseBots makes (or finds) the house bots' accounts and starts
// their look for challenges. An account of a house bot's name that is not
// a bot (made before the names were reserved) is left alone, and its
// level has no house bot here.
func (s *Server) startHouseBots(ctx context.Context) error {
	h := &houseBots{s: s, spec: map[int64]string{}}
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
		a, err := s.store.AccountByName(ctx, name)
		if errors.Is(err, store.ErrNotFound) {
			a, err = s.store.CreateAccount(ctx, store.Account{Name: name, Bot: true, Created: s.now()})
			if errors.Is(err, store.ErrDuplicate) { // another process made it meanwhile
				a, err = s.store.AccountByName(ctx, name)
			}
		}
		if err != nil {
			return fmt.Errorf("house bot %s: %w", name, err)
		}
		if !a.Bot {
			s.log.Error("a person's account has a house bot's name: that level has no house bot", "name", name, "account", a.ID)
			continue
		}
		h.spec[a.ID] = spec
		h.ids = append(h.ids, a.ID)
		h.names = append(h.names, a.Name)
	}
	s.house = h
	s.spawn(h.run)
	return nil
}

// houseBotNames lists the house bots' names by level (none without
// Config.HouseBots), for the home page's form.
func (s *Server) houseBotNames() []string {
	if s.house == nil {
		return nil
	}
	return s.house.names
}

// houseBotTop is the strongest house bot's name ("" without them).
func (s *Server) houseBotTop() string {
	if names := s.houseBotNames(); len(names) > 0 {
		return names[len(names)-1]
	}
	return ""
}

// challenged takes a new challenge when it is addressed to a house bot.
func (h *houseBots) challenged(g store.Game) {
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
	s := h.s
	spec, _ := h.specOf(bot)
	a, err := s.store.AccountByID(ctx, bot)
	if err != nil {
		s.log.Error("reading a house bot", "account", bot, "err", err)
		return
	}
	_, err = s.core.Act(ctx, id, func(st *game.State, now time.Time) (*game.Change, error) {
		row := &st.Row
		if row.State != store.StateWaiting || row.Kind != store.KindNamed || row.Opponent != bot {
			return nil, errNotWaiting
		}
		ch, err := s.seatAndStart(ctx, st, &a, now)
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
		s.log.Error("a house bot taking a challenge", "game", id, "bot", a.Name, "err", err)
		return
	}
	s.log.Info("a house bot took a challenge", "game", id, "bot", a.Name)
	if st, err := s.core.Load(ctx, id); err == nil && st.BotToMove() {
		s.bots.schedule(id, st.Row.Version)
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
		case <-h.s.done:
			return
		case <-tick.C:
		}
	}
}

func (h *houseBots) lookOnce() {
	s := h.s
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, id := range h.ids {
		gs, err := s.store.Games(ctx, store.Filter{States: []string{store.StateWaiting}, Kind: store.KindNamed, Opponent: id, Live: s.now(), Limit: 200})
		if err != nil {
			s.log.Error("listing a house bot's challenges", "account", id, "err", err)
			return
		}
		for _, g := range gs {
			h.accept(ctx, g.ID, id)
		}
	}
}
