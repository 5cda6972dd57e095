package tournaments

import (
	"testing"

	"alak/server/store"
	"alak/tournament"
)

// TestSlotOutcome: a slot's result for the pairing is its stored forfeit
// first, a bye (no O) a win for X, a finished game's winner, and pending
// otherwise (an active or aborted game); a forfeit's outcome is stored
// back as the same letter.
func TestSlotOutcome(t *testing.T) {
	for _, c := range []struct {
		name    string
		sl      store.TournamentGame
		want    tournament.Outcome
		forfeit bool
	}{
		{"forfeit x", store.TournamentGame{X: 1, O: 2, Forfeit: "x", State: store.StateFinished, Winner: "o"}, tournament.XWins, true},
		{"forfeit o", store.TournamentGame{X: 1, O: 2, Forfeit: "o"}, tournament.OWins, true},
		{"both withdrew", store.TournamentGame{X: 1, O: 2, Forfeit: "both"}, tournament.BothLose, true},
		{"bye", store.TournamentGame{X: 1}, tournament.XWins, false},
		{"x won", store.TournamentGame{X: 1, O: 2, State: store.StateFinished, Winner: "x"}, tournament.XWins, false},
		{"o won", store.TournamentGame{X: 1, O: 2, State: store.StateFinished, Winner: "o"}, tournament.OWins, false},
		{"draw", store.TournamentGame{X: 1, O: 2, State: store.StateFinished, Winner: "draw"}, tournament.Draw, false},
		{"playing", store.TournamentGame{X: 1, O: 2, State: store.StateActive}, tournament.Pending, false},
		{"aborted", store.TournamentGame{X: 1, O: 2, State: store.StateAborted}, tournament.Pending, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, forfeit := slotOutcome(c.sl)
			if got != c.want || forfeit != c.forfeit {
				t.Errorf("%+v: %v, forfeit %v; want %v, forfeit %v", c.sl, got, forfeit, c.want, c.forfeit)
			}
			if forfeit && outcomeForfeit(got) != c.sl.Forfeit {
				t.Errorf("%v is stored as the forfeit %q, want %q", got, outcomeForfeit(got), c.sl.Forfeit)
			}
		})
	}
}
