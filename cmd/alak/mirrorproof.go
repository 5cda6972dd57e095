package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"alak/internal/version"
	"alak/proofcheck"
)

func init() {
	register(command{name: "mirror-proof", summary: "write a proof certificate reflected left to right, and check it", run: mirrorProofRun})
}

const mirrorProofUsage = `usage: alak mirror-proof IN OUT
Writes the proof certificate IN (and its parts IN.part1 ... beside it)
reflected left to right to OUT (and OUT.part1 ...): every move of the
proof on the mirror-image point (point p of n becomes n+1-p; on a grid,
the column). The reflection is a symmetry of every rule set, so a proof
for a line of play is a proof for its mirror image: on 10 points, Black's
draw after 3 becomes Black's draw after 8. OUT is then checked as
'alak check-proof OUT' would (and removed when it does not prove its
claim); the exit status is 1 then.`

func mirrorProofRun(e *env, args []string) int {
	fs := newFlagSet(e, "mirror-proof", mirrorProofUsage)
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if len(words) != 2 {
		return fail(e, "mirror-proof", errors.New("give the certificate IN and the file OUT to write its mirror image to"))
	}
	in, out := words[0], words[1]
	if a, b := filepath.Clean(in), filepath.Clean(out); a == b {
		return fail(e, "mirror-proof", fmt.Errorf("OUT %q is IN: give another file", out))
	}
	var written []string
	removeAll := func() {
		for _, f := range written {
			os.Remove(f)
		}
	}
	for k := 0; ; k++ {
		src, err := os.Open(partName(in, k))
		if k > 0 && errors.Is(err, os.ErrNotExist) {
			break
		}
		if err != nil {
			removeAll()
			return fail(e, "mirror-proof", err)
		}
		name := partName(out, k)
		dst, err := os.Create(name)
		if err != nil {
			src.Close()
			removeAll()
			return fail(e, "mirror-proof", err)
		}
		written = append(written, name)
		_, err = proofcheck.Mirror(dst, src, version.String())
		src.Close()
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			removeAll()
			fmt.Fprintf(e.stderr, "alak mirror-proof: %s: %v\n", partName(in, k), err)
			return 1
		}
	}
	return checkWritten(e, "mirror-proof", out, removeAll)
}
