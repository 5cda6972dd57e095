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
	register(command{name: "swap-proof", summary: "write a proof certificate with the colours exchanged, after a first pass, and check it", run: swapProofRun})
}

const swapProofUsage = `usage: alak swap-proof --out OUT IN
Writes to OUT the proof certificate IN, of a claim from the start of its
rules (an empty board), with the colours exchanged and a pass put first:
when the first player passes, the other moves first on the empty board,
so Black's proof with komi k is White's proof after Black's pass with
komi -k. On 12 points, Black's bound "at least 2" becomes White's bound
after the opening pass, "Black at most -2". OUT is then checked as 'alak
check-proof OUT' would (and removed when it does not prove its claim: a
proof whose root answers the other player's pass does not hold after a
pass, which the next pass ends); the exit status is 1 then.`

func swapProofRun(e *env, args []string) int {
	fs := newFlagSet(e, "swap-proof", swapProofUsage)
	out := fs.String("out", "", "the file to write the certificate to")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return flagStatus(e, fs, err)
	}
	if *out == "" {
		return fail(e, "swap-proof", errors.New("give the file to write with --out OUT"))
	}
	if len(words) != 1 {
		return fail(e, "swap-proof", errors.New("give one certificate IN"))
	}
	in := words[0]
	if filepath.Clean(in) == filepath.Clean(*out) {
		return fail(e, "swap-proof", fmt.Errorf("OUT %q is IN: give another file", *out))
	}
	if _, err := os.Stat(partName(in, 1)); err == nil {
		return fail(e, "swap-proof", fmt.Errorf("%s is in parts (%s beside it): exchange the colours of a certificate written as one part", in, partName(in, 1)))
	}
	src, err := os.Open(in)
	if err != nil {
		return fail(e, "swap-proof", err)
	}
	defer src.Close()
	dst, err := os.Create(*out)
	if err != nil {
		return fail(e, "swap-proof", err)
	}
	_, err = proofcheck.SwapAfterPass(dst, src, version.String())
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(*out)
		fmt.Fprintf(e.stderr, "alak swap-proof: %v\n", err)
		return 1
	}
	ctx, stop := e.searchContext()
	defer stop()
	start := time.Now()
	sum, err := proofcheck.CheckAll(ctx, func(k int) (io.ReadCloser, error) { return os.Open(partName(*out, k)) }, nil)
	if err != nil {
		os.Remove(*out)
		fmt.Fprintf(e.stderr, "alak swap-proof: the certificate with the colours exchanged does not check, and was removed: %v\n", err)
		return 1
	}
	fmt.Fprintf(e.stdout, "Proved: %s.\n", sum.Claim())
	fmt.Fprintf(e.stdout, "Written to %s and checked: %d positions (%d finished games), %.2f s.\n", *out, sum.Nodes, sum.Ends, time.Since(start).Seconds())
	return 0
}
