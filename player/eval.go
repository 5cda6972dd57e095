package player

import "alak/rules"

// Values of the search players, from the side to move's point of view.
// A finished game is worth winValue plus the margin for a win (the
// count difference, or 1 for a win by rule), -winValue plus the margin for a
// loss, and the margin (0 for a draw by repetition) otherwise; a quicker win
// is preferred by a thousandth of a point per ply. Positions that go on are
// worth the evaluation, far inside (-winValue, winValue).
const winValue = 10000

// sideSign is +1 for Black and -1 for White: margins are Black's.
func sideSign(c rules.Color) float64 {
	if c == rules.Black {
		return 1
	}
	return -1
}

// terminalValue turns Black's margin in a finished game into the value for
// the player to move, ply moves from the search's root.
func terminalValue(margin float64, toMove rules.Color, ply int) float64 {
	m := margin * sideSign(toMove)
	switch {
	case m > 0:
		return winValue + m - 0.001*float64(ply)
	case m < 0:
		return -winValue + m + 0.001*float64(ply)
	}
	return 0
}

// evaluate scores a position that goes on, for the player to move: the
// count difference under the rules' scoring (stones, area, ...; under
// Alter Igo's no-counting rule the stones), plus on grids a term for strings
// in atari (the mover can take the largest enemy one; the mover's own are at
// risk) and, where the game is not counted, for eyes (points whose every
// neighbour is one player's stone: spare eyes decide Alter Igo). On lines
// the search's quiescence looks at captures instead.
func evaluate(pos rules.Position) float64 {
	b, w := pos.Score()
	me := pos.ToMove()
	v := (b - w) * sideSign(me)
	if pos.Rules().IsLine() {
		return v
	}
	return v + gridTerms(pos)
}

// gridTerms computes the atari and eye terms of evaluate on a grid.
func gridTerms(pos rules.Position) float64 {
	r := pos.Rules()
	w, n := r.Width, r.Points()
	me := pos.ToMove()
	var mark [19 * 19]bool
	var stack [19 * 19]int
	var libSeen [19 * 19]int32
	stamp := int32(0)
	largestEnemy, ownAtari, eyes := 0, 0, [2]int{}
	for p := range n {
		c := pos.At(p)
		if c == rules.None {
			own := [2]int{}
			nb := 0
			forEachNeighbour(p, w, n, func(q int) {
				nb++
				if qc := pos.At(q); qc != rules.None {
					own[qc]++
				}
			})
			for col := range own {
				if own[col] == nb {
					eyes[col]++
				}
			}
			continue
		}
		if mark[p] {
			continue
		}
		stamp++
		size, libs := 0, 0
		stack[0] = p
		top := 1
		mark[p] = true
		for top > 0 {
			top--
			q := stack[top]
			size++
			forEachNeighbour(q, w, n, func(t int) {
				switch pos.At(t) {
				case rules.None:
					if libSeen[t] != stamp {
						libSeen[t] = stamp
						libs++
					}
				case c:
					if !mark[t] {
						mark[t] = true
						stack[top] = t
						top++
					}
				}
			})
		}
		if libs == 1 {
			if c == me {
				ownAtari += size
			} else if size > largestEnemy {
				largestEnemy = size
			}
		}
	}
	v := 0.8*float64(largestEnemy) - 0.4*float64(ownAtari)
	if r.Scoring == rules.ScoreNone {
		v += 0.5 * float64(eyes[me]-eyes[me.Opp()])
	}
	return v
}

func forEachNeighbour(p, w, n int, f func(q int)) {
	x := p % w
	if p >= w {
		f(p - w)
	}
	if x > 0 {
		f(p - 1)
	}
	if x < w-1 {
		f(p + 1)
	}
	if p+w < n {
		f(p + w)
	}
}
