package session

import (
	"errors"
	"strings"

	"alak/notation"
	"alak/rules"
)

// Snapshot is the state of a game for display and for the wire: what `alak
// replay --json` prints, what the terminal game draws and what the server
// sends. Its JSON field names are those `alak replay --json` has always
// printed (rules, options, size, board, to_move, forbidden, legal, over,
// result, winner), followed by the rest.
//
// A point is written as JSON does it here: a point of a line as its number
// from 1, anything else (a grid's vertex such as "C3", a slide "1-4",
// "pass") as rules.Rules.MoveText writes it.
type Snapshot struct {
	Rules   string            `json:"rules"`             // the preset
	Options map[string]string `json:"options,omitempty"` // the options changed from it, the size aside
	Size    any               `json:"size"`              // points of a line (a number), or "WxH"
	Board   string            `json:"board"`             // x, o and - for every point (* a safe point); grid rows joined by |
	ToMove  string            `json:"to_move"`           // "x" or "o"
	// Forbidden lists the empty points the player to move may not place
	// on: just captured (Baljeu's rule), the ko point, or an earlier board
	// that superko forbids.
	Forbidden []any   `json:"forbidden"`
	Legal     []any   `json:"legal"` // the legal moves (none once the game is over)
	Over      bool    `json:"over"`
	Result    *string `json:"result"` // "3-0" for a count; "draw by repetition", "x wins by resignation", ...; null while the game goes on
	Winner    *string `json:"winner"` // "x", "o", "draw", or "none" for an aborted game; null while it goes on
	Reason    *string `json:"reason"` // why it ended: "no legal move", "passes", "repetition", "resignation", "time", "agreement", ...
	// ResultWords says the result in a sentence: "Black wins 3-0 (White has
	// no legal move)", "White wins (Black resigned)"; null while it goes on.
	ResultWords *string `json:"result_words"`

	Diagram   string         `json:"diagram"`   // the seeds' diagram: the stone just played in capitals, / for points just emptied
	Ply       int            `json:"ply"`       // moves played so far
	LastMove  any            `json:"last_move"` // null at the start
	Captured  []any          `json:"captured"`  // the points the last move emptied
	Stones    map[string]int `json:"stones"`    // {"x": 3, "o": 0}
	Prisoners map[string]int `json:"prisoners"` // stones each player has captured
	// Score is each player's count under the rules' scoring, komi in
	// White's, whether or not the game is over.
	Score           map[string]float64 `json:"score"`
	DrawOffer       *string            `json:"draw_offer,omitempty"`       // the player whose draw offer waits
	TakebackRequest *string            `json:"takeback_request,omitempty"` // the player whose takeback request waits
	// Losing lists the legal placements that would lose on the spot under
	// the unchanged-board rule (Alter Igo: a stone that leaves the board as
	// it was, such as one in an eye); absent under other rules.
	Losing []any `json:"losing,omitempty"`
}

// JSONMove writes a move as a Snapshot does: a placement on a line as its
// number from 1 (an int), anything else as rules.Rules.MoveText writes it.
func JSONMove(r rules.Rules, m rules.Move) any {
	if m.IsPlace() && r.IsLine() {
		return m.Point() + 1
	}
	return r.MoveText(m)
}

// Snapshot returns the state of the game now.
func (s *Session) Snapshot() Snapshot {
	g := s.game
	pos := g.Position()
	r := pos.Rules()
	sn := Snapshot{
		Rules:     r.Preset,
		Size:      r.SizeString(),
		ToMove:    pos.ToMove().Letter(),
		Forbidden: []any{},
		Diagram:   pos.String(),
		Ply:       g.Len(),
		Captured:  []any{},
		Stones:    map[string]int{"x": pos.Count(rules.Black), "o": pos.Count(rules.White)},
		Prisoners: map[string]int{"x": pos.Prisoners(rules.Black), "o": pos.Prisoners(rules.White)},
	}
	if sn.Rules == "" {
		sn.Rules = "alak"
	}
	if r.IsLine() {
		sn.Size = r.Width
	}
	if ch := r.Changed(false); len(ch) > 0 {
		sn.Options = map[string]string{}
		for _, kv := range ch {
			k, v, _ := strings.Cut(kv, "=")
			sn.Options[k] = v
		}
	}
	var b strings.Builder
	b.Grow(pos.Points() + r.Height) // the points and the rows' separators
	for p := range pos.Points() {
		if p > 0 && p%r.Width == 0 {
			b.WriteByte('|')
		}
		if pos.Safe(p) {
			b.WriteByte('*') // a point declared safe (the rule safe=eye|field)
		} else {
			b.WriteByte(pos.At(p).Symbol())
		}
		if pos.Removed(p) {
			sn.Captured = append(sn.Captured, JSONMove(r, rules.Place(p)))
		}
	}
	sn.Board = b.String()
	if m := pos.LastMove(); m != rules.NoMove {
		sn.LastMove = JSONMove(r, m)
	}
	o := s.Outcome()
	superko := r.Ko == rules.KoPositional || r.Ko == rules.KoSituational
	if r.Movement == rules.Placement && !o.Over() { // once it is over, no one places anywhere
		for p := range pos.Points() {
			forbidden := pos.Forbidden(p)
			if !forbidden && superko && pos.At(p) == rules.None {
				forbidden = errors.Is(g.Legal(rules.Place(p)), rules.ErrSuperko)
			}
			if forbidden {
				sn.Forbidden = append(sn.Forbidden, JSONMove(r, rules.Place(p)))
			}
		}
	}
	legal := s.LegalMoves()
	sn.Legal = make([]any, 0, len(legal))
	for _, m := range legal {
		sn.Legal = append(sn.Legal, JSONMove(r, m))
		if r.UnchangedLoses && m.IsPlace() {
			if next, err := pos.Play(m); err == nil && next.Outcome().Reason == rules.Unchanged {
				sn.Losing = append(sn.Losing, JSONMove(r, m))
			}
		}
	}
	sn.Score = map[string]float64{"x": o.Black, "o": o.White}
	if o.Over() {
		sn.Over = true
		result, reason := o.String(), o.Reason.String()
		winner := "draw"
		switch {
		case o.Winner != rules.None:
			winner = o.Winner.Letter()
		case o.Reason == rules.Aborted:
			winner = "none"
		}
		words := notation.OutcomeWords(o, pos.ToMove())
		sn.Result, sn.Winner, sn.Reason, sn.ResultWords = &result, &winner, &reason, &words
	}
	if s.draw != rules.None {
		w := s.draw.Letter()
		sn.DrawOffer = &w
	}
	if s.taken != rules.None {
		w := s.taken.Letter()
		sn.TakebackRequest = &w
	}
	return sn
}

// Text draws the snapshot for a terminal, as `alak play` shows it: the
// board (notation.DrawBoard) and a status line saying whose turn it is or
// how the game ended, the stone counts and, where the rules count them,
// the prisoners and the score, then any offer waiting for an answer.
func (sn Snapshot) Text(r rules.Rules, color bool) string {
	var b strings.Builder
	b.WriteString(notation.DrawBoard(r, sn.Diagram, color))
	var parts []string
	if sn.Over {
		parts = append(parts, "Game over: "+*sn.ResultWords+".")
	} else {
		parts = append(parts, playerName(sn.ToMove)+" to move.")
	}
	parts = append(parts, notation.Counts(r, [2]int{sn.Stones["x"], sn.Stones["o"]},
		[2]int{sn.Prisoners["x"], sn.Prisoners["o"]}, [2]float64{sn.Score["x"], sn.Score["o"]}))
	if sn.DrawOffer != nil {
		parts = append(parts, playerName(*sn.DrawOffer)+" offers a draw.")
	}
	if sn.TakebackRequest != nil {
		parts = append(parts, playerName(*sn.TakebackRequest)+" asks to take back a move.")
	}
	b.WriteString(strings.Join(parts, " "))
	b.WriteByte('\n')
	return b.String()
}

// playerName names the player whose letter a snapshot holds: "Black (x)".
func playerName(letter string) string {
	c, _ := rules.ParseColor(letter)
	return notation.PlayerName(c)
}
