// Package proofcheck reads and verifies proof certificates: the proof, made
// by `alak prove --certificate` (solve.Prove), that a player can force a
// win, or a win or a draw, from a position. It imports the rules kernel
// and nothing of the solver: a certificate is checked by replaying every
// line of it on a rules.Game, so that a bug in the solver cannot make a
// wrong proof pass.
//
// format.go is the file format (docs/proofs.md, every byte of it):
// Header, RulesHash and RulesText, and the reader; check.go the checker
// (Check for one part, CheckAll for a whole certificate), with the shared
// subtrees of draws (format 2) and wins (format 3, the reach test);
// superko.go the shared subtrees under positional superko (format 4,
// checked in place with their board conditions); write.go the writer of
// the parts, Write, which splits a tree longer than a limit; mirror.go
// the reflection of a certificate; explain.go Explain, which decodes a
// part field by field as docs/proofs.md describes it (alak check-proof
// --explain).
//
//	f, _ := os.Open("traditional-6-x.alakproof")
//	rep, err := proofcheck.Check(ctx, f) // nil: rep.Claim() holds, given rep.Refs
//	fmt.Println(rep.Claim(), rep.Nodes)
package proofcheck
