package notation

import (
	"fmt"
	"strconv"
	"strings"

	"alak/rules"
)

// ANSI escapes used by Board when color is true.
const (
	ansiReset = "\x1b[0m"
	ansiBlack = "\x1b[1;34m" // x: bold blue
	ansiWhite = "\x1b[1;31m" // o: bold red
	ansiLast  = "\x1b[4m"    // the stone just played: underlined as well
	ansiDim   = "\x1b[2m"    // empty and just-captured points, labels
)

// Board renders a position for people, as `alak play`, `alak replay` and
// GTP showboard print it: the seeds' line diagram (x and o, the stone just
// played in capitals, / for points emptied by the last move's captures, -
// for empty) spread over fixed-width columns, with the point numbers and, on
// lines of up to 26 points, the mail server's letters a..z beneath, then a
// status line: whose turn it is (or that the game is over) and the stone
// count, plus prisoners and score where the rules count them.
//
// A grid is drawn with GTP coordinates: row 1 at the bottom, columns A..
// (without I) beneath. With color true the stones are coloured with ANSI
// escapes; otherwise the text is plain.
//
//	 x  -  o  X  /  -
//	 1  2  3  4  5  6
//	 a  b  c  d  e  f
//	White (o) to move. Stones: x 2, o 1.
func Board(pos rules.Position, color bool) string {
	if pos.String() == "" { // the zero Position has no board
		return ""
	}
	return DrawBoard(pos.Rules(), pos.String(), color) + status(pos) + "\n"
}

// DrawBoard draws the rows of a diagram (as rules.Position.String writes
// it) on the board of r with their labels, as Board does, without the
// status line; "" when the diagram does not fit the board.
func DrawBoard(r rules.Rules, diagramText string, color bool) string {
	diagram := strings.ReplaceAll(diagramText, "|", "")
	if len(diagram) != r.Points() {
		return ""
	}
	var b strings.Builder
	if r.IsLine() {
		cw := len(strconv.Itoa(r.Width)) + 1
		boardRow(&b, diagram, "", cw, color)
		labels := make([]string, r.Width)
		for p := range labels {
			labels[p] = Number(p)
		}
		labelRow(&b, labels, "", cw, color)
		if r.Width <= 26 {
			for p := range labels {
				labels[p] = Letter(p)
			}
			labelRow(&b, labels, "", cw, color)
		}
	} else {
		cw := 3
		if r.Width > 25 {
			cw = 4
		}
		rw := len(strconv.Itoa(r.Height))
		for y := range r.Height {
			label := fmt.Sprintf("%*d", rw, r.Height-y)
			if color {
				label = ansiDim + label + ansiReset
			}
			boardRow(&b, diagram[y*r.Width:(y+1)*r.Width], label, cw, color)
		}
		labels := make([]string, r.Width)
		for x := range labels {
			labels[x] = rules.Column(x)
		}
		labelRow(&b, labels, strings.Repeat(" ", rw), cw, color)
	}
	return b.String()
}

// boardRow writes one row of diagram symbols, each right-aligned in a
// column of width cw, after the row label.
func boardRow(b *strings.Builder, row, label string, cw int, color bool) {
	b.WriteString(label)
	for i := 0; i < len(row); i++ {
		ch := row[i]
		b.WriteString(strings.Repeat(" ", cw-1))
		if !color {
			b.WriteByte(ch)
			continue
		}
		switch ch {
		case 'x':
			b.WriteString(ansiBlack + "x" + ansiReset)
		case 'X':
			b.WriteString(ansiBlack + ansiLast + "X" + ansiReset)
		case 'o':
			b.WriteString(ansiWhite + "o" + ansiReset)
		case 'O':
			b.WriteString(ansiWhite + ansiLast + "O" + ansiReset)
		default:
			b.WriteString(ansiDim + string(ch) + ansiReset)
		}
	}
	b.WriteByte('\n')
}

// labelRow writes labels right-aligned in columns of width cw.
func labelRow(b *strings.Builder, labels []string, indent string, cw int, color bool) {
	var row strings.Builder
	row.WriteString(indent)
	for _, l := range labels {
		fmt.Fprintf(&row, "%*s", cw, l)
	}
	if color {
		b.WriteString(ansiDim + row.String() + ansiReset)
	} else {
		b.WriteString(row.String())
	}
	b.WriteByte('\n')
}

// colorWord names a player in one word.
func colorWord(c rules.Color) string {
	if c == rules.White {
		return "White"
	}
	return "Black"
}

// PlayerName names a player in words with its diagram letter: "Black (x)",
// "White (o)".
func PlayerName(c rules.Color) string {
	if c == rules.None {
		return "nobody"
	}
	return colorWord(c) + " (" + c.Letter() + ")"
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// status writes the status line of a position.
func status(pos rules.Position) string {
	r := pos.Rules()
	var parts []string
	if pos.Over() {
		parts = append(parts, "Game over: "+positionResult(pos)+".")
	} else {
		parts = append(parts, PlayerName(pos.ToMove())+" to move.")
	}
	bs, ws := pos.Score()
	parts = append(parts, Counts(r, [2]int{pos.Count(rules.Black), pos.Count(rules.White)},
		[2]int{pos.Prisoners(rules.Black), pos.Prisoners(rules.White)}, [2]float64{bs, ws}))
	return strings.Join(parts, " ")
}

// Counts writes the counts of a status line, Black's first: the stones on
// the board, and where the rules count them the prisoners and the score
// (komi included), or the komi alone: "Stones: x 2, o 1. Komi 0.5."
func Counts(r rules.Rules, stones, prisoners [2]int, score [2]float64) string {
	parts := []string{fmt.Sprintf("Stones: x %d, o %d.", stones[0], stones[1])}
	if r.Scoring == rules.ScoreTerritory || r.Scoring == rules.ScoreAreaPrisoners {
		parts = append(parts, fmt.Sprintf("Prisoners: x %d, o %d.", prisoners[0], prisoners[1]))
	}
	if r.Scoring != rules.ScoreStones && r.Scoring != rules.ScoreNone {
		parts = append(parts, fmt.Sprintf("Score: x %s, o %s.", num(score[0]), num(score[1])))
	} else if r.Komi != 0 && r.Scoring != rules.ScoreNone {
		parts = append(parts, "Komi "+num(r.Komi)+".")
	}
	return strings.Join(parts, " ")
}

// positionResult is ResultWords with the player who cannot move named, which
// the position knows and an Outcome alone does not.
func positionResult(pos rules.Position) string {
	o := pos.Outcome()
	return OutcomeWords(o, pos.ToMove())
}

// GameResultWords is ResultWords for a game: when the game ended because the
// player to move had no legal move, it names that player, as in "Black wins
// 3-0 on the count (White had no legal move, which ends the game)".
func GameResultWords(g *rules.Game) string {
	return OutcomeWords(g.Outcome(), g.Position().ToMove())
}

// OutcomeWords is ResultWords with the player who could not move named:
// toMove is the player to move when the game ended. The words say that
// the count decided the game and that the lack of a move only ended it:
// the player who cannot move may still have more stones and win ("White
// wins 3-5 on the count (White had no legal move, which ends the game)";
// "White wins 3-5 (White has no legal move)" read as a contradiction).
func OutcomeWords(o rules.Outcome, toMove rules.Color) string {
	if o.Reason == rules.NoMoves {
		return resultHead(o) + " on the count (" + colorWord(toMove) + " had no legal move, which ends the game)"
	}
	return ResultWords(o)
}

// resultHead writes who won and, for a counted game, the seeds' score form.
func resultHead(o rules.Outcome) string {
	head := "draw"
	if o.Winner != rules.None {
		head = colorWord(o.Winner) + " wins"
	}
	switch o.Reason {
	case rules.NoMoves, rules.Passes:
		return head + " " + o.Score()
	}
	return head
}

// ResultWords writes a result in words and, where the board is counted, in
// the seeds' score form with Black's count first: "Black wins 3-0 on the
// count (the player to move had no legal move, which ends the game)", "White wins 2-4 (two passes)", "draw by repetition", "White wins
// (Black resigned)". An Outcome does not say whose turn it was; use
// GameResultWords to name the player who could not move.
func ResultWords(o rules.Outcome) string {
	loser := "nobody"
	if o.Winner != rules.None {
		loser = colorWord(o.Winner.Opp())
	}
	head := resultHead(o)
	switch o.Reason {
	case rules.NotOver:
		return "the game goes on"
	case rules.NoMoves:
		return head + " on the count (the player to move had no legal move, which ends the game)"
	case rules.Passes:
		return head + " (the game ended by passes)"
	case rules.Repetition:
		return "draw by repetition"
	case rules.Unchanged:
		return head + " (" + loser + "'s move left the board unchanged)"
	case rules.Resigned:
		return head + " (" + loser + " resigned)"
	case rules.Eliminated:
		return head + " (" + loser + " is left with too few pieces)"
	case rules.Agreement:
		return "draw by agreement"
	case rules.Timeout:
		return head + " (" + loser + " ran out of time)"
	case rules.Aborted:
		return "aborted"
	case rules.Recorded:
		return "draw, as the record says (the moves do not end the game)"
	}
	return head + " (" + o.Reason.String() + ")"
}
