package tournament

import "sort"

// Standings returns every player's line, best first. Scores: win 1, draw
// ½, loss 0, a Swiss bye 1, a forfeit as a win or a loss, BothLose 0 to
// each. Ties: round robins by Sonneborn-Berger; Swiss by Buchholz, then
// Sonneborn-Berger; knockouts by the bracket round reached first (the
// champion above the finalist above the semi-finalists ...), then score;
// then, in every format, the higher rating, then the name.
//
// Sonneborn-Berger adds, over a player's finished games, the final score
// of each opponent beaten and half that of each opponent drawn. Buchholz
// adds the final scores of the opponents met. A bye adds to neither.
func Standings(s State) []Standing {
	score := make(map[string]float64, len(s.Players))
	played := make(map[string]int, len(s.Players))
	ko := s.Format == FormatKnockout
	for _, g := range s.Games {
		if !g.Finished() {
			continue
		}
		x, o := g.points()
		if g.Bye() {
			if !ko {
				score[g.X] += x
			}
			continue
		}
		score[g.X] += x
		score[g.O] += o
		played[g.X]++
		played[g.O]++
	}
	sb := make(map[string]float64)
	buch := make(map[string]float64)
	for _, g := range s.Games {
		if !g.Finished() || g.Bye() {
			continue
		}
		x, o := g.points()
		buch[g.X] += score[g.O]
		buch[g.O] += score[g.X]
		sb[g.X] += x * score[g.O]
		sb[g.O] += o * score[g.X]
	}
	var reached map[string]int
	if ko {
		reached = knockoutReached(s)
	}
	rating := make(map[string]float64, len(s.Players))
	out := make([]Standing, 0, len(s.Players))
	for _, p := range s.Players {
		rating[p.Name] = p.Rating
		st := Standing{Name: p.Name, Score: score[p.Name], Played: played[p.Name]}
		switch s.Format {
		case FormatSwiss:
			st.Tiebreaks = []float64{buch[p.Name], sb[p.Name]}
		case FormatKnockout:
			st.Tiebreaks = []float64{float64(reached[p.Name])}
		default:
			st.Tiebreaks = []float64{sb[p.Name]}
		}
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ko && a.Tiebreaks[0] != b.Tiebreaks[0] {
			return a.Tiebreaks[0] > b.Tiebreaks[0]
		}
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		for k := range a.Tiebreaks {
			if a.Tiebreaks[k] != b.Tiebreaks[k] {
				return a.Tiebreaks[k] > b.Tiebreaks[k]
			}
		}
		return better(Player{Name: a.Name, Rating: rating[a.Name]}, Player{Name: b.Name, Rating: rating[b.Name]})
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// sortedGames returns the games by round, then slot.
func sortedGames(gs []Game) []Game {
	out := append([]Game(nil), gs...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Round != out[j].Round {
			return out[i].Round < out[j].Round
		}
		return out[i].Slot < out[j].Slot
	})
	return out
}
