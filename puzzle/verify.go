package puzzle

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"alak/rules"
	"alak/solve"
)

// The second methods Verify uses, as Verification.Methods names them.
const (
	// VerifySearch: the search (solve.Solve) with an empty table, for a
	// puzzle made from the dense table or by the dense solver.
	VerifySearch = "search"
	// VerifyDense: the dense solver and its table, made in memory, for a
	// puzzle made by the search, where the dense solver takes the rules
	// and the position's history.
	VerifyDense = "dense"
	// VerifyProof: the proof-number search (solve.Prove), which proves
	// outcomes (win, draw, loss), not margins: for a puzzle made by the
	// search where the dense solver does not answer (traditional,
	// tromp-taylor, grids, a history that used a position up).
	VerifyProof = "proof"
)

// VerifyOptions are the options the puzzle was found with and the bounds
// of the second method's solves.
type VerifyOptions struct {
	Options
	MemoryMB int   // each solve's memory (0: 256)
	MaxNodes int64 // each search's positions (0: no limit)
}

// Verification says how a puzzle was checked: the second method that
// answered each position, the line's and, for EndSettled and EndOpen,
// the two after it.
type Verification struct {
	Methods []string `json:"methods"`
}

// Verify checks every claim of p again with a second solver method, other
// than the one that made it (p.Method): the dense table and the dense
// solver against the search with an empty table, the search against the
// dense solver, or, where no dense solver applies, against the
// proof-number search, which checks the outcomes (the puzzle's claims)
// and not the margins. It first checks what UnmarshalJSON checks (the
// game, the line's consistency, the themes and the rating), then with
// the second method: at every position of the line, the legal moves
// and their values (outcomes only, for the proof search); at the player's
// positions, that the accepted moves are exactly those that keep the
// outcome, the line's move the best of them, and that only the last has
// several; at the opponent's, that the reply and the best replies are the
// least margin for the player (or keep the player's outcome, for the
// proof search); and the reason the line stops. Any contradiction is an
// error wrapping ErrRejected (or ErrInvalid for a puzzle that does not
// hold together); a cut-off solve is returned as it is.
func Verify(ctx context.Context, p *Puzzle, opt VerifyOptions) (Verification, error) {
	var ver Verification
	opt.Options = opt.Options.withDefaults()
	if err := p.validate(); err != nil {
		return ver, err
	}
	g, err := p.Game()
	if err != nil {
		return ver, err
	}
	r := g.Rules()
	me := g.Position().ToMove()
	v := newVerifier(r, solve.Method(p.Method), opt)
	line := g.Clone()
	own := 0 // the player's moves in the line
	for i, s := range p.Line {
		n, err := v.node(ctx, line)
		if err != nil {
			return ver, fmt.Errorf("step %d: %w", i+1, err)
		}
		ver.Methods = append(ver.Methods, n.method)
		if err := n.check(s, me, p.Goal, i%2 == 0, i == len(p.Line)-1, opt.MaxAccepted); err != nil {
			return ver, fmt.Errorf("step %d (%s): %w", i+1, s.Move, err)
		}
		m, err := r.ParseMoveText(s.Move)
		if err != nil {
			return ver, fmt.Errorf("%w: step %d: %w", ErrInvalid, i+1, err)
		}
		if err := line.Play(m); err != nil {
			return ver, fmt.Errorf("%w: step %d: %w", ErrInvalid, i+1, err)
		}
		if i%2 == 0 {
			own++
		}
	}
	last := p.Line[len(p.Line)-1]
	end := ""
	switch {
	case line.Over():
		end = EndOver
	case len(last.Accepted) > 1:
		end = EndSeveral
	case own >= opt.MaxMoves:
		end = EndLength
	}
	if end != "" {
		if p.End != end || p.EndReply != "" {
			return ver, fmt.Errorf("%w: the line ends %q (reply %q); it ends %q", ErrRejected, p.End, p.EndReply, end)
		}
	} else if err := v.checkEnd(ctx, p, line, me, &ver); err != nil {
		return ver, err
	}
	return ver, nil
}

// checkEnd checks EndSettled and EndOpen: the end reply is a best reply
// after the line, and after it the player has nothing to find (settled)
// or more accepted moves than a puzzle has (open).
func (v *verifier) checkEnd(ctx context.Context, p *Puzzle, line *rules.Game, me rules.Color, ver *Verification) error {
	r := line.Rules()
	if p.End != EndSettled && p.End != EndOpen {
		return fmt.Errorf("%w: the line ends %q where the game goes on with no reason to stop", ErrRejected, p.End)
	}
	reply, err := r.ParseMoveText(p.EndReply)
	if err != nil {
		return fmt.Errorf("%w: end reply: %w", ErrInvalid, err)
	}
	opp, err := v.node(ctx, line)
	if err != nil {
		return fmt.Errorf("after the line: %w", err)
	}
	ver.Methods = append(ver.Methods, opp.method)
	i := slices.Index(opp.legal, reply)
	if i < 0 {
		return fmt.Errorf("%w: the end reply %s is not legal", ErrInvalid, p.EndReply)
	}
	if !slices.Contains(opp.best(me), reply) {
		return fmt.Errorf("%w: the end reply %s is not one of the opponent's best", ErrRejected, p.EndReply)
	}
	after := line.Clone()
	if err := after.Play(reply); err != nil {
		return fmt.Errorf("%w: end reply: %w", ErrInvalid, err)
	}
	n, err := v.node(ctx, after)
	if err != nil {
		return fmt.Errorf("after the end reply: %w", err)
	}
	ver.Methods = append(ver.Methods, n.method)
	kept := len(n.keeping(me, goalClass(p.Goal)))
	switch {
	case p.End == EndSettled && !after.Over() && kept != len(n.legal):
		return fmt.Errorf("%w: settled after %s, but %d of %d moves lose the outcome there", ErrRejected, p.EndReply, len(n.legal)-kept, len(n.legal))
	case p.End == EndOpen && (after.Over() || kept == len(n.legal) || kept <= v.opt.MaxAccepted):
		return fmt.Errorf("%w: open after %s, but %d of %d moves keep the outcome there", ErrRejected, p.EndReply, kept, len(n.legal))
	}
	return nil
}

// verifier answers positions by the second method.
type verifier struct {
	r      rules.Rules
	opt    VerifyOptions
	search *solve.Tables // the search with an empty table
	dense  *solve.Tables // the dense solver, its table kept in memory
	kind   string        // VerifySearch or VerifyDense (falling back to VerifyProof), or VerifyProof
}

func newVerifier(r rules.Rules, maker solve.Method, opt VerifyOptions) *verifier {
	v := &verifier{r: r, opt: opt}
	switch {
	case maker == solve.MethodTable || maker == solve.MethodDense:
		v.kind = VerifySearch
		v.search = &solve.Tables{MemoryMB: opt.MemoryMB}
	case solve.DenseApplies(r):
		v.kind = VerifyDense
		v.dense = &solve.Tables{MemoryMB: opt.MemoryMB, Build: r.Width}
	default:
		v.kind = VerifyProof
	}
	return v
}

// vnode is a position as the second method answers it: Black's margin of
// every legal move (margins), or only its sign (a proof).
type vnode struct {
	method string
	legal  []rules.Move
	names  []string
	values []float64 // Black's margin, or its sign (-1, 0, 1) without margins
	value  float64
	margin bool
}

// node answers g's position by the second method.
func (v *verifier) node(ctx context.Context, g *rules.Game) (*vnode, error) {
	n := &vnode{method: v.kind, margin: v.kind != VerifyProof}
	r := g.Rules()
	if o := g.Outcome(); o.Over() {
		n.value = o.Margin
		return n, nil
	}
	n.legal = g.LegalMoves(nil)
	for _, m := range n.legal {
		n.names = append(n.names, r.MoveText(m))
	}
	var res solve.Result
	var err error
	switch v.kind {
	case VerifySearch:
		res, err = v.search.Solve(ctx, g, solve.Options{Method: solve.MethodSearch, MaxNodes: v.opt.MaxNodes})
	case VerifyDense:
		res, err = v.dense.Solve(ctx, g, solve.Options{})
		if err == nil && res.Method == solve.MethodSearch {
			// The history used a position up (or the position is a set-up
			// the dense index does not number): Tables answered by the
			// search, the method that made the puzzle. Prove instead.
			return v.prove(ctx, g, n)
		}
	default:
		return v.prove(ctx, g, n)
	}
	if err != nil {
		return nil, err
	}
	if !res.Complete {
		return nil, fmt.Errorf("the second method's solve of %s was cut off", g.Position())
	}
	n.value = res.Value
	for _, m := range n.legal {
		x, ok := res.Moves[m]
		if !ok {
			return nil, fmt.Errorf("the second method has no value for %s", r.MoveText(m))
		}
		n.values = append(n.values, x)
	}
	return n, nil
}

// prove answers n (g's position) by the proof-number search: the outcome
// of every legal move.
func (v *verifier) prove(ctx context.Context, g *rules.Game, n *vnode) (*vnode, error) {
	n.method, n.margin = VerifyProof, false
	me := g.Position().ToMove()
	best := -2
	for _, m := range n.legal {
		after := g.Clone()
		if err := after.Play(m); err != nil {
			return nil, err
		}
		s, err := proveSign(ctx, after)
		if err != nil {
			return nil, fmt.Errorf("after %s: %w", g.Rules().MoveText(m), err)
		}
		n.values = append(n.values, float64(s))
		best = max(best, class(float64(s), me))
	}
	n.value = float64(best)
	if me == rules.White {
		n.value = -n.value + 0
	}
	return n, nil
}

// proveSign returns the sign of Black's margin under perfect play in g's
// position, by the proof-number search: whether the player to move forces
// a win, else a draw.
func proveSign(ctx context.Context, g *rules.Game) (int, error) {
	if o := g.Outcome(); o.Over() {
		return solve.Sign(o.Margin), nil
	}
	q := g.Position().ToMove()
	sign := func(c int) int {
		if q == rules.White {
			return -c
		}
		return c
	}
	for _, draw := range []bool{false, true} {
		pr, err := solve.Prove(ctx, g, q, solve.ProveOptions{ProofNumbers: true, Draw: draw, Table: true})
		if err != nil {
			return 0, err
		}
		switch {
		case pr.Proved && !draw:
			return sign(1), nil
		case pr.Proved:
			return 0, nil
		case !pr.Disproved:
			return 0, errors.New("the proof search settled nothing")
		}
	}
	return sign(-1), nil
}

// keeping returns the legal moves after which the player me's outcome is
// want.
func (n *vnode) keeping(me rules.Color, want int) []rules.Move {
	var out []rules.Move
	for i, m := range n.legal {
		if class(n.values[i], me) == want {
			out = append(out, m)
		}
	}
	return out
}

// best returns the opponent's best replies against me: the least margin
// for me; without margins, every reply that keeps me's outcome (none
// does better for the opponent).
func (n *vnode) best(me rules.Color) []rules.Move {
	if !n.margin {
		return n.keeping(me, class(n.value, me))
	}
	var out []rules.Move
	worst := 0.0
	for i, x := range n.values {
		if x = mine(x, me); i == 0 || x < worst {
			worst, out = x, out[:0]
		}
		if x == worst {
			out = append(out, n.legal[i])
		}
	}
	return out
}

// check checks step s at the position n: the player me's step (player)
// or the opponent's, the line's last step or not.
func (n *vnode) check(s Step, me rules.Color, goal string, player, last bool, maxAccepted int) error {
	if len(n.legal) == 0 {
		return fmt.Errorf("%w: the game is over before the step", ErrRejected)
	}
	mover := me
	if !player {
		mover = me.Opp()
	}
	if s.Player != mover.Letter() {
		return fmt.Errorf("%w: played by %q; %s is to move", ErrInvalid, s.Player, mover.Letter())
	}
	if len(s.Values) != len(n.legal) {
		return fmt.Errorf("%w: values of %d moves; %d are legal", ErrRejected, len(s.Values), len(n.legal))
	}
	var after float64
	found := false
	for i, mv := range s.Values {
		if mv.Move != n.names[i] {
			return fmt.Errorf("%w: value %d is of %q; the kernel's legal move %d is %s", ErrRejected, i+1, mv.Move, i+1, n.names[i])
		}
		if !n.agrees(mv.Value, n.values[i]) {
			return fmt.Errorf("%w: %s is worth %v; the second method (%s) finds %v", ErrRejected, mv.Move, mv.Value, n.method, n.values[i])
		}
		if mv.Move == s.Move {
			after, found = mv.Value, true
		}
	}
	if !n.agrees(s.Before, n.value) {
		return fmt.Errorf("%w: the position is worth %v; the second method (%s) finds %v", ErrRejected, s.Before, n.method, n.value)
	}
	if !found || after != s.After {
		return fmt.Errorf("%w: the step's move is not among the legal moves with value %v", ErrInvalid, s.After)
	}
	want := goalClass(goal)
	if player {
		if class(n.value, me) != want {
			return fmt.Errorf("%w: the player's outcome here is %d, not the goal's %d", ErrRejected, class(n.value, me), want)
		}
		kept := n.keeping(me, want)
		names := moveNames(n, kept)
		if !slices.Equal(names, s.Accepted) || s.Best != nil {
			return fmt.Errorf("%w: accepted %v; the moves that keep the outcome are %v", ErrRejected, s.Accepted, names)
		}
		switch {
		case len(kept) == len(n.legal):
			return fmt.Errorf("%w: every move keeps the outcome: nothing to find", ErrRejected)
		case len(kept) > maxAccepted:
			return fmt.Errorf("%w: %d moves keep the outcome, more than %d", ErrRejected, len(kept), maxAccepted)
		case len(kept) > 1 && !last:
			return fmt.Errorf("%w: the line goes on after a step with %d accepted moves", ErrRejected, len(kept))
		}
		if n.margin {
			for _, k := range kept {
				if mine(n.values[slices.Index(n.legal, k)], me) > mine(s.After, me) {
					return fmt.Errorf("%w: %s keeps more than the line's %s", ErrRejected, n.names[slices.Index(n.legal, k)], s.Move)
				}
			}
		}
		return nil
	}
	best := moveNames(n, n.best(me))
	if n.margin && !slices.Equal(best, s.Best) || !n.margin && !subset(s.Best, best) || !slices.Contains(s.Best, s.Move) || s.Accepted != nil {
		return fmt.Errorf("%w: best replies %v (played %s); the second method (%s) finds %v", ErrRejected, s.Best, s.Move, n.method, best)
	}
	return nil
}

// agrees reports whether a margin of the puzzle matches the second
// method's answer x: equal margins, or the same sign from a proof.
func (n *vnode) agrees(margin, x float64) bool {
	if n.margin {
		return margin == x
	}
	return solve.Sign(margin) == int(x)
}

func moveNames(n *vnode, ms []rules.Move) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, n.names[slices.Index(n.legal, m)])
	}
	return out
}

func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func sameDifficulty(a, b Difficulty) bool {
	return a.Moves == b.Moves && slices.Equal(a.Legal, b.Legal) && slices.Equal(a.Kept, b.Kept) &&
		slices.Equal(a.GreedyKept, b.GreedyKept) && a.Chance == b.Chance
}
