package proofcheck

import (
	"bufio"
	"fmt"
	"io"

	"alak/rules"
)

// SwapAfterPass writes to out the certificate in, of a claim after a line
// from the rules' start, with the colours exchanged and a pass put before
// its line. From the start, an empty board, the first player's pass hands
// the first move to the other: every line of the game after it is a line
// from the start with the colours exchanged, and the count too, so a proof
// for one player with komi k, exchanged, is a proof for the other after
// the pass with komi -k. The header names the other player, the rules with
// the komi negated (and their hash), the line after the pass; the tree is
// copied with Black's margin at every end negated, moves and shared
// subtrees unchanged. The histories differ by the empty board with the
// first player to move, which superko does not tell from the start, and
// the pass count at the root, which the checker sees: a proof whose root
// answers a pass there is refuted. SwapAfterPass does not check the
// result (Check does); it refuses a certificate from another start or in
// parts.
func SwapAfterPass(out io.Writer, in io.Reader, writer string) (Header, error) {
	rd := &reader{r: bufio.NewReaderSize(in, 1<<16)}
	h, err := rd.header()
	if err != nil {
		return h, err
	}
	if h.Part != 0 || len(h.At) > 0 {
		return h, fmt.Errorf("this is part %d of a certificate in parts: exchange the colours of a certificate written as one part", h.Part)
	}
	r, err := rules.Parse(h.Rules)
	if err != nil {
		return h, fmt.Errorf("%w: the rules %q: %v", ErrFormat, h.Rules, err)
	}
	g, err := rules.NewGame(r)
	if err != nil {
		return h, fmt.Errorf("%w: the rules %q: %v", ErrFormat, h.Rules, err)
	}
	start, err := g.Position().MarshalText()
	if err != nil {
		return h, err
	}
	if h.Start != string(start) {
		return h, fmt.Errorf("the certificate starts from %q, not from the start of its rules, %q: only there does a pass exchange the colours", h.Start, start)
	}
	sr := r
	sr.Komi = 0 - r.Komi // 0 - 0 is 0, where -0 would print as "-0"
	sh := h
	sh.Rules, sh.RulesHash, sh.For, sh.Writer = sr.String(), RulesHash(sr), h.For.Opp(), writer
	sh.Line = append([]rules.Move{rules.Pass}, h.Line...)
	bw := bufio.NewWriterSize(out, 1<<16)
	if _, err := bw.Write(sh.Append(nil)); err != nil {
		return sh, err
	}
	if _, err := copyTree(rd, bw, h.Format, treeMap{end: func(v int64) int64 { return -v }}); err != nil {
		return sh, err
	}
	if err := atEnd(rd); err != nil {
		return sh, err
	}
	return sh, bw.Flush()
}
