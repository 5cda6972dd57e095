package rules

import (
	"math/bits"
	"strconv"
)

// Outcome is the state of a game's end, or NotOver.
type Outcome struct {
	Reason Reason
	Winner Color // Black, White, or None for a draw (and while the game goes on)
	// Black and White are the players' counts under the rules' scoring (komi
	// included in White's) whether or not the game is over; under ScoreNone
	// they are the stones on the board.
	Black, White float64
	// Margin is Black's result in a finished game: Black minus White where
	// the board is counted; +1 or -1 for a game won by rule (resignation, an
	// unchanged board, too few pieces); 0 for a draw, and for a game that
	// ends on a count under ScoreNone, which counts nothing.
	Margin float64
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Reason != NotOver }

// Score writes the counts as the seeds do, Black's first: "3-0".
func (o Outcome) Score() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	return f(o.Black) + "-" + f(o.White)
}

// String writes the result: the score form for counted games, otherwise the
// winner and the reason ("x wins by resignation"), or "draw by repetition".
func (o Outcome) String() string {
	switch o.Reason {
	case NotOver:
		return "not over"
	case NoMoves, Passes:
		return o.Score()
	case Repetition:
		return "draw by repetition"
	case Agreement:
		return "draw by agreement"
	case Timeout:
		if o.Winner != None {
			return o.Winner.Letter() + " wins on time"
		}
		return "draw on time"
	case Aborted:
		return "aborted"
	case Recorded:
		return "draw, as the record says"
	}
	sym := "draw"
	if o.Winner != None {
		sym = o.Winner.Letter() + " wins"
	}
	return sym + " by " + o.Reason.String()
}

// Outcome returns how the game stands by the position's own rules.
func (pos Position) Outcome() Outcome {
	o := Outcome{Winner: None}
	if pos.e == nil {
		return o
	}
	o.Reason = pos.end
	o.Black, o.White = pos.Score()
	switch pos.end {
	case NotOver:
		return o
	case NoMoves, Passes:
		if pos.e.r.Scoring != ScoreNone {
			o.Margin = o.Black - o.White
		}
	case Unchanged, Resigned:
		// The player who made the last move lost; it is now the winner's turn.
		o.Margin = sign(pos.toMove)
	case Eliminated:
		min := pos.e.r.MinPieces
		short := [2]bool{pos.Count(Black) < min, pos.Count(White) < min}
		switch {
		case short[Black] && short[White] && pos.last == NoMove:
			// A start or set-up layout with both sides short: no one moved.
		case short[pos.toMove]:
			// The mover's captures come first: leaving the opponent short wins.
			o.Margin = sign(pos.toMove.Opp())
		default:
			o.Margin = sign(pos.toMove)
		}
	}
	switch {
	case o.Margin > 0:
		o.Winner = Black
	case o.Margin < 0:
		o.Winner = White
	default:
		o.Winner = None
	}
	return o
}

func sign(c Color) float64 {
	if c == Black {
		return 1
	}
	return -1
}

// Score counts the board under the rules' scoring, komi added to White.
func (pos Position) Score() (black, white float64) {
	if pos.e == nil {
		return 0, 0
	}
	r := &pos.e.r
	stones := [2]int{pos.Count(Black), pos.Count(White)}
	var terr [2]int
	if r.Scoring == ScoreArea || r.Scoring == ScoreTerritory || r.Scoring == ScoreAreaPrisoners {
		terr = pos.Territory()
	}
	var s [2]int
	for c := range s {
		switch r.Scoring {
		case ScoreStones, ScoreNone:
			s[c] = stones[c]
		case ScoreArea:
			s[c] = stones[c] + terr[c]
		case ScoreTerritory:
			s[c] = terr[c] + int(pos.prisoners[c])
		case ScoreAreaPrisoners:
			s[c] = stones[c] + terr[c] + int(pos.prisoners[c])
		}
	}
	return float64(s[Black]), float64(s[White]) + r.Komi
}

// Territory returns the empty points of each colour: empty regions whose
// neighbours are stones of that colour only (the ends of a line and edges of
// a grid border no one). A region with no stone around it belongs to no one.
func (pos Position) Territory() (t [2]int) {
	if pos.e == nil {
		return t
	}
	if pos.g != nil {
		return pos.g.territory(pos.e)
	}
	tb, tw := pos.e.ln.Territory(pos.st[Black], pos.st[White])
	return [2]int{bits.OnesCount64(tb), bits.OnesCount64(tw)}
}
