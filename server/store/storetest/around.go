package storetest

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"alak/server/store"
)

// Around a game: the players' messages, mutes and rematches.

func testMessages(t *testing.T, s store.Store) {
	defer s.Close()
	must(t, s.CreateGame(ctx, newGame("g1", 1, 2)))
	must(t, s.CreateGame(ctx, newGame("g2", 1, 2)))
	// No messages: no mutes read either.
	c, err := s.Chat(ctx, "g1")
	if err != nil || len(c.Messages) != 0 || len(c.Muted) != 0 {
		t.Fatalf("a new game's chat: %+v, %v", c, err)
	}
	// Text the database must keep as it is: quotes, markup, non-ASCII, 500
	// characters.
	texts := []string{"good luck", `<b>"it's" & ;--</b>`, "日本語 ✓", strings.Repeat("é", 500)}
	var ids []int64
	for i, text := range texts {
		m, err := s.AddMessage(ctx, store.Message{GameID: "g1", Color: []string{"x", "o"}[i%2], By: int64(1 + i%2), Text: text, At: at.Add(time.Duration(i) * time.Second)})
		must(t, err)
		if len(ids) > 0 && m.ID <= ids[len(ids)-1] {
			t.Errorf("message %d: id %d after %d", i, m.ID, ids[len(ids)-1])
		}
		ids = append(ids, m.ID)
	}
	_, err = s.AddMessage(ctx, store.Message{GameID: "g2", Color: "o", By: 2, Text: "other game", At: at})
	must(t, err)
	c, err = s.Chat(ctx, "g1")
	must(t, err)
	if len(c.Messages) != len(texts) {
		t.Fatalf("%d messages read back, %d written", len(c.Messages), len(texts))
	}
	for i, m := range c.Messages {
		want := store.Message{ID: ids[i], GameID: "g1", Color: []string{"x", "o"}[i%2], By: int64(1 + i%2), Text: texts[i], At: at.Add(time.Duration(i) * time.Second)}
		if m != want {
			t.Errorf("message %d:\n%+v, want\n%+v", i, m, want)
		}
	}
	// Mutes: by seat, idempotent both ways, per game.
	must(t, s.SetMute(ctx, "g1", "o", true))
	must(t, s.SetMute(ctx, "g1", "o", true))
	if c, _ := s.Chat(ctx, "g1"); len(c.Muted) != 1 || c.Muted[0] != "o" {
		t.Errorf("muted by o: %v", c.Muted)
	}
	if c, _ := s.Chat(ctx, "g2"); len(c.Muted) != 0 {
		t.Errorf("g2 muted by g1's mute: %v", c.Muted)
	}
	must(t, s.SetMute(ctx, "g1", "x", true))
	must(t, s.SetMute(ctx, "g1", "o", false))
	must(t, s.SetMute(ctx, "g1", "o", false))
	if c, _ := s.Chat(ctx, "g1"); len(c.Muted) != 1 || c.Muted[0] != "x" {
		t.Errorf("after o unmuted: %v", c.Muted)
	}
	// Writers at once each get their own id.
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.AddMessage(ctx, store.Message{GameID: "g2", Color: "x", By: 1, Text: "at once", At: at.Add(time.Duration(i) * time.Millisecond)})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err)
	}
	if c, _ := s.Chat(ctx, "g2"); len(c.Messages) != 9 {
		t.Errorf("g2: %d messages, want 1 + 8", len(c.Messages))
	}
}

func testRematches(t *testing.T, s store.Store) {
	defer s.Close()
	old := newGame("old", 1, 2)
	old.State = store.StateFinished
	must(t, s.CreateGame(ctx, old))
	if _, err := s.Rematch(ctx, "old"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("no rematch yet: %v", err)
	}
	r1 := newGame("r1", 2, 0)
	r1.State, r1.Kind, r1.Opponent = store.StateWaiting, store.KindNamed, 1
	must(t, s.LinkRematch(ctx, "old", r1, ""))
	if id, err := s.Rematch(ctx, "old"); id != "r1" || err != nil {
		t.Errorf("rematch of old: %q, %v", id, err)
	}
	if id, err := s.RematchOf(ctx, "r1"); id != "old" || err != nil {
		t.Errorf("r1 is the rematch of %q, %v", id, err)
	}
	if _, err := s.RematchOf(ctx, "old"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("old is no rematch: %v", err)
	}
	if got, _, err := s.Game(ctx, "r1"); err != nil || got != r1 {
		t.Errorf("r1 stored:\n%+v, %v", got, err)
	}
	// A second offer made from the same state (another process) is
	// refused, and its game not stored.
	r2 := newGame("r2", 1, 0)
	if err := s.LinkRematch(ctx, "old", r2, ""); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a second first rematch: %v", err)
	}
	if _, _, err := s.Game(ctx, "r2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the refused rematch's game was stored: %v", err)
	}
	if err := s.LinkRematch(ctx, "old", r2, "other"); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a rematch replacing one that is not there: %v", err)
	}
	// Once r1 is declined, a new offer replaces it.
	must(t, s.LinkRematch(ctx, "old", r2, "r1"))
	if id, _ := s.Rematch(ctx, "old"); id != "r2" {
		t.Errorf("rematch of old after the second offer: %q", id)
	}
	if _, err := s.RematchOf(ctx, "r1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("r1 still a rematch: %v", err)
	}
	// A new game whose id is taken: nothing linked.
	must(t, s.CreateGame(ctx, newGame("other", 1, 2)))
	if err := s.LinkRematch(ctx, "other", newGame("r2", 1, 2), ""); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("a rematch whose id is taken: %v", err)
	}
	if _, err := s.Rematch(ctx, "other"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("linked despite the duplicate: %v", err)
	}
}
