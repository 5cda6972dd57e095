package main

import (
	"errors"
	"io"
	"os"

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
	if len(words) < 2 {
		return fail(e, "extract-proof", errors.New("give the certificate IN and the moves to its subtree"))
	}
	if err := proofFiles(*out, words[:1]); err != nil {
		return fail(e, "extract-proof", err)
	}
	src, err := os.Open(words[0])
	if err != nil {
		return fail(e, "extract-proof", err)
	}
	defer src.Close()
	return writeCheckedProof(e, "extract-proof", *out, func(w io.Writer) error {
		_, err := proofcheck.Extract(w, src, words[1:], version.String())
		return err
	})
}
