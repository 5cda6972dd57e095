package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"alak/notation"
	"alak/rules"
)

func init() {
	register(command{name: "replay", summary: "check a game's moves (or step through a saved game) and print the final position", run: replayRun})
}

const replayUsage = `usage: alak replay [--rules R] [--size N] [--OPTION VALUE ...] [--position ROW --to-move x|o] [--json] [MOVE ... | FILE]
       alak replay [--json] [--step] FILE
Checks every move from the start (or from --position, a seed diagram whose /
marks points just captured) and prints the final position. A FILE (SGF or a
move list) carries its own rules and start; without --json every position of
the game is printed, and --step waits for Enter between moves on a terminal.
An illegal move exits with status 2 and names the move, its number and why.`

// replayJSON is the object `alak replay --json` prints.
type replayJSON struct {
	Rules     string            `json:"rules"`
	Options   map[string]string `json:"options,omitempty"`
	Size      any               `json:"size"`
	Board     string            `json:"board"`
	ToMove    string            `json:"to_move"`
	Forbidden []any             `json:"forbidden"`
	Legal     []any             `json:"legal"`
	Over      bool              `json:"over"`
	Result    *string           `json:"result"`
	Winner    *string           `json:"winner"`
}

func replayRun(e *env, args []string) int {
	fs := newFlagSet(e, "replay", replayUsage)
	buildRules := rulesFlags(fs)
	diagram := fs.String("position", "", "start from this position, a seed diagram such as x--o/O (/ marks points just captured)")
	prisoners := fs.String("prisoners", "", "the prisoners each side took before the start, Black's first, such as 2-1 (they count under territory scoring)")
	toMove := fs.String("to-move", "", "with --position: the player to move, x or o (default: the opponent of the capital stone)")
	asJSON := fs.Bool("json", false, "print the final position as one JSON object")
	step := fs.Bool("step", false, "with a FILE on a terminal: wait for Enter between moves")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	var rulesSet []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "json", "step":
		default:
			rulesSet = append(rulesSet, "--"+f.Name)
		}
	})

	if len(pos) == 1 && isFile(pos[0]) {
		if len(rulesSet) > 0 {
			return fail(e, "replay", fmt.Errorf("%s: a record FILE carries its own rules and start; give either the file or the flags", strings.Join(rulesSet, ", ")))
		}
		return replayFile(e, pos[0], *asJSON, *step)
	}
	if len(pos) == 1 && strings.ContainsAny(pos[0], "./\\") {
		if _, err := os.Stat(pos[0]); err != nil {
			return fail(e, "replay", fmt.Errorf("%q is neither a record file (%w) nor a move", pos[0], err))
		}
		return fail(e, "replay", fmt.Errorf("%q is not a regular file, so neither a record nor a move", pos[0]))
	}
	if *step {
		return fail(e, "replay", errors.New("--step steps through a record FILE; it was not given one"))
	}
	r, err := buildRules()
	if err != nil {
		return fail(e, "replay", err)
	}
	start, err := replayStart(fs, r, *diagram, *toMove)
	if err == nil {
		start, err = withPrisoners(start, *prisoners)
	}
	if err != nil {
		return fail(e, "replay", err)
	}
	g := rules.NewGameFrom(start)
	moves, err := replayMoves(start.Rules(), pos)
	if err != nil {
		return fail(e, "replay", err)
	}
	for i, m := range moves {
		if err := g.Play(m.move); err != nil {
			return fail(e, "replay", fmt.Errorf("move %d %q (%s to play): %w", i+1, m.text, replayColor(g.Position().ToMove()), err))
		}
	}
	if *asJSON {
		return replayPrintJSON(e, g)
	}
	replayPrintFinal(e, g)
	return 0
}

func replayColor(c rules.Color) string {
	if c == rules.White {
		return "o"
	}
	return "x"
}

// replayStart returns the start: the rules' own, or --position.
func replayStart(fs *flag.FlagSet, r rules.Rules, diagram, side string) (rules.Position, error) {
	if diagram == "" {
		if side != "" {
			return rules.Position{}, errors.New("--to-move goes with --position")
		}
		return rules.NewPosition(r)
	}
	c := rules.None
	if side != "" {
		var err error
		if c, err = rules.ParseColor(side); err != nil {
			return rules.Position{}, fmt.Errorf("--to-move: %w", err)
		}
	} else {
		switch {
		case strings.ContainsRune(diagram, 'X'):
			c = rules.White
		case strings.ContainsRune(diagram, 'O'):
			c = rules.Black
		default:
			return rules.Position{}, fmt.Errorf("--position %q has no capital stone to tell who played last: add --to-move x or --to-move o", diagram)
		}
	}
	pos, err := rules.ParseDiagram(r, diagram, c)
	if err != nil {
		return pos, fmt.Errorf("--position: %w", err)
	}
	sizeSet := false
	fs.Visit(func(f *flag.Flag) { sizeSet = sizeSet || f.Name == "size" })
	if w, h := pos.Size(); sizeSet && (w != r.Width || h != r.Height) {
		return pos, fmt.Errorf("--position %q is %s but --size is %s", diagram, pos.Rules().SizeString(), r.SizeString())
	}
	return pos, nil
}

type replayMove struct {
	text string
	move rules.Move
}

// replayMoves reads the move arguments. Under placement rules an argument
// may hold several moves separated by blank space; under sliding rules a
// move is "from-to" (or one argument "from to").
func replayMoves(r rules.Rules, args []string) ([]replayMove, error) {
	var words []string
	for _, a := range args {
		f := strings.Fields(a)
		if r.Movement == rules.Sliding && len(f) == 2 && !strings.Contains(a, "-") {
			words = append(words, a)
			continue
		}
		words = append(words, f...)
	}
	moves := make([]replayMove, 0, len(words))
	for i, w := range words {
		m, err := notation.ParseMove(r, w)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, w, err)
		}
		moves = append(moves, replayMove{w, m})
	}
	return moves, nil
}

// replayFile replays a record: every position in turn, or with --json the
// final one.
func replayFile(e *env, path string, asJSON, step bool) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return fail(e, "replay", err)
	}
	rec, err := notation.ReadRecord(data)
	if err != nil {
		return fail(e, "replay", fmt.Errorf("%s: %w", path, err))
	}
	g, err := rec.Game()
	if err != nil {
		return fail(e, "replay", fmt.Errorf("%s: %w", path, err))
	}
	if asJSON {
		return replayPrintJSON(e, g)
	}
	w := e.stdout
	r := g.Rules()
	fmt.Fprintf(w, "Rules: %s\n", r)
	if rec.Black != "" || rec.White != "" {
		fmt.Fprintf(w, "Black (x): %s. White (o): %s.\n", replayName(rec.Black), replayName(rec.White))
	}
	if rec.Date != "" {
		fmt.Fprintf(w, "Date: %s\n", rec.Date)
	}
	if c := rec.Comments[0]; c != "" {
		fmt.Fprintf(w, "%s\n", c)
	}
	fmt.Fprintf(w, "\nStart\n%s", notation.Board(g.PositionAt(0), e.terminal))
	in := bufio.NewReader(e.stdin)
	wait := step && e.terminal
	moves := g.Moves()
	for i, m := range moves {
		if wait {
			fmt.Fprint(w, "[Enter: next move, q: quit] ")
			line, err := in.ReadString('\n')
			if strings.EqualFold(strings.TrimSpace(line), "q") || (err != nil && line == "") {
				fmt.Fprintln(w)
				return 0
			}
		}
		mover := g.PositionAt(i).ToMove()
		fmt.Fprintf(w, "\nMove %d: %s %s\n", i+1, replayColor(mover), notation.FormatMove(r, m))
		fmt.Fprint(w, notation.Board(g.PositionAt(i+1), e.terminal))
		if c := rec.Comments[i+1]; c != "" {
			fmt.Fprintf(w, "%s\n", c)
		}
	}
	fmt.Fprintln(w)
	replayResult(e, g, rec.Result)
	return 0
}

func replayName(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// replayPrintFinal prints the final position and, when the game is over,
// its result.
func replayPrintFinal(e *env, g *rules.Game) {
	fmt.Fprint(e.stdout, notation.Board(g.Position(), e.terminal))
	replayResult(e, g, "")
}

// replayResult prints the result of a finished game, and the result a
// record claims when it is not what the moves give.
func replayResult(e *env, g *rules.Game, claimed string) {
	if g.Over() {
		fmt.Fprintf(e.stdout, "Result: %s\n", notation.GameResultWords(g))
	}
	if got := notation.ResultString(g.Outcome()); claimed != "" && !strings.EqualFold(claimed, got) {
		if got == "" {
			got = "unfinished"
		}
		fmt.Fprintf(e.stdout, "The record's result is %s; the moves give %s.\n", claimed, got)
	}
}

// replayJSONMove writes a move as the JSON does: a placement on a line as
// its number, anything else as FormatMove's string.
func replayJSONMove(r rules.Rules, m rules.Move) any {
	if m.IsPlace() && r.IsLine() {
		return m.Point() + 1
	}
	return notation.FormatMove(r, m)
}

func replayPrintJSON(e *env, g *rules.Game) int {
	pos := g.Position()
	r := pos.Rules()
	out := replayJSON{
		Rules:     r.Preset,
		Size:      r.SizeString(),
		ToMove:    replayColor(pos.ToMove()),
		Forbidden: []any{},
		Legal:     []any{},
	}
	if out.Rules == "" {
		out.Rules = "alak"
	}
	if r.IsLine() {
		out.Size = r.Width
	}
	if ch := r.Changed(false); len(ch) > 0 {
		out.Options = map[string]string{}
		for _, kv := range ch {
			k, v, _ := strings.Cut(kv, "=")
			out.Options[k] = v
		}
	}
	var b strings.Builder
	for p := range pos.Points() {
		if p > 0 && p%r.Width == 0 {
			b.WriteByte('|')
		}
		b.WriteByte(pos.At(p).Symbol())
	}
	out.Board = b.String()
	superko := r.Ko == rules.KoPositional || r.Ko == rules.KoSituational
	if r.Movement == rules.Placement && !g.Over() { // when it is over, no one places anywhere
		for p := range pos.Points() {
			forbidden := pos.Forbidden(p)
			if !forbidden && superko && pos.At(p) == rules.None {
				forbidden = errors.Is(g.Legal(rules.Place(p)), rules.ErrSuperko)
			}
			if forbidden {
				out.Forbidden = append(out.Forbidden, replayJSONMove(r, rules.Place(p)))
			}
		}
	}
	for _, m := range g.LegalMoves(nil) {
		out.Legal = append(out.Legal, replayJSONMove(r, m))
	}
	if o := g.Outcome(); o.Over() {
		out.Over = true
		score := o.Score()
		out.Result = &score
		winner := "draw"
		if o.Winner != rules.None {
			winner = replayColor(o.Winner)
		}
		out.Winner = &winner
	}
	data, err := json.Marshal(out)
	if err != nil {
		return fail(e, "replay", err)
	}
	fmt.Fprintf(e.stdout, "%s\n", data)
	return 0
}
