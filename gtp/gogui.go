package gtp

import (
	"context"
	"strconv"
	"strings"

	"alak/rules"
)

// GoGuiMaxSize is the largest board GoGui draws: 25×25, its columns A to Z
// without I.
const GoGuiMaxSize = 25

// cmdGameID answers gogui-rules_game_id: the game's name in lower case
// letters, as GoGui asks of a rules engine. Every rule set alak plays is of
// the Alak family; alak-rules says which.
func cmdGameID(*Engine, context.Context, []string) (string, error) { return "alak", nil }

// goguiSize returns the side of the square board GoGui is shown: the
// larger of the width and the height.
func goguiSize(r rules.Rules) (int, error) {
	n := max(r.Width, r.Height)
	if n > GoGuiMaxSize {
		return 0, failf(nil, "GoGui draws boards of up to %d×%d, and this board is %s: use a line of at most %d points (rectangular_boardsize N 1)", GoGuiMaxSize, GoGuiMaxSize, r.SizeString(), GoGuiMaxSize)
	}
	return n, nil
}

// cmdBoardSize answers gogui-rules_board_size: one number, the side of the
// square board GoGui draws (GoGui reads it as an integer). A line of n
// points is n: GoGui draws an n×n board whose bottom row is the line.
func cmdBoardSize(e *Engine, _ context.Context, _ []string) (string, error) {
	n, err := goguiSize(e.Rules())
	if err != nil {
		return "", err
	}
	return strconv.Itoa(n), nil
}

// cmdBoard answers gogui-rules_board: the square board of
// gogui-rules_board_size, one row a line from the top row down to row 1, X
// for Black, O for White and . for an empty point. The points of a line or
// a grid that is not square are at the bottom left, where their GTP
// vertices are; the rest is drawn empty.
func cmdBoard(e *Engine, _ context.Context, _ []string) (string, error) {
	pos := e.s.Position()
	r := pos.Rules()
	n, err := goguiSize(r)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for row := n; row >= 1; row-- {
		if row < n {
			b.WriteByte('\n')
		}
		for x := range n {
			ch := byte('.')
			if x < r.Width && row <= r.Height {
				switch pos.At((r.Height-row)*r.Width + x) {
				case rules.Black:
					ch = 'X'
				case rules.White:
					ch = 'O'
				}
			}
			b.WriteByte(ch)
		}
	}
	return b.String(), nil
}

// cmdAnalyzeCommands answers gogui-analyze_commands, which GoGui asks of a
// program to fill its Analyze menu (and requires of a rules engine): one
// command a line, as TYPE/LABEL/COMMAND.
func cmdAnalyzeCommands(*Engine, context.Context, []string) (string, error) {
	return strings.Join([]string{
		"string/Rules/alak-rules",
		"string/Legal moves/gogui-rules_legal_moves",
		"string/Side to move/gogui-rules_side_to_move",
		"string/Final score/final_score",
		"string/Final result/gogui-rules_final_result",
	}, "\n"), nil
}
