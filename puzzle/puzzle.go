package puzzle

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"alak/rules"
	"alak/solve"
)

// Puzzle is a position whose player to move has one move, or a short set
// of moves, that keeps the outcome perfect play gives it, with the line
// that shows why: the data the command line writes and the play server
// stores and serves. Values are Black's margin under perfect play (as
// everywhere in alak: docs/results.md), with the puzzle's history counted.
//
// The game part (Rules, Start, Moves) is rules.Game's JSON form, so that a
// puzzle's position is rebuilt by replaying its moves under its rules
// (Game): repetition counts and superko are those of the game.
type Puzzle struct {
	// ID is stable: a hash of the rules, the start and the moves (ID).
	ID string `json:"id"`
	// Rules is the rule set as rules.Rules.String writes it ("alak size=9").
	Rules string `json:"rules"`
	// Start is the start position (rules.Position.MarshalText) when it is
	// not the rules' own (a position sampled from a table); "" otherwise.
	Start string `json:"start,omitempty"`
	// Moves are the moves from the start to the puzzle's position, in the
	// stored form (rules.Rules.MoveText): its history.
	Moves []string `json:"moves"`
	// Position is the puzzle's board as the seeds' diagram (x--oX-) and
	// ToMove its player to move, "x" or "o": the player who solves it.
	Position string `json:"position"`
	ToMove   string `json:"to_move"`
	// Value is Black's margin under perfect play in the puzzle's position;
	// Goal is what the player to move keeps: GoalWin or GoalDraw.
	Value float64 `json:"value"`
	Goal  string  `json:"goal"`
	// Accepted are the moves that keep the outcome at the puzzle's
	// position (Line[0].Accepted): every one is a correct answer.
	Accepted []string `json:"accepted"`
	// Line is the solution: the player's moves and the opponent's most
	// resisting replies, the player's first and last.
	Line []Step `json:"line"`
	// End says why the line stops there (EndOver, ...), and EndReply,
	// for EndSettled and EndOpen, is the opponent's most resisting reply
	// after the line, the position the reason is about.
	End      string `json:"end"`
	EndReply string `json:"end_reply,omitempty"`
	// Themes are what the line shows, found by the kernel (Theme...).
	Themes []string `json:"themes"`
	// Rating is the puzzle's starting rating on the Glicko-2 scale of
	// package glicko2, from Difficulty (rating.go); the server moves it
	// with the attempts.
	Rating     float64    `json:"rating"`
	Difficulty Difficulty `json:"difficulty"`
	// Method is the solver method that answered the puzzle's position
	// (solve.MethodTable, MethodDense or MethodSearch): Verify checks the
	// puzzle with another.
	Method string `json:"method"`
	// Source says where the position was found.
	Source Source `json:"source"`
}

// Step is one move of a puzzle's line.
type Step struct {
	Move   string `json:"move"`   // in the stored form (rules.Rules.MoveText)
	Player string `json:"player"` // who plays it: "x" or "o"
	// Before and After are Black's margin under perfect play before and
	// after the move.
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Accepted, on the puzzle's player's steps, are every move that keeps
	// the outcome there (Move among them); Best, on the opponent's steps,
	// every reply as good for the opponent as Move, by margin.
	Accepted []string `json:"accepted,omitempty"`
	Best     []string `json:"best,omitempty"`
	// Values are the value of every legal move in the position before the
	// step, in the kernel's order of legal moves.
	Values []MoveValue `json:"values"`
}

// MoveValue is a legal move and Black's margin under perfect play after
// it.
type MoveValue struct {
	Move  string  `json:"move"`
	Value float64 `json:"value"`
}

// Source says where a puzzle's position was found.
type Source struct {
	// Kind is SourceGame, SourceSelfPlay, SourceTable or SourcePosition.
	Kind string `json:"kind"`
	// Ply, for a game, is the number of moves played before the puzzle's
	// position; Played the move the game's player made there and Mistake
	// whether that move changed the outcome (the player's own mistake:
	// a personal puzzle).
	Ply     int    `json:"ply,omitempty"`
	Played  string `json:"played,omitempty"`
	Mistake bool   `json:"mistake,omitempty"`
	// Game, for self-play, numbers the game of the run (from 0, with Ply
	// and Played as for a game); State, for a table, is the state's number
	// in the dense table.
	Game  int    `json:"game,omitempty"`
	State uint64 `json:"state,omitempty"`
}

// Goals: what the puzzle's player keeps.
const (
	GoalWin  = "win"  // the position is won: find the move that still wins
	GoalDraw = "draw" // the position is drawn: find the move that holds the draw
)

// Why a line stops.
const (
	// EndOver: the game is over after the line's last move.
	EndOver = "over"
	// EndSeveral: the line's last move is one of several accepted there;
	// any of them completes the puzzle.
	EndSeveral = "several"
	// EndSettled: after EndReply, the opponent's most resisting reply,
	// every move of the player keeps the outcome (or the game is over):
	// nothing is left to find.
	EndSettled = "settled"
	// EndOpen: after EndReply more of the player's moves keep the outcome
	// than a puzzle accepts (Options.MaxAccepted): the rest is no puzzle.
	EndOpen = "open"
	// EndLength: the line has as many of the player's moves as a puzzle
	// may (Options.MaxMoves).
	EndLength = "length"
)

// Sources.
const (
	SourceGame     = "game"     // a position of a finished game (FromGame)
	SourceSelfPlay = "selfplay" // a position of a seeded weak-player game (FromSelfPlay)
	SourceTable    = "table"    // a state sampled from a dense table (FromTable)
	SourcePosition = "position" // a position given to Find
)

// ID returns the stable identity of a game position with its history: the
// first 16 hex digits of the SHA-256 of the rules, the start position and
// the moves, in the text forms of the Puzzle fields. The same position
// reached by other moves is another puzzle (its values may differ: the
// repetition counts and superko follow the moves). A digest of the text,
// not the kernel's Zobrist hash, so that an ID stays the same whatever the
// kernel's keys become.
func ID(rulesText, start string, moves []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "alak puzzle 1\nrules %s\nstart %s\n", rulesText, start)
	for _, m := range moves {
		fmt.Fprintf(h, "%s\n", m)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Game rebuilds the puzzle's game: its rules, its start and its moves
// replayed by the kernel, which checks each. It checks that the position
// reached is the puzzle's Position with ToMove to play.
func (p *Puzzle) Game() (*rules.Game, error) {
	in, err := json.Marshal(struct {
		Rules string   `json:"rules"`
		Start string   `json:"start,omitempty"`
		Moves []string `json:"moves"`
	}{p.Rules, p.Start, p.Moves})
	if err != nil {
		return nil, err
	}
	var g rules.Game
	if err := g.UnmarshalJSON(in); err != nil {
		return nil, fmt.Errorf("the puzzle's game: %w", err)
	}
	pos := g.Position()
	if pos.String() != p.Position || pos.ToMove().Letter() != p.ToMove {
		return nil, fmt.Errorf("%w: the puzzle's moves lead to %s with %s to move, not to its position %s with %s to move", ErrInvalid, pos, pos.ToMove().Letter(), p.Position, p.ToMove)
	}
	return &g, nil
}

// Challenge is what a player is shown before solving: the puzzle without
// its answers (GET /api/puzzles/next). Themes are included, as the issue's
// API has them; a page may keep them hidden until the puzzle is solved.
type Challenge struct {
	ID       string   `json:"id"`
	Rules    string   `json:"rules"`
	Start    string   `json:"start,omitempty"`
	Moves    []string `json:"moves"`
	Position string   `json:"position"`
	ToMove   string   `json:"to_move"`
	Goal     string   `json:"goal"`
	Rating   float64  `json:"rating"`
	Themes   []string `json:"themes"`
}

// Challenge returns the puzzle as a player sees it before solving.
func (p *Puzzle) Challenge() Challenge {
	return Challenge{ID: p.ID, Rules: p.Rules, Start: p.Start, Moves: p.Moves, Position: p.Position,
		ToMove: p.ToMove, Goal: p.Goal, Rating: p.Rating, Themes: p.Themes}
}

// Solution returns the moves of the line.
func (p *Puzzle) Solution() []string {
	out := make([]string, len(p.Line))
	for i, s := range p.Line {
		out[i] = s.Move
	}
	return out
}

// class is the outcome a value (Black's margin) gives player c: 1 a win,
// 0 a draw, -1 a loss.
func class(v float64, c rules.Color) int {
	s := solve.Sign(v)
	if c == rules.White {
		s = -s
	}
	return s
}

// goalClass is the class a goal keeps.
func goalClass(goal string) int {
	if goal == GoalWin {
		return 1
	}
	return 0
}
