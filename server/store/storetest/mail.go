package storetest

import (
	"errors"
	"testing"

	"alak/server/store"
)

// Moves by email: the secrets of the reply addresses.

func testMailSecrets(t *testing.T, s store.Store) {
	defer s.Close()
	must(t, s.CreateGame(ctx, newGame("g1", 1, 2)))
	must(t, s.CreateGame(ctx, newGame("g2", 1, 2)))
	secrets := []store.MailSecret{
		{Hash: "aa01", GameID: "g1", Color: "x", Ply: 0, Created: at},
		{Hash: "aa02", GameID: "g1", Color: "o", Ply: 1, Created: at},
		{Hash: "bb01", GameID: "g2", Color: "o", Ply: 7, Created: at},
	}
	for _, m := range secrets {
		must(t, s.AddMailSecret(ctx, m))
	}
	if err := s.AddMailSecret(ctx, secrets[0]); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("the same hash twice: %v, want ErrDuplicate", err)
	}
	for _, want := range secrets {
		got, err := s.MailSecret(ctx, want.Hash)
		if err != nil || got != want {
			t.Errorf("MailSecret(%s) = %+v, %v; want %+v", want.Hash, got, err, want)
		}
	}
	if _, err := s.MailSecret(ctx, "cc01"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown hash: %v, want ErrNotFound", err)
	}
	// g1 ends: its secrets go, g2's stay.
	must(t, s.DeleteMailSecrets(ctx, "g1"))
	for _, m := range secrets[:2] {
		if _, err := s.MailSecret(ctx, m.Hash); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s after its game's deletion: %v, want ErrNotFound", m.Hash, err)
		}
	}
	if got, err := s.MailSecret(ctx, "bb01"); err != nil || got != secrets[2] {
		t.Errorf("the other game's secret: %+v, %v", got, err)
	}
	must(t, s.DeleteMailSecrets(ctx, "g1")) // nothing left: no error
}
