package solve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"alak/notation"
	"alak/rules"
)

// The methods of Settle, reported, never asked for.
const (
	// MethodCertificate: shipped proof certificates settle the position
	// (Certificates).
	MethodCertificate Method = "certificate"
	// MethodProof: the proof-number search over the state graph with
	// prisoners settled it (Prove with Graph and ProofNumbers).
	MethodProof Method = "proof"
)

// DefaultSettleNodes is the budget of the search Settle tries before the
// proof search: it answers the short lines (traditional on up to 5
// points) with their margins in a fraction of a second.
const DefaultSettleNodes = 2_000_000

// proveTableEntries is the proof-number search's table (alak prove's
// --table-entries default).
const proveTableEntries = 30_000_000

// Settles reports whether Settle answers positions of r by the proof
// search where the search does not finish: lines with passing and
// prisoners in the score (traditional), where the search's values depend
// on the history (method 2) and do not finish beyond 5 points, and which
// the proof search with the state graph with prisoners settles.
func Settles(r rules.Rules) bool {
	_, err := GraphRange(r, 0)
	return err == nil
}

// SettleOptions tune Settle.
type SettleOptions struct {
	// SearchNodes is the budget of the search tried first (0:
	// DefaultSettleNodes; negative: none).
	SearchNodes int64
	// MemoryMB bounds that search (0: the Tables').
	MemoryMB int
	// Note, when not nil, is told what Settle does as it starts each step:
	// the certificates that settle the position, each proof search.
	Note func(string)
	// Searched, when not nil, is told now and then the positions the
	// proof search has searched and its table's entries.
	Searched func(nodes int64, entries int)
}

// Settled is what Settle proved of a position: its outcome under perfect
// play and how it was proved.
type Settled struct {
	// Outcome is the winner under perfect play, rules.None for a draw.
	Outcome rules.Color
	// Margin says that Value is Black's margin under perfect play: a
	// draw's 0, or the search's value. Certificates and the proof search
	// prove who wins, not by how much.
	Margin bool
	Value  float64
	// Moves is the outcome after each legal move where it is known (the
	// certificates of the position's moves, the search's values); Best
	// the moves known to keep the outcome.
	Moves map[rules.Move]rules.Color
	Best  []rules.Move
	// Result is the search's answer when Method is MethodSearch.
	Result Result
	// Proofs are the claims proved, each with its shipped certificate
	// when one proves it (MethodCertificate), or the positions its proof
	// search took (MethodProof).
	Proofs []Claimed
	// Method is MethodCertificate, MethodSearch or MethodProof.
	Method Method
	// Nodes counts the positions searched: by the search tried first and
	// by the proof search.
	Nodes   int64
	Elapsed time.Duration
}

// Claimed is a claim proved of a position: player For can force a win
// (with Draw, a draw or better), or, with Holds false, cannot, however
// long the game (the proof-number search disproved it).
type Claimed struct {
	For         rules.Color
	Draw        bool
	Holds       bool
	Certificate *Certificate // the shipped certificate that proves it, if any
	Nodes       int64        // the positions the proof search took
}

// Claim says the claim in words: "x can force a draw or better", "x
// cannot force a win".
func (c Claimed) Claim() string {
	goal := "a win"
	if c.Draw {
		goal = "a draw or better"
	}
	if !c.Holds {
		return fmt.Sprintf("%c cannot force %s", c.For.Symbol(), goal)
	}
	return fmt.Sprintf("%c can force %s", c.For.Symbol(), goal)
}

// Settle finds the outcome of g's position under perfect play for rules
// the search does not finish on (Settles: traditional), by the fastest
// means that answers:
//
//  1. the shipped proof certificates (Certificates), where they settle
//     the position (a game from the rules' start, after exactly the
//     moves a certificate names): at once;
//  2. else the search (Tables.Solve) within opt.SearchNodes positions,
//     which gives the margins on short lines;
//  3. else the proof-number search over the state graph with prisoners
//     (alak prove --graph --proof-numbers, the settings that settled
//     traditional on 7 to 11 points: docs/results-traditional.md), twice at most:
//     whether the player to move can force a draw or better (no: the
//     opponent wins), and if so whether a win.
//
// It works for any rules Solve takes; ctx stops it (ctx's error).
func (ts *Tables) Settle(ctx context.Context, g *rules.Game, opt SettleOptions) (Settled, error) {
	start := time.Now()
	note := func(format string, args ...any) {
		if opt.Note != nil {
			opt.Note(fmt.Sprintf(format, args...))
		}
	}
	if o := g.Outcome(); o.Over() {
		return Settled{Outcome: o.Winner, Margin: true, Value: o.Margin, Moves: map[rules.Move]rules.Color{}, Method: MethodSearch,
			Result: Result{Value: o.Margin, Outcome: o.Winner, Complete: true, Moves: map[rules.Move]float64{}}}, nil
	}
	if s, ok := settleCertified(g); ok {
		var files []string
		for _, p := range s.Proofs {
			files = append(files, p.Certificate.File)
		}
		note("proof certificates of alak (proofdata/, listed in the binary with their checksums) settle the position: %s", strings.Join(files, ", "))
		s.Elapsed = time.Since(start)
		return s, nil
	}
	var searched int64 // by the search tried first
	if opt.SearchNodes >= 0 {
		nodes := opt.SearchNodes
		if nodes == 0 {
			nodes = DefaultSettleNodes
		}
		res, err := ts.Solve(ctx, g, Options{MaxNodes: nodes, MemoryMB: opt.MemoryMB})
		switch {
		case err == nil:
			s := Settled{Outcome: res.Outcome, Margin: true, Value: res.Value, Moves: map[rules.Move]rules.Color{}, Best: res.Best,
				Result: res, Method: MethodSearch, Nodes: res.Nodes, Elapsed: time.Since(start)}
			for m, v := range res.Moves {
				s.Moves[m] = winner(v)
			}
			return s, nil
		case ctx.Err() != nil:
			return Settled{}, err
		case !errors.Is(err, ErrNodeLimit) && !errors.Is(err, ErrMemory):
			return Settled{}, err
		}
		searched = res.Nodes
		note("the search did not finish within %d positions: the proof search answers", nodes)
	}
	c := g.Position().ToMove()
	popt := ProveOptions{Graph: true, ProofNumbers: true, TableEntries: proveTableEntries, Searched: opt.Searched}
	s := Settled{Moves: map[rules.Move]rules.Color{}, Method: MethodProof, Nodes: searched}
	prove := func(draw bool) (Proof, error) {
		claim := Claimed{For: c, Draw: draw, Holds: true}
		note("proving that %s (proof-number search over the state graph with prisoners)", claim.Claim())
		popt.Draw = draw
		pr, err := Prove(ctx, g, c, popt)
		s.Nodes += pr.Nodes
		if err == nil && !pr.Proved && !pr.Disproved {
			err = errors.New("the proof search ended with the claim neither proved nor disproved")
		}
		if err == nil {
			claim.Holds, claim.Nodes = pr.Proved, pr.Nodes
			s.Proofs = append(s.Proofs, claim)
			note("%s (%d positions)", claim.Claim(), pr.Nodes)
		}
		return pr, err
	}
	pr, err := prove(true)
	if err != nil {
		return s, err
	}
	if pr.Disproved {
		s.Outcome = c.Opp()
	} else {
		if pr, err = prove(false); err != nil {
			return s, err
		}
		s.Outcome = rules.None
		if pr.Proved {
			s.Outcome = c
		} else {
			s.Margin = true // a draw is worth 0, whatever the margin rule
		}
	}
	s.Elapsed = time.Since(start)
	return s, nil
}

// settleCertified settles g's position by the shipped certificates, with
// the outcome after each move they settle; false when they do not settle
// the position.
func settleCertified(g *rules.Game) (Settled, bool) {
	r := g.Rules()
	start, err := rules.NewGame(r)
	if err != nil {
		return Settled{}, false
	}
	a, _ := start.Start().MarshalText()
	b, _ := g.Start().MarshalText()
	if string(a) != string(b) {
		return Settled{}, false // a set-up position: no certificate starts there
	}
	line := make([]string, g.Len())
	for i, m := range g.Moves() {
		line[i] = notation.Human.Encode(r, m)
	}
	key := r.String()
	parent := rules.None
	if g.Len() > 0 {
		parent = g.PositionAt(g.Len() - 1).ToMove()
	}
	mover := g.Position().ToMove()
	o, used, ok := settleBy(certifiedAt(key, line, parent), mover)
	if !ok {
		return Settled{}, false
	}
	s := Settled{Outcome: o, Margin: o == rules.None, Moves: map[rules.Move]rules.Color{}, Method: MethodCertificate}
	for i := range used {
		s.Proofs = append(s.Proofs, Claimed{For: used[i].For, Draw: used[i].Draw, Holds: true, Certificate: &used[i]})
	}
	for _, m := range g.LegalMoves(nil) {
		h := g.Clone()
		if h.Play(m) != nil {
			continue
		}
		if h.Over() {
			s.Moves[m] = h.Outcome().Winner
			continue
		}
		child := append(append([]string(nil), line...), notation.Human.Encode(r, m))
		if co, _, ok := settleBy(certifiedAt(key, child, mover), h.Position().ToMove()); ok {
			s.Moves[m] = co
		}
	}
	for _, m := range g.LegalMoves(nil) {
		if co, ok := s.Moves[m]; ok && co == o {
			s.Best = append(s.Best, m)
		}
	}
	return s, true
}
