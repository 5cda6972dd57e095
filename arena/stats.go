package arena

import "math"

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// EloCap bounds the Elo figures: a score of exactly 0 or 1 implies an
// infinite difference, which is reported as ±EloCap.
const EloCap = 1000

// Summarize counts games into a Result.
func Summarize(players [2]string, games []Game) Result {
	res := Result{Players: players, Games: len(games), Played: games}
	points := 0.0
	for _, g := range games {
		switch g.P1Score {
		case 1:
			res.Wins[0]++
		case 0:
			res.Wins[1]++
		default:
			res.Draws++
		}
		points += g.P1Score
		for k := range res.Reports {
			res.Reports[k] = res.Reports[k].Add(g.Reports[k])
		}
	}
	if res.Games == 0 {
		return res
	}
	res.Score = points / float64(res.Games)
	lo, hi := Wilson(res.Score, res.Games)
	res.ScoreCI = [2]float64{lo, hi}
	res.Elo = Elo(res.Score)
	res.EloCI = [2]float64{Elo(lo), Elo(hi)}
	return res
}

// Elo returns the rating difference that makes score the expected score
// under the logistic Elo model, 400·log10(s/(1−s)), within ±EloCap.
func Elo(score float64) float64 {
	if score <= 0 {
		return -EloCap
	}
	if score >= 1 {
		return EloCap
	}
	return math.Max(-EloCap, math.Min(EloCap, 400*math.Log10(score/(1-score))))
}

// Expected returns the expected score of a player rated diff Elo above its
// opponent: the inverse of Elo.
func Expected(diff float64) float64 { return 1 / (1 + math.Pow(10, -diff/400)) }

// Wilson returns the 95% Wilson score interval of a score (points per game,
// a draw counting half) over n games. It treats each game as a win or a
// loss; draws only make the true interval narrower, so it errs wide. Unlike
// the normal approximation it stays inside [0, 1] and is not empty at a
// score of 0 or 1.
func Wilson(score float64, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	fn := float64(n)
	z2 := z95 * z95
	den := 1 + z2/fn
	centre := (score + z2/(2*fn)) / den
	half := z95 * math.Sqrt(score*(1-score)/fn+z2/(4*fn*fn)) / den
	return math.Max(0, centre-half), math.Min(1, centre+half)
}
