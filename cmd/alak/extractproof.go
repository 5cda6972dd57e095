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
	register(command{name: "extract-proof", summary: "write the subtree of a proof certificate after some moves as a certificate of its own, and check it", run: extractProofRun})
}

const extractProofUsage = `usage: alak extract-proof --out OUT IN MOVE...
Writes to OUT the subtree of the proof certificate IN after the moves
MOVE... from its root, as a certificate of that position: after a reply
of the other player's, the bound after that reply; after a move of the
proof's player, the bound after it. Black's bound on 1x12 plays 4 first,
so 'alak extract-proof --out x12-4.alakproof x12.alakproof 4' is Black's
bound after the opening 4. The subtree is copied as it is; one that
refers to a shared subtree written outside it cannot stand alone and is
refused. OUT is then checked as 'alak check-proof OUT' would (and removed
when it does not prove its claim); the exit status is 1 then.`

func extractProofRun(e *env, args []string) int {
	fs := newFlagSet(e, "extract-proof", extractProofUsage)
	out := fs.String("out", "", "the file to write the subtree's certificate to")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if *out == "" {
		return fail(e, "extract-proof", errors.New("give the file to write with --out OUT"))
	}
	if len(words) < 2 {
		return fail(e, "extract-proof", errors.New("give the certificate IN and the moves to its subtree"))
	}
	in := words[0]
	if filepath.Clean(in) == filepath.Clean(*out) {
		return fail(e, "extract-proof", fmt.Errorf("OUT %q is IN: give another file", *out))
	}
	if _, err := os.Stat(partName(in, 1)); err == nil {
		return fail(e, "extract-proof", fmt.Errorf("%s is in parts (%s beside it): take subtrees out of a certificate written as one part", in, partName(in, 1)))
	}
	src, err := os.Open(in)
	if err != nil {
		return fail(e, "extract-proof", err)
	}
	defer src.Close()
	dst, err := os.Create(*out)
	if err != nil {
		return fail(e, "extract-proof", err)
	}
	_, err = proofcheck.Extract(dst, src, words[1:], version.String())
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(*out)
		fmt.Fprintf(e.stderr, "alak extract-proof: %v\n", err)
		return 1
	}
	ctx, stop := e.searchContext()
	defer stop()
	start := time.Now()
	sum, err := proofcheck.CheckAll(ctx, func(k int) (io.ReadCloser, error) { return os.Open(partName(*out, k)) }, nil)
	if err != nil {
		os.Remove(*out)
		fmt.Fprintf(e.stderr, "alak extract-proof: the subtree does not check, and was removed: %v\n", err)
		return 1
	}
	fmt.Fprintf(e.stdout, "Proved: %s.\n", sum.Claim())
	fmt.Fprintf(e.stdout, "Written to %s and checked: %d positions (%d finished games), %.2f s.\n", *out, sum.Nodes, sum.Ends, time.Since(start).Seconds())
	return 0
}
