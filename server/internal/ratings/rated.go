package ratings

import (
	"fmt"
	"net/http"
	"strings"

	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// PresetRules reports whether the rules are a preset's own but for the
// board's size: the rules a rating pool (the preset) is about.
func PresetRules(text string) bool {
	f := strings.Fields(text)
	for _, opt := range f[min(1, len(f)):] {
		if !strings.HasPrefix(opt, "size=") {
			return false
		}
	}
	return len(f) > 0
}

// NotRatable says why a new game cannot be rated ("" when it can), before
// its seats are taken; guest is whether its creator is a guest.
func NotRatable(g store.Game, guest bool) string {
	switch {
	case g.Kind == store.KindComputer:
		return "games against the computer are not rated"
	case guest:
		return "a guest's games are not rated: sign in or create an account to play rated games"
	case g.Start != "":
		return "a game from a set-up position is not rated"
	case !PresetRules(g.Rules):
		return fmt.Sprintf("only a preset's own rules are rated (at any size): %q changes other options", g.Rules)
	}
	return ""
}

// CheckRated refuses a request for a rated game that cannot be: against
// the computer, by a guest (or someone not signed in: the game would be a
// guest's), from a set-up position, or under changed rules. It runs
// before a guest is made.
func CheckRated(r *http.Request, g store.Game, req wire.CreateRequest) error {
	if req.Rated == nil || !*req.Rated {
		return nil
	}
	a := httpx.Account(r)
	if why := NotRatable(g, a == nil || a.Guest()); why != "" {
		return httpx.Errf(wire.BadRequest, "not_rated", "this game cannot be rated: %s (send \"rated\": false or leave it out)", why)
	}
	return nil
}
