package learn

// Lessons returns the lessons, in the order a newcomer takes them: the
// placement games first (Baljeu's Alak, then Traditional Alak where it
// differs), then the sliding games and Alter Igo. Each call returns a new
// slice: callers may keep and change it.
func Lessons() []Lesson {
	return []Lesson{
		{
			ID: "place", Title: "Place a stone", Rules: "alak size=5",
			Text:     "Alak is played on a line of points, numbered from the left. Black (x) and White (o) take turns placing a stone of their colour on an empty point; Black moves first. There is no passing: if you can place, you must.",
			Refs:     []string{"alak 1", "alak 2"},
			Goal:     Goal{Kind: GoalPlace, At: []string{"3"}, Text: "place a stone on point 3, the middle of the line."},
			MaxMoves: 1, Hints: []string{"The points are numbered 1 to 5 from the left.", "Point 3 has two points on each side."},
			Solution: []string{"3"},
		},
		{
			ID: "capture", Title: "Capture", Rules: "alak size=5", Start: "-xo-- x",
			Text:     "A run of stones closed in on both sides by stones of the other colour is captured and taken off the board, when the closing stone is placed next to it.",
			Refs:     []string{"alak 3", "A3"},
			Goal:     Goal{Kind: GoalCapture, Count: 1, Text: "capture the white stone."},
			MaxMoves: 1, Hints: []string{"The white stone on 3 has your stone on its left.", "Close it in on its right."},
			Solution: []string{"4"},
		},
		{
			ID: "edge", Title: "Capture against the end of the line", Rules: "alak size=5", Start: "o---- x",
			Text:     "The ends of the line count as closed: a run of stones at an end is captured by one stone of the other colour placed on its open side. (The mail server's Alak counts captures against the edge; the option edge=off turns them off.)",
			Refs:     []string{"alak 3", "A1"},
			Goal:     Goal{Kind: GoalCapture, Count: 1, Edge: true, Text: "capture the white stone against the end of the line."},
			MaxMoves: 1, Hints: []string{"The white stone on 1 has the end of the line on its left."},
			Solution: []string{"2"},
		},
		{
			ID: "no-return", Title: "No return where you were just captured", Rules: "alak size=5", Moves: []string{"5", "4"},
			Text:     "White's stone on 4 has just captured your stone on 5 against the end; the point is marked /. Under Baljeu's rules you may not place a stone where your stones were removed by your opponent's move just before, for one turn. Without this rule the same captures could go back and forth.",
			Refs:     []string{"alak 5", "A4"},
			Goal:     Goal{Kind: GoalRefused, At: []string{"5"}, Refusal: RefusalForbidden, Text: "try to play on point 5 again, and see the rules refuse it."},
			MaxMoves: 1, Hints: []string{"Point 5 is marked / on the board."},
			Solution: []string{"5"},
		},
		{
			ID: "self-fill", Title: "Filling your own last liberty (Alak)", Rules: "alak size=7", Start: "-ox-oo- x",
			Text:     "Under Baljeu's rules you may place a stone that leaves your own run with no empty point beside it: your stones are not removed, they stay on the board, and they count at the end.",
			Refs:     []string{"alak 4", "A2"},
			Goal:     Goal{Kind: GoalSelfFill, At: []string{"4"}, Text: "place on point 4, between your stone and the white stones, and see that your stones stay."},
			MaxMoves: 1, Hints: []string{"After 4, your two stones have white stones on both sides."},
			Solution: []string{"4"},
		},
		{
			ID: "no-suicide", Title: "No suicide (Traditional Alak)", Rules: "traditional size=7", Start: "-ox-oo- x",
			Text:     "Traditional Alak plays Go's rules on a line: you may not fill the last empty point beside your own run, unless your move captures. The same move that Baljeu's rules allow is refused here.",
			Refs:     []string{"traditional 1", "A2"},
			Goal:     Goal{Kind: GoalRefused, At: []string{"4"}, Refusal: RefusalSuicide, Text: "try point 4, and see the rules refuse it as suicide."},
			MaxMoves: 1, Hints: []string{"Compare with the lesson on filling your own last liberty under Baljeu's rules."},
			Solution: []string{"4"},
		},
		{
			ID: "repetition", Title: "The third repetition is a draw", Rules: "alak size=7",
			Moves:    []string{"1", "4", "3", "5", "6", "2", "7", "5", "1", "4", "6", "2", "7", "5", "1"},
			Text:     "On 7 points or more, captures can bring back a position that was on the board before. So that a game ends, the third time the same position occurs (the same stones, the same player to move, the same points just captured) the game is a draw. Here x-xoo-- with Black to move has occurred twice, after the 4th move and after the 10th. (White has better than a draw here: one move wins, as a puzzle would ask. This lesson is about the rule.)",
			Refs:     []string{"alak 8", "A9"},
			Goal:     Goal{Kind: GoalEnd, End: "repetition", Text: "bring back x-xoo-- with Black to move a third time: the game is drawn."},
			MaxMoves: 1, Hints: []string{"The white stone on 5 stands where it stood before; the stone on 4 is missing."},
			Solution: []string{"4"},
		},
		{
			ID: "end", Title: "How the game ends and is counted", Rules: "alak size=5", Moves: []string{"1", "2", "5", "4"},
			Text:    "The game ends when the player to move has no point where a stone may be placed. Then the stones on the board are counted, and more stones wins; equal counts are a draw. Here you have no stone and White has two, but the game is not over. The computer plays White perfectly.",
			Refs:    []string{"alak 6", "alak 7"},
			Goal:    Goal{Kind: GoalEnd, Winner: "x", Text: "play until the game ends, with more stones than White."},
			Perfect: true, MaxMoves: 3, Hints: []string{"Start at the end of the line, on 1.", "Then close White's stones in from the other end."},
			Solution: []string{"1", "5"},
		},
		{
			ID: "passes", Title: "Two passes end the game (Traditional Alak)", Rules: "traditional size=5", Start: "-xx-o x",
			Text:     "In Traditional Alak you may pass instead of placing a stone, and two passes in a row end the game. Each player then counts their stones, the empty points closed in by their stones alone (the end of the line closes too), and the stones they captured; the larger count wins. Here point 1 is yours, point 4 nobody's: 3 to 1.",
			Refs:     []string{"traditional 3", "traditional 5", "traditional 6"},
			Goal:     Goal{Kind: GoalEnd, Winner: "x", Text: "end the game now, and win on the count."},
			Replies:  []Reply{{After: []string{"pass"}, Move: "pass"}},
			MaxMoves: 1, Hints: []string{"You are ahead: there is nothing to gain by playing on."},
			Solution: []string{"pass"},
		},
		{
			ID: "slide", Title: "Sliding a piece (Dewdney's game)", Rules: "dewdney",
			Text:     "In Dewdney's game as Sean Burke read it, the pieces start at the two ends of a line of 11 slots. A move slides one of your pieces to the nearest empty slot on its left or its right, jumping over any pieces in between.",
			Refs:     []string{"dewdney 1", "dewdney 2"},
			Goal:     Goal{Kind: GoalMove, At: []string{"1-5"}, Text: "move the piece on slot 1: it jumps over your three pieces to slot 5."},
			MaxMoves: 1, Hints: []string{"A move is written from-to: 1-5 moves the piece on slot 1 to slot 5."},
			Solution: []string{"1-5"},
		},
		{
			ID: "flank", Title: "Capturing by flanking (Dewdney's game)", Rules: "dewdney size=5", Start: "x-oox x",
			Text:     "A run of enemy pieces closed in on both sides by your pieces, with no gap, is removed, when your move made the pattern. The ends of the line do not close a run in this game. A player left with fewer than two pieces loses.",
			Refs:     []string{"dewdney 3", "dewdney 4", "A11"},
			Goal:     Goal{Kind: GoalCapture, Count: 2, Text: "capture both white pieces."},
			MaxMoves: 1, Hints: []string{"Your piece on 1 slides right to the first empty slot."},
			Solution: []string{"1-2"},
		},
		{
			ID: "golf", Title: "The code-golf rule: your moved piece can be taken", Rules: "golf size=5", Start: "o-oxx x",
			Text:     "The code-golf reading adds one rule: after your move's captures, the piece you moved is removed if it stands between two enemy pieces. Captures come first, so a move that takes the enemy piece beside it is safe.",
			Refs:     []string{"golf", "A12", "A13"},
			Goal:     Goal{Kind: GoalCapture, Count: 1, Keep: true, Text: "capture a white piece without losing the piece you move."},
			MaxMoves: 1, Hints: []string{"Both your pieces land on slot 2. Which one leaves a piece on 4 to close the white piece on 3 in?"},
			Solution: []string{"5-2"},
		},
		{
			ID: "alterigo", Title: "Alter Igo: your own stones can go too", Rules: "alterigo size=8", Start: "-ox-xo-- x",
			Text:     "In Alter Igo, right after each stone is placed, every string with no empty point beside it is removed, yours included, all at once: a stone that captures can be captured with what it takes.",
			Refs:     []string{"alterigo 3"},
			Goal:     Goal{Kind: GoalCapture, Count: 1, Keep: true, Text: "capture a white stone and keep all of yours."},
			MaxMoves: 1, Hints: []string{"A stone on 1 would close the white stone on 2 in, but would it have an empty point beside it?"},
			Solution: []string{"7"},
		},
	}
}

// ByID returns the lesson called id.
func ByID(id string) (Lesson, bool) {
	for _, l := range Lessons() {
		if l.ID == id {
			return l, true
		}
	}
	return Lesson{}, false
}
