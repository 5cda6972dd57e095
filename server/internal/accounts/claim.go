package accounts

import (
	"context"
	"net/http"

	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// guestOf returns the request's account when it is a guest signed in by
// its session cookie (the only way a guest signs in), else nil.
func guestOf(r *http.Request) *store.Account {
	a := httpx.Account(r)
	if a == nil || !a.Guest() || r.Header.Get("Authorization") != "" {
		return nil
	}
	return a
}

// claimGuestGames moves the games of guest, the request's own session, to
// account to, and ends the guest's session: its browser has just been
// given to's cookie. Each game moved is read again and published, so that
// its streams show the new name and this process's cached copy (the
// guest's seat) is dropped; a computer to move in one is scheduled again,
// since the claim's new version makes its pending move stale.
func (s *Accounts) claimGuestGames(r *http.Request, guest *store.Account, to store.Account) (*wire.Claim, error) {
	ctx := r.Context()
	c, err := s.c.Store.ClaimGames(ctx, guest.ID, to.ID)
	if err != nil {
		return nil, err
	}
	if ck, err := r.Cookie(SessionCookie); err == nil {
		if err := s.deleteToken(ctx, HashSecret(ck.Value)); err != nil {
			s.c.Log.WarnContext(ctx, "ending a claimed guest's session", "account", guest.ID, "err", err)
		}
	}
	s.tokens.forgetAccount(guest.ID)
	for _, id := range c.Moved {
		s.refreshGame(ctx, id)
	}
	s.c.Log.InfoContext(ctx, "guest games claimed", "guest", guest.ID, "account", to.ID, "moved", len(c.Moved), "kept", len(c.Kept))
	return &wire.Claim{From: DisplayName(*guest), Moved: nonNilIDs(c.Moved), Kept: nonNilIDs(c.Kept)}, nil
}

// refreshGame reads a game changed outside a game action (a claim), under
// its lock, replaces this process's cached state, publishes it here and to
// the other processes, and schedules the computer if it is to move.
func (s *Accounts) refreshGame(ctx context.Context, id string) {
	unlock := s.c.Core.LockGame(id)
	defer unlock()
	s.c.Core.States.Take(id)
	st, err := s.c.Core.Load(ctx, id)
	if err != nil {
		s.c.Log.WarnContext(ctx, "reading a claimed game", "game", id, "err", err)
		return
	}
	s.c.Core.Publish(st)
	s.c.Core.States.Put(st)
	if st.BotToMove() {
		s.c.Schedule(id, st.Row.Version)
	}
}

func nonNilIDs(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
}
