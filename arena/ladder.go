package arena

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"alak/player"
	"alak/rules"
)

// LadderConfig describes a ladder: every player against every other.
type LadderConfig struct {
	Rules    rules.Rules
	Players  []string // player specs; the first is the rating's anchor (Elo 0)
	Games    int      // games per pair
	Openings string
	Seed     uint64
	Workers  int
	MaxMoves int
	MoveTime time.Duration // see Config
	// Progress, when set, is called after every game with the pair being
	// played (indexes into Players) and its progress.
	Progress  func(a, b int, p Progress)
	NewPlayer func(spec string, seed uint64) (player.Player, error)
}

// Rating is one line of a ladder's table.
type Rating struct {
	Player string
	Elo    float64 // relative to the first player
	Games  int
	Score  float64 // points per game against the field
}

// Ladder is a ladder's outcome: the ratings, best first, and every pair's
// match (Pairs[k] has the players of the k-th pair in Players order).
type Ladder struct {
	Ratings []Rating
	Pairs   []Result
}

// RunLadder plays the ladder's matches one pair after another (each match
// in parallel) and fits the ratings. On an error (a cancelled context, a
// player that fails) it returns the pairs finished before it, unrated.
func RunLadder(ctx context.Context, cfg LadderConfig) (Ladder, error) {
	var lad Ladder
	if len(cfg.Players) < 2 {
		return lad, fmt.Errorf("%w: a ladder needs at least two players", ErrConfig)
	}
	for a := range cfg.Players {
		for b := a + 1; b < len(cfg.Players); b++ {
			mc := Config{
				Rules: cfg.Rules, Players: [2]string{cfg.Players[a], cfg.Players[b]}, Games: cfg.Games,
				Openings: cfg.Openings, Seed: cfg.Seed + uint64(a*1000+b), Workers: cfg.Workers,
				MaxMoves: cfg.MaxMoves, MoveTime: cfg.MoveTime, NewPlayer: cfg.NewPlayer,
			}
			if cfg.Progress != nil {
				mc.Progress = func(p Progress) { cfg.Progress(a, b, p) }
			}
			res, err := Match(ctx, mc)
			if err != nil {
				return lad, err
			}
			lad.Pairs = append(lad.Pairs, res)
		}
	}
	lad.Ratings = FitElo(cfg.Players, lad.Pairs)
	return lad, nil
}

// FitElo fits Bradley–Terry strengths to the matches by the MM algorithm
// (Hunter, 2004), a draw counting half a win to each side, and returns them
// as Elo ratings (400·log10 of the strength) relative to players[0], best
// first. Each pair that met also gets one virtual draw, a prior that keeps
// a player who won or lost every game at a finite rating.
func FitElo(players []string, matches []Result) []Rating {
	n := len(players)
	idx := map[string]int{}
	for i, p := range players {
		idx[p] = i
	}
	games := make([][]float64, n) // games[i][j]: games between i and j, the virtual draw included
	for i := range games {
		games[i] = make([]float64, n)
	}
	points := make([]float64, n) // points scored, the virtual draws included
	played := make([]int, n)
	scored := make([]float64, n)
	for _, m := range matches {
		a, okA := idx[m.Players[0]]
		b, okB := idx[m.Players[1]]
		if !okA || !okB || a == b || m.Games == 0 {
			continue
		}
		if games[a][b] == 0 {
			games[a][b], games[b][a] = 1, 1
			points[a] += 0.5
			points[b] += 0.5
		}
		pa := m.Score * float64(m.Games)
		games[a][b] += float64(m.Games)
		games[b][a] += float64(m.Games)
		points[a] += pa
		points[b] += float64(m.Games) - pa
		played[a] += m.Games
		played[b] += m.Games
		scored[a] += pa
		scored[b] += float64(m.Games) - pa
	}
	strength := make([]float64, n)
	for i := range strength {
		strength[i] = 1
	}
	for range 10000 {
		change := 0.0
		next := make([]float64, n)
		for i := range n {
			den := 0.0
			for j := range n {
				if games[i][j] > 0 {
					den += games[i][j] / (strength[i] + strength[j])
				}
			}
			if den == 0 {
				next[i] = strength[i]
				continue
			}
			next[i] = points[i] / den
		}
		// Normalise by the geometric mean: strengths are defined up to a factor.
		logMean := 0.0
		for _, s := range next {
			logMean += math.Log(s)
		}
		f := math.Exp(logMean / float64(n))
		for i := range next {
			next[i] /= f
			change = math.Max(change, math.Abs(math.Log(next[i]/strength[i])))
		}
		strength = next
		if change < 1e-12 {
			break
		}
	}
	out := make([]Rating, n)
	for i, p := range players {
		out[i] = Rating{Player: p, Elo: 400 * math.Log10(strength[i]/strength[0]), Games: played[i]}
		if played[i] > 0 {
			out[i].Score = scored[i] / float64(played[i])
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Elo > out[b].Elo })
	return out
}
