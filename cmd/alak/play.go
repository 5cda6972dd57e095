package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"alak/notation"
	"alak/player"
	"alak/rules"
	"alak/session"
	"alak/solve"
)

func init() {
	register(command{name: "play", summary: "play a game in the terminal, against the computer or a friend", run: playRun})
}

// playComputer is the computer player used when a side is not given.
const playComputer = "greedy"

const playUsage = `usage: alak play [--rules R] [--size N] [--OPTION VALUE ...] [--black human|PLAYER] [--white human|PLAYER | --level N] [--seed N] [--position DIAGRAM [--to-move x|o] [--prisoners B-W]]
       alak play [--black ...] [--white ...] FILE
Plays a game in the terminal; type help during the game for the commands.
A FILE (a record saved with save, SGF or a move list) resumes that game
under its own rules.`

// playGame is one session of alak play: the game with its seats, and the
// terminal it talks to.
type playGame struct {
	e     *env
	in    *bufio.Reader
	s     *session.Session
	r     rules.Rules
	specs [2]string // what the banner calls each side

	tableDir    string // the solver's results tables for hint ("none": no table)
	tableLoaded bool
}

func playRun(e *env, args []string) int {
	fs := newFlagSet(e, "play", playUsage)
	buildRules := rulesFlags(fs)
	black := fs.String("black", "human", "who plays x (Black, first): human, or a computer player: "+playPlayers())
	white := fs.String("white", playComputer, "who plays o (White): human, or a computer player: "+playPlayers())
	level := fs.Int("level", 0, fmt.Sprintf("White's computer player by strength, 1 (random) to %d (the strongest), instead of --white", player.Levels()))
	seed := fs.Uint64("seed", 0, "seed of the computer players' randomness (default: a new seed every game)")
	setup := setupFlags(fs)
	tableDir := fs.String("table-dir", "", "directory of the solver's results tables that hint reads, as alak solve writes them (default $XDG_CACHE_HOME/alak or ~/.cache/alak; none: no table)")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var g *rules.Game
	var rec *notation.Record
	switch {
	case len(words) > 1:
		return fail(e, "play", fmt.Errorf("unexpected argument %q: give at most one record FILE to resume (alak play -h lists the flags)", words[1]))
	case len(words) == 1 && !looksLikeFile(words[0]):
		return fail(e, "play", fmt.Errorf("unexpected argument %q: the game is set up with flags (alak play -h lists them), or resumed from a record FILE named with a path or an extension, such as ./game.sgf", words[0]))
	case len(words) == 1:
		if flags := setupFlagsGiven(fs, "black", "white", "level", "seed", "table-dir"); len(flags) > 0 {
			return fail(e, "play", fmt.Errorf("%s: a record FILE carries its own rules and start; give either the file or those flags", strings.Join(flags, ", ")))
		}
		r, err := readRecordArg(words[0])
		if err != nil {
			return fail(e, "play", err)
		}
		rec = &r
	default:
		r, err := buildRules()
		if err != nil {
			return fail(e, "play", err)
		}
		if g, err = setup(r, nil).Game(); err != nil {
			return fail(e, "play", err)
		}
	}
	if !given["seed"] {
		*seed = rand.Uint64()
	}
	specs := [2]string{*black, *white}
	if given["level"] {
		if given["white"] {
			return fail(e, "play", errors.New("--level and --white both choose White's player: give one of them"))
		}
		spec, err := player.Level(*level)
		if err != nil {
			return fail(e, "play", fmt.Errorf("--level: %w", err))
		}
		specs[rules.White] = spec
	}
	// Black's computer uses the seed, White's the seed plus one, so that two
	// copies of the same player do not mirror each other.
	var seats [2]session.Seat
	for i, spec := range specs {
		seat, err := playSeat(spec, *seed+uint64(i))
		if err != nil {
			closeSeats(seats)
			return fail(e, "play", fmt.Errorf("--%s: %w", []string{"black", "white"}[i], err))
		}
		seats[i] = seat
	}
	if given["level"] {
		specs[rules.White] = fmt.Sprintf("level %d (%s)", *level, specs[rules.White])
	}
	opt := session.Options{HintTime: playHintTime, HintNodes: playHintNodes}
	var s *session.Session
	if rec != nil {
		if s, err = session.FromRecord(*rec, seats[rules.Black], seats[rules.White], opt); err != nil {
			closeSeats(seats)
			return fail(e, "play", fmt.Errorf("%s: %w", words[0], err))
		}
	} else {
		s = session.New(g, seats[rules.Black], seats[rules.White], opt)
	}
	defer s.Close()
	pg := &playGame{e: e, in: bufio.NewReader(e.stdin), s: s, r: s.Rules(), specs: specs, tableDir: *tableDir}
	if rec != nil {
		pg.printf("Resuming %s: %d move%s played.\n", words[0], s.Ply(), plural(s.Ply()))
	}
	return pg.loop()
}

// playSeat builds one side from its flag: a human, or a computer player.
func playSeat(spec string, seed uint64) (session.Seat, error) {
	spec = strings.TrimSpace(spec)
	if strings.EqualFold(spec, "human") {
		return session.Seat{Name: "human"}, nil
	}
	p, err := player.New(spec, seed)
	if err != nil {
		return session.Seat{}, fmt.Errorf("%w (or human)", err)
	}
	return session.Seat{Name: spec, Player: p}, nil
}

func closeSeats(seats [2]session.Seat) {
	for _, s := range seats {
		if s.Player != nil {
			s.Player.Close()
		}
	}
}

// playPlayers lists the computer players a side can be.
func playPlayers() string {
	return fmt.Sprintf("%s (NAME:OPTIONS sets a budget, such as mcts:time=1s), or level:N for N from 1 to %d",
		strings.Join(player.Names(), ", "), player.Levels())
}

func (g *playGame) printf(format string, a ...any) { fmt.Fprintf(g.e.stdout, format, a...) }

// loop plays the game to its end, the end of input or quit, and returns the
// exit status. After the end it still takes save, board, rules and help.
func (g *playGame) loop() int {
	g.printf("alak play: %s; x is %s, o is %s. Type help for the commands.\n",
		playRulesWords(g.r), g.specs[rules.Black], g.specs[rules.White])
	g.showBoard()
	over := g.s.Over()
	for {
		if !over && g.s.Over() {
			over = true
			g.printf("Type save FILE to keep the record, or quit.\n")
		}
		if !over && !g.s.Seat(g.s.ToMove()).Human() {
			if err := g.computerMove(); err != nil {
				fmt.Fprintf(g.e.stderr, "alak play: %v\n", err)
				return 1
			}
			continue
		}
		prompt := g.s.ToMove().Letter() + "> "
		if over {
			prompt = "> "
		}
		// A last line without its line ending is still carried out; the
		// next read then finds the end of input.
		line, eof := g.readLine(prompt)
		if eof && line == "" {
			g.printf("\n")
			return 0
		}
		if quit := g.handle(line); quit {
			return 0
		}
	}
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
		if g.s.Over() {
			g.printf("The game is over: type save FILE to keep the record, or quit.\n")
		} else {
			g.printf("Type a move such as %s, or help for the commands.\n", g.exampleMove())
		}
	case "help", "?":
		g.help()
	case "rules":
		g.printf("%s", notation.RulesText(g.r))
	case "quit", "exit":
		if !g.s.Over() {
			g.printf("Game abandoned after %d move%s.\n", g.s.Ply(), plural(g.s.Ply()))
		}
		return true
	case "board":
		g.showBoard()
	case "undo":
		g.undo()
	case "hint":
		g.hint()
	case "draw":
		g.draw()
	case "save":
		if rest == "" {
			g.printf("Save needs a file name: save FILE, such as save game.sgf.\n")
			return false
		}
		if err := g.save(rest); err != nil {
			g.printf("Could not save: %v.\n", err)
		}
	case "resign":
		if g.s.Over() {
			g.gameOver()
			return false
		}
		c := g.s.ToMove()
		if err := g.s.Resign(c); err != nil {
			g.printf("%s.\n", sentence(err.Error()))
			return false
		}
		g.printf("%c resigns.\n", c.Symbol())
		g.showBoard()
	default:
		if g.s.Over() {
			g.gameOver()
			return false
		}
		g.humanMove(t)
	}
	return false
}

// gameOver answers a move typed after the end.
func (g *playGame) gameOver() {
	g.printf("The game is over (%s): type save FILE to keep the record, or quit.\n", notation.OutcomeWords(g.s.Outcome(), g.s.ToMove()))
}

func (g *playGame) help() {
	g.printf("Moves: %s.\n", g.moveForms())
	g.printf("On the board: x and o are the stones, the one just played in capitals; - is an empty point;\n")
	g.printf("  / is a point just captured%s.\n", map[bool]string{true: ", which the player whose stones stood there may not take back at once", false: ""}[g.r.Ko == rules.KoCaptured && g.r.Movement == rules.Placement])
	g.printf("Commands:\n")
	g.printf("  undo       take back your last move (and the computer's reply)\n")
	g.printf("  hint       ask the solver for the best move\n")
	g.printf("  draw       offer a draw (a computer plays on)\n")
	g.printf("  resign     give up the game\n")
	g.printf("  board      show the board again\n")
	g.printf("  rules      the rules of this game in words\n")
	g.printf("  save FILE  save the game so far (SGF, or a move list for a name ending .txt)\n")
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
			r.Width, notation.Letter(r.Width-1), r.Vertex(r.Width-1))
	case r.IsLine():
		forms = fmt.Sprintf("a point as a number 1 to %d or a GTP vertex A1 to %s", r.Width, r.Vertex(r.Width-1))
	default:
		forms = fmt.Sprintf("a point as a GTP vertex such as %s (columns A to %s without I, rows 1 to %d from the bottom)",
			r.Vertex(0), rules.Column(r.Width-1), r.Height)
	}
	if r.Pass {
		forms += ", pass"
	}
	return forms + ", or resign"
}

func (g *playGame) exampleMove() string {
	if ms := g.s.LegalMoves(); len(ms) > 0 {
		return notation.Human.Encode(g.r, ms[0])
	}
	return "resign"
}

// humanMove reads and plays the human's move, or says why it cannot.
func (g *playGame) humanMove(s string) {
	m, err := notation.Human.Decode(g.r, s)
	var pe *notation.ParseError
	if errors.As(err, &pe) {
		g.printf("Cannot read %q: %s; type help for the commands.\n", pe.Input, pe.Msg)
		return
	}
	if err != nil {
		g.printf("%s; type help for the commands.\n", sentence(err.Error()))
		return
	}
	if err := g.s.Play(g.s.ToMove(), m); err != nil {
		g.printf("%s is not legal now: %s; %s.\n", sentence(notation.Human.Encode(g.r, m)), g.why(err), g.legalList())
		return
	}
	g.announce(m)
}

// why is the reason a move was refused, without the move, which the
// sentence already names.
func (g *playGame) why(err error) string {
	var me *rules.MoveError
	if errors.As(err, &me) {
		return me.Why()
	}
	return err.Error()
}

// sentence turns a message into the start of a sentence.
func sentence(msg string) string {
	if msg == "" {
		return msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:]
}

// legalList names the legal moves when there are few enough to read.
func (g *playGame) legalList() string {
	ms := g.s.LegalMoves()
	if len(ms) == 0 {
		return "no move is legal"
	}
	if len(ms) > 20 {
		return fmt.Sprintf("%d moves are legal (type board to see the board)", len(ms))
	}
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = notation.Human.Encode(g.r, m)
	}
	return "legal now: " + strings.Join(names, ", ")
}

// computerMove asks the computer seat to move for its reply. On a terminal
// a line says the computer is thinking, erased once it has moved.
func (g *playGame) computerMove() error {
	c := g.s.ToMove()
	if g.e.terminal {
		g.printf("%c (%s) is thinking...", c.Symbol(), g.specs[c])
	}
	m, err := g.s.Reply(context.Background())
	if g.e.terminal {
		g.printf("\r\x1b[K")
	}
	if err != nil {
		return err
	}
	if m == rules.Resign {
		g.printf("%c resigns.\n", c.Symbol())
		g.showBoard()
		return nil
	}
	g.announce(m)
	return nil
}

// announce prints the move just played and the board after it.
func (g *playGame) announce(m rules.Move) {
	mover := g.s.ToMove().Opp()
	g.printf("%c plays %s\n", mover.Symbol(), notation.Human.Encode(g.r, m))
	g.showBoard()
}

// undo takes back the human's last move, and the computer's replies after
// it, so that the same human is to move again.
func (g *playGame) undo() {
	if g.s.Over() && g.s.Outcome().Reason != rules.NoMoves && g.s.Outcome().Reason != rules.Repetition {
		g.gameOver()
		return
	}
	c, ok := g.s.LastHumanMover()
	if !ok {
		if g.s.Ply() == 0 {
			g.printf("There is no move to take back yet; type a move such as %s.\n", g.exampleMove())
		} else {
			g.printf("There is no move of yours to take back; type a move such as %s.\n", g.exampleMove())
		}
		return
	}
	n, err := g.s.Undo(c)
	if err != nil {
		g.printf("Could not take back: %v.\n", err)
		return
	}
	g.printf("Took back %d move%s.\n", n, plural(n))
	g.showBoard()
}

// draw offers a draw for the player to move; the other human accepts by
// offering one too.
func (g *playGame) draw() {
	if g.s.Over() {
		g.gameOver()
		return
	}
	c := g.s.ToMove()
	agreed, err := g.s.OfferDraw(c)
	switch {
	case err != nil:
		g.printf("%s.\n", sentence(err.Error()))
	case agreed:
		g.printf("Both players agree: the game is drawn.\n")
		g.showBoard()
	case g.s.DrawOffer() == c:
		g.printf("%c offers a draw; %c accepts by typing draw, or plays on. Now your move.\n", c.Symbol(), c.Opp().Symbol())
	default:
		g.printf("%c (%s) plays on: no draw.\n", c.Opp().Symbol(), g.specs[c.Opp()])
	}
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
// write it.
func (g *playGame) hint() {
	if !g.tableLoaded {
		g.tableLoaded = true
		dir, err := tableDir(g.tableDir)
		if err != nil {
			fmt.Fprintf(g.e.stderr, "alak play: hint goes on without the results table: %v\n", err)
		}
		g.s.SetHintTables(&solve.Tables{Dir: dir, ReadOnly: true, Bad: func(_ rules.Rules, err error) {
			fmt.Fprintf(g.e.stderr, "alak play: hint goes on without the results table: %v\n", err)
		}})
	}
	h, err := g.s.Hint(context.Background())
	if err != nil {
		g.printf("%s.\n", sentence(err.Error()))
		return
	}
	best := make([]string, len(h.Best))
	for i, m := range h.Best {
		best[i] = notation.Human.Encode(g.r, m)
	}
	pv := make([]string, len(h.PV))
	for i, m := range h.PV {
		pv[i] = notation.Human.Encode(g.r, m)
	}
	what := "best move"
	if len(best) > 1 {
		what = "best moves"
	}
	g.printf("Hint: %s %s; with perfect play %s (for example %s).\n", what, strings.Join(best, ", "), h.Words(g.r), strings.Join(pv, " "))
}

// save writes the game so far to the file name: an SGF record, or a plain
// move list when the name ends in .txt. The record is built in memory
// first, so a failure leaves no half-written file, and an existing file is
// never overwritten.
func (g *playGame) save(name string) error {
	rec := g.s.Record()
	write, form := notation.WriteSGF, "an SGF record"
	if strings.HasSuffix(strings.ToLower(name), ".txt") {
		write, form = notation.WriteMoveList, "a move list"
	}
	var buf bytes.Buffer
	if err := write(&buf, rec); err != nil {
		return fmt.Errorf("%w (a file name ending in .txt saves a move list)", err)
	}
	if err := writeNewFile(name, buf.Bytes(), false); err != nil {
		return err
	}
	g.printf("Saved the game (%d move%s) to %s as %s.\n", g.s.Ply(), plural(g.s.Ply()), name, form)
	return nil
}

// writeNewFile writes data to the file name, refusing to replace a file
// that exists unless force is set.
func writeNewFile(name string, data []byte, force bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(name, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists; give a new file name", name)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// showBoard prints the board with whose turn it is and the counts.
func (g *playGame) showBoard() {
	g.printf("%s", g.s.Snapshot().Text(g.r, g.e.terminal))
}

// playRulesWords describes the rules in a few words.
func playRulesWords(r rules.Rules) string {
	where := fmt.Sprintf("%d point%s", r.Width, plural(r.Width))
	if r.Movement == rules.Sliding {
		where = fmt.Sprintf("%d slot%s", r.Width, plural(r.Width))
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

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
