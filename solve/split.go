package solve

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"alak/rules"
)

// A bound question that one search cannot answer in reasonable time can
// often be answered by splitting it: the position's value is the best of
// its moves' values for the player to move, so "is Black's margin at least
// v?" holds at a Black node when it holds after one of Black's moves and
// fails when it fails after every one (the other way round at a White
// node). AtLeastSplit asks the question with a node budget, and when the
// budget runs out asks it again after each move, each move's question a
// separate search with its own budget, splitting further the ones that run
// out too. Each sub-question is answered on its own line (the game's
// positions, then the moves), so superko sees the history it would see in
// one search, and each answer is exact (AtLeast); the split only combines
// them by the rule above. On positional linear Go 1×12 this answered in
// minutes what one search had not answered in an hour (docs/results-tromp-taylor.md).

// SplitOptions tune AtLeastSplit.
type SplitOptions struct {
	// Budget is the positions one sub-question may search before it is
	// split; 0 means 50 million.
	Budget int64
	// MaxDepth is the deepest split, in plies below the position; a
	// sub-question that deep runs without a budget. 0 means 24.
	MaxDepth int
	// Jobs is how many sub-questions run at once (each with its own table
	// of Options.MemoryMB); 0 means 1.
	Jobs int
	// Report, if set, is called as each sub-question ends (answered or
	// cut off at its budget, or taken from Known), from one goroutine at a
	// time.
	Report func(Part)
	// Known, if set, tells what earlier searches found after moves (from
	// the position): a line whose known bounds settle the question is not
	// searched, and one known to have run out of a budget is split at once.
	// This is how an interrupted split resumes; the answer is then only as
	// good as what Known says (each line can be asked again on its own).
	Known func(moves []rules.Move) (Known, bool)
	// FreshTables: every sub-question searches with an empty table, as
	// AtLeastSplit did before tables were kept from one part to the next
	// (positional linear Go; other rules always start empty). For
	// measuring what keeping them saves.
	FreshTables bool
	// Plan: search nothing. Lines that Known does not settle are reported
	// as open parts (a line known to have been cut off is followed to the
	// known lines below it at any depth: MaxDepth does not apply), and the
	// answer says whether the known parts settle the question
	// (SplitBound.Open). This lists what is left to ask.
	Plan bool
}

// Known is what earlier searches proved of the value after a line of play.
type Known struct {
	// Lower and Upper bound Black's margin; math.Inf(-1) and math.Inf(1)
	// when nothing is known.
	Lower, Upper float64
	// CutOff: a search of the line once ran out of its budget.
	CutOff bool
}

// Part is one sub-question of a split bound search: the bound question
// asked after Moves from the position.
type Part struct {
	Moves    []rules.Move
	Answered bool    // false: the budget ran out and the part was split
	Holds    bool    // with Answered: Black's margin is at least the threshold
	Bound    float64 // with Answered: as in Bound.Bound
	Nodes    int64
	Elapsed  time.Duration
	Known    bool // taken from SplitOptions.Known, not searched
	Open     bool // with SplitOptions.Plan: not known, still to be asked
}

// SplitBound is the answer of AtLeastSplit: the bound, and every
// sub-question asked in the order they were asked (the answered ones are
// the leaves of the proof).
type SplitBound struct {
	Bound
	Parts []Part
	// Proof is the answered parts the answer rests on, the leaves of its
	// proof tree: at a node that one move settles, that move's proof; at
	// one that needs every move, all of theirs. Asking each again and
	// combining the answers by the minimax rule gives the answer again.
	Proof []Part
	// Open, with SplitOptions.Plan: the known parts do not settle the
	// question (Holds and Bound mean nothing); the parts with Open set are
	// the lines still to ask.
	Open bool
}

// errOpen is how a node says, in a plan, that the known parts leave it
// undecided.
var errOpen = errors.New("open")

// AtLeastSplit answers whether the value of g's position is at least v, as
// AtLeast does, splitting the question over the moves when a search runs
// out of its budget (see above). The game is left as it was. An error
// (cancelled, memory) means the whole question was not answered; the parts
// answered so far are returned with it.
func AtLeastSplit(ctx context.Context, g *rules.Game, v float64, opt Options, so SplitOptions) (SplitBound, error) {
	if so.Budget <= 0 {
		so.Budget = 50_000_000
	}
	if so.MaxDepth <= 0 {
		so.MaxDepth = 24
	}
	if so.Jobs <= 0 {
		so.Jobs = 1
	}
	sp := &splitter{ctx: ctx, v: v, opt: opt, so: so, start: time.Now()}
	out := SplitBound{Bound: Bound{AtLeast: v}}
	holds, bound, proof, err := sp.node(g.Clone(), nil, nil)
	out.Parts = sp.parts
	if so.Plan {
		out.Parts = sp.needed()
	}
	for _, p := range sp.parts {
		out.Nodes += p.Nodes
	}
	out.Elapsed = time.Since(sp.start)
	if errors.Is(err, errOpen) {
		out.Open = true
		return out, nil
	}
	if err != nil {
		return out, err
	}
	out.Holds, out.Bound.Bound, out.Proof = holds, bound, proof
	return out, nil
}

type splitter struct {
	ctx   context.Context
	v     float64
	opt   Options
	so    SplitOptions
	start time.Time
	mu    sync.Mutex
	parts []Part
	// settled holds, in a plan, the lines whose node the known parts
	// settle (keyed by fmt.Sprint of the moves): a line below one of them
	// is not left to ask, even if the plan met it before the move that
	// settled the node.
	settled map[string]bool
	// idle holds the positional linear Go solvers not searching now, one
	// made for each job at most: a part searches with the table an earlier
	// part left (see superkoSolver.reset for why that is sound), so a line split
	// after its search was cut off starts from what that search proved.
	idle []*superkoSolver
}

// solver returns an idle solver, or nil when none is (the search makes one).
func (sp *splitter) solver() *superkoSolver {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if len(sp.idle) == 0 {
		return nil
	}
	s := sp.idle[len(sp.idle)-1]
	sp.idle = sp.idle[:len(sp.idle)-1]
	return s
}

// release makes s idle again for the next part (nil: nothing to keep).
func (sp *splitter) release(s *superkoSolver) {
	if s == nil {
		return
	}
	sp.mu.Lock()
	sp.idle = append(sp.idle, s)
	sp.mu.Unlock()
}

// ask runs one budgeted sub-question (no budget at the deepest level) and
// records it; the part is not Answered when the budget ran out. moves is
// kept, not copied: callers pass a slice of their own (extend).
func (sp *splitter) ask(g *rules.Game, moves []rules.Move) (p Part, err error) {
	if p, ok := sp.known(moves); ok {
		sp.record(p)
		return p, nil
	}
	if sp.so.Plan {
		p := Part{Moves: moves, Open: true}
		sp.record(p)
		return p, nil
	}
	opt := sp.opt
	opt.Progress = nil
	opt.Table = nil
	if len(moves) < sp.so.MaxDepth {
		opt.MaxNodes = sp.so.Budget
	}
	pg := sp.solver()
	if sp.so.FreshTables && pg != nil {
		pg.forget()
	}
	b, err := atLeast(sp.ctx, g, sp.v, opt, &pg)
	sp.release(pg)
	p = Part{Moves: moves, Nodes: b.Nodes, Elapsed: b.Elapsed}
	switch {
	case err == nil:
		p.Answered, p.Holds, p.Bound = true, b.Holds, b.Bound
	case errors.Is(err, ErrNodeLimit):
		err = nil
	default:
		return p, err
	}
	sp.record(p)
	return p, nil
}

// known returns the part SplitOptions.Known gives for moves: answered when
// a known bound settles the question, not answered (so split at once) when
// the line is known to be past a budget, and false otherwise.
func (sp *splitter) known(moves []rules.Move) (Part, bool) {
	if sp.so.Known == nil {
		return Part{}, false
	}
	k, ok := sp.so.Known(moves)
	if !ok {
		return Part{}, false
	}
	p := Part{Moves: moves, Known: true}
	switch {
	case k.Lower >= sp.v:
		p.Answered, p.Holds, p.Bound = true, true, k.Lower
	case k.Upper < sp.v:
		p.Answered, p.Holds, p.Bound = true, false, k.Upper
	case !k.CutOff:
		return Part{}, false // nothing settled
	case len(moves) >= sp.so.MaxDepth && !sp.so.Plan:
		// A line this deep is searched in full anyway; a plan, which
		// searches nothing, follows the known parts below it at any depth.
		return Part{}, false
	}
	return p, true
}

// needed returns a plan's parts without the open lines below a settled
// node: those were met while the node's moves were asked, before one of
// them settled it, and nothing needs to ask them.
func (sp *splitter) needed() []Part {
	out := make([]Part, 0, len(sp.parts))
	for _, p := range sp.parts {
		below := false
		for k := 0; p.Open && k < len(p.Moves) && !below; k++ {
			below = sp.settled[fmt.Sprint(p.Moves[:k])]
		}
		if !below {
			out = append(out, p)
		}
	}
	return out
}

func (sp *splitter) record(p Part) {
	sp.mu.Lock()
	sp.parts = append(sp.parts, p)
	if sp.so.Report != nil {
		sp.so.Report(p)
	}
	sp.mu.Unlock()
}

// node answers the question at g's position, reached by moves, with the
// answered parts the answer rests on. tried, if not nil, is the part
// already asked there.
func (sp *splitter) node(g *rules.Game, moves []rules.Move, tried *Part) (holds bool, bound float64, parts []Part, err error) {
	if sp.so.Plan {
		defer func() {
			if err == nil {
				sp.mu.Lock()
				if sp.settled == nil {
					sp.settled = map[string]bool{}
				}
				sp.settled[fmt.Sprint(moves)] = true
				sp.mu.Unlock()
			}
		}()
	}
	if tried == nil {
		p, err := sp.ask(g, moves)
		if err != nil {
			return false, 0, nil, err
		}
		tried = &p
	}
	if tried.Answered {
		return tried.Holds, tried.Bound, []Part{*tried}, nil
	}
	if tried.Open {
		return false, 0, nil, errOpen
	}
	black := g.Position().ToMove() == rules.Black
	kids := splitMoves(g)
	if len(kids) == 0 { // a game not over has a move; say so rather than guess a bound
		return false, 0, nil, fmt.Errorf("no legal move after %v, and the game is not over", moves)
	}
	// First every move's question with the budget, so that an easy answer
	// that settles the node is found before any hard one is split; then
	// the hard ones, split in turn, in the same order.
	first := make([]Part, len(kids))
	errs := make([]error, len(kids))
	var wg sync.WaitGroup
	sem := make(chan struct{}, sp.so.Jobs)
	for i, m := range kids {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int, m rules.Move) {
			defer func() { <-sem; wg.Done() }()
			c := g.Clone()
			if err := c.Play(m); err != nil {
				errs[i] = err
				return
			}
			first[i], errs[i] = sp.ask(c, extend(moves, m))
		}(i, m)
		if sp.so.Jobs == 1 {
			wg.Wait() // one at a time: stop at the first answer that settles the node
			if errs[i] != nil {
				return false, 0, nil, errs[i]
			}
			if first[i].Answered && first[i].Holds == black {
				return first[i].Holds, first[i].Bound, []Part{first[i]}, nil
			}
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return false, 0, nil, err
		}
	}
	// The node holds (Black to move) or fails (White to move) by one move;
	// otherwise it needs every move, and its bound is the best of theirs
	// for the player to move.
	best, have := 0.0, false
	var proof []Part // every move's proof, when the node needs every move
	settle := func(holds bool, bound float64) bool {
		if holds == black {
			return true
		}
		if !have || (black && bound > best) || (!black && bound < best) {
			best, have = bound, true
		}
		return false
	}
	for i := range kids {
		if first[i].Answered {
			if settle(first[i].Holds, first[i].Bound) {
				return first[i].Holds, first[i].Bound, []Part{first[i]}, nil
			}
			proof = append(proof, first[i])
		}
	}
	open := false // in a plan, a move the known parts leave undecided
	for i, m := range kids {
		if first[i].Answered {
			continue
		}
		if first[i].Open {
			open = true
			continue
		}
		if err := g.Play(m); err != nil {
			return false, 0, nil, err
		}
		holds, bound, sub, err := sp.node(g, extend(moves, m), &first[i])
		if uerr := g.Undo(); uerr != nil && err == nil {
			err = uerr
		}
		if errors.Is(err, errOpen) {
			open = true
			continue
		}
		if err != nil {
			return false, 0, nil, err
		}
		if settle(holds, bound) {
			return holds, bound, sub, nil
		}
		proof = append(proof, sub...)
	}
	if open {
		return false, 0, nil, errOpen
	}
	return !black, best, proof, nil
}

// extend returns a new slice: moves, then m.
func extend(moves []rules.Move, m rules.Move) []rules.Move {
	return append(append(make([]rules.Move, 0, len(moves)+1), moves...), m)
}

// splitMoves returns the legal moves of g's position, one of each mirror
// pair when the whole line is its own mirror image (the empty board, say),
// since then a move and its mirror image lead to mirrored games of the
// same value.
func splitMoves(g *rules.Game) []rules.Move {
	moves := g.LegalMoves(nil)
	r := g.Rules()
	if r.Height != 1 {
		return moves
	}
	for i := 0; i <= g.Len(); i++ {
		p := g.PositionAt(i)
		b, w, f, ok := p.Line()
		mb, mw, mf, _ := p.Mirror().Line()
		if !ok || b != mb || w != mw || f != mf {
			return moves
		}
	}
	n := r.Width
	out := moves[:0:0]
	for _, m := range moves {
		if m.IsPlace() && n-1-m.Point() < m.Point() {
			continue // its mirror image, a smaller point, is asked instead
		}
		out = append(out, m)
	}
	return out
}
