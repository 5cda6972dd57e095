package solve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"alak/internal/testlong"
	"alak/rules"
)

// TestAtLeastSplit: with budgets small enough that most questions are
// split, AtLeastSplit gives the answer the value implies, both with the
// tables kept from part to part and with a fresh table a part, and its
// parts prove it: checkSplitProof rebuilds the answer from the answered parts by
// the minimax rule, without the splitter's code. The values are Ted
// Drange's published table for 1×7 and 1×8 (2 and 3; TestSuperkoDrangeTable
// checks the solver against it) and, for alak 9 (8 without ALAK_LONG=1;
// the non-superko path, which solves and compares), the draw results.md
// lists.
func TestAtLeastSplit(t *testing.T) {
	t.Parallel()
	cases := []struct {
		g      *rules.Game
		value  float64
		at     []float64 // thresholds whose one search passes the budget
		budget int64
		depth  int
	}{
		{superkoGame(t, 7), 2, []float64{0, 2.5}, 1024, 8},
		{superkoGame(t, 8), 3, []float64{2, 3, 3.5}, 3000, 4},
		{newGame(t, "alak", testlong.Size(t, 8, 9)), 0, []float64{0, 0.5}, 2000, 2},
	}
	if !testlong.Enabled(t) {
		cases = slices.Delete(cases, 1, 2) // 1×8 with ALAK_LONG=1 (so does TestFreshTablesAskAsNew)
	}
	for _, c := range cases {
		// Every threshold with ALAK_LONG=1, each with the tables kept and
		// with fresh ones; without, the first (a threshold at or below the
		// value, so a bound that holds) with the tables kept and the last
		// (above it on 1×7 and on alak: one that fails) with fresh ones.
		at := c.at
		if !testlong.Enabled(t) {
			at = []float64{at[0], at[len(at)-1]}
		}
		for i, v := range at {
			for _, fresh := range []bool{false, true} {
				if !testlong.Enabled(t) && fresh != (i == len(at)-1) {
					continue
				}
				checkSplit(t, c.g, v, c.value, SplitOptions{Budget: c.budget, MaxDepth: c.depth, FreshTables: fresh})
			}
		}
	}
}

// checkSplit asks AtLeastSplit whether g's value (value) is at least v and
// checks the answer, that something was split, and the parts as a proof.
func checkSplit(t *testing.T, g *rules.Game, v, value float64, so SplitOptions) {
	t.Helper()
	name := fmt.Sprintf("%v at least %v (fresh tables: %v)", g.Rules(), v, so.FreshTables)
	before := g.Len()
	b, err := AtLeastSplit(context.Background(), g, v, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if g.Len() != before {
		t.Fatalf("%s: the game has %d moves after the split search, %d before", name, g.Len(), before)
	}
	if b.Holds != (value >= v) {
		t.Errorf("%s: %v, but the value is %v", name, b.Holds, value)
	}
	if b.Holds && (b.Bound.Bound < v || b.Bound.Bound > value) || !b.Holds && (b.Bound.Bound >= v || b.Bound.Bound < value) {
		t.Errorf("%s: holds %v with bound %v, value %v", name, b.Holds, b.Bound.Bound, value)
	}
	split := 0
	for _, p := range b.Parts {
		if !p.Answered {
			split++
		}
	}
	if split == 0 {
		t.Errorf("%s: nothing was split with a budget of %d positions", name, so.Budget)
	}
	holds, bound := checkSplitProof(t, name, g, b.Parts)
	if holds != b.Holds || bound != b.Bound.Bound {
		t.Errorf("%s: the parts prove holds %v, bound %v; the answer says %v, %v", name, holds, bound, b.Holds, b.Bound.Bound)
	}
	checkProofParts(t, name, g, v, b)
}

// checkProofParts: the answer's Proof alone settles the question. A plan
// is given only the proof's leaves (and, as cut off, the lines above them),
// so every other line is open to it: it must still find the same answer.
func checkProofParts(t *testing.T, name string, g *rules.Game, v float64, b SplitBound) {
	t.Helper()
	if len(b.Proof) == 0 || len(b.Proof) > len(b.Parts) {
		t.Fatalf("%s: a proof of %d parts, of %d asked", name, len(b.Proof), len(b.Parts))
	}
	known := map[string]Known{}
	for _, p := range b.Proof {
		if !p.Answered {
			t.Errorf("%s: the proof's part after %v was not answered", name, p.Moves)
		}
		k := Known{Lower: math.Inf(-1), Upper: math.Inf(1)}
		if p.Holds {
			k.Lower = p.Bound
		} else {
			k.Upper = p.Bound
		}
		known[fmt.Sprint(p.Moves)] = k
		for i := range p.Moves {
			if _, ok := known[fmt.Sprint(p.Moves[:i])]; !ok {
				known[fmt.Sprint(p.Moves[:i])] = Known{Lower: math.Inf(-1), Upper: math.Inf(1), CutOff: true}
			}
		}
	}
	so := SplitOptions{Plan: true, MaxDepth: 1, Known: func(ms []rules.Move) (Known, bool) {
		k, ok := known[fmt.Sprint(ms)]
		return k, ok
	}}
	plan, err := AtLeastSplit(context.Background(), g, v, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Open || plan.Holds != b.Holds || plan.Bound.Bound != b.Bound.Bound {
		t.Errorf("%s: the %d proof parts alone give open %v, holds %v, bound %v; the answer is %v, %v", name, len(b.Proof), plan.Open, plan.Holds, plan.Bound.Bound, b.Holds, b.Bound.Bound)
	}
}

// checkSplitProof evaluates the parts as a proof tree: an answered part is
// a leaf; an unanswered one needs, at a Black node, one child that holds
// or every legal move's child failing (at a White node the other way
// round). On the empty line a move's mirror image may stand for it.
func checkSplitProof(t *testing.T, name string, g *rules.Game, parts []Part) (bool, float64) {
	t.Helper()
	byKey := map[string]Part{}
	key := func(ms []rules.Move) string { return fmt.Sprint(ms) }
	for _, p := range parts {
		if _, dup := byKey[key(p.Moves)]; dup {
			t.Errorf("%s: the question after %v was asked twice", name, p.Moves)
		}
		byKey[key(p.Moves)] = p
	}
	n := g.Rules().Width
	// eval says whether the parts settle the question after ms, and how.
	var eval func(c *rules.Game, ms []rules.Move) (known, holds bool, bound float64)
	eval = func(c *rules.Game, ms []rules.Move) (bool, bool, float64) {
		p, ok := byKey[key(ms)]
		if !ok {
			return false, false, 0
		}
		if p.Answered {
			return true, p.Holds, p.Bound
		}
		black := c.Position().ToMove() == rules.Black
		var bounds []float64
		all := true
		for _, m := range c.LegalMoves(nil) {
			if c.Len() == 0 && m.IsPlace() && n-1-m.Point() < m.Point() {
				continue // the empty line: the mirror image stands for it
			}
			if err := c.Play(m); err != nil {
				t.Fatal(err)
			}
			k, h, bd := eval(c, append(append([]rules.Move(nil), ms...), m))
			if err := c.Undo(); err != nil {
				t.Fatal(err)
			}
			switch {
			case !k:
				all = false
			case h == black:
				return true, h, bd
			default:
				bounds = append(bounds, bd)
			}
		}
		if !all || len(bounds) == 0 {
			return false, false, 0
		}
		best := bounds[0]
		for _, bd := range bounds[1:] {
			if black && bd > best || !black && bd < best {
				best = bd
			}
		}
		return true, !black, best
	}
	known, holds, bound := eval(g.Clone(), nil)
	if !known {
		t.Fatalf("%s: the parts do not settle the question", name)
	}
	return holds, bound
}

// TestAtLeastSplitJobs: sub-questions searched two at a time give the same
// answer as one at a time (run with -race, this checks the concurrency).
// The proved bounds may differ: they are fail-soft, and with tables kept
// from part to part they depend on which table a part found, which with two
// jobs depends on timing; both must lie between the threshold and the
// value (2, Drange's table).
func TestAtLeastSplitJobs(t *testing.T) {
	t.Parallel()
	g := superkoGame(t, 7)
	const value = 2
	for _, v := range []float64{0, 2.5} {
		one, err := AtLeastSplit(context.Background(), g, v, Options{MemoryMB: 16}, SplitOptions{Budget: 1024, MaxDepth: 3})
		if err != nil {
			t.Fatal(err)
		}
		two, err := AtLeastSplit(context.Background(), g, v, Options{MemoryMB: 16}, SplitOptions{Budget: 1024, MaxDepth: 3, Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		if one.Holds != two.Holds || one.Holds != (value >= v) {
			t.Errorf("1×7 at least %v: one job %v, two jobs %v; the value is %v", v, one.Holds, two.Holds, value)
		}
		for _, b := range []float64{one.Bound.Bound, two.Bound.Bound} {
			if one.Holds && (b < v || b > value) || !one.Holds && (b >= v || b < value) {
				t.Errorf("1×7 at least %v: bound %v (holds %v), but the value is %v", v, b, one.Holds, value)
			}
		}
		checkSplitProof(t, "1×7, two jobs", g, two.Parts)
	}
}

// TestAtLeastSplitMirror: from the empty line only one move of each mirror
// pair is asked; after a move that breaks the symmetry, every move is.
func TestAtLeastSplitMirror(t *testing.T) {
	t.Parallel()
	g := superkoGame(t, 8)
	b, err := AtLeastSplit(context.Background(), g, 3, Options{MemoryMB: 16}, SplitOptions{Budget: 2000, MaxDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range b.Parts {
		if len(p.Moves) == 1 && p.Moves[0].IsPlace() && p.Moves[0].Point() > 3 {
			t.Errorf("the opening %v was asked, the mirror image of %v", p.Moves[0], rules.Place(7-p.Moves[0].Point()))
		}
		seen[fmt.Sprint(p.Moves)] = true
	}
	if got := len(splitMoves(g)); got != 5 {
		t.Errorf("empty 1×8: %d moves to split over, want 5 (points 1 to 4 and the pass)", got)
	}
	c := g.Clone()
	if err := c.Play(rules.Place(1)); err != nil {
		t.Fatal(err)
	}
	if got, want := len(splitMoves(c)), len(c.LegalMoves(nil)); got != want {
		t.Errorf("1×8 after 2: %d moves to split over, want all %d", got, want)
	}
	if !seen["[]"] {
		t.Error("the question itself was not asked first")
	}
}

// TestAtLeastSplitCancel: a cancelled search says so and answers nothing.
func TestAtLeastSplitCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := AtLeastSplit(ctx, superkoGame(t, 8), 3, Options{MemoryMB: 16}, SplitOptions{Budget: 2000})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: error %v, want context.Canceled", err)
	}
	if !strings.Contains(err.Error(), "cancel") {
		t.Errorf("error %q does not say it was cancelled", err)
	}
}

// knownFrom turns the parts of an earlier split into SplitOptions.Known,
// as a parts file read back does: an answered part gives a bound, an
// unanswered one says the line was cut off. drop, if set, forgets a line.
func knownFrom(parts []Part, drop func([]rules.Move) bool) func([]rules.Move) (Known, bool) {
	m := map[string]Known{}
	for _, p := range parts {
		if drop != nil && drop(p.Moves) {
			continue
		}
		k := Known{Lower: math.Inf(-1), Upper: math.Inf(1)}
		switch {
		case !p.Answered:
			k.CutOff = true
		case p.Holds:
			k.Lower = p.Bound
		default:
			k.Upper = p.Bound
		}
		m[fmt.Sprint(p.Moves)] = k
	}
	return func(ms []rules.Move) (Known, bool) {
		k, ok := m[fmt.Sprint(ms)]
		return k, ok
	}
}

// TestAtLeastSplitKnown: a split given what an earlier split found (how
// --parts resumes) answers the same without searching, and a split that
// knows only part of it searches only the rest; bounds found for one
// threshold are used for another only where they settle it.
func TestAtLeastSplitKnown(t *testing.T) {
	t.Parallel()
	g := superkoGame(t, 8) // value 3 (Drange's table)
	so := SplitOptions{Budget: 3000, MaxDepth: 4}
	first, err := AtLeastSplit(context.Background(), g, 3.5, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatal(err)
	}
	so.Known = knownFrom(first.Parts, nil)
	again, err := AtLeastSplit(context.Background(), g, 3.5, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatal(err)
	}
	if again.Holds != first.Holds || again.Bound.Bound != first.Bound.Bound || again.Nodes != 0 {
		t.Errorf("resumed with every part known: holds %v bound %v after %d positions; first %v bound %v",
			again.Holds, again.Bound.Bound, again.Nodes, first.Holds, first.Bound.Bound)
	}
	for _, p := range again.Parts {
		if !p.Known {
			t.Errorf("resumed: the part after %v was searched", p.Moves)
		}
	}

	// Forget the deepest answered line that the proof needs: only it (and
	// what replaces it) is searched again.
	lost := deepestNeeded(t, g, 3.5, so, again.Parts)
	so.Known = knownFrom(first.Parts, func(ms []rules.Move) bool { return fmt.Sprint(ms) == fmt.Sprint(lost) })
	part, err := AtLeastSplit(context.Background(), g, 3.5, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatal(err)
	}
	searched := 0
	for _, p := range part.Parts {
		if !p.Known {
			searched++
			if fmt.Sprint(p.Moves[:min(len(p.Moves), len(lost))]) != fmt.Sprint(lost) {
				t.Errorf("with %v forgotten, %v was searched too", lost, p.Moves)
			}
		}
	}
	if searched == 0 || part.Holds != first.Holds {
		t.Errorf("with %v forgotten: %d parts searched, holds %v (want %v)", lost, searched, part.Holds, first.Holds)
	}

	// The parts of "at least 3.5" (no) ask "at least 3" (yes) again: an
	// upper bound of 3 settles neither, so the answer must be searched,
	// and it must agree with the value.
	so.Known = knownFrom(first.Parts, nil)
	three, err := AtLeastSplit(context.Background(), g, 3, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatal(err)
	}
	if !three.Holds || three.Nodes == 0 {
		t.Errorf("at least 3 with the parts of 3.5: holds %v after %d positions, want true after a search", three.Holds, three.Nodes)
	}
	checkSplitProof(t, "1×8 at least 3, resumed from 3.5", g, three.Parts)
}

// TestAtLeastSplitPlan: a plan searches nothing; with every part known it
// gives the answer, and with a line forgotten it leaves the question open
// and lists the lines still to ask, that line among them (and the lines
// after it that the first split never asked, having found an answer
// before them). Asking those lines on their own settles the plan again.
func TestAtLeastSplitPlan(t *testing.T) {
	t.Parallel()
	g := superkoGame(t, 7) // value 2 (Drange's table)
	so := SplitOptions{Budget: 1024, MaxDepth: 8}
	first, err := AtLeastSplit(context.Background(), g, 2.5, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatal(err)
	}
	so.Plan = true
	so.Known = knownFrom(first.Parts, nil)
	full, err := AtLeastSplit(context.Background(), g, 2.5, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatal(err)
	}
	if full.Open || full.Holds || full.Nodes != 0 {
		t.Errorf("plan with every part known: open %v, holds %v, %d positions; want settled, false, 0", full.Open, full.Holds, full.Nodes)
	}
	// A plan follows the known parts at any depth, whatever MaxDepth.
	shallow := so
	shallow.MaxDepth = 1
	if p, err := AtLeastSplit(context.Background(), g, 2.5, Options{MemoryMB: 16}, shallow); err != nil || p.Open || p.Holds {
		t.Errorf("plan with every part known and MaxDepth 1: open %v, holds %v, error %v; want settled, false", p.Open, p.Holds, err)
	}
	lost := deepestNeeded(t, g, 2.5, so, first.Parts)
	forget := func(ms []rules.Move) bool { return fmt.Sprint(ms) == fmt.Sprint(lost) }
	so.Known = knownFrom(first.Parts, forget)
	plan, err := AtLeastSplit(context.Background(), g, 2.5, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Open || plan.Nodes != 0 {
		t.Fatalf("plan with %v forgotten: open %v after %d positions; want open after none", lost, plan.Open, plan.Nodes)
	}
	var parts []Part // what is known, the forgotten line left out
	for _, p := range first.Parts {
		if !forget(p.Moves) {
			parts = append(parts, p)
		}
	}
	listed := false
	for _, p := range plan.Parts {
		if !p.Open {
			continue
		}
		listed = listed || fmt.Sprint(p.Moves) == fmt.Sprint(lost)
		if _, ok := so.Known(p.Moves); ok {
			t.Errorf("plan: %v is listed as open but is known", p.Moves)
		}
		c := g.Clone()
		for _, m := range p.Moves {
			if err := c.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		b, err := AtLeast(context.Background(), c, 2.5, Options{MemoryMB: 16})
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, Part{Moves: p.Moves, Answered: true, Holds: b.Holds, Bound: b.Bound})
	}
	if !listed {
		t.Errorf("plan: the forgotten line %v is not among the open ones", lost)
	}
	so.Known = knownFrom(parts, nil)
	settled, err := AtLeastSplit(context.Background(), g, 2.5, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatal(err)
	}
	if settled.Open || settled.Holds {
		t.Errorf("plan with the open lines asked: open %v, holds %v; want settled, false (the value is 2)", settled.Open, settled.Holds)
	}
}

// TestAtLeastSplitPlanSettledNode: a plan does not list as open a line
// below a node the known parts settle. The known parts here say that the
// first opening was cut off and that one reply to it, not the first,
// holds Black below the bound (a made-up answer: a plan checks only how
// the parts combine); the plan meets the first reply, unknown, before the
// one that settles the opening, and must leave it out of the open lines,
// while the other openings, unknown, stay open.
func TestAtLeastSplitPlanSettledNode(t *testing.T) {
	t.Parallel()
	g := superkoGame(t, 7)
	openings := splitMoves(g)
	a := openings[0]
	after := g.Clone()
	if err := after.Play(a); err != nil {
		t.Fatal(err)
	}
	replies := splitMoves(after)
	if len(openings) < 2 || len(replies) < 2 {
		t.Fatalf("%d openings and %d replies to %v, want two or more of each", len(openings), len(replies), a)
	}
	settling := []rules.Move{a, replies[1]}
	parts := []Part{
		{Moves: nil},
		{Moves: []rules.Move{a}},
		{Moves: settling, Answered: true, Holds: false, Bound: 1},
	}
	so := SplitOptions{Plan: true, Known: knownFrom(parts, nil)}
	plan, err := AtLeastSplit(context.Background(), g, 2.5, Options{MemoryMB: 16}, so)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Open || plan.Nodes != 0 {
		t.Fatalf("plan: open %v after %d positions; want open (the other openings are unknown) after none", plan.Open, plan.Nodes)
	}
	open := map[string]bool{}
	for _, p := range plan.Parts {
		if p.Open {
			open[fmt.Sprint(p.Moves)] = true
			if len(p.Moves) > 1 && p.Moves[0] == a {
				t.Errorf("plan lists %v as open, below the opening %v that %v settles", p.Moves, a, settling)
			}
		}
	}
	for _, m := range openings[1:] {
		if !open[fmt.Sprint([]rules.Move{m})] {
			t.Errorf("plan does not list the unknown opening %v as open (open: %v)", m, open)
		}
	}
}

// deepestNeeded returns the moves of the deepest answered part the proof
// needs: the first, among the deepest, whose loss leaves a plan over the
// other parts open (a part asked and answered can still be unneeded, when
// another move settled its node first).
func deepestNeeded(t *testing.T, g *rules.Game, v float64, so SplitOptions, parts []Part) []rules.Move {
	t.Helper()
	so.Plan = true
	best := []rules.Move(nil)
	for _, p := range parts {
		if !p.Answered || best != nil && len(p.Moves) <= len(best) {
			continue
		}
		so.Known = knownFrom(parts, func(ms []rules.Move) bool { return fmt.Sprint(ms) == fmt.Sprint(p.Moves) })
		plan, err := AtLeastSplit(context.Background(), g, v, Options{MemoryMB: 16}, so)
		if err != nil {
			t.Fatal(err)
		}
		if plan.Open {
			best = p.Moves
		}
	}
	if best == nil {
		t.Fatal("no answered part is needed by the proof")
	}
	return best
}

// TestFreshTablesAskAsNew: with FreshTables every part is searched as a
// new solver would search it (the splitter empties the table it keeps
// rather than allocating another, which held twice --memory): each part's
// answer and position count equal those of AtLeast, a new solver, asked
// the same question with the same budget after the same moves. 1×8, at
// least 3 (its value), with ALAK_LONG=1; without, 1×7, at least 0 (a bound
// that holds: the value is 2), split as TestAtLeastSplit splits it
// (measured: 16 parts searched).
func TestFreshTablesAskAsNew(t *testing.T) {
	t.Parallel()
	n, v, budget, depth := 8, 3.0, int64(3000), 4
	if !testlong.Enabled(t) {
		n, v, budget, depth = 7, 0, 1024, 8
	}
	g := superkoGame(t, n)
	opt := Options{MemoryMB: 16}
	b, err := AtLeastSplit(context.Background(), g, v, opt, SplitOptions{Budget: budget, MaxDepth: depth, FreshTables: true})
	if err != nil {
		t.Fatal(err)
	}
	searched := 0
	for _, p := range b.Parts {
		if p.Known || p.Open {
			continue
		}
		h := g.Clone()
		for _, m := range p.Moves {
			if err := h.Play(m); err != nil {
				t.Fatalf("part %v: %v", p.Moves, err)
			}
		}
		o := opt
		if len(p.Moves) < depth {
			o.MaxNodes = budget
		}
		nb, err := AtLeast(context.Background(), h, v, o)
		switch {
		case errors.Is(err, ErrNodeLimit):
			if p.Answered {
				t.Errorf("part %v: answered in the split (%d positions), cut off alone", p.Moves, p.Nodes)
			}
		case err != nil:
			t.Fatalf("part %v: %v", p.Moves, err)
		case !p.Answered || nb.Holds != p.Holds || nb.Bound != p.Bound:
			t.Errorf("part %v: answered %v, holds %v, bound %v in the split; alone holds %v, bound %v", p.Moves, p.Answered, p.Holds, p.Bound, nb.Holds, nb.Bound)
		}
		if nb.Nodes != p.Nodes {
			t.Errorf("part %v: %d positions in the split, %d alone", p.Moves, p.Nodes, nb.Nodes)
		}
		searched++
	}
	t.Logf("%d parts searched", searched)
	if searched < 3 {
		t.Fatalf("only %d parts searched; the test needs a budget that splits", searched)
	}
}
