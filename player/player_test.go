package player

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"alak/internal/testlong"
	"alak/rules"
)

// The tests that play or solve for seconds (this file's games and
// endgames, perfect_test.go's TestPerfectKeepsTheValue and
// TestPerfectResistsLongest) call t.Parallel: they share nothing, count
// their budgets in nodes and playouts or give the clock seconds to spare,
// and the package's run otherwise left a core idle. The tests that set the
// environment (the GTP engines) or time a busy machine stay sequential.

// smallPresets are every preset on a board small enough for quick games.
var smallPresets = []string{
	"alak size=7", "traditional size=6", "tromp-taylor size=5", "alterigo size=4x4",
	"alterigo size=7", "dewdney", "golf", "alak size=6 ko=superko",
}

// playGame plays a whole game between two players and fails the test on an
// error or an illegal move.
func playGame(t testing.TB, r rules.Rules, black, white Player, maxLen int) *rules.Game {
	t.Helper()
	g, err := rules.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	ps := [2]Player{black, white}
	for !g.Over() && g.Len() < maxLen {
		p := ps[g.Position().ToMove()]
		m, err := p.Move(context.Background(), g)
		if err != nil {
			t.Fatalf("%s at ply %d (%v): %v", p.Name(), g.Len(), g.Position(), err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s played %v at ply %d (%v): %v", p.Name(), m, g.Len(), g.Position(), err)
		}
	}
	return g
}

// TestEveryPlayerEveryPreset plays every player (under small budgets)
// against random under every preset, as Black and as White: every move must
// be legal and the games must end. By default each pairing plays one game,
// its side alternating from one pairing to the next so that every player
// plays both sides over the presets and every preset sees both; with
// ALAK_LONG=1 each pairing plays both sides.
func TestEveryPlayerEveryPreset(t *testing.T) {
	t.Parallel()
	specs := []string{"random", "greedy", "alphabeta:nodes=3000", "alphabeta:depth=2", "mcts:playouts=150", "perfect:time=10ms,mem=4", "strong:time=10ms,mem=4", "level:3"}
	both := testlong.Enabled(t)
	for k, rs := range smallPresets {
		r := mustRules(t, rs)
		for i, spec := range specs {
			t.Run(rs+"/"+spec, func(t *testing.T) {
				p, err := New(spec, uint64(i))
				if err != nil {
					t.Fatal(err)
				}
				for side := range 2 {
					if !both && side != (k+i)%2 {
						continue
					}
					opp := NewRandom(uint64(10 + side))
					players := [2]Player{p, opp}
					if side == 1 {
						players = [2]Player{opp, p}
					}
					g := playGame(t, r, players[0], players[1], 2000)
					if !g.Over() {
						t.Fatalf("game not over after %d moves", g.Len())
					}
				}
			})
		}
	}
}

// TestSameSeedSameGame checks that the seeded players are reproducible:
// the same seeds play the same game, and other seeds another game.
func TestSameSeedSameGame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ rules, a, b string }{
		{"alak", "mcts:playouts=300", "alphabeta:nodes=5000"},
		{"alterigo size=5x5", "mcts:playouts=100", "greedy"},
		{"alak size=9", "random", "greedy"},
	} {
		t.Run(tc.rules+"/"+tc.a+"/"+tc.b, func(t *testing.T) {
			r := mustRules(t, tc.rules)
			game := func(seed uint64) []rules.Move {
				a, err := New(tc.a, seed)
				if err != nil {
					t.Fatal(err)
				}
				b, err := New(tc.b, seed+1)
				if err != nil {
					t.Fatal(err)
				}
				return playGame(t, r, a, b, 400).Moves()
			}
			first, second := game(1), game(1)
			if !slices.Equal(first, second) {
				t.Fatalf("seed 1 played %v, then %v", first, second)
			}
			differ := false
			for seed := uint64(2); seed < 6 && !differ; seed++ {
				differ = !slices.Equal(first, game(seed))
			}
			if !differ {
				t.Fatalf("seeds 1 to 5 all played %v", first)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	for _, spec := range []string{
		"nobody", "random:x=1", "greedy:depth=2", "alphabeta:depth=0", "alphabeta:depth=x",
		"alphabeta:time=fast", "alphabeta:speed=3", "mcts:playouts=-1", "mcts:c=abc", "mcts:time",
		"level:0", "level:99", "level:x",
	} {
		if p, err := New(spec, 1); err == nil {
			t.Errorf("New(%q) = %v, want an error", spec, p.Name())
		}
	}
}

func TestNewNames(t *testing.T) {
	for _, spec := range []string{"random", "greedy", "alphabeta:depth=3", "mcts:playouts=10,c=1", "alphabeta:time=50ms nodes=100"} {
		p, err := New(spec, 1)
		if err != nil {
			t.Fatalf("New(%q): %v", spec, err)
		}
		if p.Name() != spec {
			t.Errorf("New(%q).Name() = %q", spec, p.Name())
		}
	}
}

// TestLevels checks the documented ends of the level scale and that
// level:N builds the player Level(N) names.
func TestLevels(t *testing.T) {
	if s, err := Level(1); err != nil || s != "random" {
		t.Errorf("Level(1) = %q, %v; docs/strength.md says level 1 is random", s, err)
	}
	if _, err := Level(Levels() + 1); err == nil {
		t.Errorf("Level(%d) accepted", Levels()+1)
	}
	for n := 1; n <= Levels(); n++ {
		spec, err := Level(n)
		if err != nil {
			t.Fatal(err)
		}
		p, err := New("level:"+string(rune('0'+n)), 1)
		if err != nil {
			t.Fatalf("level:%d: %v", n, err)
		}
		if p.Name() != spec {
			t.Errorf("level:%d is %q, Level(%d) says %q", n, p.Name(), n, spec)
		}
		if LevelName(n) == "" {
			t.Errorf("level %d has no name in words", n)
		}
	}
	// The page names the ends Beginner and Perfect.
	if LevelName(1) != "Beginner" || LevelName(Levels()) != "Perfect" || LevelName(Levels()+1) != "" {
		t.Errorf("level names: %q ... %q, then %q; want Beginner ... Perfect, then none", LevelName(1), LevelName(Levels()), LevelName(Levels()+1))
	}
}

func TestWithBudget(t *testing.T) {
	for _, tc := range []struct {
		spec     string
		movetime time.Duration
		playouts int
		want     string
	}{
		{"mcts", 100 * time.Millisecond, 0, "mcts:time=100ms"},
		{"mcts", 100 * time.Millisecond, 500, "mcts:playouts=500"},
		{"mcts:c=1", 0, 500, "mcts:c=1,playouts=500"},
		{"mcts:playouts=9", time.Second, 0, "mcts:playouts=9"},
		{"alphabeta", time.Second, 500, "alphabeta:time=1s"},
		{"alphabeta:depth=3", time.Second, 0, "alphabeta:depth=3"},
		{"greedy", time.Second, 10, "greedy"},
		{"mcts", 0, 0, "mcts"},
		{"gtp:alak gtp", 100 * time.Millisecond, 0, "gtp:genmove=5.2s alak gtp"},
		{"gtp:setup=1s alak gtp", time.Second, 0, "gtp:genmove=7s setup=1s alak gtp"},
		{"gtp:genmove=1m alak gtp", time.Second, 0, "gtp:genmove=1m alak gtp"},
		{"gtp:alak gtp --genmove=1", 0, 100, "gtp:alak gtp --genmove=1"},
	} {
		if got := WithBudget(tc.spec, tc.movetime, tc.playouts); got != tc.want {
			t.Errorf("WithBudget(%q, %v, %d) = %q, want %q", tc.spec, tc.movetime, tc.playouts, got, tc.want)
		}
	}
}

// TestNoMoveWhenOver checks the error of every player on a finished game.
func TestNoMoveWhenOver(t *testing.T) {
	r := mustRules(t, "alak size=3")
	g := playGame(t, r, NewRandom(1), NewRandom(2), 100)
	for _, spec := range []string{"random", "greedy", "alphabeta:depth=3", "mcts:playouts=10"} {
		p, _ := New(spec, 1)
		if _, err := p.Move(context.Background(), g); !errors.Is(err, ErrNoMove) {
			t.Errorf("%s on a finished game: %v, want ErrNoMove", spec, err)
		}
	}
}

// TestCancelled checks that a cancelled context stops the search players.
func TestCancelled(t *testing.T) {
	g, _ := rules.NewGame(mustRules(t, "alak"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, spec := range []string{"alphabeta", "mcts"} {
		p, _ := New(spec, 1)
		if _, err := p.Move(ctx, g); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v", spec, err)
		}
	}
}

// bruteValue is an independent game-tree evaluation for the tests: plain
// negamax over rules.Game (which applies the repetition draw and superko),
// returning the best margin for the player to move, where a margin is
// Black's Outcome.Margin turned to the mover's side. It gives up (ok false)
// after budget nodes.
func bruteValue(g *rules.Game, budget *int) (float64, bool) {
	*budget--
	if *budget < 0 {
		return 0, false
	}
	me := g.Position().ToMove()
	if o := g.Outcome(); o.Over() {
		if me == rules.White {
			return -o.Margin, true
		}
		return o.Margin, true
	}
	best := math.Inf(-1)
	for _, m := range g.LegalMoves(nil) {
		if err := g.Play(m); err != nil {
			panic(err)
		}
		v, ok := bruteValue(g, budget)
		if err := g.Undo(); err != nil {
			panic(err)
		}
		if !ok {
			return 0, false
		}
		best = max(best, -v)
	}
	return best, true
}

// bruteMoves returns the value of every legal move in g for the mover.
func bruteMoves(g *rules.Game, budget int) (map[rules.Move]float64, bool) {
	out := map[rules.Move]float64{}
	for _, m := range g.LegalMoves(nil) {
		h := g.Clone()
		if err := h.Play(m); err != nil {
			panic(err)
		}
		v, ok := bruteValue(h, &budget)
		if !ok {
			return nil, false
		}
		out[m] = -v
	}
	return out, true
}

// endgamePositions collects up to want positions from seeded random games
// under r (looking at no more than 40 per position wanted) whose moves the
// brute force values within budget nodes, and whose moves are not all
// equally good.
func endgamePositions(t *testing.T, r rules.Rules, want, budget int) (games []*rules.Game, values []map[rules.Move]float64) {
	t.Helper()
	seen := map[uint64]bool{}
	tries := 0
	randomGames(t, r, 200, 60, 11, func(g *rules.Game) {
		if len(games) >= want || tries >= 40*want || g.Over() || g.Len() < 2 || seen[g.Position().Hash()] {
			return
		}
		tries++
		moves := g.LegalMoves(nil)
		if len(moves) < 2 {
			return
		}
		vals, ok := bruteMoves(g, budget)
		if !ok {
			return
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range vals {
			lo, hi = min(lo, v), max(hi, v)
		}
		if lo == hi {
			return // every move is as good: nothing to test
		}
		seen[g.Position().Hash()] = true
		games = append(games, g.Clone())
		values = append(values, vals)
	})
	if len(games) < want/2 {
		t.Fatalf("only %d test positions found", len(games))
	}
	return games, values
}

func bestOf(vals map[rules.Move]float64) float64 {
	best := math.Inf(-1)
	for _, v := range vals {
		best = max(best, v)
	}
	return best
}

// endgameCases are the boards where the plain brute force finishes, with
// the number of endgame positions to test on each; the sliding presets and
// traditional's passes make its trees too large here.
var endgameCases = []struct {
	rules string
	want  int
}{
	{"alak size=6", 30}, {"alak size=7", 30}, {"tromp-taylor size=3", 20}, {"alterigo size=2x3", 12},
}

// endgameCount is how many of a case's endgame positions a test takes:
// all with ALAK_LONG=1, half without (internal/testlong).
func endgameCount(t *testing.T, want int) int { return testlong.Size(t, want/2, want) }

// TestAlphaBetaExactInEndgames checks that alpha-beta, searching deep
// enough to reach every end, plays a move of the best value found by the
// independent brute force, in positions from random games on small boards.
func TestAlphaBetaExactInEndgames(t *testing.T) {
	t.Parallel()
	for _, tc := range endgameCases {
		t.Run(tc.rules, func(t *testing.T) {
			r := mustRules(t, tc.rules)
			games, values := endgamePositions(t, r, endgameCount(t, tc.want), 5000)
			for i, g := range games {
				p := NewAlphaBeta("alphabeta", 40, 300000, 0, uint64(i))
				m, err := p.Move(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				if got, best := values[i][m], bestOf(values[i]); got != best {
					t.Errorf("%v %c: alphabeta plays %v worth %v; the brute force values the moves %v (best %v)",
						g.Position(), g.Position().ToMove().Symbol(), m, got, values[i], best)
				}
			}
		})
	}
}

// TestMCTSOutcomeInEndgames checks that MCTS keeps the outcome the brute
// force finds (a win stays a win, a draw at least a draw) in small
// endgames, where its solver proves the moves.
func TestMCTSOutcomeInEndgames(t *testing.T) {
	t.Parallel()
	sign := func(v float64) float64 {
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	for _, tc := range endgameCases {
		t.Run(tc.rules, func(t *testing.T) {
			r := mustRules(t, tc.rules)
			games, values := endgamePositions(t, r, endgameCount(t, tc.want), 5000)
			for i, g := range games {
				p := NewMCTS("mcts", 20000, 0, 0.7, uint64(i))
				m, err := p.Move(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				if got, best := sign(values[i][m]), sign(bestOf(values[i])); got != best {
					t.Errorf("%v %c: mcts plays %v worth %v; the brute force values the moves %v",
						g.Position(), g.Position().ToMove().Symbol(), m, values[i][m], values[i])
				}
			}
		})
	}
}

// TestGreedyPrefersCapture: in "-xoo--" with Black to move, a stone on
// point 5 closes the o run between two x stones and captures it (Baljeu's
// capture rule), the only move that gains more than one stone.
func TestGreedyPrefersCapture(t *testing.T) {
	r := mustRules(t, "alak size=6")
	pos, err := rules.ParseDiagram(r, "-xoo--", rules.Black)
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGameFrom(pos)
	for seed := range uint64(5) {
		m, err := NewGreedy(seed).Move(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if m != rules.Place(4) {
			t.Errorf("greedy seed %d plays %v, want 5 (captures two)", seed, m)
		}
	}
}
