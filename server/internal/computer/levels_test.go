package computer

import (
	"slices"
	"testing"

	"alak/player"
)

// TestNames: a computer seat is named by its level when its spec is a
// level's (as a game stores it: the canonical spec the player package
// builds; the weakest level names a spec two levels share), else by its
// spec in words; the house bots' names are the levels' in lower case, and
// only they are reserved.
func TestNames(t *testing.T) {
	var stored []string // by level, from 1
	for n := 1; n <= player.Levels(); n++ {
		spec, err := player.Level(n)
		if err != nil {
			t.Fatal(err)
		}
		p, err := player.NewUntrusted(spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		stored = append(stored, p.Name())
		p.Close()
	}
	for i, spec := range stored {
		weakest := slices.Index(stored, spec)
		if got, want := Name(spec), "computer ("+player.LevelName(weakest+1)+")"; got != want {
			t.Errorf("level %d (%s): %q, want %q", i+1, spec, got, want)
		}
		if !IsHouseBotName(houseBotName(i + 1)) {
			t.Errorf("level %d: %q is not taken for a house bot's name", i+1, houseBotName(i+1))
		}
	}
	if got, want := Name("mcts:time=500ms,playouts=300000"), "computer (mcts time=500ms playouts=300000)"; got != want {
		t.Errorf("a spec of no level: %q, want %q", got, want)
	}
	if got, want := houseBotName(1), "alak-beginner"; got != want {
		t.Errorf("level 1's house bot: %q, want %q", got, want)
	}
	for _, name := range []string{"alak", "alak-", "alak-beginners", "beginner"} {
		if IsHouseBotName(name) {
			t.Errorf("%q is taken for a house bot's name", name)
		}
	}
}
