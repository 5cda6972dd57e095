package main

import (
	"errors"
	"io"
	"os"

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
	if len(words) != 1 {
		return fail(e, "swap-proof", errors.New("give one certificate IN"))
	}
	if err := proofFiles(*out, words); err != nil {
		return fail(e, "swap-proof", err)
	}
	src, err := os.Open(words[0])
	if err != nil {
		return fail(e, "swap-proof", err)
	}
	defer src.Close()
	return writeCheckedProof(e, "swap-proof", *out, func(w io.Writer) error {
		_, err := proofcheck.SwapAfterPass(w, src, version.String())
		return err
	})
}
