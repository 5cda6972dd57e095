package server

import (
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"alak/server/internal/accounts"
	"alak/server/internal/httpx"
	"alak/server/store"
	"alak/wire"
)

// Bot accounts: an account made with "bot": true is a
// program's. It signs in by bearer token only (POST /api/tokens; no page
// session), is shown as a bot wherever its name is (wire.Seat.Bot,
// wire.Me.Bot, the profile and the leaderboard), plays rated games as any
// account does, and takes a person's open challenge only when its creator
// allowed bots ("allow_bots": true on POST /api/games). Challenges
// addressed to it by name, invitations and rematches it takes as anyone.

// accountPlayerView is how an account is shown as a player.
func accountPlayerView(a store.Account) wire.Seat {
	return wire.Seat{Name: accounts.DisplayName(a), Guest: a.Guest(), Bot: a.Bot}
}

// botMayJoin refuses a bot account an open challenge whose creator did
// not allow bots.
func botMayJoin(a *store.Account, g *store.Game) error {
	if a.Bot && g.Kind == store.KindOpen && !g.AllowBots {
		return httpx.Errf(wire.Forbidden, "bots_not_allowed",
			"this open challenge is for people: its creator did not allow bots (\"allow_bots\": true on POST /api/games)")
	}
	return nil
}

// maxDeclineReason bounds the reason of a decline, in bytes.
const maxDeclineReason = 200

// declineReason reads the optional body of POST /api/games/{id}/decline,
// {"reason": TEXT}, and returns the game's reason: "declined", or
// "declined: TEXT". The text is at most 200 bytes of UTF-8 without
// control characters (the challenger's page shows it).
func declineReason(w http.ResponseWriter, r *http.Request) (string, error) {
	var req wire.DeclineRequest
	if err := httpx.Decode(w, r, &req); err != nil {
		return "", err
	}
	text := strings.TrimSpace(req.Reason)
	if text == "" {
		return "declined", nil
	}
	if len(text) > maxDeclineReason || !utf8.ValidString(text) || strings.ContainsFunc(text, unicode.IsControl) {
		return "", httpx.Errf(wire.BadInput, "bad_reason", "a reason is at most %d bytes of text on one line, without control characters", maxDeclineReason)
	}
	return "declined: " + text, nil
}
