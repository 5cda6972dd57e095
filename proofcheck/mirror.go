package proofcheck

import (
	"bufio"
	"fmt"
	"io"

	"alak/rules"
)

// Mirror writes to out the certificate part in, reflected left to right:
// every move of its line and its tree reflected (rules.Rules.MirrorMove),
// its start position mirrored (rules.Position.Mirror), its writer replaced
// by writer. The reflection is a symmetry of every rule set, so the result
// claims the same of the mirrored line, and checks where the original
// does; Mirror does not check either (Check does). A certificate in parts
// is mirrored part by part. It returns the header written.
func Mirror(out io.Writer, in io.Reader, writer string) (Header, error) {
	rd := &reader{r: bufio.NewReaderSize(in, 1<<16)}
	h, err := rd.header()
	if err != nil {
		return h, err
	}
	r, err := rules.Parse(h.Rules)
	if err != nil {
		return h, fmt.Errorf("%w: the rules %q: %v", ErrFormat, h.Rules, err)
	}
	start, err := rules.ParsePosition(r, h.Start)
	if err != nil {
		return h, fmt.Errorf("%w: the start position %q: %v", ErrFormat, h.Start, err)
	}
	text, err := start.Mirror().MarshalText()
	if err != nil {
		return h, err
	}
	mh := h
	mh.Start, mh.Writer = string(text), writer
	mh.Line, mh.At = mirrorMoves(r, h.Line), mirrorMoves(r, h.At)
	bw := bufio.NewWriterSize(out, 1<<16)
	if _, err := bw.Write(mh.Append(nil)); err != nil {
		return mh, err
	}
	if _, err := copyTree(rd, bw, h.Format, treeMap{move: r.MirrorMove, parts: true}); err != nil {
		return mh, err
	}
	if err := atEnd(rd); err != nil {
		return mh, err
	}
	return mh, bw.Flush()
}

func mirrorMoves(r rules.Rules, ms []rules.Move) []rules.Move {
	var out []rules.Move
	for _, m := range ms {
		out = append(out, r.MirrorMove(m))
	}
	return out
}
