package server

import (
	"net/http"
	"slices"
	"testing"

	"alak/wire"
)

// TestTurnsCount: GET /api/me/turns counts the games where it is my move
// and the challenges addressed to me, on SQLite and on PostgreSQL; a game
// where the opponent is to move, my own challenge to someone else and a
// challenge once accepted are not counted; the named challenge's opponent
// is in the game and in the lists.
func TestTurnsCount(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(t *testing.T, h *harness) {
		ada, bob := h.client().signUp("ada"), h.client().signUp("bob")
		turns := func(c *client) wire.Turns {
			t.Helper()
			var v wire.Turns
			if code := c.do("GET", "/api/me/turns", nil, &v); code != http.StatusOK {
				t.Fatalf("GET /api/me/turns: %d", code)
			}
			return v
		}
		if v := turns(ada); v.Turns != 0 || v.Challenges != 0 || len(v.Games) != 0 {
			t.Errorf("a new account: %+v, want nothing", v)
		}

		// ada's move: against the computer, ada Black.
		mine := ada.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "computer:level:1"})
		// bob's move: ada White against bob Black, by name, accepted.
		theirs := ada.create(map[string]string{"rules": "alak size=7", "color": "o", "opponent": "bob"})
		if code := bob.do("POST", "/api/games/"+theirs.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
			t.Fatalf("bob accepts: %d", code)
		}
		// A challenge from bob to ada, waiting.
		challenge := bob.create(map[string]string{"rules": "alak size=7", "color": "x", "opponent": "ada"})

		if v := turns(ada); v.Turns != 1 || v.Challenges != 1 || !slices.Equal(v.Games, []string{mine.ID}) {
			t.Errorf("ada: %+v, want 1 turn (%s) and 1 challenge", v, mine.ID)
		}
		// bob: his move in the accepted game; his own challenge is not one to him.
		if v := turns(bob); v.Turns != 1 || v.Challenges != 0 || !slices.Equal(v.Games, []string{theirs.ID}) {
			t.Errorf("bob: %+v, want 1 turn (%s) and no challenge", v, theirs.ID)
		}
		if g := bob.game(challenge.ID); g.Invitee != "ada" {
			t.Errorf("bob's challenge to ada: invitee %q, want ada", g.Invitee)
		}
		var lists struct{ Games, Challenges []wire.Summary }
		ada.do("GET", "/api/me/games", nil, &lists)
		if len(lists.Challenges) != 1 || lists.Challenges[0].Invitee != "ada" {
			t.Errorf("ada's challenges list: %+v, want bob's with invitee ada", lists.Challenges)
		}

		// bob moves: the accepted game becomes ada's; ada accepts bob's
		// challenge, where she is White and bob to move.
		if code, _, e := bob.move(theirs.ID, "4", 0); code != http.StatusOK {
			t.Fatalf("bob's move: %d %+v", code, e)
		}
		if code := ada.do("POST", "/api/games/"+challenge.ID+"/join", map[string]string{}, nil); code != http.StatusOK {
			t.Fatalf("ada accepts: %d", code)
		}
		if v := turns(ada); v.Turns != 2 || v.Challenges != 0 || len(v.Games) != 2 {
			t.Errorf("ada after bob's move and her accepting: %+v, want 2 turns and no challenge", v)
		}

		var e errBody
		if code := h.client().do("GET", "/api/me/turns", nil, &e); code != http.StatusUnauthorized {
			t.Errorf("not signed in: %d %+v, want 401", code, e)
		}
	})
}
