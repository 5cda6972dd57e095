package ratings

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// TestNotRatable checks which new games can be rated, the rule of
// docs/api.md's "rated": two accounts, the start position, a preset's
// own rules at any size.
func TestNotRatable(t *testing.T) {
	for _, c := range []struct {
		name  string
		g     store.Game
		guest bool
		why   string // a part of the reason; "" when the game can be rated
	}{
		{"a preset", store.Game{Rules: "alak"}, false, ""},
		{"a preset at another size", store.Game{Rules: "traditional size=15"}, false, ""},
		{"the computer", store.Game{Rules: "alak", Kind: store.KindComputer}, false, "against the computer"},
		{"a guest", store.Game{Rules: "alak"}, true, "a guest's games"},
		{"a set-up position", store.Game{Rules: "alak", Start: "xx-oo"}, false, "set-up position"},
		{"changed rules", store.Game{Rules: "alak edge=off"}, false, `"alak edge=off" changes other options`},
		{"no rules", store.Game{Rules: ""}, false, "only a preset's own rules"},
	} {
		why := NotRatable(c.g, c.guest)
		if c.why == "" && why != "" || c.why != "" && !strings.Contains(why, c.why) {
			t.Errorf("%s: %q, want %q", c.name, why, c.why)
		}
	}
}

// TestCheckRated checks the refusal of a request for a rated game that
// cannot be (400 not_rated), and that asking for none is never refused.
func TestCheckRated(t *testing.T) {
	yes, no := true, false
	anonymous := httptest.NewRequest("POST", "/api/games", nil)
	signedIn := anonymous.WithContext(httpx.SignedIn(anonymous.Context(), &store.Account{ID: 1, Name: "ada"}, httpx.Credential{}))
	for _, c := range []struct {
		name    string
		signed  bool
		g       store.Game
		rated   *bool
		refused bool
	}{
		{"an account's rated game", true, store.Game{Rules: "alak"}, &yes, false},
		{"rated by default", true, store.Game{Rules: "alak", Kind: store.KindComputer}, nil, false},
		{"asked unrated", false, store.Game{Rules: "alak edge=off"}, &no, false},
		{"rated by someone not signed in", false, store.Game{Rules: "alak"}, &yes, true},
		{"rated against the computer", true, store.Game{Rules: "alak", Kind: store.KindComputer}, &yes, true},
	} {
		r := anonymous
		if c.signed {
			r = signedIn
		}
		err := CheckRated(r, c.g, wire.CreateRequest{Rated: c.rated})
		var he *httpx.Error
		switch {
		case !c.refused && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.refused && (!errors.As(err, &he) || he.Code != "not_rated" || he.Kind != wire.BadRequest):
			t.Errorf("%s: %v, want a bad request not_rated", c.name, err)
		}
	}
}
