package storetest

import (
	"testing"
	"time"

	"alak/server/store"
)

// testBots: an account's bot flag and a game's allow_bots are
// kept as written, read back by id, by name and with a token, and survive
// the account's settings being written; a person's account is no bot.
func testBots(t *testing.T, s store.Store) {
	defer s.Close()
	bot, err := s.CreateAccount(ctx, store.Account{Name: "walker", PassHash: "h", Bot: true, Created: at})
	must(t, err)
	person, err := s.CreateAccount(ctx, store.Account{Name: "ada", PassHash: "h", Created: at})
	must(t, err)
	must(t, s.CreateToken(ctx, store.Token{Hash: "bt", AccountID: bot.ID, Kind: store.TokenAPI, Created: at, Expires: at.Add(time.Hour)}))
	byID, err := s.AccountByID(ctx, bot.ID)
	must(t, err)
	byName, err := s.AccountByName(ctx, "WALKER")
	must(t, err)
	byToken, _, err := s.TokenAccount(ctx, "bt", at)
	must(t, err)
	for what, a := range map[string]store.Account{"by id": byID, "by name": byName, "by token": byToken} {
		if !a.Bot || a.ID != bot.ID {
			t.Errorf("the bot read %s: %+v, want bot set", what, a)
		}
	}
	byID.Email = "w@example.org"
	must(t, s.UpdateAccount(ctx, byID))
	if a, err := s.AccountByID(ctx, bot.ID); err != nil || !a.Bot || a.Email != "w@example.org" {
		t.Errorf("after a settings change: %+v, %v; want still a bot", a, err)
	}
	if a, err := s.AccountByID(ctx, person.ID); err != nil || a.Bot {
		t.Errorf("a person's account: %+v, %v; want no bot", a, err)
	}

	open := newGame("ob", person.ID, 0)
	open.Kind, open.Opponent, open.State, open.AllowBots = store.KindOpen, 0, store.StateWaiting, true
	closed := newGame("oc", person.ID, 0)
	closed.Kind, closed.Opponent, closed.State = store.KindOpen, 0, store.StateWaiting
	must(t, s.CreateGame(ctx, open))
	must(t, s.CreateGame(ctx, closed))
	for id, want := range map[string]bool{"ob": true, "oc": false} {
		g, _, err := s.Game(ctx, id)
		if err != nil || g.AllowBots != want {
			t.Errorf("game %s: allow_bots %v, %v; want %v", id, g.AllowBots, err, want)
		}
	}
	// An update keeps it.
	next := open
	next.Version++
	next.White = store.Seat{AccountID: bot.ID}
	next.State = store.StateActive
	must(t, s.Update(ctx, next, open, nil))
	if g, _, err := s.Game(ctx, "ob"); err != nil || !g.AllowBots || g.White.AccountID != bot.ID {
		t.Errorf("after the join: %+v, %v", g, err)
	}
	gs, err := s.Games(ctx, store.Filter{Player: bot.ID})
	if err != nil || len(gs) != 1 || !gs[0].AllowBots {
		t.Errorf("the bot's games listed: %+v, %v; want ob with allow_bots", gs, err)
	}
}
