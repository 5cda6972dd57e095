package player

import "alak/rules"

// gridSim plays random games on a grid under placement rules without ko
// points and without passing (Alter Igo and its variants): the playouts'
// fast path on grids, where Position.Play copies the board every move. It
// follows the kernel's captures and own-liberty rules (the mover's string
// stays, is removed after captures, or is removed together with the
// captured) and the loss of a move that leaves the board unchanged; a test
// checks it move by move against the kernel. Superko and the repetition draw
// are left to the tree, as in every playout.
//
// It keeps its own board rather than the kernel's: a kernel grid position
// is an immutable value of 384-bit bitboards, copied and allocated by every
// move, while a playout wants one board changed in place and its empty
// points in a list, from which a random point is drawn in constant time and
// set aside when the policy rejects it. Through the kernel (pickMove) the
// same playouts ran 2.7 times slower on 9×9 (6,300 against 17,300 a
// second in BenchmarkPlayoutAlterIgo9). So the string walk (free) repeats the
// kernel's (rules/grid.go, chainInto) on this board; lines share one set of
// primitives (rules/bitline), grids do not.
type gridSim struct {
	w, n      int
	nbr       [][4]int16 // neighbours of each point, -1 padded
	edge      bool       // the edges are not liberties
	own       rules.OwnLiberty
	unchanged bool
	counted   bool
	komi      float64

	cells  [19 * 19]uint8 // 0 empty, 1 + colour
	count  [2]int
	empty  [19 * 19]int16 // the empty points, in any order
	slot   [19 * 19]int16 // index of each empty point in empty
	nempty int
	seen   [19 * 19]uint32
	stamp  uint32
	stack  [19 * 19]int16
	dead   [19 * 19]int16
}

// gridSimFor returns a simulator for r, or false when r needs the kernel.
func gridSimFor(r rules.Rules) (*gridSim, bool) {
	if r.IsLine() || r.Movement != rules.Placement || r.Pass || r.Own == rules.OwnIllegal {
		return nil, false
	}
	if r.Ko != rules.KoNone && r.Ko != rules.KoPositional && r.Ko != rules.KoSituational {
		return nil, false
	}
	if r.Scoring != rules.ScoreStones && r.Scoring != rules.ScoreNone {
		return nil, false
	}
	s := &gridSim{w: r.Width, n: r.Points(), edge: r.EdgeCapture, own: r.Own,
		unchanged: r.UnchangedLoses, counted: r.Scoring == rules.ScoreStones, komi: r.Komi}
	s.nbr = make([][4]int16, s.n)
	for p := range s.n {
		k := 0
		s.nbr[p] = [4]int16{-1, -1, -1, -1}
		forEachNeighbour(p, s.w, s.n, func(q int) { s.nbr[p][k] = int16(q); k++ })
	}
	return s, true
}

// load sets the simulator's board to pos.
func (s *gridSim) load(pos rules.Position) {
	s.count = [2]int{}
	s.nempty = 0
	for p := range s.n {
		c := pos.At(p)
		if c == rules.None {
			s.cells[p] = 0
			s.slot[p] = int16(s.nempty)
			s.empty[s.nempty] = int16(p)
			s.nempty++
			continue
		}
		s.cells[p] = uint8(c) + 1
		s.count[c]++
	}
}

func (s *gridSim) onEdge(p int) bool {
	x, y := p%s.w, p/s.w
	return x == 0 || y == 0 || x == s.w-1 || y == s.n/s.w-1
}

// free reports whether the string through p has a liberty. When it has
// none, its points are s.stack[:size].
func (s *gridSim) free(p int) (bool, int) {
	s.stamp++
	c := s.cells[p]
	s.stack[0] = int16(p)
	s.seen[p] = s.stamp
	size := 1
	for i := 0; i < size; i++ {
		q := int(s.stack[i])
		if !s.edge && s.onEdge(q) {
			return true, 0
		}
		for _, t := range s.nbr[q] {
			if t < 0 {
				break
			}
			switch s.cells[t] {
			case 0:
				return true, 0
			case c:
				if s.seen[t] != s.stamp {
					s.seen[t] = s.stamp
					s.stack[size] = t
					size++
				}
			}
		}
	}
	return false, size
}

func (s *gridSim) take(p int) {
	i := s.slot[p]
	last := s.empty[s.nempty-1]
	s.empty[i], s.slot[last] = last, i
	s.nempty--
}

func (s *gridSim) clear(p int) {
	c := s.cells[p] - 1
	s.count[c]--
	s.cells[p] = 0
	s.slot[p] = int16(s.nempty)
	s.empty[s.nempty] = int16(p)
	s.nempty++
}

// place puts a stone of colour c on the empty point p and removes what the
// rules remove. It reports whether the board is unchanged (the stone alone
// was removed).
func (s *gridSim) place(p int, c rules.Color) (unchanged bool) {
	me := uint8(c) + 1
	s.cells[p] = me
	s.count[c]++
	s.take(p)
	ndead := 0
	for _, t := range s.nbr[p] {
		if t < 0 {
			break
		}
		if v := s.cells[t]; v == 0 || v == me || s.isDead(int(t), ndead) {
			continue
		}
		if ok, size := s.free(int(t)); !ok {
			ndead += copy(s.dead[ndead:], s.stack[:size])
		}
	}
	nenemy := ndead
	if s.own != rules.OwnStays {
		if s.own == rules.OwnRemoved {
			for _, q := range s.dead[:ndead] {
				s.clear(int(q))
			}
		}
		if ok, size := s.free(p); !ok {
			ndead += copy(s.dead[ndead:], s.stack[:size])
		}
		if s.own == rules.OwnRemoved {
			for _, q := range s.dead[nenemy:ndead] {
				s.clear(int(q))
			}
			return nenemy == 0 && ndead == 1
		}
	}
	for _, q := range s.dead[:ndead] {
		s.clear(int(q))
	}
	return nenemy == 0 && ndead == 1
}

func (s *gridSim) isDead(p, ndead int) bool {
	for _, q := range s.dead[:ndead] {
		if int(q) == p {
			return true
		}
	}
	return false
}

// wouldUnchange reports whether c's stone on the empty point p would be
// removed alone, leaving the board as it was: every neighbour is an enemy
// stone none of whose strings is captured, and the edges are no liberty.
func (s *gridSim) wouldUnchange(p int, c rules.Color) bool {
	if s.own == rules.OwnStays || (!s.edge && s.onEdge(p)) {
		return false
	}
	me := uint8(c) + 1
	for _, t := range s.nbr[p] {
		if t < 0 {
			break
		}
		if v := s.cells[t]; v == 0 || v == me {
			return false
		}
	}
	s.cells[p] = me
	defer func() { s.cells[p] = 0 }()
	for _, t := range s.nbr[p] {
		if t < 0 {
			break
		}
		if ok, _ := s.free(int(t)); !ok {
			return false
		}
	}
	return true
}

// ownEye reports whether every neighbour of the empty point p is c's stone.
func (s *gridSim) ownEye(p int, c rules.Color) bool {
	me := uint8(c) + 1
	for _, t := range s.nbr[p] {
		if t < 0 {
			break
		}
		if s.cells[t] != me {
			return false
		}
	}
	return true
}

// run plays a random game from the loaded board with toMove to play, at
// most limit moves, and returns Black's margin. The policy: a random empty
// point that neither fills the mover's own eye nor loses by leaving the
// board unchanged; failing that an own eye; failing that the mover loses.
func (s *gridSim) run(toMove rules.Color, rng *fastRand, limit int) playoutResult {
	for range limit {
		if s.nempty == 0 {
			return s.result(true)
		}
		k := s.nempty
		eye := -1
		chosen := -1
		for k > 0 {
			i := rng.n(k)
			p := int(s.empty[i])
			// Move the rejected point out of the draw: swap it to the end.
			s.empty[i], s.empty[k-1] = s.empty[k-1], s.empty[i]
			s.slot[s.empty[i]], s.slot[s.empty[k-1]] = int16(i), int16(k-1)
			k--
			switch {
			case s.ownEye(p, toMove):
				if eye < 0 {
					eye = p
				}
			case s.unchanged && s.wouldUnchange(p, toMove):
			default:
				chosen = p
			}
			if chosen >= 0 {
				break
			}
		}
		if chosen < 0 {
			chosen = eye
		}
		if chosen < 0 {
			if s.unchanged {
				return playoutResult{-sideSign(toMove), true}
			}
			chosen = int(s.empty[0])
		}
		if s.place(chosen, toMove) && s.unchanged {
			return playoutResult{-sideSign(toMove), true}
		}
		toMove = toMove.Opp()
	}
	return s.result(false)
}

func (s *gridSim) result(ended bool) playoutResult {
	if !s.counted && ended {
		return playoutResult{0, true}
	}
	return playoutResult{float64(s.count[0]-s.count[1]) - s.komi, ended}
}
