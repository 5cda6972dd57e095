package solve

// Depth-limited proofs for the positional linear Go solver (superko.go).
//
// Under positional superko the plain alpha-beta search of superko.go follows
// the first move it tries to the end of the game, and lines of ko fights run
// hundreds of plies before the boards run out. test instead answers one
// question, "is the node worth at least beta to the player to move?", within
// a number of plies, and says true, false or unknown. Only proved answers
// are stored in the table, with their conditions; the plies left bound the
// search, never a result, so a proved answer is exact whatever limit found
// it. mtdfID asks the question with a growing limit until it is answered
// (iterative deepening), so short proofs are found before long lines are
// explored. See docs/solver-superko.md, method 4.

// Answers of test.
const (
	skUnknown = iota // not decided within the plies left
	skTrue           // the value is at least beta
	skFalse          // the value is below beta
)

// skMiss records that a node was searched, in the deepening round gen, with
// at least left plies for the same beta and stayed unknown. It is a hint
// (the node's history may differ), never a result: using it can only leave
// a node unknown in this round, and the next round searches it again.
type skMiss struct {
	key  skBoard
	gen  uint32
	left int16
	beta int8
	flag uint8
}

// skNode is one node of test while it is answered: its question, its key
// in the table, and what its children have proved so far. test keeps it on
// its stack and hands it to its phases.
type skNode struct {
	d          int32
	start      int64 // s.nodes when its search began
	white      bool
	passed     bool // the previous move was a pass
	beta, left int
	k          skBoard // the node's board, s.path[d]
	own, opp   uint64  // the stones of the player to move and of the other
	sc         int     // the count, for the player to move

	ck       skBoard // the table's key: k or its mirror image
	mirrored bool    // k is ck's mirror image
	flags    uint8   // the table's flags: White to move, after a pass
	mi       uint64  // the node's slot in s.miss
	found    bool    // the table holds an entry for the node that does not answer beta
	hit      skEntry // a copy of that entry (its slot may be replaced during the search)
	first    int     // the move searched first (the entry's): a point, -1 pass, -2 none

	upper   int  // the best value proved for any move, when all fail
	upMove  int  // its move
	unknown bool // a child was not decided
	v       int  // with a cut-off: the value proved
	cutMove int  // and its move
}

// test answers whether the node at depth d, the last board on the line, is
// worth at least beta to the player to move, searching at most left more
// plies. passed says the previous move was a pass. With skTrue, v is a
// proved lower bound (v >= beta); with skFalse, a proved upper bound
// (v < beta). What a proved answer depends on is left in s.sets[d] and
// s.refs[d].
//
// Its phases: settle (answers no history can change), probe (the table),
// missed (this round's unknown answers), searchMoves (the children, until
// one proves the node) and conclude (the answer, stored with its
// conditions).
func (s *superkoSolver) test(d int32, white, passed bool, beta, left int) (answer, v int) {
	s.frame(d)
	s.nodes++
	if s.nodes&1023 == 0 {
		s.poll()
	}
	if s.abort != nil {
		return skUnknown, 0
	}
	nd := skNode{d: d, white: white, passed: passed, beta: beta, left: left, k: s.path[d], start: s.nodes}
	if a, v := s.settle(&nd); a != skUnknown {
		return a, v
	}
	if a, v := s.probe(&nd); a != skUnknown {
		return a, v
	}
	if left <= 0 || s.missed(&nd) {
		return skUnknown, 0
	}
	cut := s.searchMoves(&nd)
	return s.conclude(&nd, cut)
}

// settle answers the node where no history and no search can change the
// answer (else skUnknown), and sets its stones and count.
func (s *superkoSolver) settle(nd *skNode) (answer, v int) {
	n := s.n
	if nd.beta > n {
		return skFalse, n // no result exceeds the whole board
	}
	if nd.beta <= -n {
		return skTrue, -n
	}
	b, w := nd.k&0xFFFFFFFF, nd.k>>32
	nd.own, nd.opp, nd.sc = b, w, s.area(b, w)
	if nd.white {
		nd.own, nd.opp, nd.sc = w, b, -nd.sc
	}
	// After a pass the mover's pass ends the game; if the opponent has no
	// placement, the mover's pass leaves it only a pass. Either way the
	// value is at least the count, under every history.
	if nd.sc >= nd.beta && (nd.passed || !s.hasPlacement(nd.opp, nd.own)) {
		return skTrue, nd.sc
	}
	return skUnknown, 0
}

// probe looks the node up in the transposition table under its canonical
// key: an entry that holds under the node's history and answers beta gives
// the answer (its conditions used at the node's depth); one that does not
// answer it is copied to nd.hit (nd.found) for its move, searched first,
// and its bounds.
func (s *superkoSolver) probe(nd *skNode) (answer, v int) {
	if nd.white {
		nd.flags |= 1
	}
	if nd.passed {
		nd.flags |= 2
	}
	nd.ck, nd.mirrored = s.canon(nd.k)
	nd.first = -2
	i := s.slot(nd.ck, nd.flags)
	for j := uint64(0); j < 2; j++ {
		e := &s.tt[i+j]
		if e.flags&skUsed != 0 && e.key == nd.ck && e.flags&^skUsed == nd.flags && s.valid(i+j, nd.mirrored) {
			if int(e.lo) >= nd.beta || int(e.hi) < nd.beta {
				s.use(i+j, nd.d, nd.mirrored)
				s.trim(nd.d)
				if int(e.lo) >= nd.beta {
					return skTrue, int(e.lo)
				}
				return skFalse, int(e.hi)
			}
			nd.hit, nd.found = *e, true
			nd.first = int(e.move)
			if nd.first >= 0 && nd.mirrored {
				nd.first = s.n - 1 - nd.first
			}
			return skUnknown, 0
		}
	}
	return skUnknown, 0
}

// missed says whether this deepening round searched the node before, with
// at least its plies left for the same beta, and left it unknown (skMiss).
func (s *superkoSolver) missed(nd *skNode) bool {
	nd.mi = s.missSlot(nd.ck, nd.flags)
	m := &s.miss[nd.mi]
	return m.gen == s.gen && m.key == nd.ck && m.flag == nd.flags && int(m.beta) == nd.beta && int(m.left) >= nd.left
}

// searchMoves searches the node's children, the table's move first, then
// by movePhases with the pass between the first two phases, until one
// proves the node (a cut-off: true) or the search is stopped.
func (s *superkoSolver) searchMoves(nd *skNode) bool {
	nd.upper = -s.n - 1
	if nd.passed {
		nd.upper = nd.sc // the pass ends the game
	}
	nd.upMove, nd.cutMove = -2, -2
	empty := s.full &^ (nd.own | nd.opp)
	first := nd.first
	if first >= 0 && empty>>first&1 != 0 {
		if s.try(nd, first) {
			return true
		}
	} else if first == -1 && !nd.passed {
		if s.passTry(nd) {
			return true
		}
	}
	if s.abort != nil {
		return false
	}
	phases := s.movePhases(empty, nd.own, nd.opp)
	passDone := nd.passed || first == -1
	for ph := range phases {
		if ph == skPassPhase && !passDone {
			passDone = true
			if s.passTry(nd) {
				return true
			}
			if s.abort != nil {
				return false
			}
		}
		for _, p := range s.order {
			if p == first || phases[ph]>>p&1 == 0 {
				continue
			}
			if s.try(nd, p) {
				return true
			}
			if s.abort != nil {
				return false
			}
		}
	}
	return !passDone && s.passTry(nd)
}

// try searches the node's placement at p, if it is legal and its board is
// not on the line (superko: the board is then a condition of the answer),
// and says whether it proves the node.
func (s *superkoSolver) try(nd *skNode, p int) bool {
	own, opp, _, _, ok := s.ln.Place(nd.own, nd.opp, p)
	if !ok {
		return false
	}
	c := skPack(own, opp)
	if nd.white {
		c = skPack(opp, own)
	}
	if l := s.latest(c); l != 0 {
		s.addRef(nd.d, c, l-1) // superko
		return false
	}
	old := s.push(c)
	a, cv := s.test(nd.d+1, !nd.white, false, 1-nd.beta, nd.left-1)
	s.pop(old)
	return s.child(nd, a, cv, c, p)
}

// passTry searches the node's pass and says whether it proves the node.
func (s *superkoSolver) passTry(nd *skNode) bool {
	old := s.push(nd.k)
	a, cv := s.test(nd.d+1, !nd.white, true, 1-nd.beta, nd.left-1)
	s.pop(old)
	return s.child(nd, a, cv, nd.k, -1)
}

// child takes the answer a (value cv) of the child at d+1, reached by move
// p (-1: the pass) on board: it returns true when the child's answer proves
// the node (a cut-off), having left in the node's frame what the proof
// rests on.
func (s *superkoSolver) child(nd *skNode, a, cv int, board skBoard, p int) bool {
	d := nd.d
	switch a {
	case skFalse: // the child is worth less than 1-beta: this move reaches beta
		s.clearSet(d)
		s.refs[d] = s.refs[d][:0]
		if p >= 0 {
			s.addClass(d, s.class(board))
		}
		s.gather(d)
		nd.v, nd.cutMove = -cv, p
		return true
	case skTrue:
		if !nd.unknown {
			if p >= 0 {
				s.addClass(d, s.class(board))
			}
			s.gather(d)
		}
		if -cv > nd.upper {
			nd.upper, nd.upMove = -cv, p
		}
	default:
		nd.unknown = true
	}
	return false
}

// conclude gives the node's answer after its search (cut says a child
// proved it) and stores a proved one in the table, an unknown one in
// s.miss.
func (s *superkoSolver) conclude(nd *skNode, cut bool) (answer, v int) {
	if s.abort != nil {
		return skUnknown, 0
	}
	var hit *skEntry
	if nd.found {
		hit = &nd.hit
	}
	if cut {
		s.trim(nd.d)
		s.store(nd.d, nd.ck, nd.flags, nd.mirrored, nd.v, s.n+1, nd.cutMove, s.nodes-nd.start, hit)
		if nd.d == s.rootD {
			s.rootCut = nd.cutMove
		}
		return skTrue, nd.v
	}
	if nd.unknown {
		s.miss[nd.mi] = skMiss{key: nd.ck, gen: s.gen, left: int16(nd.left), beta: int8(nd.beta), flag: nd.flags}
		return skUnknown, 0
	}
	s.trim(nd.d)
	s.store(nd.d, nd.ck, nd.flags, nd.mirrored, -s.n-1, nd.upper, nd.upMove, s.nodes-nd.start, hit)
	return skFalse, nd.upper
}

// movePhases returns the empty points in the order of search, the pass
// going between the first two phases: captures, the other points next to
// an enemy stone, the rest (each searched from the centre out, s.order).
func (s *superkoSolver) movePhases(empty, own, opp uint64) [3]uint64 {
	var capts, contact uint64
	for e := empty; e != 0; e &= e - 1 {
		bit := e & -e
		if (bit<<1|bit>>1)&opp != 0 {
			contact |= bit
			if s.ln.Captures(opp, own|bit, bit) != 0 {
				capts |= bit
			}
		}
	}
	return [3]uint64{capts, contact &^ capts, empty &^ contact}
}

func (s *superkoSolver) missSlot(key skBoard, flags uint8) uint64 {
	return mix(key^uint64(flags)<<56^0x9e3779b97f4a7c15) & uint64(len(s.miss)-1)
}

// decide answers test at the node at depth d with 2, 2+skDeepen, ... plies
// left until it is answered (or the search is stopped: skUnknown).
func (s *superkoSolver) decide(d int32, white, passed bool, beta int) (answer, v int) {
	s.rootD, s.rootCut = d, -2
	for left := 2; s.abort == nil; left += skDeepen {
		s.gen++
		if a, v := s.test(d, white, passed, beta, left); a != skUnknown {
			return a, v
		}
	}
	return skUnknown, 0
}

// mtdfID returns the exact value of the node at depth d by null-window
// tests (MTD(f)) from the guess g, each deepened until it is answered.
func (s *superkoSolver) mtdfID(d int32, white, passed bool, g int) int {
	lo, hi := -s.n, s.n
	for lo < hi && s.abort == nil {
		beta := g
		if g == lo {
			beta = g + 1
		}
		switch a, v := s.decide(d, white, passed, beta); a {
		case skTrue:
			lo, g = v, v
		case skFalse:
			hi, g = v, v
		}
	}
	return lo
}

// skDeepen is the plies added from one deepening round to the next.
// Measured with the table at 1 GB (positions searched, 1×9 and 1×10): by
// 1, 1.47 and 10.9 million; by 2, 1.01 and 6.9 million; by 4, 0.63 and 4.1
// million; by 8, 0.47 and 3.8 million; by 12, 0.48 and 4.2 million.
const skDeepen = 8
