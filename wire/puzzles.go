package wire

import (
	"alak/learn"
	"alak/puzzle"
)

// The puzzles and lessons (docs/api.md, "Puzzles").

// BoardShape is what the page needs to draw a board: its shape
// ("line", "grid", "slide") and size.
type BoardShape struct {
	Shape  string `json:"shape"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Puzzle is a puzzle as the API shows it before it is solved: never
// its answers (puzzle.Challenge), with the server's current rating of it
// and its plays.
type Puzzle struct {
	ID       string     `json:"id"`
	Rules    string     `json:"rules"`
	Start    string     `json:"start,omitempty"`
	Moves    []string   `json:"moves"`
	Position string     `json:"position"`
	ToMove   string     `json:"to_move"`
	Goal     string     `json:"goal"`
	Rating   float64    `json:"rating"` // rounded to a tenth
	RD       float64    `json:"rd"`
	Themes   []string   `json:"themes"`
	Plays    int        `json:"plays"`
	Solved   int        `json:"solved"`
	Source   string     `json:"source"`
	Game     string     `json:"game,omitempty"` // the finished game it was found in
	Board    BoardShape `json:"board"`
	// Legal are the legal moves in the puzzle's position (stored form).
	Legal []string `json:"legal"`
	// Tried is the signed-in account's earlier attempts at it, if any.
	Tried *PuzzleTry `json:"tried,omitempty"`
	// Day is the day (UTC) whose puzzle it is (GET /api/puzzles/daily).
	Day string `json:"day,omitempty"`
}

// PuzzleTry is an account's attempts at a puzzle.
type PuzzleTry struct {
	Puzzle       string   `json:"puzzle"`
	Rules        string   `json:"rules"`
	Themes       []string `json:"themes"`
	FirstCorrect bool     `json:"first_correct"`
	LastCorrect  bool     `json:"last_correct"`
	Tries        int      `json:"tries"`
	Rated        bool     `json:"rated"`
	RatingChange *float64 `json:"rating_change,omitempty"`
	First        string   `json:"first"`
	Last         string   `json:"last"`
}

// PuzzleStep is a move of an attempt, the player's or the reply, and
// the board after it, drawn by the server so that the page needs no rules
// of its own.
type PuzzleStep struct {
	Move     string `json:"move"`
	By       string `json:"by"` // "x" or "o"
	Position string `json:"position"`
	ToMove   string `json:"to_move"`
}

// Attempt is the answer to POST /api/puzzles/{id}/attempt: the
// verdict on each of the player's moves (puzzle.Check), the moves with
// the boards after them, and, once the attempt is over, the solution
// replayed and what it did to the ratings.
type Attempt struct {
	Correct bool            `json:"correct"`
	Done    bool            `json:"done"`
	Answers []puzzle.Answer `json:"answers"`
	// Steps are the player's moves and the replies, each with the board
	// after it; Legal the legal moves of the board after the last, while
	// the attempt goes on.
	Steps []PuzzleStep `json:"steps"`
	Legal []string     `json:"legal,omitempty"`
	// Once done: the solution's moves and the boards along it, the
	// puzzle's themes, and whether the attempt counted for the ratings
	// (Counted: the signed-in account's first, rated; Unrated says why
	// not otherwise).
	Solution      []string     `json:"solution,omitempty"`
	SolutionSteps []PuzzleStep `json:"solution_steps,omitempty"`
	Themes        []string     `json:"themes,omitempty"`
	Counted       bool         `json:"counted"`
	Unrated       string       `json:"unrated,omitempty"`
	// The player's puzzle rating after the attempt and its change, and
	// the puzzle's (Counted only).
	Rating             *float64 `json:"rating,omitempty"`
	RatingChange       *float64 `json:"rating_change,omitempty"`
	PuzzleRating       *float64 `json:"puzzle_rating,omitempty"`
	PuzzleRatingChange *float64 `json:"puzzle_rating_change,omitempty"`
}

// AttemptRequest is POST /api/puzzles/{id}/attempt's body.
type AttemptRequest struct {
	Moves []string `json:"moves"`
}

// PuzzleRating is an account's puzzle rating.
type PuzzleRating struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Attempts    int     `json:"attempts"` // rated attempts
	Provisional bool    `json:"provisional"`
}

// PersonalPuzzle is a puzzle of the account's own mistake in a
// finished game.
type PersonalPuzzle struct {
	Puzzle string     `json:"puzzle"`
	Game   string     `json:"game"`
	Ply    int        `json:"ply"`
	Played string     `json:"played"` // the move the account chose
	Rules  string     `json:"rules"`
	Themes []string   `json:"themes"`
	Tried  *PuzzleTry `json:"tried,omitempty"`
}

// MyPuzzles is GET /api/me/puzzles's answer.
type MyPuzzles struct {
	Rating   PuzzleRating     `json:"rating"`
	History  []PuzzleTry      `json:"history"`
	Review   []PuzzleTry      `json:"review"`
	Mistakes []PersonalPuzzle `json:"mistakes"`
}

// Lesson is a lesson as the page shows it: its board, text and goal,
// without its solution (given once the lesson is over).
type Lesson struct {
	ID       string     `json:"id"`
	Title    string     `json:"title"`
	Rules    string     `json:"rules"`
	Text     string     `json:"text"`
	Refs     []string   `json:"refs"`
	Goal     string     `json:"goal"`
	MaxMoves int        `json:"max_moves"`
	Hints    []string   `json:"hints"`
	Board    BoardShape `json:"board"`
	Position string     `json:"position"`
	ToMove   string     `json:"to_move"`
	Legal    []string   `json:"legal"`
	// Preset is the lesson's rules' preset, for the rules page's links.
	Preset string `json:"preset"`
}

// LessonTryRequest is POST /api/lessons/{id}/try's body.
type LessonTryRequest struct {
	Tries []string `json:"tries"`
}

// LessonProgress is POST /api/lessons/{id}/try's answer: the lesson
// after the player's tries (learn.Play), the board's legal moves while it
// goes on, and its solution once it is over without success.
type LessonProgress struct {
	learn.Progress
	Legal    []string `json:"legal,omitempty"`
	Solution []string `json:"solution,omitempty"`
}
