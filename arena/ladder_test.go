package arena

import (
	"context"
	"math"
	"testing"

	"alak/rules"
)

func match(a, b string, games int, score float64) Result {
	return Result{Players: [2]string{a, b}, Games: games, Score: score}
}

// TestFitEloTwoPlayers: with two players the Bradley–Terry fit has a closed
// form, strength ratio = points ratio; with the virtual draw, A's points are
// 0.5 + 15 and B's 0.5 + 5 after a 15–5 match, so the difference is
// 400·log10(15.5/5.5).
func TestFitEloTwoPlayers(t *testing.T) {
	r := FitElo([]string{"b", "a"}, []Result{match("a", "b", 20, 0.75)})
	if r[0].Player != "a" || r[1].Player != "b" {
		t.Fatalf("order %v", r)
	}
	if want := 400 * math.Log10(15.5/5.5); math.Abs(r[0].Elo-want) > 1e-6 || r[1].Elo != 0 {
		t.Errorf("ratings %v, want a at %v and b (the anchor) at 0", r, want)
	}
	if r[0].Games != 20 || r[0].Score != 0.75 || r[1].Score != 0.25 {
		t.Errorf("games and scores %v", r)
	}
}

// TestFitEloMaximumLikelihood checks the fit against the conditions that
// define it: for each player, the expected points against the others under
// the fitted ratings (Expected) equal the points scored, the virtual draws
// included.
func TestFitEloMaximumLikelihood(t *testing.T) {
	players := []string{"p", "q", "r", "s"}
	ms := []Result{
		match("p", "q", 10, 0.3), match("p", "r", 10, 0.1), match("p", "s", 10, 0.05),
		match("q", "r", 10, 0.4), match("q", "s", 10, 0.2), match("r", "s", 10, 0.45),
	}
	rs := FitElo(players, ms)
	elo := map[string]float64{}
	for _, r := range rs {
		elo[r.Player] = r.Elo
	}
	if elo["p"] != 0 {
		t.Errorf("the anchor p is at %v", elo["p"])
	}
	for _, pl := range players {
		got, want := 0.0, 0.0
		for _, m := range ms {
			for side := range 2 {
				if m.Players[side] != pl {
					continue
				}
				opp := m.Players[1-side]
				pts := m.Score * float64(m.Games)
				if side == 1 {
					pts = float64(m.Games) - pts
				}
				want += pts + 0.5
				got += float64(m.Games+1) * Expected(elo[pl]-elo[opp])
			}
		}
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("%s: expected points %v under the fit, scored %v", pl, got, want)
		}
	}
	if !(rs[0].Player == "s" && rs[3].Player == "p") {
		t.Errorf("order %v: s won every match, p lost every one", rs)
	}
}

func TestRunLadder(t *testing.T) {
	lad, err := RunLadder(context.Background(), LadderConfig{
		Rules: rules.MustPreset("alak"), Players: []string{"random", "resigner", "greedy"}, Games: 4,
		NewPlayer: withTestPlayers,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(lad.Pairs) != 3 || len(lad.Ratings) != 3 {
		t.Fatalf("%d pairs, %d ratings", len(lad.Pairs), len(lad.Ratings))
	}
	// The resigner loses all its 8 games, so it is last.
	last := lad.Ratings[2]
	if last.Player != "resigner" || last.Games != 8 || last.Score != 0 {
		t.Errorf("last %+v, want the resigner with 8 games and no point", last)
	}
	if _, err := RunLadder(context.Background(), LadderConfig{Players: []string{"random"}}); err == nil {
		t.Error("a ladder of one player was accepted")
	}
}
