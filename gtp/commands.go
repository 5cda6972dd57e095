package gtp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"alak/internal/clip"
	"alak/notation"
	"alak/rules"
	"alak/session"
)

type handler func(e *Engine, ctx context.Context, args []string) (string, error)

type commandSpec struct {
	name  string
	usage string // the arguments, for syntax errors
	run   handler
}

// commandList is in the order list_commands writes it.
var commandList []commandSpec

func init() {
	commandList = []commandSpec{
		{"protocol_version", "", func(*Engine, context.Context, []string) (string, error) { return "2", nil }},
		{"name", "", func(e *Engine, _ context.Context, _ []string) (string, error) { return e.Name, nil }},
		{"version", "", func(e *Engine, _ context.Context, _ []string) (string, error) { return e.Version, nil }},
		{"known_command", "NAME", cmdKnownCommand},
		{"list_commands", "", cmdListCommands},
		{"quit", "", func(*Engine, context.Context, []string) (string, error) { return "", nil }},
		{"boardsize", "SIZE", cmdBoardsize},
		{"rectangular_boardsize", "WIDTH HEIGHT", cmdRectangularBoardsize},
		{"clear_board", "", cmdClearBoard},
		{"komi", "KOMI", cmdKomi},
		{"play", "COLOR MOVE", cmdPlay},
		{"genmove", "COLOR", cmdGenmove},
		{"undo", "", cmdUndo},
		{"showboard", "", cmdShowboard},
		{"final_score", "", cmdFinalScore},
		{"alak-rules", "[NAME] [OPTION=VALUE ...]", cmdRules},
		{"gogui-rules_game_id", "", cmdGameID},
		{"gogui-rules_board_size", "", cmdBoardSize},
		{"gogui-rules_board", "", cmdBoard},
		{"gogui-rules_legal_moves", "", cmdLegalMoves},
		{"gogui-rules_side_to_move", "", cmdSideToMove},
		{"gogui-rules_final_result", "", cmdFinalResult},
		{"gogui-analyze_commands", "", cmdAnalyzeCommands},
	}
}

// Commands lists the commands the engine knows, as list_commands does.
func Commands() []string {
	out := make([]string, len(commandList))
	for i, c := range commandList {
		out[i] = c.name
	}
	return out
}

func lookup(name string) (commandSpec, bool) {
	for _, c := range commandList {
		if strings.EqualFold(c.name, name) {
			return c, true
		}
	}
	return commandSpec{}, false
}

func cmdKnownCommand(_ *Engine, _ context.Context, args []string) (string, error) {
	_, ok := lookup(args[0])
	return strconv.FormatBool(ok), nil
}

func cmdListCommands(*Engine, context.Context, []string) (string, error) {
	return strings.Join(Commands(), "\n"), nil
}

// cmdBoardsize answers boardsize N: an N×N grid when the board is a grid.
// A line stays a line: boardsize N is refused there, saying what is
// accepted, unless N is the line's length (what gogui-rules_board_size
// answers, which a controller may send back), which starts a new game on
// the same line.
func cmdBoardsize(e *Engine, _ context.Context, args []string) (string, error) {
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", failf(err, "syntax error: boardsize %q: the size is a whole number (boardsize N is an N×N grid, N up to 19; a line of N points is rectangular_boardsize N 1)", clip.Text(args[0]))
	}
	r := e.Rules()
	if r.IsLine() && n != r.Width {
		return "", failf(nil, "unacceptable size: boardsize %d asks for a %d×%d grid, but %s", n, n, n, lineOnly(r, n))
	}
	if r.IsLine() {
		return "", e.clear(r)
	}
	return "", e.resize(n, n)
}

func cmdRectangularBoardsize(e *Engine, _ context.Context, args []string) (string, error) {
	w, err1 := strconv.Atoi(args[0])
	h, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil {
		return "", failf(errors.Join(err1, err2), "syntax error: rectangular_boardsize %s %s: the width and height are whole numbers, such as rectangular_boardsize 11 1 for a line of 11 points", clip.Text(args[0]), clip.Text(args[1]))
	}
	return "", e.resize(w, h)
}

// resize starts a new game on a w×h board (h = 1: a line) under the current
// rules and options.
func (e *Engine) resize(w, h int) error {
	r := e.Rules()
	accepted := "a line is rectangular_boardsize N 1 with N from 1 to 64; a grid is up to 19×19"
	if r.Movement == rules.Sliding {
		accepted = "these sliding rules are played on a line: rectangular_boardsize N 1, N from 1 to 64"
	}
	switch {
	case w < 1 || h < 1:
		return failf(nil, "unacceptable size %d×%d: %s", w, h, accepted)
	case w == 1 && h > 1:
		return failf(nil, "unacceptable size 1×%d: a line is one row, written rectangular_boardsize %d 1", h, h)
	case h == 1 && w > 64, h > 1 && (w > 19 || h > 19):
		return failf(nil, "unacceptable size %d×%d: %s", w, h, accepted)
	case h > 1 && r.Movement == rules.Sliding:
		return failf(nil, "unacceptable size %d×%d: %s", w, h, accepted)
	}
	r.SetSize(w, h)
	if err := e.reset(r); err != nil {
		return failf(err, "unacceptable size %d×%d: %v", w, h, err)
	}
	return nil
}

func cmdClearBoard(e *Engine, _ context.Context, _ []string) (string, error) {
	return "", e.clear(e.Rules())
}

// clear starts a new game under r, which the engine plays already.
func (e *Engine) clear(r rules.Rules) error {
	if err := e.reset(r); err != nil {
		return failf(err, "cannot start a new game: %v", err)
	}
	return nil
}

// cmdKomi changes the komi and keeps the game: komi changes only the count,
// so the moves are replayed under the new rules.
func cmdKomi(e *Engine, _ context.Context, args []string) (string, error) {
	r := e.Rules()
	if err := r.Set("komi", args[0]); err != nil {
		return "", failf(err, "syntax error: komi %q: komi is a number from -1000 to 1000, such as 0, 0.5, 6.75 or 0.3", clip.Text(args[0]))
	}
	s, base, err := e.replay(r, e.base, e.steps)
	if err != nil {
		return "", failf(err, "komi %s: the moves played cannot be replayed under the new komi: %v", args[0], err)
	}
	e.s, e.base = s, base
	return "", nil
}

// cmdRules answers alak-rules: with no argument the current rules, otherwise
// it sets the rules parsed from the arguments (a preset name then
// OPTION=VALUE settings, on the preset's own board unless size= is given)
// and starts a new game. It answers the rules as set, in the form it reads.
func cmdRules(e *Engine, _ context.Context, args []string) (string, error) {
	if len(args) == 0 {
		return e.Rules().String(), nil
	}
	r, err := rules.Parse(strings.Join(args, " "))
	if err != nil {
		return "", failf(err, "%v (write alak-rules NAME [OPTION=VALUE ...], NAME one of %s)", err, strings.Join(rules.Presets(), ", "))
	}
	if err := e.reset(r); err != nil {
		return "", failf(err, "%v", err)
	}
	return r.String(), nil
}

// parseColor reads a GTP colour: b, black, w or white in any case.
func parseColor(s string) (rules.Color, error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return rules.Black, nil
	case "w", "white":
		return rules.White, nil
	}
	return rules.None, failf(nil, "syntax error: %q is not a colour: write b, black, w or white", clip.Text(s))
}

// cmdPlay plays a move for either colour: a colour that is not to move
// makes a set-up step first (see Engine).
func cmdPlay(e *Engine, _ context.Context, args []string) (string, error) {
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	r := e.Rules()
	m, err := notation.GTP.Decode(r, args[1])
	if err != nil {
		return "", failf(err, "syntax error: %v", err)
	}
	if m == rules.Pass && e.s.Over() {
		return "", nil // a finished game accepts the passes that end a Go game
	}
	s, err := e.play(e.s, c, m)
	if err != nil {
		return "", illegal(r, args[1], err)
	}
	e.s, e.steps = s, append(e.steps, step{c, m})
	return "", nil
}

// cmdGenmove asks the seat of the colour for a move and plays it: a colour
// that is not to move makes a set-up step first (see Engine).
func cmdGenmove(e *Engine, ctx context.Context, args []string) (string, error) {
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	if e.s.Over() {
		return "pass", nil // nothing to play: the game is over
	}
	seat := e.seats[c]
	if seat.Human() {
		return "", failf(session.ErrNotComputer, "genmove %s: this engine has no player for %s", args[0], c)
	}
	s, err := e.turnTo(e.s, c)
	if err != nil {
		return "", failf(err, "genmove %s: cannot give %s the move here: %v", args[0], c, err)
	}
	m, err := s.Reply(ctx)
	if err != nil {
		var me *rules.MoveError
		if errors.As(err, &me) {
			return "", failf(err, "genmove %s: player %s chose %s, which is illegal: %s", args[0], seat.DisplayName(), notation.GTP.Encode(e.Rules(), me.Move), me.Why())
		}
		return "", failf(err, "genmove %s: %v", args[0], err)
	}
	e.s, e.steps = s, append(e.steps, step{c, m})
	return notation.GTP.Encode(e.Rules(), m), nil
}

// cmdUndo takes back the last move told or chosen, whatever its colour: the
// game is rebuilt by replaying the others.
func cmdUndo(e *Engine, _ context.Context, _ []string) (string, error) {
	if len(e.steps) == 0 {
		return "", failf(rules.ErrNothingToUndo, "cannot undo: no move was played since the start (clear_board)")
	}
	steps := e.steps[:len(e.steps)-1]
	s, _, err := e.replay(e.Rules(), e.base, steps)
	if err != nil {
		return "", failf(err, "cannot undo: %v", err)
	}
	e.s, e.steps = s, steps
	return "", nil
}

func cmdShowboard(e *Engine, _ context.Context, _ []string) (string, error) {
	return "\n" + e.s.Snapshot().Text(e.Rules(), false), nil
}

// cmdFinalScore answers the result in SGF's form: B+3, W+2, 0 for a draw,
// B+R for a resignation, B+ for a game won by rule. An unfinished game is
// counted as it stands, where the rules count the board.
func cmdFinalScore(e *Engine, _ context.Context, _ []string) (string, error) {
	o := e.s.Outcome()
	if o.Over() {
		return notation.ResultString(o), nil
	}
	if e.Rules().Scoring == rules.ScoreNone {
		return "", failf(nil, "cannot score: the game is not over and these rules (score=none) do not count the board")
	}
	switch d := o.Black - o.White; {
	case d > 0:
		return "B+" + strconv.FormatFloat(d, 'f', -1, 64), nil
	case d < 0:
		return "W+" + strconv.FormatFloat(-d, 'f', -1, 64), nil
	}
	return "0", nil
}

func cmdLegalMoves(e *Engine, _ context.Context, _ []string) (string, error) {
	moves := e.s.LegalMoves()
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = notation.GTP.Encode(e.Rules(), m)
	}
	return strings.Join(out, " "), nil
}

func cmdSideToMove(e *Engine, _ context.Context, _ []string) (string, error) {
	return e.s.ToMove().String(), nil
}

// cmdFinalResult answers black, white or draw for a finished game and
// unknown while it goes on, as GoGui's rule engines do.
func cmdFinalResult(e *Engine, _ context.Context, _ []string) (string, error) {
	o := e.s.Outcome()
	switch {
	case !o.Over():
		return "unknown", nil
	case o.Winner == rules.None:
		return "draw", nil
	}
	return o.Winner.String(), nil
}

// lineOnly says why boardsize n is refused on the line of r and what is
// accepted instead.
func lineOnly(r rules.Rules, n int) string {
	name := r.Preset
	if name == "" {
		name = "alak"
	}
	if r.Movement == rules.Sliding {
		return fmt.Sprintf("these sliding rules (%s) are played on a line of %d slots: a line of N slots is rectangular_boardsize N 1 (boardsize %d keeps this line)", name, r.Width, r.Width)
	}
	s := fmt.Sprintf("these rules (%s) are played on a line of %d points: a line of N points is rectangular_boardsize N 1, N from 1 to 64 (boardsize %d keeps this line)", name, r.Width, r.Width)
	if n >= 2 && n <= 19 {
		s += fmt.Sprintf("; a %d×%d grid is alak-rules alterigo size=%dx%d for Alter Igo, or rectangular_boardsize %d %d for these rules on a grid", n, n, n, n, n, n)
	} else {
		s += "; grids are up to 19×19"
	}
	return s
}
