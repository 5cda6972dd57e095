package puzzle

import (
	"fmt"
	"math"

	"alak/glicko2"
	"alak/player"
	"alak/rules"
)

// Difficulty holds the figures a puzzle's starting rating is computed
// from: how likely a weak reference player is to play the whole line
// right.
//
// The reference player, at each of the puzzle's player's positions in the
// line, plays with probability 1/2 as the random player (a legal move
// chosen uniformly) and with probability 1/2 as the greedy player of
// package player (a move of the best immediate gain, ties at random:
// player.Gain, the greedy player's own evaluation). Its chance of an
// accepted move at a position is then the mean of Random (accepted moves
// over legal moves) and Greedy (accepted moves among the greedy player's
// choices over those choices), and Chance, the product over the line, its
// chance of solving the puzzle. Random measures how many moves there are
// and how many of them lose; Greedy how far the answer is from the move
// that looks best at first sight.
type Difficulty struct {
	// Moves is the number of the player's moves in the line.
	Moves int `json:"moves"`
	// Legal, Kept and GreedyKept are, at each of the player's positions in
	// the line, the legal moves, the moves that keep the outcome, and the
	// share of the greedy player's choices that keep it.
	Legal      []int     `json:"legal"`
	Kept       []int     `json:"kept"`
	GreedyKept []float64 `json:"greedy_kept"`
	// Chance is the reference player's chance of playing the whole line
	// right.
	Chance float64 `json:"chance"`
}

// Bounds of a starting rating.
const (
	minRating = 600
	maxRating = 2800
)

// rating is the starting rating of a puzzle of difficulty d: the rating
// against which a player of the pool's starting rating (glicko2.
// StartRating, 1500) scores what the reference player would, by the Elo
// expectation E = 1/(1+10^((R-1500)/400)) with E = Chance:
// R = 1500 + 400 log10((1-Chance)/Chance), rounded, within 600 and 2800.
// A puzzle the reference player solves half the time starts at 1500, one
// it solves one time in ten at 1882, nine times in ten at 1118. It is a
// start: the server moves each puzzle's rating with the attempts, as the
// players' (Glicko-2).
func rating(d Difficulty) float64 {
	c := d.Chance
	switch {
	case !(c > 0): // zero, or not a number
		return maxRating
	case c >= 1:
		return minRating
	}
	r := glicko2.StartRating + 400*math.Log10((1-c)/c)
	return math.Round(min(maxRating, max(minRating, r)))
}

// difficulty measures p's line from g, the game at the puzzle's position
// (not changed), by the reference player of Difficulty.
func difficulty(p *Puzzle, g *rules.Game) (Difficulty, error) {
	r := g.Rules()
	me := g.Position().ToMove()
	d := Difficulty{Chance: 1}
	line := g.Clone()
	for _, s := range p.Line {
		m, err := r.ParseMoveText(s.Move)
		if err != nil {
			return d, fmt.Errorf("%w: line move %q: %w", ErrInvalid, s.Move, err)
		}
		if line.Position().ToMove() == me {
			legal := line.LegalMoves(nil)
			kept := map[string]bool{}
			for _, a := range s.Accepted {
				kept[a] = true
			}
			best, top, topKept := math.Inf(-1), 0, 0
			for _, l := range legal {
				switch gain := player.Gain(line, l, me); {
				case gain > best:
					best, top, topKept = gain, 1, 0
					if kept[r.MoveText(l)] {
						topKept = 1
					}
				case gain == best:
					top++
					if kept[r.MoveText(l)] {
						topKept++
					}
				}
			}
			if len(legal) == 0 || top == 0 {
				return d, fmt.Errorf("%w: the player has no legal move at step %s", ErrInvalid, s.Move)
			}
			random := float64(len(s.Accepted)) / float64(len(legal))
			greedy := float64(topKept) / float64(top)
			d.Moves++
			d.Legal = append(d.Legal, len(legal))
			d.Kept = append(d.Kept, len(s.Accepted))
			d.GreedyKept = append(d.GreedyKept, greedy)
			d.Chance *= (random + greedy) / 2
		}
		if err := line.Play(m); err != nil {
			return d, fmt.Errorf("%w: line move %s: %w", ErrInvalid, s.Move, err)
		}
	}
	return d, nil
}
