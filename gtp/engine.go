package gtp

import (
	"alak/internal/clip"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"alak/internal/version"
	"alak/notation"
	"alak/rules"
)

// Player chooses the engine's moves for genmove. It is the method set of
// player.Player, declared here so that this package does not depend on the
// players (which use this package's Client for external engines).
type Player interface {
	Name() string
	Move(ctx context.Context, g *rules.Game) (rules.Move, error)
}

// Engine is a GTP version 2 engine for alak's rules: it keeps a game, plays
// the moves it is told and generates moves with its Player. See docs/gtp.md
// for the commands. An Engine is not safe for concurrent use.
type Engine struct {
	Name    string // answered to name; "alak" by default
	Version string // answered to version; the build's version by default

	rules  rules.Rules
	game   *rules.Game
	player Player
}

// NewEngine returns an engine playing r from the start position, generating
// moves with p (nil: genmove fails).
func NewEngine(r rules.Rules, p Player) (*Engine, error) {
	g, err := rules.NewGame(r)
	if err != nil {
		return nil, err
	}
	return &Engine{Name: "alak", Version: version.String(), rules: r, game: g, player: p}, nil
}

// Rules returns the rules the engine plays.
func (e *Engine) Rules() rules.Rules { return e.rules }

// Game returns the engine's game. Changing it changes the engine's state.
func (e *Engine) Game() *rules.Game { return e.game }

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
		{"gogui-rules_legal_moves", "", cmdLegalMoves},
		{"gogui-rules_side_to_move", "", cmdSideToMove},
		{"gogui-rules_final_result", "", cmdFinalResult},
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

// Execute runs one command with its arguments and returns the text of the
// success response, or an error whose message is the failure response.
// Command names are matched without regard to case. Execute does not act on
// quit beyond answering it; Run stops there.
func (e *Engine) Execute(ctx context.Context, name string, args ...string) (string, error) {
	c, ok := lookup(name)
	if !ok {
		return "", fmt.Errorf("unknown command %q: list_commands lists the %d commands this engine knows", name, len(commandList))
	}
	want := strings.Count(c.usage, " ") + 1
	if c.usage == "" {
		want = 0
	}
	if !strings.Contains(c.usage, "...") && len(args) != want {
		usage := strings.TrimSpace(c.name + " " + c.usage)
		return "", fmt.Errorf("syntax error: %s takes %d argument%s, got %d: write %s", c.name, want, plural(want), len(args), usage)
	}
	return c.run(e, ctx, args)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Run reads commands from in and writes the responses to out until quit,
// the end of in, or ctx is done, following GTP version 2: control characters
// other than tab and newline are dropped, everything from # to the end of a
// line is a comment, tabs count as spaces, empty lines are ignored; a command
// may start with a numeric id, which its response repeats; a response is
// "=[id] text" on success or "?[id] message" on failure, ended by an empty
// line. Run returns nil at quit or the end of in, otherwise the error that
// stopped it.
func (e *Engine) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	br := bufio.NewReader(in)
	bw := bufio.NewWriter(out)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return rerr
		}
		id, fields, ok := parseLine(line)
		if ok {
			var text string
			var err error
			if len(fields) == 0 {
				err = fmt.Errorf("syntax error: the line has an id but no command: write [ID] COMMAND [ARGUMENTS]")
			} else {
				text, err = e.Execute(ctx, fields[0], fields[1:]...)
			}
			writeResponse(bw, id, text, err)
			if werr := bw.Flush(); werr != nil {
				return werr
			}
			if err == nil && strings.EqualFold(fields[0], "quit") {
				return nil
			}
		}
		if rerr == io.EOF {
			return nil
		}
	}
}

// parseLine applies GTP's preprocessing to one line and splits it into the
// id (or "") and the fields. ok is false for a line to be ignored.
func parseLine(line string) (id string, fields []string, ok bool) {
	line, _, _ = strings.Cut(line, "#")
	var b strings.Builder
	for _, r := range line {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r < 32 || r == 127:
		default:
			b.WriteRune(r)
		}
	}
	fields = strings.Fields(b.String())
	if len(fields) == 0 {
		return "", nil, false
	}
	if isNumber(fields[0]) {
		return fields[0], fields[1:], true
	}
	return "", fields, true
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func writeResponse(w *bufio.Writer, id, text string, err error) {
	mark := "="
	if err != nil {
		mark, text = "?", err.Error()
	}
	// An empty line ends a response, so the text may hold none.
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(text, " \n"), "\n") {
		if strings.TrimSpace(l) != "" || len(lines) == 0 {
			lines = append(lines, strings.TrimRight(l, " "))
		}
	}
	fmt.Fprintf(w, "%s%s %s\n\n", mark, id, strings.Join(lines, "\n"))
}

func cmdKnownCommand(_ *Engine, _ context.Context, args []string) (string, error) {
	_, ok := lookup(args[0])
	return strconv.FormatBool(ok), nil
}

func cmdListCommands(*Engine, context.Context, []string) (string, error) {
	return strings.Join(Commands(), "\n"), nil
}

// setRules replaces the rules and starts a new game, or changes nothing and
// returns the reason r cannot be played.
func (e *Engine) setRules(r rules.Rules) error {
	if err := r.Validate(); err != nil {
		return err
	}
	g, err := rules.NewGame(r)
	if err != nil {
		return err
	}
	e.rules, e.game = r, g
	return nil
}

func cmdBoardsize(e *Engine, _ context.Context, args []string) (string, error) {
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", fmt.Errorf("syntax error: boardsize %q: the size is a whole number (boardsize N is an N×N grid, N from 2 to 19; a line of N points is rectangular_boardsize N 1)", args[0])
	}
	return "", e.resize(n, n)
}

func cmdRectangularBoardsize(e *Engine, _ context.Context, args []string) (string, error) {
	w, err1 := strconv.Atoi(args[0])
	h, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil {
		return "", fmt.Errorf("syntax error: rectangular_boardsize %s %s: the width and height are whole numbers, such as rectangular_boardsize 11 1 for a line of 11 points", args[0], args[1])
	}
	return "", e.resize(w, h)
}

// resize starts a new game on a w×h board (h = 1: a line) under the current
// rules and options.
func (e *Engine) resize(w, h int) error {
	accepted := "a line is rectangular_boardsize N 1 with N from 1 to 64; a grid is up to 19×19"
	if e.rules.Movement == rules.Sliding {
		accepted = "these sliding rules are played on a line: rectangular_boardsize N 1, N from 1 to 64"
	}
	switch {
	case w < 1 || h < 1:
		return fmt.Errorf("unacceptable size %d×%d: %s", w, h, accepted)
	case w == 1 && h > 1:
		return fmt.Errorf("unacceptable size 1×%d: a line is one row, written rectangular_boardsize %d 1", h, h)
	case h == 1 && w > 64, h > 1 && (w > 19 || h > 19):
		return fmt.Errorf("unacceptable size %d×%d: %s", w, h, accepted)
	case h > 1 && e.rules.Movement == rules.Sliding:
		return fmt.Errorf("unacceptable size %d×%d: %s", w, h, accepted)
	}
	r := e.rules
	r.SetSize(w, h)
	if err := e.setRules(r); err != nil {
		return fmt.Errorf("unacceptable size %d×%d: %v", w, h, err)
	}
	return nil
}

func cmdClearBoard(e *Engine, _ context.Context, _ []string) (string, error) {
	return "", e.setRules(e.rules)
}

// cmdKomi changes the komi and keeps the game: komi changes only the count,
// so the moves are replayed under the new rules.
func cmdKomi(e *Engine, _ context.Context, args []string) (string, error) {
	r := e.rules
	if err := r.Set("komi", args[0]); err != nil {
		return "", fmt.Errorf("syntax error: komi %q: komi is a number from -1000 to 1000, such as 0, 0.5, 6.75 or 0.3", clip.Text(args[0]))
	}
	g, err := rules.NewGame(r)
	if err != nil {
		return "", err
	}
	for _, m := range e.game.Moves() {
		if err := g.Play(m); err != nil {
			return "", fmt.Errorf("komi %s: the moves played cannot be replayed under the new komi: %v", args[0], err)
		}
	}
	e.rules, e.game = r, g
	return "", nil
}

// cmdRules answers alak-rules: with no argument the current rules, otherwise
// it sets the rules parsed from the arguments (a preset name then
// OPTION=VALUE settings, on the preset's own board unless size= is given)
// and starts a new game. It answers the rules as set, in the form it reads.
func cmdRules(e *Engine, _ context.Context, args []string) (string, error) {
	if len(args) == 0 {
		return e.rules.String(), nil
	}
	r, err := rules.Parse(strings.Join(args, " "))
	if err != nil {
		return "", fmt.Errorf("%v (write alak-rules NAME [OPTION=VALUE ...], NAME one of %s)", err, strings.Join(rules.Presets(), ", "))
	}
	if err := e.setRules(r); err != nil {
		return "", err
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
	return rules.None, fmt.Errorf("syntax error: %q is not a colour: write b, black, w or white", s)
}

// ParseMove reads a move as GTP writes it under r: a vertex such as C1 for a
// placement, two vertices joined by "-" such as A1-E1 for a slide, pass or
// resign (any case).
func ParseMove(r rules.Rules, s string) (rules.Move, error) {
	switch strings.ToLower(s) {
	case "pass":
		return rules.Pass, nil
	case "resign":
		return rules.Resign, nil
	}
	if r.Movement == rules.Sliding {
		a, b, ok := strings.Cut(s, "-")
		if !ok {
			return rules.NoMove, fmt.Errorf("%q is not a move: these rules slide a piece, written FROM-TO with two vertices such as A1-E1", s)
		}
		from, err := notation.ParseGTPVertex(r, a)
		if err != nil {
			return rules.NoMove, err
		}
		to, err := notation.ParseGTPVertex(r, b)
		if err != nil {
			return rules.NoMove, err
		}
		return rules.Slide(from, to), nil
	}
	p, err := notation.ParseGTPVertex(r, s)
	if err != nil {
		return rules.NoMove, fmt.Errorf("%w; a move is a vertex, pass or resign", err)
	}
	return rules.Place(p), nil
}

// FormatMove writes a move as ParseMove reads it: a vertex (C1), FROM-TO
// (A1-E1), pass or resign.
func FormatMove(r rules.Rules, m rules.Move) string {
	switch {
	case m == rules.Pass:
		return "pass"
	case m == rules.Resign:
		return "resign"
	case m.IsSlide():
		return notation.GTPVertex(r, m.From()) + "-" + notation.GTPVertex(r, m.To())
	case m.IsPlace():
		return notation.GTPVertex(r, m.Point())
	}
	return "none"
}

// checkTurn fails unless c is the player to move: the kernel's games
// alternate, so a colour can only play on its own turn.
func (e *Engine) checkTurn(c rules.Color) error {
	if tm := e.game.Position().ToMove(); c != tm {
		return fmt.Errorf("illegal move: it is %s's turn; these rules alternate, so %s cannot move now", tm, c)
	}
	return nil
}

func cmdPlay(e *Engine, _ context.Context, args []string) (string, error) {
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	m, err := ParseMove(e.rules, args[1])
	if err != nil {
		return "", fmt.Errorf("syntax error: %v", err)
	}
	if e.game.Over() {
		if m == rules.Pass {
			return "", nil // a finished game accepts the passes that end a Go game
		}
		return "", fmt.Errorf("illegal move %s: the game is over (%s); clear_board starts a new one", args[1], notation.GameResultWords(e.game))
	}
	if err := e.checkTurn(c); err != nil {
		return "", err
	}
	if err := e.game.Play(m); err != nil {
		return "", fmt.Errorf("illegal move %s: %v", args[1], err)
	}
	return "", nil
}

func cmdGenmove(e *Engine, ctx context.Context, args []string) (string, error) {
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	if e.game.Over() {
		return "pass", nil // nothing to play: the game is over
	}
	if err := e.checkTurn(c); err != nil {
		return "", err
	}
	if e.player == nil {
		return "", errors.New("genmove: this engine has no player")
	}
	m, err := e.player.Move(ctx, e.game)
	if err != nil {
		return "", fmt.Errorf("genmove: player %s failed: %v", e.player.Name(), err)
	}
	if err := e.game.Play(m); err != nil {
		return "", fmt.Errorf("genmove: player %s chose %s, which is illegal: %v", e.player.Name(), FormatMove(e.rules, m), err)
	}
	return FormatMove(e.rules, m), nil
}

func cmdUndo(e *Engine, _ context.Context, _ []string) (string, error) {
	if err := e.game.Undo(); err != nil {
		return "", fmt.Errorf("cannot undo: %v", err)
	}
	return "", nil
}

func cmdShowboard(e *Engine, _ context.Context, _ []string) (string, error) {
	return "\n" + notation.Board(e.game.Position(), false), nil
}

// cmdFinalScore answers the result in SGF's form: B+3, W+2, 0 for a draw,
// B+R for a resignation, B+ for a game won by rule. An unfinished game is
// counted as it stands, where the rules count the board.
func cmdFinalScore(e *Engine, _ context.Context, _ []string) (string, error) {
	o := e.game.Outcome()
	if o.Over() {
		return notation.ResultString(o), nil
	}
	if e.rules.Scoring == rules.ScoreNone {
		return "", errors.New("cannot score: the game is not over and these rules (score=none) do not count the board")
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
	moves := e.game.LegalMoves(nil)
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = FormatMove(e.rules, m)
	}
	return strings.Join(out, " "), nil
}

func cmdSideToMove(e *Engine, _ context.Context, _ []string) (string, error) {
	return e.game.Position().ToMove().String(), nil
}

// cmdFinalResult answers black, white or draw for a finished game and
// unknown while it goes on, as GoGui's rule engines do.
func cmdFinalResult(e *Engine, _ context.Context, _ []string) (string, error) {
	o := e.game.Outcome()
	switch {
	case !o.Over():
		return "unknown", nil
	case o.Winner == rules.None:
		return "draw", nil
	}
	return o.Winner.String(), nil
}
