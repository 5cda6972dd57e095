package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"alak/server/store"
)

// Conditional moves and vacation.

func testConditionals(t *testing.T, s store.Store) {
	defer s.Close()
	must(t, s.CreateGame(ctx, newGame("g1", 1, 2)))
	if _, err := s.Conditional(ctx, "g1", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("no tree left yet: %v, want ErrNotFound", err)
	}
	c := store.Conditional{GameID: "g1", Color: "x", Account: 1, Entry: 3, Ply: 3, Tree: `{"5":{"move":"7"}}`, Played: -1, NoteEntry: -1, Updated: at}
	must(t, s.SetConditional(ctx, c))
	// The other seat's row is apart.
	must(t, s.SetConditional(ctx, store.Conditional{GameID: "g1", Color: "o", Account: 2, Entry: 2, Ply: 2, Tree: `{"1":{"move":"2"}}`, Played: -1, NoteEntry: -1, Updated: at}))
	got, err := s.Conditional(ctx, "g1", "x")
	if err != nil || got != c {
		t.Errorf("as stored: %+v, %v; want %+v", got, err, c)
	}
	// Replaced whole: the tree used up, a note kept.
	c.Tree, c.Played, c.Note, c.NoteEntry, c.Entry, c.Ply, c.Updated = "", 4, "cancelled: 'it's' <b>", 3, 5, 5, at.Add(time.Minute)
	must(t, s.SetConditional(ctx, c))
	if got, err := s.Conditional(ctx, "g1", "x"); err != nil || got != c {
		t.Errorf("replaced: %+v, %v; want %+v", got, err, c)
	}
	if got, err := s.Conditional(ctx, "g1", "o"); err != nil || got.Tree != `{"1":{"move":"2"}}` || got.Account != 2 {
		t.Errorf("the other seat's: %+v, %v", got, err)
	}
}

func testVacations(t *testing.T, s store.Store) {
	defer s.Close()
	a, err := s.CreateAccount(ctx, store.Account{Name: "ada", PassHash: "h", Created: at})
	must(t, err)
	b, err := s.CreateAccount(ctx, store.Account{Name: "bo", PassHash: "h", Created: at})
	must(t, err)
	if _, err := s.Vacation(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("no vacation stored: %v, want ErrNotFound", err)
	}
	v := store.Vacation{Account: a.ID, Since: at.Add(time.Hour), Bank: 5 * 24 * time.Hour, Accrued: at}
	// A first store names no since before.
	if err := s.SetVacation(ctx, v, at); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a first store naming a since: %v, want ErrConflict", err)
	}
	must(t, s.SetVacation(ctx, v, time.Time{}))
	if err := s.SetVacation(ctx, v, time.Time{}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a second first store: %v, want ErrConflict", err)
	}
	if got, err := s.Vacation(ctx, a.ID); err != nil || got != v {
		t.Errorf("as stored: %+v, %v; want %+v", got, err, v)
	}
	must(t, s.SetVacation(ctx, store.Vacation{Account: b.ID, Accrued: at}, time.Time{}))
	on, err := s.OnVacation(ctx)
	if err != nil || len(on) != 1 || on[0] != v {
		t.Errorf("on vacation: %+v, %v; want only ada's", on, err)
	}
	// Two processes end the same vacation at once: one does.
	end := store.Vacation{Account: a.ID, Bank: 4 * 24 * time.Hour, Accrued: at}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.SetVacation(ctx, end, v.Since)
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("ending at once: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("ending at once: %d ended it, want 1", ok)
	}
	if got, err := s.Vacation(ctx, a.ID); err != nil || got != end {
		t.Errorf("ended: %+v, %v; want %+v", got, err, end)
	}
	if on, err := s.OnVacation(ctx); err != nil || len(on) != 0 {
		t.Errorf("on vacation after the end: %+v, %v", on, err)
	}
}
