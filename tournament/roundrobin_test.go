package tournament

import (
	"fmt"
	"testing"
)

func players(n int) []Player {
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = Player{Name: fmt.Sprintf("p%02d", i), Rating: float64(2000 - 10*i)}
	}
	return ps
}

func TestRoundRobinAllAtOnceSmoke(t *testing.T) {
	s := State{ID: "t", Format: FormatRoundRobin, AllAtOnce: true, Players: players(4)}
	st, err := Next(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Games) != 6 || st.Round != 1 || st.Finished {
		t.Fatalf("step %+v: want the 6 games of 4 players, round 1", st)
	}
}
