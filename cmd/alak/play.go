package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"alak/notation"
	"alak/player"
	"alak/rules"
	"alak/solve"
)

func init() {
	register(command{name: "play", summary: "play a game in the terminal, against the computer or a friend", run: playRun})
}

// playComputer is the computer player used when a side is not given.
const playComputer = "greedy"

// playSide is one side of the game: a human at the keyboard (p == nil) or a
// computer player.
type playSide struct {
	spec string
	p    player.Player
}

func (s playSide) human() bool { return s.p == nil }

// playGame is one session of alak play: the game, the two sides and the
// terminal it talks to.
type playGame struct {
	e     *env
	in    *bufio.Reader
	game  *rules.Game
	r     rules.Rules
	sides [2]playSide // indexed by rules.Black, rules.White

	tableDir    string       // the solver's results tables for hint ("none": no table)
	table       *solve.Table // loaded at the first hint; nil when there is none
	tableLoaded bool
}

func playRun(e *env, args []string) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: alak play [--rules R] [--size N] [--OPTION VALUE ...] [--black human|PLAYER] [--white human|PLAYER | --level N] [--seed N] [--position DIAGRAM [--to-move x|o]]")
		fmt.Fprintln(e.stderr, "Plays a game in the terminal; type help during the game for the commands.")
		fs.PrintDefaults()
	}
	buildRules := rulesFlags(fs)
	black := fs.String("black", "human", "who plays x (Black, first): human, or a computer player: "+playPlayers())
	white := fs.String("white", playComputer, "who plays o (White): human, or a computer player: "+playPlayers())
	level := fs.Int("level", 0, fmt.Sprintf("White's computer player by strength, 1 (random) to %d (the strongest), instead of --white", player.Levels()))
	seed := fs.Uint64("seed", 0, "seed of the computer players' randomness (default: a new seed every game)")
	diagram := fs.String("position", "", "start from this position, a seed diagram such as x--oX- (/ marks points just captured)")
	prisoners := fs.String("prisoners", "", "the prisoners each side took before the start, Black's first, such as 2-1 (they count under territory scoring)")
	tableDir := fs.String("table-dir", "", "directory of the solver's results tables that hint reads, as alak solve writes them (default $XDG_CACHE_HOME/alak or ~/.cache/alak; none: no table)")
	toMove := fs.String("to-move", "", "with --position: the player to move, x or o (default: the opponent of the capital stone, else x)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		return fail(e, "play", fmt.Errorf("unexpected argument %q: the game is set up with flags (alak play -h lists them)", fs.Arg(0)))
	}
	r, err := buildRules()
	if err != nil {
		return fail(e, "play", err)
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["seed"] {
		*seed = rand.Uint64()
	}
	levelName := ""
	if given["level"] {
		if given["white"] {
			return fail(e, "play", fmt.Errorf("--level and --white both choose White's player: give one of them"))
		}
		spec, err := player.Level(*level)
		if err != nil {
			return fail(e, "play", fmt.Errorf("--level: %w", err))
		}
		*white, levelName = spec, fmt.Sprintf("level %d (%s)", *level, spec)
	}
	game, err := playStart(r, *diagram, *toMove, *prisoners)
	if err != nil {
		return fail(e, "play", err)
	}
	g := &playGame{e: e, in: bufio.NewReader(e.stdin), game: game, r: game.Rules(), tableDir: *tableDir}
	// Black's computer uses the seed, White's the seed plus one, so that two
	// copies of the same player do not mirror each other.
	for i, spec := range []string{*black, *white} {
		s, err := playNewSide(spec, *seed+uint64(i))
		if err != nil {
			return fail(e, "play", fmt.Errorf("--%s: %w", []string{"black", "white"}[i], err))
		}
		g.sides[i] = s
	}
	if levelName != "" {
		g.sides[rules.White].spec = levelName
	}
	return g.loop()
}

// playPlayers lists the computer players a side can be.
func playPlayers() string {
	return fmt.Sprintf("%s (NAME:OPTIONS sets a budget, such as mcts:time=1s), or level:N for N from 1 to %d",
		strings.Join(player.Names(), ", "), player.Levels())
}

// playStart builds the game: the rules' start position, or the set-up
// diagram with its player to move.
func playStart(r rules.Rules, diagram, toMove, prisoners string) (*rules.Game, error) {
	pos, err := playStartPosition(r, diagram, toMove)
	if err != nil {
		return nil, err
	}
	if pos, err = withPrisoners(pos, prisoners); err != nil {
		return nil, err
	}
	return rules.NewGameFrom(pos), nil
}

func playStartPosition(r rules.Rules, diagram, toMove string) (rules.Position, error) {
	if diagram == "" {
		if toMove != "" {
			return rules.Position{}, fmt.Errorf("--to-move %s needs --position: a game from the start is begun by x", toMove)
		}
		return rules.NewPosition(r)
	}
	c := rules.Black
	switch {
	case toMove != "":
		var err error
		if c, err = rules.ParseColor(toMove); err != nil {
			return rules.Position{}, fmt.Errorf("--to-move: %w", err)
		}
	case strings.Contains(diagram, "X"):
		c = rules.White
	}
	pos, err := rules.ParseDiagram(r, diagram, c)
	if err != nil {
		return pos, fmt.Errorf("--position: %w", err)
	}
	return pos, nil
}

func playNewSide(spec string, seed uint64) (playSide, error) {
	spec = strings.TrimSpace(spec)
	if strings.EqualFold(spec, "human") {
		return playSide{spec: "human"}, nil
	}
	p, err := player.New(spec, seed)
	if err != nil {
		return playSide{}, fmt.Errorf("%w (or human)", err)
	}
	return playSide{spec: spec, p: p}, nil
}

func (g *playGame) printf(format string, a ...any) { fmt.Fprintf(g.e.stdout, format, a...) }

// loop plays the game to its end, the end of input or quit, and returns the
// exit status.
func (g *playGame) loop() int {
	g.printf("alak play: %s; x is %s, o is %s. Type help for the commands.\n",
		playRulesWords(g.r), g.sides[rules.Black].spec, g.sides[rules.White].spec)
	g.showBoard()
	for !g.game.Over() {
		side := g.sides[g.game.Position().ToMove()]
		if !side.human() {
			if err := g.computerMove(side); err != nil {
				fmt.Fprintf(g.e.stderr, "alak play: %s could not move: %v\n", side.spec, err)
				return 1
			}
			continue
		}
		// A last line without its line ending is still carried out; the
		// next read then finds the end of input.
		line, eof := g.readLine(string(g.game.Position().ToMove().Symbol()) + "> ")
		if eof && line == "" {
			g.printf("\n")
			return 0
		}
		if quit := g.handle(line); quit {
			return 0
		}
	}
	g.finish()
	return 0
}

// readLine prints the prompt and reads one line without its line ending;
// eof reports that the input ended (the line may still hold text).
func (g *playGame) readLine(prompt string) (line string, eof bool) {
	g.printf("%s", prompt)
	s, err := g.in.ReadString('\n')
	return strings.TrimRight(s, "\r\n"), err != nil
}

// handle carries out one line typed by a human and reports whether the
// player asked to quit. A line that is not understood, or a move that is
// not legal, gets one sentence and changes nothing.
func (g *playGame) handle(line string) (quit bool) {
	t := strings.TrimSpace(line)
	word := ""
	if f := strings.Fields(t); len(f) > 0 {
		word = f[0]
	}
	rest := strings.TrimSpace(t[len(word):])
	switch strings.ToLower(word) {
	case "":
		g.printf("Type a move such as %s, or help for the commands.\n", g.exampleMove())
	case "help", "?":
		g.help()
	case "quit", "exit":
		g.printf("Game abandoned after %d move%s.\n", g.game.Len(), playPlural(g.game.Len()))
		return true
	case "board":
		g.showBoard()
	case "undo":
		g.undo()
	case "hint":
		g.hint()
	case "save":
		if rest == "" {
			g.printf("Save needs a file name: save FILE, such as save game.sgf.\n")
			return false
		}
		if err := g.save(rest); err != nil {
			g.printf("Could not save: %v.\n", err)
		}
	default:
		g.humanMove(t)
	}
	return false
}

func (g *playGame) help() {
	g.printf("Moves: %s.\n", g.moveForms())
	g.printf("Commands:\n")
	g.printf("  undo       take back your last move (and the computer's reply)\n")
	g.printf("  hint       ask the solver for the best move\n")
	g.printf("  board      show the board again\n")
	g.printf("  save FILE  save the game so far as an SGF record\n")
	g.printf("  help       this list\n")
	g.printf("  quit       leave the game\n")
}

// moveForms says in words which move notations the rules accept.
func (g *playGame) moveForms() string {
	r := g.r
	var forms string
	switch {
	case r.Movement == rules.Sliding:
		forms = fmt.Sprintf("a slide from-to such as 1-4 (slots 1 to %d)", r.Width)
	case r.IsLine() && r.Width <= 26:
		forms = fmt.Sprintf("a point as a number 1 to %d, a letter a to %s or a GTP vertex A1 to %s",
			r.Width, notation.Letter(r.Width-1), notation.GTPVertex(r, r.Width-1))
	case r.IsLine():
		forms = fmt.Sprintf("a point as a number 1 to %d or a GTP vertex A1 to %s", r.Width, notation.GTPVertex(r, r.Width-1))
	default:
		forms = fmt.Sprintf("a point as a GTP vertex such as %s (columns A to %s without I, rows 1 to %d from the bottom)",
			notation.GTPVertex(r, 0), notation.GTPColumn(r.Width-1), r.Height)
	}
	if r.Pass {
		forms += ", pass"
	}
	return forms + ", or resign"
}

func (g *playGame) exampleMove() string {
	if ms := g.game.LegalMoves(nil); len(ms) > 0 {
		return notation.FormatMove(g.r, ms[0])
	}
	return "resign"
}

// humanMove reads and plays the human's move, or says why it cannot.
func (g *playGame) humanMove(s string) {
	m, err := notation.ParseMove(g.r, s)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), notation.ErrNotation.Error()+": ")
		if !g.r.Pass {
			msg = strings.Replace(msg, "(or pass, resign)", "(or resign)", 1)
		}
		g.printf("%s; type help for the commands.\n", playSentence(msg))
		return
	}
	if err := g.game.Play(m); err != nil {
		g.printf("%s is not legal now: %s; %s.\n", playSentence(notation.FormatMove(g.r, m)), playReason(err), g.legalList())
		return
	}
	g.announce(m)
}

// playReason is the kernel's reason for rejecting a move without its
// "point N: " or "move A-B: " prefix, which the sentence already names.
func playReason(err error) string {
	return playReasonPrefix.ReplaceAllString(err.Error(), "")
}

var playReasonPrefix = regexp.MustCompile(`^(point|move) \S+: `)

// playSentence turns a message into the start of a sentence.
func playSentence(msg string) string {
	if msg == "" {
		return msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:]
}

// legalList names the legal moves when there are few enough to read.
func (g *playGame) legalList() string {
	ms := g.game.LegalMoves(nil)
	if len(ms) == 0 {
		return "no move is legal"
	}
	if len(ms) > 20 {
		return fmt.Sprintf("%d moves are legal (type board to see the board)", len(ms))
	}
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = notation.FormatMove(g.r, m)
	}
	return "legal now: " + strings.Join(names, ", ")
}

// computerMove asks the computer side for its move and plays it. On a
// terminal a line says the computer is thinking, erased once it has moved.
func (g *playGame) computerMove(s playSide) error {
	if g.e.terminal {
		g.printf("%c (%s) is thinking...", g.game.Position().ToMove().Symbol(), s.spec)
	}
	m, err := s.p.Move(context.Background(), g.game)
	if g.e.terminal {
		g.printf("\r\x1b[K")
	}
	if err != nil {
		return err
	}
	if err := g.game.Play(m); err != nil {
		return fmt.Errorf("it chose %s: %w", notation.FormatMove(g.r, m), err)
	}
	g.announce(m)
	return nil
}

// announce prints the move just played and the board after it.
func (g *playGame) announce(m rules.Move) {
	mover := g.game.PositionAt(g.game.Len() - 1).ToMove()
	g.printf("%c plays %s\n", mover.Symbol(), notation.FormatMove(g.r, m))
	g.showBoard()
}

// undo takes back the human's last move, and the computer's replies after
// it, so that the same human is to move again.
func (g *playGame) undo() {
	n := g.game.Len()
	k := 0
	for k < n && !g.sides[g.game.PositionAt(n-1-k).ToMove()].human() {
		k++
	}
	if k == n {
		if n == 0 {
			g.printf("There is no move to take back yet; type a move such as %s.\n", g.exampleMove())
		} else {
			g.printf("There is no move of yours to take back; type a move such as %s.\n", g.exampleMove())
		}
		return
	}
	k++
	for range k {
		if err := g.game.Undo(); err != nil {
			g.printf("Could not take back: %v.\n", err)
			return
		}
	}
	g.printf("Took back %d move%s.\n", k, playPlural(k))
	g.showBoard()
}

// playHintTime is how long hint lets the solver think; playHintNodes, when
// not 0, bounds the positions it may search (tests use it for a budget that
// does not depend on the machine's speed).
var (
	playHintTime        = 2 * time.Second
	playHintNodes int64 = 0
)

// hint asks the solver for the best moves from the current position, under
// the game's history, and says what perfect play leads to. The solver reads
// the results table of the rules (alak solve fills it) but hint does not
// write it. It says so when the solver cannot finish in time.
func (g *playGame) hint() {
	if !g.tableLoaded {
		g.tableLoaded = true
		if t, err := openTable(g.tableDir, g.r); err != nil {
			fmt.Fprintf(g.e.stderr, "alak play: hint goes on without the results table: %v\n", err)
		} else {
			g.table = t
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), playHintTime)
	defer cancel()
	res, err := solve.Solve(ctx, g.game.Clone(), solve.Options{Table: g.table, MaxNodes: playHintNodes})
	switch {
	case errors.Is(err, solve.ErrUnsupported):
		g.printf("No hint: the solver handles boards of at most 64 points, not a %s board.\n", g.r.SizeString())
		return
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		g.printf("No hint: the solver could not finish in %v (%d positions searched).\n", playHintTime, res.Nodes)
		return
	case errors.Is(err, solve.ErrNodeLimit):
		g.printf("No hint: the solver could not finish within %d positions.\n", playHintNodes)
		return
	case err != nil:
		g.printf("No hint: %v.\n", err)
		return
	case len(res.Best) == 0:
		g.printf("No hint: no move is legal.\n")
		return
	}
	best := make([]string, len(res.Best))
	for i, m := range res.Best {
		best[i] = notation.FormatMove(g.r, m)
	}
	pv := make([]string, len(res.PV))
	for i, m := range res.PV {
		pv[i] = notation.FormatMove(g.r, m)
	}
	what := "best move"
	if len(best) > 1 {
		what = "best moves"
	}
	g.printf("Hint: %s %s; with perfect play %s (for example %s).\n", what, strings.Join(best, ", "), playValueWords(g.r, res.Value), strings.Join(pv, " "))
}

// playValueWords says in words what a solver value (Black's margin) means.
func playValueWords(r rules.Rules, v float64) string {
	counted := r.Scoring != rules.ScoreNone && r.Movement == rules.Placement
	num := strconv.FormatFloat(math.Abs(v), 'f', -1, 64)
	switch {
	case v > 0 && counted:
		return "Black wins by " + num
	case v < 0 && counted:
		return "White wins by " + num
	case v > 0:
		return "Black wins"
	case v < 0:
		return "White wins"
	}
	return "the game is a draw"
}

// save writes the game so far to the file name: an SGF record, or a plain
// move list when the name ends in .txt. The record is built in memory
// first, so a failure leaves no half-written file, and an existing file is
// never overwritten.
func (g *playGame) save(name string) error {
	rec := notation.NewRecord(g.game)
	rec.Black, rec.White = g.sides[rules.Black].spec, g.sides[rules.White].spec
	write, form := notation.WriteSGF, "an SGF record"
	if strings.HasSuffix(strings.ToLower(name), ".txt") {
		write, form = notation.WriteMoveList, "a move list"
	}
	var buf bytes.Buffer
	if err := write(&buf, rec); err != nil {
		return fmt.Errorf("%w (a file name ending in .txt saves a move list)", err)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists; give a new file name", name)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	g.printf("Saved the game (%d moves) to %s as %s.\n", g.game.Len(), name, form)
	return nil
}

// showBoard prints the board with whose turn it is and the stone count.
func (g *playGame) showBoard() {
	g.printf("%s", notation.Board(g.game.Position(), g.e.terminal))
}

// finish shows the result and offers to save the record.
func (g *playGame) finish() {
	g.printf("Game over: %s.\n", notation.GameResultWords(g.game))
	for {
		name, eof := g.readLine("save the game? (file name, or Enter to skip) ")
		name = strings.TrimSpace(name)
		if name == "" {
			if eof {
				g.printf("\n")
			}
			return
		}
		if err := g.save(name); err != nil {
			g.printf("Could not save: %v.\n", err)
			if eof {
				g.printf("\n")
				return
			}
			continue
		}
		return
	}
}

// playRulesWords describes the rules in a few words.
func playRulesWords(r rules.Rules) string {
	where := fmt.Sprintf("%d points", r.Width)
	if r.Movement == rules.Sliding {
		where = fmt.Sprintf("%d slots", r.Width)
	}
	if !r.IsLine() {
		where = "a " + r.SizeString() + " board"
	}
	name := r.Preset
	if ch := r.Changed(false); len(ch) > 0 {
		name += " (" + strings.Join(ch, " ") + ")"
	}
	return fmt.Sprintf("%s rules on %s", name, where)
}

func playPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
