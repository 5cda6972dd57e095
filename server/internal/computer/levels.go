package computer

import (
	"strings"
	"sync"

	"alak/player"
	"alak/server/internal/pages"
)

// The computer's levels on the home page: named in words
// (player.LevelName), the algorithm behind each said in a smaller note.

// algoKinds says each kind of computer player in words.
var algoKinds = map[string]string{
	"random":    "random legal moves",
	"greedy":    "greedy: the best gain in one move",
	"alphabeta": "alpha-beta search",
	"mcts":      "Monte Carlo tree search",
	"perfect":   "the exact solver (the strong player where it cannot finish)",
	"strong":    "proofs where the reachable positions fit, alpha-beta search elsewhere",
}

// algoWords says a level's player spec in words: "alphabeta:depth=2" is
// "alpha-beta search, 2 moves deep"; a spec of an unknown kind is shown as
// it is.
func algoWords(spec string) string {
	kind, args, _ := strings.Cut(spec, ":")
	w, ok := algoKinds[kind]
	if !ok {
		return strings.ReplaceAll(spec, ":", " ")
	}
	for _, a := range strings.Split(args, ",") {
		k, v, _ := strings.Cut(a, "=")
		switch k {
		case "depth":
			w += ", " + v + " moves deep"
		case "time":
			w += ", " + v + " a move"
		case "playouts":
			w += ", " + v + " playouts a move"
		}
	}
	return w
}

// LevelChoices lists the computer's levels for the create form.
func LevelChoices() []pages.LevelChoice {
	var out []pages.LevelChoice
	for n := 1; n <= player.Levels(); n++ {
		spec, _ := player.Level(n)
		out = append(out, pages.LevelChoice{N: n, Name: player.LevelName(n), Algo: algoWords(spec)})
	}
	return out
}

// levelSpecs maps each level's spec in the form games store it (the
// canonical spec player.NewUntrusted builds, bounds added, as newGame
// stores a computer's seat) to the level's number.
var levelSpecs = sync.OnceValue(func() map[string]int {
	out := map[string]int{}
	for n := player.Levels(); n >= 1; n-- { // the weakest level wins a spec two levels share
		spec, _ := player.Level(n)
		p, err := player.NewUntrusted(spec, 1)
		if err != nil {
			continue
		}
		out[p.Name()] = n
		p.Close()
	}
	return out
})

// Name names a computer seat by its spec, which is canonical (stored
// as the player package built it): a level's spec by the level's name, as
// the create form offers it ("alphabeta:time=3s,depth=2" is computer
// (Casual)), any other by its words ("mcts:time=500ms,playouts=300000" is
// computer (mcts time=500ms playouts=300000)).
func Name(spec string) string {
	if n, ok := levelSpecs()[spec]; ok {
		return "computer (" + player.LevelName(n) + ")"
	}
	return "computer (" + strings.Join(strings.FieldsFunc(spec, func(r rune) bool { return r == ':' || r == ',' || r == ' ' }), " ") + ")"
}
