package rules

import (
	"alak/internal/clip"
	"encoding/json"
	"errors"
	"fmt"
)

// Game is a position with its history. It adds the rules that depend on the
// history to those of Position: positional and situational superko, and the
// draw when a position (stones, player to move, forbidden points) occurs for
// the Repetition-th time. A Game is not safe for concurrent use; its
// positions are.
type Game struct {
	positions []Position // positions[0] is the start
	moves     []Move
	seen      map[uint64]int // occurrences of each Position.Hash
	boards    map[uint64]int // superko keys of every position reached
}

// NewGame starts a game from the start position of r.
func NewGame(r Rules) (*Game, error) {
	pos, err := NewPosition(r)
	if err != nil {
		return nil, err
	}
	return NewGameFrom(pos), nil
}

// NewGameFrom starts a game from any position, such as a set-up diagram.
func NewGameFrom(start Position) *Game {
	g := &Game{seen: map[uint64]int{}, boards: map[uint64]int{}}
	g.push(start, NoMove)
	return g
}

func (g *Game) push(pos Position, m Move) {
	g.positions = append(g.positions, pos)
	if m != NoMove {
		g.moves = append(g.moves, m)
	}
	g.seen[pos.Hash()]++
	g.boards[g.superKey(pos)]++
}

func (g *Game) superKey(pos Position) uint64 {
	if pos.e.r.Ko == KoSituational {
		return pos.Hash() ^ forbidKeyOf(pos) // stones and player to move
	}
	return pos.BoardHash()
}

// forbidKeyOf removes the forbidden points from Hash, leaving stones and the
// player to move.
func forbidKeyOf(pos Position) uint64 {
	if pos.g != nil {
		return pos.g.forbidKey()
	}
	return forbidKey(pos.forbid)
}

// Rules returns the game's rules.
func (g *Game) Rules() Rules { return g.Position().Rules() }

// Position returns the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.positions[0] }

// Moves returns a copy of the moves played.
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// PositionAt returns the position after the first ply moves (0: the start).
func (g *Game) PositionAt(ply int) Position { return g.positions[ply] }

// Len returns the number of moves played.
func (g *Game) Len() int { return len(g.moves) }

// Occurrences returns how many times the current position has occurred.
func (g *Game) Occurrences() int { return g.seen[g.Position().Hash()] }

// Count returns how often the position whose Position.Hash is h has
// occurred in the game so far (the current position included): what the
// repetition draw counts.
func (g *Game) Count(h uint64) int { return g.seen[h] }

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	c := &Game{
		positions: append([]Position(nil), g.positions...),
		moves:     append([]Move(nil), g.moves...),
		seen:      make(map[uint64]int, len(g.seen)),
		boards:    make(map[uint64]int, len(g.boards)),
	}
	for k, v := range g.seen {
		c.seen[k] = v
	}
	for k, v := range g.boards {
		c.boards[k] = v
	}
	return c
}

func (g *Game) superko() bool {
	k := g.Position().e.r.Ko
	return k == KoPositional || k == KoSituational
}

// after returns the position m leads to, applying superko.
func (g *Game) after(m Move) (Position, error) {
	// Only the position's own end and the repetition count are checked
	// here: Outcome's superko test calls LegalMoves, which calls after. A
	// game that superko left without a placement refuses every placement by
	// superko anyway; resigning is refused explicitly.
	if g.Position().Over() || g.repeated() || (m == Resign && g.Over()) {
		return Position{}, moveErrDetail(m, ErrGameOver, g.Outcome().String())
	}
	next, err := g.Position().Play(m)
	if err != nil {
		return next, err
	}
	if m.IsPlace() && g.superko() && g.boards[g.superKey(next)] > 0 {
		return next, moveErr(m, ErrSuperko)
	}
	return next, nil
}

// Legal reports nil when m is legal now, or why it is not.
func (g *Game) Legal(m Move) error {
	_, err := g.after(m)
	return err
}

// Play plays m, or returns an error wrapping ErrIllegal and leaves the game
// unchanged.
func (g *Game) Play(m Move) error {
	next, err := g.after(m)
	if err != nil {
		return err
	}
	g.push(next, m)
	return nil
}

// LegalMoves appends the legal moves now, superko applied, to buf.
func (g *Game) LegalMoves(buf []Move) []Move {
	if g.repeated() {
		return buf
	}
	start := len(buf)
	buf = g.Position().LegalMoves(buf)
	if !g.superko() {
		return buf
	}
	keep := buf[:start]
	for _, m := range buf[start:] {
		if g.Legal(m) == nil {
			keep = append(keep, m)
		}
	}
	return keep
}

// ErrNothingToUndo is returned by Undo at the start of a game.
var ErrNothingToUndo = errors.New("there is no move to undo")

// Undo takes back the last move.
func (g *Game) Undo() error {
	if len(g.moves) == 0 {
		return ErrNothingToUndo
	}
	pos := g.Position()
	forget(g.seen, pos.Hash())
	forget(g.boards, g.superKey(pos))
	g.positions = g.positions[:len(g.positions)-1]
	g.moves = g.moves[:len(g.moves)-1]
	return nil
}

// forget takes one occurrence of k out of m, deleting keys that reach zero.
func forget(m map[uint64]int, k uint64) {
	if m[k] <= 1 {
		delete(m, k)
	} else {
		m[k]--
	}
}

func (g *Game) repeated() bool {
	n := g.Position().e.r.Repetition
	return n > 0 && g.Occurrences() >= n && !g.Position().Over()
}

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.Outcome().Over() }

// Outcome returns the result: the position's own, a draw by repetition, or,
// under superko without passing, the count when superko leaves the player to
// move no legal placement. The position's own end comes first (the start
// counts as the first occurrence of its position, and the positions after
// passes count too): where the passes that end the game bring a position
// for the n-th time, the board is counted, or under passend=draw the game
// is a draw.
func (g *Game) Outcome() Outcome {
	pos := g.Position()
	o := pos.Outcome()
	if o.Over() {
		// The passes that end the game may bring a position for the n-th
		// time too: the board is counted, unless passend=draw puts the
		// repetition draw first (docs/rules.md, A24).
		if r := pos.e.r; o.Reason == Passes && r.PassEnd == PassEndDraw && r.Repetition > 0 && g.Occurrences() >= r.Repetition {
			o.Reason, o.Winner, o.Margin = Repetition, None, 0
		}
		return o
	}
	if g.repeated() {
		o.Reason, o.Winner, o.Margin = Repetition, None, 0
		return o
	}
	if g.superko() && !pos.e.r.Pass {
		var buf [64]Move
		if len(g.LegalMoves(buf[:0])) == 0 {
			pos.end = NoMoves
			return pos.Outcome()
		}
	}
	return o
}

// MaxGameMoves bounds the moves a game read from text may hold.
const MaxGameMoves = 100000

// gameJSON is the wire form of a Game.
type gameJSON struct {
	Rules Rules    `json:"rules"`
	Start string   `json:"start,omitempty"` // Position.MarshalText; omitted for the rules' own start
	Moves []string `json:"moves"`           // Rules.MoveText
}

// MarshalJSON writes the game with no loss: the rules with every option
// ("alak size=6 edge=off"), the start position when it is not the rules'
// own (diagram, player to move, prisoners, passes), and the moves in
// Rules.MoveText form:
//
//	{"rules":"alak size=6","start":"x--oX- o prisoners=2-1","moves":["2","6"]}
func (g *Game) MarshalJSON() ([]byte, error) {
	r := g.Rules()
	out := gameJSON{Rules: r, Moves: make([]string, len(g.moves))}
	start, err := g.Start().MarshalText()
	if err != nil {
		return nil, err
	}
	if std, err := NewPosition(r); err != nil {
		return nil, err
	} else if own, _ := std.MarshalText(); string(own) != string(start) {
		out.Start = string(start)
	}
	for i, m := range g.moves {
		out.Moves[i] = r.MoveText(m)
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes, replaying every move under
// the rules: an illegal move is an error naming its number, and the
// receiver is left unchanged on any error.
func (g *Game) UnmarshalJSON(b []byte) error {
	var in gameJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	if in.Rules.Width == 0 {
		return fmt.Errorf("%w: a game needs its rules", ErrSetup)
	}
	if len(in.Moves) > MaxGameMoves {
		return fmt.Errorf("%w: %d moves: a game holds at most %d", ErrSetup, len(in.Moves), MaxGameMoves)
	}
	start, err := NewPosition(in.Rules)
	if err != nil {
		return err
	}
	if in.Start != "" {
		if start, err = ParsePosition(in.Rules, in.Start); err != nil {
			return err
		}
		if w, h := start.Size(); w != in.Rules.Width || h != in.Rules.Height {
			return fmt.Errorf("%w: the start %q is %dx%d but the rules say %s", ErrSetup, clip.Text(in.Start), w, h, in.Rules.SizeString())
		}
	}
	ng := NewGameFrom(start)
	for i, t := range in.Moves {
		m, err := in.Rules.ParseMoveText(t)
		if err == nil {
			err = ng.Play(m)
		}
		if err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	*g = *ng
	return nil
}
