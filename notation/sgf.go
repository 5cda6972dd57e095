package notation

import (
	"alak/internal/clip"
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"alak/internal/version"
	"alak/rules"
)

// sgfLetters are SGF's coordinate letters: a..z then A..Z, 52 in all.
const sgfLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// maxSGFDepth bounds the nesting of variations ReadSGF follows.
const maxSGFDepth = 500

// sgfPoint writes point p of a w-wide board as SGF coordinates: the column
// letter, then the row letter (a is the top row; a line is row a).
func sgfPoint(w, p int) string {
	x, y := p%w, p/w
	return sgfLetters[x:x+1] + sgfLetters[y:y+1]
}

// sgfMove writes a move as an SGF property value: a point, a slide as its
// two points concatenated, from then to (as SGF writes Amazons' moves), ""
// for a pass.
func sgfMove(w int, m rules.Move) string {
	switch {
	case m == rules.Pass:
		return ""
	case m.IsSlide():
		return sgfPoint(w, m.From()) + sgfPoint(w, m.To())
	case m.IsDeclare():
		return "*" + sgfPoint(w, m.Point()) // notation/safe.go
	}
	return sgfPoint(w, m.Point())
}

// sgfEscaper escapes a text or simple-text value: \ and ] take a backslash.
var sgfEscaper = strings.NewReplacer(`\`, `\\`, `]`, `\]`)

func sgfText(s string) string { return sgfEscaper.Replace(s) }

// sgfSize writes SZ: n for a square grid (FF[4] forbids the composed form
// there), n:1 for a line (columns first), w:h for other grids.
func sgfSize(r rules.Rules) string {
	if r.Width == r.Height {
		return strconv.Itoa(r.Width)
	}
	return strconv.Itoa(r.Width) + ":" + strconv.Itoa(r.Height)
}

// MaxRecordBytes bounds the text ReadSGF, ReadMoveList and ReadRecord
// accept: a game of the longest board with every move commented fits in a
// fraction of it.
const MaxRecordBytes = 4 << 20

// tooLong says that a record's text is past MaxRecordBytes.
func tooLong(n int) error {
	return fmt.Errorf("%w: the record is %d bytes; records of at most %d bytes (4 MiB) are read", ErrNotation, n, MaxRecordBytes)
}

// sgfRules writes RU: the preset name and the options changed from it, the
// size left to SZ.
func sgfRules(r rules.Rules) string {
	name := r.Preset
	if name == "" {
		name = "alak"
	}
	return strings.Join(append([]string{name}, r.Changed(false)...), " ")
}

// WriteSGF writes rec as an SGF FF[4] game: GM[1], AP[alak:VERSION],
// SZ[n:1] for a line, SZ[n] for a square grid and SZ[w:h] for another
// grid, RU[preset options], KM when komi is set, PB, PW, DT, RE, TM and OT
// for a clock, a set-up start as AB/AW/PL plus XD[diagram] (and XP[b:w] for
// prisoners taken before it, XN[k] for the passes that led to it, XL[move]
// for a last move the diagram cannot show: a slide, a stone that did not
// stay), moves as B[..]/W[..] (a pass is B[]; a slide is its two points
// concatenated, the slot left then the slot reached, B[daea], as SGF
// writes a from-to move for Amazons), BL/WL for the mover's time left
// after a move, and comments as C. See docs/notation.md.
func WriteSGF(w io.Writer, rec Record) error {
	r := rec.Rules
	if err := r.Validate(); err != nil {
		return err
	}
	if r.Width > len(sgfLetters) || r.Height > len(sgfLetters) {
		return fmt.Errorf("%w: SGF coordinates reach %d points a side; a %s board needs a move list", ErrNotation, len(sgfLetters), r.SizeString())
	}
	start, err := rec.start()
	if err != nil {
		return err
	}
	if sw, sh := start.Size(); sw != r.Width || sh != r.Height {
		return fmt.Errorf("%w: the start position is %dx%d but the rules say %s", ErrNotation, sw, sh, r.SizeString())
	}
	for k := range rec.Comments {
		if k < 0 || k > len(rec.Moves) {
			return fmt.Errorf("%w: a comment after move %d, but the record has %d moves", ErrNotation, k, len(rec.Moves))
		}
	}
	for k := range rec.TimeLeft {
		if k < 1 || k > len(rec.Moves) {
			return fmt.Errorf("%w: a time left after move %d, but the record has %d moves", ErrNotation, k, len(rec.Moves))
		}
	}
	bw := bufio.NewWriter(w)
	prop := func(id, v string) { fmt.Fprintf(bw, "%s[%s]", id, sgfText(v)) }
	bw.WriteString("(;FF[4]GM[1]CA[UTF-8]")
	prop("AP", "alak:"+version.String())
	bw.WriteString("SZ[" + sgfSize(r) + "]")
	prop("RU", sgfRules(r))
	if r.Komi != 0 {
		prop("KM", strconv.FormatFloat(r.Komi, 'f', -1, 64))
	}
	for _, p := range []struct{ id, v string }{{"PB", rec.Black}, {"PW", rec.White}, {"DT", rec.Date}, {"RE", rec.Result}} {
		if p.v != "" {
			prop(p.id, p.v)
		}
	}
	if rec.Time.Main > 0 {
		prop("TM", sgfSeconds(rec.Time.Main))
	}
	if rec.Time.Overtime != "" {
		prop("OT", rec.Time.Overtime)
	}
	if rec.isSetUp() {
		for _, c := range []rules.Color{rules.Black, rules.White} {
			var pts []string
			for p := range start.Points() {
				if start.At(p) == c {
					pts = append(pts, "["+sgfPoint(r.Width, p)+"]")
				}
			}
			if len(pts) > 0 {
				bw.WriteString([]string{"AB", "AW"}[c] + strings.Join(pts, ""))
			}
		}
		prop("PL", []string{"B", "W"}[start.ToMove()])
		prop("XD", start.String())
		if hasPrisoners(start) {
			prop("XP", fmt.Sprintf("%d:%d", start.Prisoners(rules.Black), start.Prisoners(rules.White)))
		}
		if n := start.Passes(); n > 0 {
			prop("XN", strconv.Itoa(n))
		}
		if m := start.LastMove(); m.IsSlide() || m.IsPlace() && start.At(m.Point()) == rules.None {
			prop("XL", r.MoveText(m))
		}
	}
	if c := rec.Comments[0]; c != "" {
		prop("C", c)
	}
	bw.WriteString("\n")
	c := start.ToMove()
	for i, m := range rec.Moves {
		if m == rules.Resign || m == rules.NoMove {
			return fmt.Errorf("%w: move %d is %s; a resignation is written in Result", ErrNotation, i+1, Human.Encode(r, m))
		}
		bw.WriteString(";")
		prop([]string{"B", "W"}[c], sgfMove(r.Width, m))
		if left, ok := rec.TimeLeft[i+1]; ok {
			prop([]string{"BL", "WL"}[c], sgfSeconds(left))
		}
		if t := rec.Comments[i+1]; t != "" {
			prop("C", t)
		}
		if (i+1)%10 == 0 || i == len(rec.Moves)-1 {
			bw.WriteString("\n")
		}
		c = c.Opp()
	}
	bw.WriteString(")\n")
	return bw.Flush()
}

// sgfProp is one property of a node and where it starts in the text.
type sgfProp struct {
	id   string
	vals []string
	at   int
}

type sgfNode struct {
	props []sgfProp
	at    int
}

// sgfParser reads SGF's grammar: a game tree is ( node... tree... ), a node
// is ; followed by properties, a property an upper-case identifier followed
// by one or more [values].
type sgfParser struct {
	s   string
	pos int
}

func (p *sgfParser) errf(format string, a ...any) error {
	return fmt.Errorf("%w: SGF at byte %d: %s", ErrNotation, p.pos, fmt.Sprintf(format, a...))
}

func (p *sgfParser) space() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n\f\v", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *sgfParser) peek() byte {
	p.space()
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

// sgfTree is a game tree as the text holds it: its own nodes, then its
// variations, the first being the main line.
type sgfTree struct {
	nodes []sgfNode
	subs  []*sgfTree
}

// mainLine is the tree's own nodes followed by the main line of its first
// variation.
func (t *sgfTree) mainLine() []sgfNode {
	var nodes []sgfNode
	for ; t != nil; t = t.first() {
		nodes = append(nodes, t.nodes...)
	}
	return nodes
}

func (t *sgfTree) first() *sgfTree {
	if len(t.subs) == 0 {
		return nil
	}
	return t.subs[0]
}

// tree parses a game tree and returns its main line: its own nodes followed
// by the main line of its first variation.
func (p *sgfParser) tree(depth int) ([]sgfNode, error) {
	t, err := p.gameTree(depth)
	if err != nil {
		return nil, err
	}
	return t.mainLine(), nil
}

// gameTree parses a game tree with all its variations.
func (p *sgfParser) gameTree(depth int) (*sgfTree, error) {
	if depth > maxSGFDepth {
		return nil, p.errf("variations nested more than %d deep", maxSGFDepth)
	}
	if p.peek() != '(' {
		return nil, p.errf("expected '(' to open a game tree")
	}
	p.pos++
	t := &sgfTree{}
	for p.peek() == ';' {
		n, err := p.node()
		if err != nil {
			return nil, err
		}
		t.nodes = append(t.nodes, n)
	}
	if len(t.nodes) == 0 {
		return nil, p.errf("expected ';' to start a node after '('")
	}
	for p.peek() == '(' {
		sub, err := p.gameTree(depth + 1)
		if err != nil {
			return nil, err
		}
		t.subs = append(t.subs, sub)
	}
	switch c := p.peek(); c {
	case ')':
		p.pos++
		return t, nil
	case 0:
		return nil, p.errf("the text ends before the game tree is closed with ')'")
	default:
		return nil, p.errf("unexpected %q: expected a property, ';', '(' or ')'", c)
	}
}

func (p *sgfParser) node() (sgfNode, error) {
	n := sgfNode{at: p.pos}
	p.pos++ // ';'
	for {
		c := p.peek()
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return n, nil
		}
		at := p.pos
		var id strings.Builder
		for p.pos < len(p.s) && (p.s[p.pos] >= 'A' && p.s[p.pos] <= 'Z' || p.s[p.pos] >= 'a' && p.s[p.pos] <= 'z') {
			if p.s[p.pos] <= 'Z' { // FF[3] lower-case letters are ignored
				id.WriteByte(p.s[p.pos])
			}
			p.pos++
		}
		if id.Len() == 0 {
			return n, p.errf("property %q has no upper-case letter", p.s[at:p.pos])
		}
		prop := sgfProp{id: id.String(), at: at}
		for p.peek() == '[' {
			v, err := p.value()
			if err != nil {
				return n, err
			}
			prop.vals = append(prop.vals, v)
		}
		if len(prop.vals) == 0 {
			return n, p.errf("property %s has no value: write %s[...]", prop.id, prop.id)
		}
		n.props = append(n.props, prop)
	}
}

// value reads [text] with SGF's escapes: \ takes the next character
// literally, and a backslash before a line break removes both.
func (p *sgfParser) value() (string, error) {
	start := p.pos
	p.pos++ // '['
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch c {
		case ']':
			p.pos++
			return b.String(), nil
		case '\\':
			p.pos++
			if p.pos >= len(p.s) {
				continue
			}
			switch {
			case strings.HasPrefix(p.s[p.pos:], "\r\n") || strings.HasPrefix(p.s[p.pos:], "\n\r"):
				p.pos += 2
			case p.s[p.pos] == '\n' || p.s[p.pos] == '\r':
				p.pos++
			default:
				b.WriteByte(p.s[p.pos])
				p.pos++
			}
			continue
		}
		b.WriteByte(c)
		p.pos++
	}
	p.pos = start
	return "", p.errf("the value opened with '[' is never closed with ']' (write \\] for a ] inside a value)")
}

// sgfCoords reads a point given as SGF letters on a w×h board.
func sgfCoords(v string, w, h int) (int, bool) {
	if len(v) != 2 {
		return 0, false
	}
	x, y := strings.IndexByte(sgfLetters, v[0]), strings.IndexByte(sgfLetters, v[1])
	if x < 0 || y < 0 || x >= w || y >= h {
		return 0, false
	}
	return y*w + x, true
}

// ReadSGF reads the first game of an SGF collection (the main line, the
// first variation at every branch) as written by WriteSGF and by other
// programs: GM[1], SZ, RU (a preset and options, rules.Parse), KM, PB, PW,
// DT, RE, TM, OT, AB/AW/AE/PL or XD for a set-up start, B/W moves (and
// slides in this project's former XB/XW), BL/WL on the moves and C
// comments. It checks the form of every move, not its legality: Record.Game does.
func ReadSGF(data []byte) (Record, error) {
	if len(data) > MaxRecordBytes {
		return Record{}, tooLong(len(data))
	}
	p := &sgfParser{s: strings.TrimPrefix(string(data), "\xef\xbb\xbf")}
	nodes, err := p.tree(0)
	if err != nil {
		return Record{}, err
	}
	root := nodes[0]
	rec := Record{}
	r, sw, sh, err := sgfRulesOf(root)
	if err != nil {
		return rec, err
	}
	rec.Rules = r
	rec.Black, _ = root.get("PB")
	rec.White, _ = root.get("PW")
	rec.Date, _ = root.get("DT")
	rec.Result, _ = root.get("RE")
	rec.Result = strings.TrimSpace(rec.Result)
	if tm, ok := root.get("TM"); ok && strings.TrimSpace(tm) != "" {
		if rec.Time.Main, err = parseSGFSeconds("TM", tm); err != nil {
			return rec, err
		}
	}
	rec.Time.Overtime, _ = root.get("OT")

	// The player to move at the start: PL, else the first move's colour.
	toMove := rules.None
	if pl, ok := root.get("PL"); ok {
		c, err := rules.ParseColor(pl)
		if err != nil {
			return rec, fmt.Errorf("%w: SGF PL[%s]: write PL[B] or PL[W]", ErrNotation, pl)
		}
		toMove = c
	}
	moves, comments, err := sgfMoves(nodes)
	if err != nil {
		return rec, err
	}
	if toMove == rules.None {
		toMove = rules.Black
		if len(moves) > 0 {
			toMove = moves[0].c
		}
	}
	if rec.Start, err = sgfSetUp(root, r, sw, sh, toMove); err != nil {
		return rec, err
	}
	if rec.Moves, err = sgfReadMoves(moves, r, sw, sh, toMove); err != nil {
		return rec, err
	}
	if len(comments) > 0 {
		rec.Comments = comments
	}
	for i, m := range moves {
		if m.left == nil {
			continue
		}
		d, err := parseSGFSeconds([]string{"BL", "WL"}[m.c], *m.left)
		if err != nil {
			return rec, fmt.Errorf("%w (move %d)", err, i+1)
		}
		if rec.TimeLeft == nil {
			rec.TimeLeft = map[int]time.Duration{}
		}
		rec.TimeLeft[i+1] = d
	}
	return rec, nil
}

// get returns the first value of the node's property id.
func (n sgfNode) get(id string) (string, bool) {
	for _, pr := range n.props {
		if pr.id == id {
			return pr.vals[0], true
		}
	}
	return "", false
}

// sgfRulesOf reads the rules of a record from its root node: GM (only 1),
// RU (the rules, alak when absent), SZ (the board's width and height, which
// it also returns) and KM.
func sgfRulesOf(root sgfNode) (r rules.Rules, sw, sh int, err error) {
	if gm, ok := root.get("GM"); ok && strings.TrimSpace(gm) != "1" {
		return r, 0, 0, fmt.Errorf("%w: SGF GM[%s]: only GM[1] (Go and its family) is read", ErrNotation, gm)
	}
	r = rules.MustPreset("alak")
	if ru, ok := root.get("RU"); ok {
		if r, err = rules.Parse(ru); err != nil {
			return r, 0, 0, fmt.Errorf("%w: SGF RU[%s]: %w", ErrNotation, ru, err)
		}
	}
	sw, sh = r.Width, r.Height
	if sz, ok := root.get("SZ"); ok {
		a, b, grid := strings.Cut(strings.TrimSpace(sz), ":")
		w, err1 := strconv.Atoi(strings.TrimSpace(a))
		h, err2 := w, error(nil)
		if grid {
			h, err2 = strconv.Atoi(strings.TrimSpace(b))
		}
		if err1 != nil || err2 != nil || w < 1 || h < 1 || w > 64 || h > 64 {
			return r, 0, 0, fmt.Errorf("%w: SGF SZ[%s]: write SZ[n:1] for a line of n points or SZ[w:h] for a grid", ErrNotation, sz)
		}
		if r.Movement == rules.Sliding && r.Start != "" && len(r.Start) != max(w, h) {
			return r, 0, 0, fmt.Errorf("%w: SGF SZ[%s] does not fit the start layout %s of RU", ErrNotation, sz, r.Start)
		}
		sw, sh = w, h
		r.SetSize(w, h)
	}
	if km, ok := root.get("KM"); ok {
		if err := r.Set("komi", km); err != nil {
			return r, 0, 0, fmt.Errorf("%w: SGF KM[%s]: %w", ErrNotation, km, err)
		}
	}
	if err := r.Validate(); err != nil {
		return r, 0, 0, fmt.Errorf("%w: SGF: %w", ErrNotation, err)
	}
	return r, sw, sh, nil
}

// sgfNodeMove is a move property of a node, not yet read: the colour, the
// value and the byte it stands at, and the mover's time left (BL for
// Black's move, WL for White's) when the node gives it.
type sgfNodeMove struct {
	c    rules.Color
	v    string
	at   int
	left *string
}

// sgfMoves collects the move of each node (B, W, or this project's former
// XB, XW for slides; one a node at most, rules.MaxGameMoves in all) with the
// mover's BL or WL, and the comments, keyed by the number of moves before
// them; a set-up property after the first node is an error. A BL or WL
// beside the other colour's move, on a node without a move, or empty, is
// not read.
func sgfMoves(nodes []sgfNode) ([]sgfNodeMove, map[int]string, error) {
	var moves []sgfNodeMove
	comments := map[int]string{}
	for i, n := range nodes {
		var m *sgfNodeMove
		var cmt []string
		left := map[string]string{}
		for _, pr := range n.props {
			switch pr.id {
			case "B", "W", "XB", "XW":
				if m != nil {
					return nil, nil, fmt.Errorf("%w: SGF at byte %d: a node holds at most one move", ErrNotation, pr.at)
				}
				if len(moves) >= rules.MaxGameMoves {
					return nil, nil, fmt.Errorf("%w: SGF at byte %d: more than %d moves", ErrNotation, pr.at, rules.MaxGameMoves)
				}
				c := rules.Black
				if pr.id == "W" || pr.id == "XW" {
					c = rules.White
				}
				m = &sgfNodeMove{c: c, v: strings.TrimSpace(pr.vals[0]), at: pr.at}
			case "BL", "WL":
				left[pr.id] = pr.vals[0]
			case "C":
				for _, v := range pr.vals {
					if v != "" {
						cmt = append(cmt, v)
					}
				}
			case "AB", "AW", "AE", "XD", "XP", "XN", "XL", "PL":
				if i > 0 {
					return nil, nil, fmt.Errorf("%w: SGF at byte %d: set-up property %s is only read in the first node", ErrNotation, pr.at, pr.id)
				}
			}
		}
		if m != nil {
			if v, ok := left[[]string{"BL", "WL"}[m.c]]; ok && strings.TrimSpace(v) != "" {
				m.left = &v
			}
			moves = append(moves, *m)
		}
		if len(cmt) > 0 {
			k := len(moves)
			if comments[k] != "" {
				cmt = append([]string{comments[k]}, cmt...)
			}
			comments[k] = strings.Join(cmt, "\n")
		}
	}
	return moves, comments, nil
}

// sgfSetUp reads the start position from the root node: the stones
// (sgfStart), the prisoners taken before it (XP), the passes before it
// (XN) and its last move (XL).
func sgfSetUp(root sgfNode, r rules.Rules, sw, sh int, toMove rules.Color) (rules.Position, error) {
	start, err := sgfStart(root, r, sw, sh, toMove)
	if err != nil {
		return start, err
	}
	if xp, ok := root.get("XP"); ok {
		b, w, err := parsePrisoners(xp, ":")
		if err == nil {
			start, err = start.WithPrisoners(b, w)
		}
		if err != nil {
			return start, fmt.Errorf("%w: SGF XP[%s]: %w", ErrNotation, clip.Text(xp), err)
		}
	}
	var extra []string
	for _, k := range []struct{ id, key string }{{"XN", "passes"}, {"XL", "last"}} {
		if v, ok := root.get(k.id); ok {
			extra = append(extra, k.key+"="+strings.TrimSpace(v))
		}
	}
	if len(extra) > 0 {
		text, _ := start.MarshalText()
		start, err = rules.ParsePosition(r, string(text)+" "+strings.Join(extra, " "))
		if err != nil {
			return start, fmt.Errorf("%w: SGF XN or XL: %w", ErrNotation, err)
		}
	}
	return start, nil
}

// sgfReadMoves reads the moves, which must alternate from toMove on.
func sgfReadMoves(moves []sgfNodeMove, r rules.Rules, sw, sh int, toMove rules.Color) ([]rules.Move, error) {
	var out []rules.Move
	c := toMove
	for i, m := range moves {
		if m.c != c {
			return out, fmt.Errorf("%w: SGF at byte %d: move %d is %s's but %s is to move: moves must alternate", ErrNotation, m.at, i+1, colorWord(m.c), colorWord(c))
		}
		move, err := sgfReadMove(m.v, r, sw, sh)
		if err != nil {
			return out, fmt.Errorf("%w: SGF at byte %d: move %d %s[%s]: %s", ErrNotation, m.at, i+1, []string{"B", "W"}[m.c], m.v, err)
		}
		out = append(out, move)
		c = c.Opp()
	}
	return out, nil
}

// sgfReadMove reads a move value on an sw×sh SGF board.
func sgfReadMove(v string, r rules.Rules, sw, sh int) (rules.Move, error) {
	if v == "" || (v == "tt" && sw <= 19 && sh <= 19) {
		return rules.Pass, nil
	}
	if r.Movement == rules.Sliding {
		if len(v) == 5 && (v[2] == '-' || v[2] == ':') {
			v = v[:2] + v[3:] // Lines of Action's separators
		}
		if len(v) == 4 {
			from, ok1 := sgfCoords(v[:2], sw, sh)
			to, ok2 := sgfCoords(v[2:], sw, sh)
			if ok1 && ok2 {
				return rules.Slide(from, to), nil
			}
		}
		return rules.NoMove, fmt.Errorf("a sliding move is two points, the slot it leaves then the slot it reaches (column, row), such as daea or da-ea, on a line of %d slots", r.Width)
	}
	if rest, ok := strings.CutPrefix(v, "*"); ok && r.Safe != rules.SafeOff { // a declaration: notation/safe.go
		if p, ok := sgfCoords(rest, sw, sh); ok {
			return rules.Declare(p), nil
		}
	}
	p, ok := sgfCoords(v, sw, sh)
	if !ok {
		return rules.NoMove, fmt.Errorf("a move is two letters, column then row (a = the first; a line is row a), such as ca, on a %d:%d board, or empty for a pass", sw, sh)
	}
	return rules.Place(p), nil
}

// sgfStart builds the start position of the root node: XD when present
// (the exact diagram), else the rules' start changed by AB, AW and AE.
func sgfStart(root sgfNode, r rules.Rules, sw, sh int, toMove rules.Color) (rules.Position, error) {
	std, err := rules.NewPosition(r)
	if err != nil {
		return std, err
	}
	cells := []byte(strings.ReplaceAll(std.String(), "|", ""))
	setUp := false
	for _, pr := range root.props {
		switch pr.id {
		case "XD":
			pos, err := rules.ParseDiagram(r, pr.vals[0], toMove)
			if err != nil {
				return pos, fmt.Errorf("%w: SGF at byte %d: XD[%s]: %w", ErrNotation, pr.at, pr.vals[0], err)
			}
			if w, h := pos.Size(); w != r.Width || h != r.Height {
				return pos, fmt.Errorf("%w: SGF at byte %d: XD[%s] is %dx%d but SZ says %s", ErrNotation, pr.at, pr.vals[0], w, h, r.SizeString())
			}
			return pos, nil
		case "AB", "AW", "AE":
			setUp = true
			sym := map[string]byte{"AB": 'x', "AW": 'o', "AE": '-'}[pr.id]
			for _, v := range pr.vals {
				pts, ok := sgfPointList(strings.TrimSpace(v), sw, sh)
				if !ok {
					return std, fmt.Errorf("%w: SGF at byte %d: %s[%s]: a point is two letters on the %d:%d board, or a rectangle such as aa:ca", ErrNotation, pr.at, pr.id, v, sw, sh)
				}
				for _, p := range pts {
					cells[p] = sym
				}
			}
		}
	}
	if !setUp && toMove == std.ToMove() {
		return std, nil
	}
	diagram := string(cells)
	if !r.IsLine() {
		var rows []string
		for y := range r.Height {
			rows = append(rows, diagram[y*r.Width:(y+1)*r.Width])
		}
		diagram = strings.Join(rows, "|")
	}
	pos, err := rules.ParseDiagram(r, diagram, toMove)
	if err != nil {
		return pos, fmt.Errorf("%w: SGF set-up: %w", ErrNotation, err)
	}
	return pos, nil
}

// sgfPointList reads a point or a compressed rectangle "aa:cb".
func sgfPointList(v string, w, h int) ([]int, bool) {
	a, b, rect := strings.Cut(v, ":")
	p, ok := sgfCoords(a, w, h)
	if !ok {
		return nil, false
	}
	if !rect {
		return []int{p}, true
	}
	q, ok := sgfCoords(b, w, h)
	if !ok {
		return nil, false
	}
	x0, y0, x1, y1 := p%w, p/w, q%w, q/w
	if x1 < x0 || y1 < y0 {
		return nil, false
	}
	var pts []int
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			pts = append(pts, y*w+x)
		}
	}
	return pts, true
}
