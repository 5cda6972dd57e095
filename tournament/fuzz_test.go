package tournament

import (
	"errors"
	"fmt"
	"testing"
)

// FuzzNext builds arbitrary states from bytes (any format, player count,
// withdrawals, games on any key between any players with any outcome,
// following no schedule) and checks that Next either refuses the state
// with ErrInvalid or returns a step whose games are new keys, and that
// Standings, Crosstable and Bracket never panic.
func FuzzNext(f *testing.F) {
	f.Add([]byte{0, 4, 0})
	f.Add([]byte{2, 7, 3, 1, 1, 0, 1, 1, 2, 1, 2, 3, 0, 3})
	f.Add([]byte{3, 5, 1, 1, 0, 0, 1, 3, 1, 1, 1, 2, 4})
	f.Add([]byte{1, 3, 0, 2, 2, 1, 2, 0, 2, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		at := 0
		next := func() int {
			if at >= len(data) {
				return 0
			}
			at++
			return int(data[at-1])
		}
		s := State{ID: fmt.Sprint(len(data)), Format: Formats[next()%len(Formats)]}
		n := next() % 20
		s.AllAtOnce = next()%2 == 0
		s.Rounds = next() % 8
		for i := 0; i < n; i++ {
			s.Players = append(s.Players, Player{Name: fmt.Sprint("p", i), Rating: float64(next() % 4), Withdrawn: next()%5 == 0})
		}
		name := func(v int) string {
			if n == 0 || v%(n+1) == n {
				return ""
			}
			return s.Players[v%(n+1)].Name
		}
		for at < len(data) && len(s.Games) < 100 {
			g := Game{Round: next() % 6, Slot: next() % 12, X: name(next()), O: name(next()), Outcome: Outcome(next() % 6)}
			g.Forfeit = g.Outcome > 8
			s.Games = append(s.Games, g)
		}
		st, err := Next(s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		have := make(map[[2]int]bool)
		for _, g := range s.Games {
			have[[2]int{g.Round, g.Slot}] = true
		}
		for _, g := range st.Games {
			if have[[2]int{g.Round, g.Slot}] {
				t.Fatalf("step creates (round %d, slot %d) again", g.Round, g.Slot)
			}
			have[[2]int{g.Round, g.Slot}] = true
		}
		if got := Standings(s); len(got) != n {
			t.Fatalf("%d standings for %d players", len(got), n)
		}
		Crosstable(s)
		Bracket(s)
	})
}
