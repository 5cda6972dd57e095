package notation

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"alak/rules"
)

// Variation is a move of a game tree with its comment and the moves that
// may follow it, the first of them the main line. The analysis board
// (/analysis) keeps its variations in this form and writes them as SGF.
type Variation struct {
	Move     rules.Move
	Comment  string
	Children []*Variation
}

// MaxTreeMoves bounds the moves of a tree ReadSGFTree accepts and
// WriteSGFTree writes: every variation's moves together.
const MaxTreeMoves = 20000

// countMoves counts the moves of the trees vs, and stops past MaxTreeMoves.
func countMoves(vs []*Variation) int {
	n := 0
	stack := append([]*Variation(nil), vs...)
	for len(stack) > 0 && n <= MaxTreeMoves {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v == nil {
			continue
		}
		n++
		stack = append(stack, v.Children...)
	}
	return n
}

// WriteSGFTree writes rec's header and start as WriteSGF does (rec.Moves
// and the comments after moves are not written), then the tree: one node a
// move, B or W by the player to move, its comment as C, and where a move
// has more than one answer each in its own parentheses, the first the main
// line (SGF FF[4] variations). Each move is checked with the kernel on the
// way, so that only a tree of legal moves is written.
func WriteSGFTree(w io.Writer, rec Record, tree []*Variation) error {
	if n := countMoves(tree); n > MaxTreeMoves {
		return fmt.Errorf("%w: the tree has more than %d moves; at most %d are written", ErrNotation, MaxTreeMoves, MaxTreeMoves)
	}
	head := rec
	head.Moves, head.TimeLeft = nil, nil
	head.Comments = map[int]string{0: rec.Comments[0]}
	var buf bytes.Buffer
	if err := WriteSGF(&buf, head); err != nil {
		return err
	}
	start, err := rec.start()
	if err != nil {
		return err
	}
	text := strings.TrimSuffix(buf.String(), ")\n")
	var out strings.Builder
	out.WriteString(text)
	g := rules.NewGameFrom(start)
	if err := writeVariations(&out, rec.Rules, g, tree); err != nil {
		return err
	}
	out.WriteString(")\n")
	_, err = io.WriteString(w, out.String())
	return err
}

// writeVariations writes the answers vs to the position of g.
func writeVariations(out *strings.Builder, r rules.Rules, g *rules.Game, vs []*Variation) error {
	var live []*Variation
	for _, v := range vs {
		if v != nil {
			live = append(live, v)
		}
	}
	for _, v := range live {
		if len(live) > 1 {
			out.WriteString("\n(")
		}
		c := g.Position().ToMove()
		if v.Move == rules.Resign || v.Move == rules.NoMove {
			return fmt.Errorf("%w: %s is not a move of a game tree", ErrNotation, Human.Encode(r, v.Move))
		}
		if err := g.Play(v.Move); err != nil {
			return fmt.Errorf("%w: after %d moves, %s: %w", ErrNotation, g.Len(), r.MoveText(v.Move), err)
		}
		fmt.Fprintf(out, ";%s[%s]", []string{"B", "W"}[c], sgfText(sgfMove(r.Width, v.Move)))
		if v.Comment != "" {
			fmt.Fprintf(out, "C[%s]", sgfText(v.Comment))
		}
		if err := writeVariations(out, r, g, v.Children); err != nil {
			return err
		}
		if err := g.Undo(); err != nil {
			return err
		}
		if len(live) > 1 {
			out.WriteString(")")
		}
	}
	return nil
}

// ReadSGFTree reads the first game of an SGF collection with all its
// variations: the record as ReadSGF reads it (its main line in Moves), and
// the tree of every variation from the start, each move checked with the
// kernel. A node without a move adds its comment to the move before it.
func ReadSGFTree(data []byte) (Record, []*Variation, error) {
	rec, err := ReadSGF(data)
	if err != nil {
		return rec, nil, err
	}
	p := &sgfParser{s: strings.TrimPrefix(string(data), "\xef\xbb\xbf")}
	t, err := p.gameTree(0)
	if err != nil {
		return rec, nil, err
	}
	start, err := rec.start()
	if err != nil {
		return rec, nil, err
	}
	sw, sh := start.Size()
	root := &Variation{}
	rd := &treeReader{r: rec.Rules, sw: sw, sh: sh, g: rules.NewGameFrom(start), root: root}
	if err := rd.read(t, 1, root); err != nil {
		return rec, nil, err
	}
	return rec, root.Children, nil
}

// treeReader reads the variations of an SGF tree.
type treeReader struct {
	r      rules.Rules
	sw, sh int
	g      *rules.Game
	root   *Variation // the start: its comment is the record's
	moves  int
}

// read reads the nodes of t from the k-th on below parent, then its
// variations; the game g is at parent's position, and is left there.
func (rd *treeReader) read(t *sgfTree, k int, parent *Variation) error {
	at, played := parent, 0
	defer func() {
		for ; played > 0; played-- {
			rd.g.Undo()
		}
	}()
	for _, n := range t.nodes[min(k, len(t.nodes)):] {
		moves, comments, err := sgfMoves([]sgfNode{{}, n})
		if err != nil {
			return err
		}
		if len(moves) == 0 {
			if c := comments[0]; c != "" && at != rd.root {
				at.Comment = joinComment(at.Comment, c)
			}
			continue
		}
		if rd.moves++; rd.moves > MaxTreeMoves {
			return fmt.Errorf("%w: the tree has more than %d moves", ErrNotation, MaxTreeMoves)
		}
		ms, err := sgfReadMoves(moves, rd.r, rd.sw, rd.sh, rd.g.Position().ToMove())
		if err != nil {
			return err
		}
		if err := rd.g.Play(ms[0]); err != nil {
			return fmt.Errorf("%w: SGF at byte %d: %s cannot be played after %d moves: %w", ErrNotation, moves[0].at, rd.r.MoveText(ms[0]), rd.g.Len(), err)
		}
		played++
		v := &Variation{Move: ms[0], Comment: comments[1]}
		at.Children = append(at.Children, v)
		at = v
	}
	for _, sub := range t.subs {
		if err := rd.read(sub, 0, at); err != nil {
			return err
		}
	}
	return nil
}

func joinComment(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}
