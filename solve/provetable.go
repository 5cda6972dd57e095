package solve

import (
	"math"

	"alak/rules"
)

// The history-free table of Prove (ProveOptions.Table; docs/solver-proof-search.md,
// "A table for the proof search"). The result of a search from a position
// depends on the path that led there only through the repetition counts:
// the rest of the future (the legal moves, how the game ends and its score)
// is a function of the state (stones, player to move, forbidden points,
// passes, prisoner difference) when the rules have no superko, no
// unchanged-board rule and no safe points. A repetition draw adds draws;
// it never removes one. So a result that a draw can only help (a draw
// proved for the prover when draws meet the goal; "no win within d plies"
// when they do not) holds on every path to the same state, provided every
// repetition draw it relied on repeated positions reached from that state
// on: a longer history only ends more lines in draws, which that result
// survives. Such results are stored by state; nothing else is.

// noDep is the dependence of a result that relied on no repetition draw.
const noDep = math.MaxInt32

// defaultTableEntries bounds the table when ProveOptions.TableEntries is 0:
// about 2 GB of map at the 64 bytes or so an entry takes.
const defaultTableEntries = 30_000_000

// tableKey is everything the future of a line position depends on under
// rules the table accepts (tableRules).
type tableKey struct {
	black, white, forbid uint64
	meta                 uint32 // player to move, passes, prisoner difference
}

// tableRules reports whether the table is sound under r: a line of placed
// stones, at most 64 points, no superko (legality is then a function of the
// state), no unchanged-board rule and no safe points.
func tableRules(r rules.Rules) bool {
	var noSafe rules.SafeEye
	return r.Movement == rules.Placement && r.Height == 1 && r.Width >= 1 && r.Width <= 64 &&
		r.Ko != rules.KoPositional && r.Ko != rules.KoSituational && !r.UnchangedLoses && r.Safe == noSafe
}

// key returns the state key of the game's current position.
func (p *prover) key() tableKey { return keyOf(p.g.Position()) }

// repDep returns, at a position drawn by repetition, the index on the line
// of the earliest of the occurrences that make the draw: the result of any
// node at that index or before it does not depend on the history before the
// node through this draw.
func (p *prover) repDep() int32 {
	n := p.g.Rules().Repetition
	t := len(p.line) - 1
	h := p.line[t]
	need := n - 1
	for i := t - 1; i >= 0; i-- {
		if p.line[i] == h {
			need--
			if need <= 0 {
				return int32(i)
			}
		}
	}
	return -1 // not found on the line: treat the draw as the history's
}

// store records a result at the current node, whose position has index s
// on the line: the proof height of a draw proved (Draw goals), or the depth
// searched without a win (win goals). Only results a draw can only help
// are stored, and only when dep, the earliest line index a repetition draw
// they used reaches back to, is not before the node.
func (p *prover) store(ok bool, h int32, dep int32) {
	if p.tt == nil || ok != p.draw || dep < int32(len(p.line)-1) {
		return
	}
	k := p.key()
	if old, hit := p.tt[k]; hit {
		// Keep the more useful: the lower proof height, the deeper failure.
		if (p.draw && old <= h) || (!p.draw && old >= h) {
			return
		}
	} else if len(p.tt) >= p.ttMax {
		return
	}
	p.tt[k] = h
	p.stored++
}
