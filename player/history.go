package player

import "alak/rules"

// history follows the rules that depend on a game's past (the repetition
// draw and superko) while a search walks a line of play from the game's
// current position. It is the game's history plus the search path; Push and
// Pop keep it in step with the path, and its maps hold only what is on the
// game or on the path, so a long search does not grow them.
//
// It mirrors rules.Game: a position occurring for the Repetition-th time (by
// Position.Hash) is a draw unless the position is over by its own rules;
// superko forbids placements that recreate an earlier board (positional) or
// board and player to move (situational); under superko without passing, a
// player left without a legal placement ends the game and the board is
// counted.
type history struct {
	r           rules.Rules
	superko     bool
	situational bool
	seen        map[uint64]int32 // occurrences of each Position.Hash
	boards      map[uint64]int32 // superko keys
}

const whiteKey = 0x6a09e667f3bcc908 // mixed into situational superko keys for White to move

func newHistory(g *rules.Game) *history {
	r := g.Rules()
	h := &history{
		r:           r,
		superko:     r.Ko == rules.KoPositional || r.Ko == rules.KoSituational,
		situational: r.Ko == rules.KoSituational,
		seen:        make(map[uint64]int32, g.Len()+64),
	}
	if h.superko {
		h.boards = make(map[uint64]int32, g.Len()+64)
	}
	for i := 0; i <= g.Len(); i++ {
		h.Push(g.PositionAt(i))
	}
	return h
}

func (h *history) boardKey(pos rules.Position) uint64 {
	k := pos.BoardHash()
	if h.situational && pos.ToMove() == rules.White {
		k ^= whiteKey
	}
	return k
}

// Push records pos as reached.
func (h *history) Push(pos rules.Position) {
	if h.r.Repetition > 0 {
		h.seen[pos.Hash()]++
	}
	if h.superko {
		h.boards[h.boardKey(pos)]++
	}
}

// Pop forgets the last Push of pos.
func (h *history) Pop(pos rules.Position) {
	if h.r.Repetition > 0 {
		k := pos.Hash()
		if h.seen[k] <= 1 {
			delete(h.seen, k)
		} else {
			h.seen[k]--
		}
	}
	if h.superko {
		k := h.boardKey(pos)
		if h.boards[k] <= 1 {
			delete(h.boards, k)
		} else {
			h.boards[k]--
		}
	}
}

// repeated reports whether pos, already pushed, is a draw by repetition.
func (h *history) repeated(pos rules.Position) bool {
	return h.r.Repetition > 0 && !pos.Over() && int(h.seen[pos.Hash()]) >= h.r.Repetition
}

// Moves appends the legal moves in pos (already pushed) to buf, superko
// applied, and returns it. It returns no moves when the game is over, by the
// position's rules or by repetition.
func (h *history) Moves(pos rules.Position, buf []rules.Move) []rules.Move {
	if pos.Over() || h.repeated(pos) {
		return buf
	}
	start := len(buf)
	buf = pos.LegalMoves(buf)
	if !h.superko {
		return buf
	}
	keep := buf[:start]
	for _, m := range buf[start:] {
		if m.IsPlace() {
			q, err := pos.Play(m)
			if err != nil || h.boards[h.boardKey(q)] > 0 {
				continue
			}
		}
		keep = append(keep, m)
	}
	return keep
}

// Outcome returns how the game stands in pos (already pushed), with the
// moves Moves returned for it (nmoves of them): the position's own outcome,
// a draw by repetition, or under superko without passing a counted end when
// no placement is left.
func (h *history) Outcome(pos rules.Position, nmoves int) (over bool, margin float64) {
	o := pos.Outcome()
	if o.Over() {
		return true, o.Margin
	}
	if h.repeated(pos) {
		return true, 0
	}
	if h.superko && !h.r.Pass && nmoves == 0 {
		if h.r.Scoring == rules.ScoreNone {
			return true, 0
		}
		return true, o.Black - o.White
	}
	return false, 0
}
