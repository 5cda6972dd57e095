package player

import (
	"slices"
	"testing"

	"alak/rules"
)

// TestHistoryMatchesGame follows random games with a history (built from
// the game's start and pushed move by move, as the searches do) and checks
// its legal moves and its end against rules.Game, which is the reference for
// the repetition draw and superko.
func TestHistoryMatchesGame(t *testing.T) {
	for _, spec := range []string{
		"alak size=7", "alak size=8 repetition=2", "tromp-taylor size=5", "tromp-taylor size=6 pass=off",
		"alak ko=situational size=6", "traditional size=6", "alterigo size=3x3", "dewdney size=8",
	} {
		t.Run(spec, func(t *testing.T) {
			r := mustRules(t, spec)
			ended, repeated := 0, 0
			var inc *history // pushed move by move from the start, as a search path
			randomGames(t, r, 40, 300, 3, func(g *rules.Game) {
				// A history built from the game so far, as at a search's root.
				h := newHistory(g)
				pos := g.Position()
				if g.Len() == 0 {
					inc = newHistory(g)
				} else {
					inc.Push(pos)
				}
				got := h.Moves(pos, nil)
				want := g.LegalMoves(nil)
				if !slices.Equal(got, want) {
					t.Fatalf("ply %d %v: history moves %v, game %v", g.Len(), pos, got, want)
				}
				if path := inc.Moves(pos, nil); !slices.Equal(path, want) {
					t.Fatalf("ply %d %v: pushed history moves %v, game %v", g.Len(), pos, path, want)
				}
				over, margin := h.Outcome(pos, len(got))
				o := g.Outcome()
				if over != o.Over() || margin != o.Margin {
					t.Fatalf("ply %d %v: history over=%v margin %v, game %v (margin %v)", g.Len(), pos, over, margin, o, o.Margin)
				}
				if over {
					ended++
					if o.Reason == rules.Repetition {
						repeated++
					}
				}
				// Push a move and pop it: the history must be as before.
				if len(got) > 0 {
					q, _ := pos.Play(got[0])
					h.Push(q)
					h.Pop(q)
					if again := h.Moves(pos, nil); !slices.Equal(again, want) {
						t.Fatalf("ply %d: after Push and Pop, moves %v, want %v", g.Len(), again, want)
					}
				}
			})
			if ended == 0 {
				t.Errorf("no game ended within 300 moves")
			}
			if r.Repetition == 2 && repeated == 0 {
				t.Errorf("no game ended by repetition: the repetition draw was not exercised")
			}
		})
	}
}
