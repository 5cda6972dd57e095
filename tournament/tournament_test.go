package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// players returns n players p00, p01 ... rated 2000, 1990 ... (p00 the
// first seed).
func players(n int) []Player {
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = Player{Name: fmt.Sprintf("p%02d", i), Rating: float64(2000 - 10*i)}
	}
	return ps
}

// randomPlayers returns n players with ratings drawn from few values, so
// that ties of rating (broken by name) happen.
func randomPlayers(r *rand.Rand, n int) []Player {
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = Player{Name: fmt.Sprintf("p%02d", i), Rating: float64(1400 + 50*r.IntN(6))}
	}
	return ps
}

// randomOutcome draws a result: mostly decisive, some draws, a few
// double forfeits.
func randomOutcome(r *rand.Rand) Outcome {
	switch v := r.IntN(20); {
	case v < 8:
		return XWins
	case v < 16:
		return OWins
	case v < 19:
		return Draw
	}
	return BothLose
}

// run plays a tournament to its end: after each Next it checks the step
// (deterministic, no key reused, forfeits only of pending games of
// withdrawn players), applies it, calls check with the state and the step,
// then finishes one or all pending games with random results; with
// withdraw > 0, that share of steps withdraws a random active player.
// It returns the final state and step.
func run(t *testing.T, s State, r *rand.Rand, withdraw float64, check func(State, Step)) (State, Step) {
	t.Helper()
	for steps := 0; ; steps++ {
		if steps > 10000 {
			t.Fatalf("%s with %d players: no end after %d steps", s.Format, len(s.Players), steps)
		}
		st, err := Next(s)
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		again, err := Next(s)
		if err != nil || !reflect.DeepEqual(st, again) {
			t.Fatalf("Next is not deterministic: %+v then %+v (%v)", st, again, err)
		}
		have := make(map[[2]int]Game)
		for _, g := range s.Games {
			have[[2]int{g.Round, g.Slot}] = g
		}
		gone := s.withdrawn()
		for _, f := range st.Forfeits {
			old, ok := have[[2]int{f.Round, f.Slot}]
			if !ok || old.Finished() || !f.Forfeit || (!gone[f.X] && !gone[f.O]) || old.X != f.X || old.O != f.O {
				t.Fatalf("forfeit %+v of game %+v (present %v)", f, old, ok)
			}
		}
		s = s.withGames(st.Forfeits)
		for _, g := range st.Games {
			if _, ok := have[[2]int{g.Round, g.Slot}]; ok {
				t.Fatalf("step creates game (round %d, slot %d) again", g.Round, g.Slot)
			}
			have[[2]int{g.Round, g.Slot}] = g
			if !g.Bye() && (gone[g.X] || gone[g.O]) && !g.Forfeit {
				t.Fatalf("game %+v of a withdrawn player is not a forfeit", g)
			}
		}
		s.Games = append(s.Games, st.Games...)
		if check != nil {
			check(s, st)
		}
		if st.Finished {
			if !allFinished(st.Games) {
				t.Fatalf("finished step creates games to play %+v", st.Games)
			}
			return s, st
		}
		var pending []int
		for i, g := range s.Games {
			if !g.Finished() {
				pending = append(pending, i)
			}
		}
		if len(pending) == 0 {
			t.Fatalf("%s: not finished, no game pending, none created: %+v", s.Format, st)
		}
		if r.IntN(2) == 0 {
			pending = pending[:1+r.IntN(len(pending))]
		}
		for _, i := range pending {
			s.Games[i].Outcome = randomOutcome(r)
		}
		if withdraw > 0 && r.Float64() < withdraw {
			var active []int
			for i, p := range s.Players {
				if !p.Withdrawn {
					active = append(active, i)
				}
			}
			if len(active) > 2 {
				i := active[r.IntN(len(active))]
				s.Players = append([]Player(nil), s.Players...)
				s.Players[i].Withdrawn = true
			}
		}
	}
}

func TestParseFormatAndOutcome(t *testing.T) {
	for _, f := range Formats {
		if g, err := ParseFormat(string(f)); err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, g, err)
		}
	}
	if _, err := ParseFormat("arena"); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "swiss") {
		t.Errorf("ParseFormat(arena): %v: want ErrInvalid naming the formats", err)
	}
	for o := Pending; o <= BothLose; o++ {
		if p, err := ParseOutcome(o.String()); err != nil || p != o {
			t.Errorf("ParseOutcome(%q) = %v, %v", o.String(), p, err)
		}
	}
	if _, err := ParseOutcome("win"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseOutcome(win): %v", err)
	}
}

func TestNextRejectsBadStates(t *testing.T) {
	ok := State{ID: "t", Format: FormatSwiss, Players: players(4)}
	cases := []struct {
		name string
		edit func(*State)
		want string
	}{
		{"format", func(s *State) { s.Format = "ladder" }, "format"},
		{"one player", func(s *State) { s.Players = players(1) }, "1 players"},
		{"too many", func(s *State) { s.Players = players(MaxPlayers + 1) }, "513 players"},
		{"empty name", func(s *State) { s.Players[0].Name = "" }, "empty name"},
		{"twice", func(s *State) { s.Players[1].Name = "p00" }, "entered twice"},
		{"rounds", func(s *State) { s.Rounds = MaxSwissRounds + 1 }, "Swiss rounds"},
		{"negative rounds", func(s *State) { s.Rounds = -1 }, "Swiss rounds"},
		{"round 0", func(s *State) { s.Games = []Game{{Round: 0, X: "p00", O: "p01"}} }, "count from 1"},
		{"same key", func(s *State) {
			s.Games = []Game{{Round: 1, X: "p00", O: "p01"}, {Round: 1, X: "p02", O: "p03"}}
		}, "twice"},
		{"stranger", func(s *State) { s.Games = []Game{{Round: 1, X: "p00", O: "zed"}} }, "not entered"},
		{"self", func(s *State) { s.Games = []Game{{Round: 1, X: "p00", O: "p00"}} }, "themself"},
		{"outcome", func(s *State) { s.Games = []Game{{Round: 1, X: "p00", O: "p01", Outcome: 9}} }, "outcome 9"},
		{"pending bye", func(s *State) { s.Games = []Game{{Round: 1, X: "p00"}} }, "a bye is x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := ok
			s.Players = players(4)
			c.edit(&s)
			_, err := Next(s)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Next: %v: want ErrInvalid saying %q", err, c.want)
			}
		})
	}
	if _, err := Next(ok); err != nil {
		t.Fatalf("the unedited state: %v", err)
	}
}

func TestSwissRounds(t *testing.T) {
	// ceil(log2 n), at least 1, at most n-1 (n odd: n).
	for n, want := range map[int]int{2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 16: 4, 17: 5, 100: 7} {
		if got := SwissRounds(n); got != want {
			t.Errorf("SwissRounds(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestNextIgnoresGameOrder: the server reads games in any order; the
// step must not depend on it.
func TestNextIgnoresGameOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, f := range Formats {
		s := State{ID: "order", Format: f, Players: randomPlayers(r, 7)}
		run(t, s, r, 0, func(s State, st Step) {
			if st.Finished {
				return
			}
			// the next state as the server would see it: finish one pending game.
			s.Games = append([]Game(nil), s.Games...)
			for i := range s.Games {
				if !s.Games[i].Finished() {
					s.Games[i].Outcome = Draw
					break
				}
			}
			want, err1 := Next(s)
			shuffled := s
			shuffled.Games = append([]Game(nil), s.Games...)
			r.Shuffle(len(shuffled.Games), func(i, j int) {
				shuffled.Games[i], shuffled.Games[j] = shuffled.Games[j], shuffled.Games[i]
			})
			shuffled.Players = append([]Player(nil), s.Players...)
			r.Shuffle(len(shuffled.Players), func(i, j int) {
				shuffled.Players[i], shuffled.Players[j] = shuffled.Players[j], shuffled.Players[i]
			})
			got, err2 := Next(shuffled)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(want, got) {
				t.Fatalf("%s: shuffled games give %+v, in order %+v (%v, %v)", f, got, want, err1, err2)
			}
		})
	}
}
