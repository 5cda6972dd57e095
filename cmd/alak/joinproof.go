package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"alak/internal/version"
	"alak/proofcheck"
)

func init() {
	register(command{name: "join-proof", summary: "write one proof certificate of a position from those of the moves after it, and check it", run: joinProofRun})
}

const joinProofUsage = `usage: alak join-proof --out OUT IN...
Writes to OUT one proof certificate made of the certificates IN, each of
the position after one more move: where the other player is to move, one
certificate after each of their legal moves (in any order); where the
proof's player is, one, after the move it plays. Each IN's tree is copied
as it is, its shared subtrees numbered on past those before it, so every
part is checked on the same line as in its own file. A bound too long for
one run can so be proved move by move, and the mirror images made by
'alak mirror-proof': on 13 points, White's bound after each of Black's
first moves, joined, is White's bound from the empty board. The claims of
IN must be the same (rules, start, player, goal, kernel) but for the last
move of their lines, and each must be one part. OUT is then checked as
'alak check-proof OUT' would (and removed when it does not prove its
claim); the exit status is 1 then.`

func joinProofRun(e *env, args []string) int {
	fs := newFlagSet(e, "join-proof", joinProofUsage)
	out := fs.String("out", "", "the file to write the joined certificate to")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if len(words) == 0 {
		return fail(e, "join-proof", errors.New("give the certificates IN to join"))
	}
	if err := proofFiles(*out, words); err != nil {
		return fail(e, "join-proof", err)
	}
	var ins []io.Reader
	for _, in := range words {
		f, err := os.Open(in)
		if err != nil {
			return fail(e, "join-proof", err)
		}
		defer f.Close()
		ins = append(ins, f)
	}
	return writeCheckedProof(e, "join-proof", *out, func(w io.Writer) error {
		_, err := proofcheck.Join(w, ins, version.String())
		return err
	})
}

// proofFiles checks the files of a command that writes one certificate
// (OUT, not in parts) from others (ins, each one part): OUT given and not
// one of them, and no part beside any of them.
func proofFiles(out string, ins []string) error {
	if out == "" {
		return errors.New("give the file to write with --out OUT")
	}
	for _, in := range ins {
		if filepath.Clean(in) == filepath.Clean(out) {
			return fmt.Errorf("OUT %q is one of the certificates read: give another file", out)
		}
		if _, err := os.Stat(partName(in, 1)); err == nil {
			return fmt.Errorf("%s is in parts (%s beside it): give certificates written as one part (a larger --part-size)", in, partName(in, 1))
		}
	}
	return nil
}

// writeCheckedProof writes a certificate to the file out by write, then
// checks it as check-proof would; a certificate that is not written whole
// or does not check is removed, and the status is 1.
func writeCheckedProof(e *env, name, out string, write func(io.Writer) error) int {
	dst, err := os.Create(out)
	if err != nil {
		return fail(e, name, err)
	}
	err = write(dst)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out)
		fmt.Fprintf(e.stderr, "alak %s: %v\n", name, err)
		return 1
	}
	return checkWritten(e, name, out, func() { os.Remove(out) })
}

// checkWritten checks the certificate written to out (and its parts) as
// check-proof would and prints its claim; one that does not check is
// removed by remove, and the status is 1.
func checkWritten(e *env, name, out string, remove func()) int {
	ctx, stop := e.searchContext()
	defer stop()
	start := time.Now()
	sum, err := proofcheck.CheckAll(ctx, func(k int) (io.ReadCloser, error) { return os.Open(partName(out, k)) }, nil)
	if err != nil {
		remove()
		fmt.Fprintf(e.stderr, "alak %s: the certificate written does not check, and was removed: %v\n", name, err)
		return 1
	}
	fmt.Fprintf(e.stdout, "Proved: %s.\n", sum.Claim())
	fmt.Fprintf(e.stdout, "Written to %s and checked: %d part(s), %d positions (%d finished games), %.2f s.\n", out, sum.Parts, sum.Nodes, sum.Ends, time.Since(start).Seconds())
	return 0
}
