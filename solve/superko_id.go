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
// explored. See docs/solver.md, method 4.

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

// test answers whether the node at depth d, the last board on the line, is
// worth at least beta to the player to move, searching at most left more
// plies. passed says the previous move was a pass. With skTrue, v is a
// proved lower bound (v >= beta); with skFalse, a proved upper bound
// (v < beta). What a proved answer depends on is left in s.sets[d] and
// s.refs[d].
func (s *superkoSolver) test(d int32, white, passed bool, beta, left int) (answer, v int) {
	s.frame(d)
	s.nodes++
	if s.nodes&1023 == 0 {
		s.poll()
	}
	if s.abort != nil {
		return skUnknown, 0
	}
	n := s.n
	if beta > n {
		return skFalse, n // no result exceeds the whole board
	}
	if beta <= -n {
		return skTrue, -n
	}
	k := s.path[d]
	b, w := k&0xFFFFFFFF, k>>32
	own, opp := b, w
	if white {
		own, opp = w, b
	}
	sc := s.area(b, w)
	if white {
		sc = -sc
	}
	// After a pass the mover's pass ends the game; if the opponent has no
	// placement, the mover's pass leaves it only a pass. Either way the
	// value is at least the count, under every history.
	if sc >= beta && (passed || !s.hasPlacement(opp, own)) {
		return skTrue, sc
	}

	flags := uint8(0)
	if white {
		flags |= 1
	}
	if passed {
		flags |= 2
	}
	ck, mirrored := s.canon(k)
	var hitEntry skEntry // the slot may be replaced during the search below
	var hit *skEntry
	first := -2
	switch a, v, found := s.probe(d, ck, flags, mirrored, beta, &hitEntry); {
	case a != skUnknown:
		return a, v
	case found:
		hit = &hitEntry
		first = int(hit.move)
		if first >= 0 && mirrored {
			first = n - 1 - first
		}
	}
	if left <= 0 {
		return skUnknown, 0
	}
	mi := s.missSlot(ck, flags)
	if m := &s.miss[mi]; m.gen == s.gen && m.key == ck && m.flag == flags && int(m.beta) == beta && int(m.left) >= left {
		return skUnknown, 0
	}

	empty := s.full &^ (b | w)
	upper := -n - 1 // the best value proved for any move, when all fail
	if passed {
		upper = sc // the pass ends the game
	}
	upMove := -2
	unknown := false
	cutMove := -2
	// child handles the answer of a child searched at d+1: it returns true
	// when the child's answer proves this node's (a cut-off), having left
	// in the node's frame what the proof rests on.
	child := func(a, cv int, board skBoard, p int) bool {
		switch a {
		case skFalse: // the child is worth less than 1-beta: this move reaches beta
			s.clearSet(d)
			s.refs[d] = s.refs[d][:0]
			if p >= 0 {
				s.addClass(d, s.class(board))
			}
			s.gather(d)
			v, cutMove = -cv, p
			return true
		case skTrue:
			if !unknown {
				if p >= 0 {
					s.addClass(d, s.class(board))
				}
				s.gather(d)
			}
			if -cv > upper {
				upper, upMove = -cv, p
			}
		default:
			unknown = true
		}
		return false
	}
	try := func(p int) bool {
		var nb, nw uint64
		var ok bool
		if white {
			nw, nb, _, _, ok = s.ln.Place(w, b, p)
		} else {
			nb, nw, _, _, ok = s.ln.Place(b, w, p)
		}
		if !ok {
			return false
		}
		c := skPack(nb, nw)
		if l := s.latest(c); l != 0 {
			s.addRef(d, c, l-1) // superko
			return false
		}
		old := s.push(c)
		a, cv := s.test(d+1, !white, false, 1-beta, left-1)
		s.pop(old)
		return child(a, cv, c, p)
	}
	passTry := func() bool {
		old := s.push(k)
		a, cv := s.test(d+1, !white, true, 1-beta, left-1)
		s.pop(old)
		return child(a, cv, k, -1)
	}
	cut := false
	if first >= 0 && empty>>first&1 != 0 {
		cut = try(first)
	} else if first == -1 && !passed {
		cut = passTry()
	}
	if !cut && s.abort == nil {
		phases := s.movePhases(empty, own, opp)
		passDone := passed || first == -1
		for ph := 0; ph < 3 && !cut && s.abort == nil; ph++ {
			if ph == skPassPhase && !passDone {
				passDone = true
				if cut = passTry(); cut || s.abort != nil {
					break
				}
			}
			for _, p := range s.order {
				if p == first || phases[ph]>>p&1 == 0 {
					continue
				}
				if cut = try(p); cut || s.abort != nil {
					break
				}
			}
		}
		if !cut && !passDone && s.abort == nil {
			cut = passTry()
		}
	}
	if s.abort != nil {
		return skUnknown, 0
	}
	if cut {
		s.trim(d)
		s.store(d, ck, flags, mirrored, v, n+1, cutMove, hit)
		return skTrue, v
	}
	if unknown {
		s.miss[mi] = skMiss{key: ck, gen: s.gen, left: int16(left), beta: int8(beta), flag: flags}
		return skUnknown, 0
	}
	s.trim(d)
	s.store(d, ck, flags, mirrored, -n-1, upper, upMove, hit)
	return skFalse, upper
}

// probe looks the node (canonical board ck, flags, mirrored when the
// node is ck's mirror image) up in the transposition table: an entry that
// holds under the node's history and answers beta gives the answer (its
// conditions used at depth d); one that does not answer it is copied to
// hit (found true) for its move, searched first, and its bounds.
func (s *superkoSolver) probe(d int32, ck skBoard, flags uint8, mirrored bool, beta int, hit *skEntry) (answer, v int, found bool) {
	i := s.slot(ck, flags)
	for j := uint64(0); j < 2; j++ {
		e := &s.tt[i+j]
		if e.flags&skUsed != 0 && e.key == ck && e.flags&^skUsed == flags && s.valid(i+j, mirrored) {
			if int(e.lo) >= beta || int(e.hi) < beta {
				s.use(i+j, d, mirrored)
				s.trim(d)
				if int(e.lo) >= beta {
					return skTrue, int(e.lo), true
				}
				return skFalse, int(e.hi), true
			}
			*hit = *e
			return skUnknown, 0, true
		}
	}
	return skUnknown, 0, false
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
