package solve

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"alak/rules"
)

// Certificates for positional linear Go (ProveOptions.Superko;
// docs/solver-superko.md, "Certificates for positional linear Go"). The claim is one
// of method 4's bounds: w wins (or draws) with the komi of the rules, so
// that "Black's margin is at least 2" is "x wins with komi 1.5". The
// solver of superko.go proves it, and the writer follows its proof down
// to the games ended by two passes: at each node of w's one move whose
// child the solver proves (decide), at each node of the other player's
// every legal move. Under superko the legal moves depend on the boards
// of the history, so a state met again on another line is another node;
// written as a tree, the proof would be written once per line. Instead
// each node is written as a shared subtree of format 4 (package
// proofcheck, superko.go there): it holds at a later node of the same
// state whose line holds every board D whose presence on the line above
// it made a placement of the other player's illegal in it, and no board
// P that one of w's placements in it makes. The writer keeps those sets
// as the checker will find them and refers to a subtree wherever they
// hold; the subtrees no reference names are put back in line at the end.

// skState is a state of positional linear Go: the stones, the player to
// move and the passes (the prisoners count for nothing under area
// scoring, rules.Position.SameState).
type skState struct {
	b, w uint64
	meta uint8
}

func skStateOf(pos rules.Position) skState {
	b, w, _, _ := pos.Line()
	return skState{b, w, uint8(pos.ToMove()) | uint8(min(pos.Passes(), 63))<<1}
}

// skMaxConds is the most boards a subtree's conditions may name for it to
// be kept for references: a subtree whose P and D together name more is
// written in line (its conditions still count for the subtrees that
// enclose it, which are then too large as well). It bounds the memory the
// writer keeps a subtree (8 bytes a board). It is high because a subtree
// over it cannot be referred to, nor can any subtree around it: wherever
// such a subtree is met again on another line it is written again whole.
// At 2,048 boards, proofs whose lines run through long ko fights (Black's
// 1×12 bound after the opening 1) were written once a line and did not
// end (docs/solver-superko.md).
const skMaxConds = 1 << 16

// skFrameW gathers the conditions of a subtree being written; big says
// they passed max, the writer's bound (the sets are then dropped).
type skFrameW struct {
	root int32
	p, d map[uint64]struct{}
	big  bool
	max  int
}

func (f *skFrameW) add(set map[uint64]struct{}, b uint64) {
	if f.big {
		return
	}
	set[b] = struct{}{}
	if len(f.p)+len(f.d) > f.max {
		f.big, f.p, f.d = true, nil, nil
	}
}

// skDef is a subtree written: where its tag is, its state, its
// conditions (sorted boards) unless too large, its longest line.
type skDef struct {
	off    int
	state  skState
	p, d   []uint64
	usable bool
	open   bool
	h      int32
}

// skWriter writes the certificate (record).
type skWriter struct {
	s      *superkoSolver
	g      *rules.Game
	w      rules.Color
	beta   int // w's threshold: w's value (area margin from w's side, komi aside) must be at least beta
	draw   bool
	budget int64 // the most positions a question to the solver searches (0: no limit)
	out    []byte
	max    int
	err    error
	olds   []int32 // what each push on the solver's line returned
	// latest holds for every board on the line one more than the index
	// of its latest position, lolds what play replaced: the checker's
	// own account of the line.
	latest  map[uint64]int32
	lolds   []int32
	frames  []*skFrameW
	defs    []skDef
	byState map[skState][]int32
	refs    []refAt
	// nodes counts the positions written, cut the questions the budget
	// cut off, dropped the positions written and taken back after a
	// question cut off turned out not to hold.
	nodes, cut, dropped int64
	ignoreConds         bool // ProveOptions.ignoreConds
	maxConds            int  // skMaxConds, or ProveOptions.maxConds
}

// skThreshold returns w's threshold for its goal under the rules' komi:
// w's area margin (komi aside) v meets a win when v - k > 0 and a draw
// or better when v - k >= 0, k the komi from w's side.
func skThreshold(r rules.Rules, w rules.Color, draw bool) int {
	k := r.Komi
	if w == rules.White {
		k = -k
	}
	if draw {
		return int(math.Ceil(k))
	}
	return int(math.Floor(k)) + 1
}

func (wr *skWriter) meets(o rules.Outcome) bool {
	return o.Winner == wr.w || wr.draw && o.Winner == rules.None
}

// Answers of ask.
const (
	askNo = iota
	askYes
	askUnknown
)

// ask says whether w's goal holds at the node at the end of the line,
// askUnknown when the budget cut the question off.
func (wr *skWriter) ask() int {
	if o := wr.g.Outcome(); o.Over() {
		if wr.meets(o) {
			return askYes
		}
		return askNo
	}
	pos := wr.g.Position()
	s := wr.s
	d := int32(len(s.path) - 1)
	white := pos.ToMove() == rules.White
	s.maxNodes = 0
	if wr.budget > 0 {
		s.maxNodes = s.nodes + wr.budget
	}
	var yes bool
	if pos.ToMove() == wr.w {
		a, _ := s.decide(d, white, pos.Passes() > 0, wr.beta)
		yes = a == skTrue
	} else {
		a, _ := s.decide(d, white, pos.Passes() > 0, 1-wr.beta)
		yes = a == skFalse
	}
	s.maxNodes = 0
	if errors.Is(s.abort, ErrNodeLimit) {
		s.abort = nil
		wr.cut++
		return askUnknown
	}
	if s.abort != nil {
		if wr.err == nil {
			wr.err = s.abort
		}
		return askNo
	}
	if yes {
		return askYes
	}
	return askNo
}

func (wr *skWriter) play(m rules.Move) bool {
	if err := wr.g.Play(m); err != nil {
		wr.err = fmt.Errorf("the kernel refused its own legal move %v: %w", m, err)
		return false
	}
	pos := wr.g.Position()
	b, w, _, _ := pos.Line()
	wr.olds = append(wr.olds, wr.s.push(skPack(b, w)))
	h := pos.BoardHash()
	wr.lolds = append(wr.lolds, wr.latest[h])
	wr.latest[h] = int32(wr.g.Len()) + 1
	return true
}

func (wr *skWriter) undo() {
	h := wr.g.Position().BoardHash()
	if old := wr.lolds[len(wr.lolds)-1]; old == 0 {
		delete(wr.latest, h)
	} else {
		wr.latest[h] = old
	}
	wr.lolds = wr.lolds[:len(wr.lolds)-1]
	wr.s.pop(wr.olds[len(wr.olds)-1])
	wr.olds = wr.olds[:len(wr.olds)-1]
	_ = wr.g.Undo()
}

// holds reports whether subtree i holds at the current node (of its
// state): every board of its D on the line, none of its P.
func (wr *skWriter) holds(i int32) bool {
	d := &wr.defs[i]
	if d.open || !d.usable {
		return false
	}
	if wr.ignoreConds {
		return true
	}
	for _, b := range d.d {
		if wr.latest[b] == 0 {
			return false
		}
	}
	for _, b := range d.p {
		if wr.latest[b] != 0 {
			return false
		}
	}
	return true
}

// holding returns a subtree of state st that holds at the current node,
// or -1; the latest written are tried first, at most four.
func (wr *skWriter) holding(st skState) int32 {
	ids := wr.byState[st]
	for k := len(ids) - 1; k >= 0 && k >= len(ids)-4; k-- {
		if wr.holds(ids[k]) {
			return ids[k]
		}
	}
	return -1
}

// merge adds the conditions of a subtree used at the current node to the
// innermost frame: P whole, D where the board is not on the frame's own
// path (at or after its root), as the checker does.
func (wr *skWriter) merge(p, d []uint64, big bool) {
	if len(wr.frames) == 0 {
		return
	}
	f := wr.frames[len(wr.frames)-1]
	if big {
		f.big, f.p, f.d = true, nil, nil
		return
	}
	for _, b := range p {
		f.add(f.p, b)
	}
	for _, b := range d {
		if wr.latest[b]-1 < f.root {
			f.add(f.d, b)
		}
	}
}

// node writes the node at the end of the line and its subtree: a
// reference to a subtree of its state that holds here, or a subtree of
// its own. It returns the longest line written below it, and false when
// w's goal turned out not to hold there (a question cut off by the budget
// was followed; the caller takes the bytes back).
func (wr *skWriter) node() (int32, bool) {
	if wr.err != nil {
		return 0, false
	}
	wr.nodes++
	if wr.nodes&(1<<12-1) == 0 {
		wr.s.poll() // the context, and the progress while nothing is searched
		if wr.s.abort != nil && wr.err == nil {
			wr.err = wr.s.abort
		}
	}
	if len(wr.out) > wr.max {
		wr.err = fmt.Errorf("the certificate passed %d MB; give a larger limit (--certificate-mb)", wr.max>>20)
		return 0, false
	}
	if o := wr.g.Outcome(); o.Over() {
		if !wr.meets(o) {
			return 0, false
		}
		wr.out = append(wr.out, 'E')
		wr.out = binary.AppendVarint(wr.out, int64(2*o.Margin))
		return 0, true
	}
	pos := wr.g.Position()
	st := skStateOf(pos)
	if i := wr.holding(st); i >= 0 {
		wr.refs = append(wr.refs, refAt{off: len(wr.out), id: uint32(i)})
		wr.out = append(wr.out, 'R')
		wr.out = binary.AppendUvarint(wr.out, uint64(i))
		d := &wr.defs[i]
		wr.merge(d.p, d.d, false)
		return d.h, true
	}
	i := int32(len(wr.defs))
	wr.defs = append(wr.defs, skDef{off: len(wr.out), state: st, open: true})
	wr.byState[st] = append(wr.byState[st], i)
	wr.out = append(wr.out, 'S')
	f := &skFrameW{root: int32(wr.g.Len()), p: map[uint64]struct{}{}, d: map[uint64]struct{}{}, max: wr.maxConds}
	wr.frames = append(wr.frames, f)
	var h int32
	var ok bool
	if pos.ToMove() == wr.w {
		h, ok = wr.attack(pos, f)
	} else {
		h, ok = wr.defend(pos, f)
	}
	wr.frames = wr.frames[:len(wr.frames)-1]
	d := &wr.defs[i]
	d.open, d.h = false, h
	if !ok {
		return 0, false
	}
	if !f.big {
		d.p, d.d, d.usable = slices.Sorted(maps.Keys(f.p)), slices.Sorted(maps.Keys(f.d)), true
	}
	wr.merge(d.p, d.d, f.big)
	return h, true
}

// defend writes a node of the other player's: every legal move, after
// the boards that superko excludes there from the line above the
// subtree's root (D).
func (wr *skWriter) defend(pos rules.Position, f *skFrameW) (int32, bool) {
	moves := wr.g.LegalMoves(nil)
	for _, m := range pos.LegalMoves(nil) {
		if !m.IsPlace() || slices.Contains(moves, m) {
			continue
		}
		if next, err := pos.Play(m); err == nil {
			if b := next.BoardHash(); wr.latest[b] > 0 && wr.latest[b]-1 < f.root {
				f.add(f.d, b)
			}
		}
	}
	if wr.budget > 0 {
		// Where the node's own question was cut off, one reply the solver
		// refutes within the budget settles it: asked first, before any
		// is written (as a split asks every move before it splits one).
		for _, m := range moves {
			if !wr.play(m) {
				return 0, false
			}
			a := wr.ask()
			wr.undo()
			if a == askNo || wr.err != nil {
				return 0, false
			}
		}
	}
	wr.out = append(wr.out, 'A')
	wr.out = binary.AppendUvarint(wr.out, uint64(len(moves)))
	var most int32
	for _, m := range moves {
		wr.out = binary.AppendVarint(wr.out, int64(m))
		if !wr.play(m) {
			return 0, false
		}
		h, ok := wr.node()
		wr.undo()
		if !ok {
			return 0, false
		}
		most = max(most, h+1)
	}
	return most, true
}

// attack writes a node of w's: one move that keeps the goal. First a
// move to a state whose subtree holds here (nothing more to write), then
// a pass that ends the game, the table's move and the others, each asked
// of the solver; a move whose question the budget cut off is followed
// last, and taken back if its goal fails below.
func (wr *skWriter) attack(pos rules.Position, f *skFrameW) (int32, bool) {
	moves := wr.g.LegalMoves(nil)
	for _, m := range moves {
		next, err := pos.Play(m)
		if err != nil || next.Over() {
			continue
		}
		if wr.holding(skStateOf(next)) >= 0 {
			return wr.take(m, f)
		}
	}
	order := make([]rules.Move, 0, len(moves))
	if pos.Passes() > 0 {
		order = append(order, rules.Pass)
	}
	t := wr.s.tableMove(pos, wr.beta)
	if t == rules.NoMove && wr.ask() == askYes {
		// The move that proved the node, or the table's where an entry
		// answered it.
		switch c := wr.s.rootCut; {
		case c == -1:
			t = rules.Pass
		case c >= 0:
			t = rules.Place(c)
		default:
			// Answered by the table, or by a bound that holds under every
			// history (superkoSolver.settle): after a pass, or where the
			// other player has no placement, w's count already meets the
			// goal and w's pass keeps it.
			if t = wr.s.tableMove(pos, wr.beta); t == rules.NoMove {
				t = rules.Pass
			}
		}
	}
	if wr.err != nil {
		return 0, false
	}
	if t != rules.NoMove && !slices.Contains(order, t) {
		order = append(order, t)
	}
	for _, m := range wr.s.moveOrder(pos) {
		if !slices.Contains(order, m) {
			order = append(order, m)
		}
	}
	var unknown []rules.Move
	for _, m := range order {
		if !slices.Contains(moves, m) {
			continue
		}
		if !wr.play(m) {
			return 0, false
		}
		a := wr.ask()
		wr.undo()
		if wr.err != nil {
			return 0, false
		}
		switch a {
		case askYes:
			return wr.take(m, f)
		case askUnknown:
			unknown = append(unknown, m)
		}
	}
	for _, m := range unknown {
		mark, defs, refs, nodes, dropped := len(wr.out), len(wr.defs), len(wr.refs), wr.nodes, wr.dropped
		if h, ok := wr.take(m, f); ok || wr.err != nil {
			return h, ok
		}
		wr.dropped = dropped + wr.nodes - nodes // those dropped within included
		wr.drop(mark, defs, refs)
	}
	return 0, false
}

// take writes w's move m and the node after it.
func (wr *skWriter) take(m rules.Move, f *skFrameW) (int32, bool) {
	wr.out = append(wr.out, 'M')
	wr.out = binary.AppendVarint(wr.out, int64(m))
	if !wr.play(m) {
		return 0, false
	}
	b := wr.g.Position().BoardHash()
	h, ok := wr.node()
	wr.undo()
	if ok && m.IsPlace() {
		f.add(f.p, b)
	}
	return h + 1, ok
}

// drop takes back what was written from byte mark on: the subtrees from
// defs on and the references from refs on.
func (wr *skWriter) drop(mark, defs, refs int) {
	wr.out = wr.out[:mark]
	for len(wr.defs) > defs {
		d := wr.defs[len(wr.defs)-1]
		ids := wr.byState[d.state]
		if len(ids) == 1 {
			delete(wr.byState, d.state)
		} else {
			wr.byState[d.state] = ids[:len(ids)-1]
		}
		wr.defs = wr.defs[:len(wr.defs)-1]
	}
	wr.refs = wr.refs[:refs]
}

// compact rewrites the recording with the subtrees no reference names
// written in line (the tag 'S' taken out, the references numbered again),
// as shares.compactWins does for the wins of Traditional Alak: each was
// checked in place, on the line where it stands, so in line it proves the
// same. It returns the subtrees kept and those put in line.
func (wr *skWriter) compact() (kept, inLine int64) {
	sh := &shares{refs: wr.refs}
	for _, d := range wr.defs {
		sh.defs = append(sh.defs, shareDef{key: shareKey{k: tableKey{black: d.state.b, white: d.state.w, meta: uint32(d.state.meta)}}, off: d.off})
	}
	wr.out, kept, _, inLine = sh.compactWins(wr.out)
	return kept, inLine
}

// proveSuperko is Prove with ProveOptions.Superko.
func proveSuperko(ctx context.Context, g *rules.Game, w rules.Color, opt ProveOptions) (Proof, error) {
	res := Proof{Winner: w, Draw: opt.Draw}
	r := g.Rules()
	if !superkoApplies(r) {
		return res, fmt.Errorf("the positional linear Go solver takes positional superko on a line of at most %d points with passing, no suicide, captures against the ends, area scoring and no repetition rule (the tromp-taylor preset), not %s", maxSuperkoWidth, r)
	}
	start := time.Now()
	// The solver's questions can be long: while it searches, and while
	// the writer writes, Searched is told the positions searched and
	// written every 10 seconds.
	var written *int64
	var told time.Time
	sopt := Options{MemoryMB: opt.MemoryMB, exactBoards: true}
	if opt.Searched != nil {
		sopt.Progress = func(p Progress) {
			if now := time.Now(); now.Sub(told) >= 10*time.Second && written != nil {
				told = now
				opt.Searched(p.Nodes, int(*written))
			}
		}
	}
	s := newSuperkoSolverFor(ctx, g, sopt, start)
	newWriter := func(w rules.Color, draw bool) *skWriter {
		wr := &skWriter{s: s, g: g.Clone(), w: w, beta: skThreshold(r, w, draw), draw: draw, budget: opt.Budget,
			latest: map[uint64]int32{}, byState: map[skState][]int32{}, ignoreConds: opt.ignoreConds, maxConds: skMaxConds}
		if opt.maxConds > 0 {
			wr.maxConds = opt.maxConds
		}
		for i := 0; i <= g.Len(); i++ {
			wr.latest[g.PositionAt(i).BoardHash()] = int32(i) + 1
		}
		mb := opt.CertificateMB
		if mb <= 0 {
			mb = 4096
		}
		wr.max = mb << 20
		return wr
	}
	wr := newWriter(w, opt.Draw)
	written = &wr.nodes
	a := wr.ask()
	if a != askNo && wr.err == nil && (opt.Certificate || a == askUnknown) {
		// With a certificate, or where the root's question is too long
		// for one search within the budget, the writer follows the
		// proof move by move; it fails only where the goal does.
		h, ok := wr.node()
		switch {
		case ok:
			a, res.Plies = askYes, int(h)
		case wr.err == nil:
			a = askNo
		}
	}
	res.Nodes, res.Written = s.nodes, wr.nodes
	if wr.err != nil {
		return res, fmt.Errorf("prove cut off after %d positions: %w", s.nodes, wr.err)
	}
	res.Proved, res.Disproved = a == askYes, a == askNo
	if res.Proved && opt.Certificate {
		res.WinSubtrees, res.WinSubtreesInLine = wr.compact()
		res.WinReferences = int64(len(wr.refs))
		res.Tree, res.Written = wr.out, wr.nodes-wr.dropped
		return res, nil
	}
	if res.Disproved && opt.Counter {
		// The opponent's goal is the complement: a draw or better where
		// w's was a win, a win where it was a draw or better. The
		// solver's table holds the refutation already.
		cw := newWriter(w.Opp(), !opt.Draw)
		written = &cw.nodes
		h, ok := cw.node()
		res.Nodes = s.nodes
		if cw.err != nil || !ok {
			err := cw.err
			if err == nil {
				err = errors.New("the opponent's proof did not hold where the solver found it")
			}
			return res, fmt.Errorf("disproved, but the opponent's certificate was not recorded: %w", err)
		}
		res.WinSubtrees, res.WinSubtreesInLine = cw.compact()
		res.WinReferences = int64(len(cw.refs))
		res.Counter, res.CounterPlies, res.Written = cw.out, int(h), cw.nodes-cw.dropped
	}
	return res, nil
}

// moveOrder returns the moves of pos in the order the solver searches
// them (searchMoves): the captures, the pass, the other points next to an
// enemy stone, the rest, each group from the centre out. Superko is not
// applied.
func (s *superkoSolver) moveOrder(pos rules.Position) []rules.Move {
	b, w, _, _ := pos.Line()
	own, opp := b, w
	if pos.ToMove() == rules.White {
		own, opp = w, b
	}
	var out []rules.Move
	for ph, set := range s.movePhases(s.full&^(own|opp), own, opp) {
		if ph == skPassPhase {
			out = append(out, rules.Pass)
		}
		for _, p := range s.order {
			if set>>p&1 != 0 {
				out = append(out, rules.Place(p))
			}
		}
	}
	return out
}

// tableMove returns the move of the table's entry for pos, the last
// position on the line, that holds there and proves its player to move
// worth at least beta: the move that proved it; rules.NoMove if none.
func (s *superkoSolver) tableMove(pos rules.Position, beta int) rules.Move {
	var flags uint8
	if pos.ToMove() == rules.White {
		flags |= 1
	}
	if pos.Passes() > 0 {
		flags |= 2
	}
	ck, mirrored := s.canon(s.path[len(s.path)-1])
	i := s.slot(ck, flags)
	for j := uint64(0); j < 2; j++ {
		e := &s.tt[i+j]
		if e.flags&skUsed != 0 && e.key == ck && e.flags&^skUsed == flags && int(e.lo) >= beta && s.valid(i+j, mirrored) {
			switch m := int(e.move); {
			case m == -1:
				return rules.Pass
			case m >= 0 && mirrored:
				return rules.Place(s.n - 1 - m)
			case m >= 0:
				return rules.Place(m)
			}
		}
	}
	return rules.NoMove
}
