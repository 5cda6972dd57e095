// Package proofcheck reads and verifies proof certificates: the proof, made
// by `alak prove --certificate` (solve.Prove), that a player can force a
// win, or a win or a draw, from a position. It imports the rules kernel
// and nothing of the solver: a certificate is checked by replaying every
// line of it on a rules.Game, so that a bug in the solver cannot make a
// wrong proof pass.
//
// format.go is the file format (docs/solver.md, "Proof certificates"):
// Header, RulesHash and the reader; check.go the checker (Check for one
// part, CheckAll for a whole certificate); write.go the writer of the
// parts, Write, which splits a tree longer than a limit.
//
//	f, _ := os.Open("traditional-6-x.alakproof")
//	rep, err := proofcheck.Check(ctx, f) // nil: rep.Claim() holds, given rep.Refs
//	fmt.Println(rep.Claim(), rep.Nodes)
package proofcheck
