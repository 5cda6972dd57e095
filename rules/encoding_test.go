package rules

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGameJSONRoundTrip: random games of every
// preset (and of presets with every option changed that applies), from the
// rules' start and from set-up positions with prisoners and passes,
// encoded and decoded, are equal: the same rules, start, moves, positions
// and outcome.
func TestGameJSONRoundTrip(t *testing.T) {
	variants := propertyCases(t)
	for _, s := range []string{"traditional komi=6.75", "alak edge=off own=removed ko=simple repetition=4",
		"golf selfcapture=run min=1 start=xx_x__o_oo", "alterigo size=4x3 score=area komi=-0.5", "tromp-taylor ko=situational passes=3"} {
		r, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		variants = append(variants, r)
	}
	for i, r := range variants {
		t.Run(r.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, uint64(i)))
			for k := range 20 {
				g, err := NewGame(r)
				if err != nil {
					t.Fatal(err)
				}
				// Half the games start from the position a random game
				// reached, with prisoners where the rules keep them.
				if k%2 == 1 {
					randomPlay(g, rng, rng.IntN(12))
					start := g.Position()
					if start.Over() {
						continue
					}
					if start, err = start.WithPrisoners(rng.IntN(5), rng.IntN(5)); err != nil {
						t.Fatal(err)
					}
					g = NewGameFrom(start)
				}
				randomPlay(g, rng, 1+rng.IntN(40))
				data, err := json.Marshal(g)
				if err != nil {
					t.Fatal(err)
				}
				var back Game
				if err := json.Unmarshal(data, &back); err != nil {
					t.Fatalf("%s: %v", data, err)
				}
				sameGame(t, g, &back, string(data))
				again, _ := json.Marshal(&back)
				if string(again) != string(data) {
					t.Errorf("encoded twice:\n%s\n%s", data, again)
				}
			}
		})
	}
}

// randomPlay plays up to n random legal moves (resigning now and then).
func randomPlay(g *Game, rng *rand.Rand, n int) {
	for range n {
		ms := g.LegalMoves(nil)
		if len(ms) == 0 {
			return
		}
		m := ms[rng.IntN(len(ms))]
		if rng.IntN(50) == 0 {
			m = Resign
		}
		if g.Play(m) != nil {
			return
		}
	}
}

func sameGame(t *testing.T, a, b *Game, data string) {
	t.Helper()
	if a.Rules() != b.Rules() {
		t.Errorf("%s: rules %+v != %+v", data, a.Rules(), b.Rules())
	}
	if a.Len() != b.Len() {
		t.Fatalf("%s: %d moves != %d", data, a.Len(), b.Len())
	}
	for i := 0; i <= a.Len(); i++ {
		pa, pb := a.PositionAt(i), b.PositionAt(i)
		ta, _ := pa.MarshalText()
		tb, _ := pb.MarshalText()
		if string(ta) != string(tb) || pa.Hash() != pb.Hash() || pa.Prisoners(Black) != pb.Prisoners(Black) ||
			pa.Prisoners(White) != pb.Prisoners(White) || pa.Passes() != pb.Passes() || pa.Over() != pb.Over() {
			t.Fatalf("%s: position %d: %s != %s", data, i, ta, tb)
		}
	}
	if a.Outcome() != b.Outcome() {
		t.Errorf("%s: outcome %v != %v", data, a.Outcome(), b.Outcome())
	}
}

func TestGameJSONErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"moves":["1"]}`, "needs its rules"},
		{`{"rules":"alak size=6","moves":["1","1"]}`, "move 2: point 1: the point is occupied"},
		{`{"rules":"alak size=6","start":"x--oX- x"}`, "cannot be to move"},
		{`{"rules":"alak size=6","start":"x--oX-"}`, "player to move"},
		{`{"rules":"alak size=6","start":"x--o-- o passes=1"}`, "no passing"},
		{`{"rules":"alak size=7","start":"x--oX- o"}`, "but the rules say 7"},
		{`{"rules":"alterigo size=3x3","moves":["5"]}`, "vertex"},
		{`{"rules":"chess"}`, "unknown rules"},
		{`{"rules":"alak","moves":["` + strings.Repeat("1", 500) + `"]}`, "..."},
	} {
		var g Game
		err := json.Unmarshal([]byte(c.in), &g)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to say %q", c.in, err, c.want)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("%s: error %d bytes long", c.in, len(err.Error()))
		}
	}
	var pos Position
	if err := pos.UnmarshalText([]byte("x--oX- o")); err == nil {
		t.Error("a zero Position read a text without rules (it used to fall back to alak)")
	}
}
