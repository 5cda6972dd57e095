package tournament

import "sort"

// A Swiss player as the pairing sees them before a round.
type swissPlayer struct {
	Player
	score   float64
	colours []byte // X and O of the games played, in round order (not byes, not forfeits)
	xs, os  int
	byes    int
	met     map[string]bool
}

func (p *swissPlayer) last(k int) (byte, bool) {
	if len(p.colours) < k {
		return 0, false
	}
	c := p.colours[len(p.colours)-1]
	for _, d := range p.colours[len(p.colours)-k:] {
		if d != c {
			return 0, false
		}
	}
	return c, true
}

// can reports whether p may take colour c without breaking a colour rule:
// the same colour three times running, or two more of one colour than of
// the other.
func (p *swissPlayer) can(c byte) bool {
	if l, ok := p.last(2); ok && l == c {
		return false
	}
	d := p.xs - p.os
	if c == 'X' {
		return d+1 <= 2
	}
	return d-1 >= -2
}

// preference returns the colour p wants and how strongly: 3 absolute (the
// other would break a rule), 2 strong (one more of the other colour), 1
// mild (colours even: the other than last time), 0 none (no game yet).
func (p *swissPlayer) preference() (byte, int) {
	d := p.xs - p.os
	if !p.can('O') {
		return 'X', 3
	}
	if !p.can('X') {
		return 'O', 3
	}
	switch {
	case d < 0:
		return 'X', 2
	case d > 0:
		return 'O', 2
	case len(p.colours) > 0:
		if p.colours[len(p.colours)-1] == 'X' {
			return 'O', 1
		}
		return 'X', 1
	}
	return 0, 0
}

// A level of the Swiss pairing: which rules it may break. Next pairs at the
// first level that can pair every player; the last allows every pair.
type level struct {
	repeat, colour bool
}

var levels = []level{
	{},
	{colour: true},
	{repeat: true},
	{repeat: true, colour: true},
}

func colourOK(p, q *swissPlayer) bool {
	return (p.can('X') && q.can('O')) || (p.can('O') && q.can('X'))
}

func (l level) edge(p, q *swissPlayer) bool {
	return (l.repeat || !p.met[q.Name]) && (l.colour || colourOK(p, q))
}

// swissPlayers returns the active (not withdrawn) players in pairing order,
// with their scores and histories from the state's finished games.
func swissPlayers(s State) []*swissPlayer {
	by := make(map[string]*swissPlayer, len(s.Players))
	var out []*swissPlayer
	for _, p := range s.Players {
		sp := &swissPlayer{Player: p, met: make(map[string]bool)}
		by[p.Name] = sp
		if !p.Withdrawn {
			out = append(out, sp)
		}
	}
	for _, g := range sortedGames(s.Games) {
		x, o := g.points()
		px := by[g.X]
		px.score += x
		if g.Bye() {
			px.byes++
			continue
		}
		po := by[g.O]
		po.score += o
		px.met[g.O] = true
		po.met[g.X] = true
		if g.Forfeit {
			continue
		}
		px.colours = append(px.colours, 'X')
		px.xs++
		po.colours = append(po.colours, 'O')
		po.os++
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return better(out[i].Player, out[j].Player)
	})
	return out
}

// nextSwiss pairs the next round once every game so far is finished.
func nextSwiss(s State) (Step, error) {
	_, top := s.byRound()
	if !allFinished(s.Games) {
		return Step{Round: top}, nil
	}
	ps := swissPlayers(s)
	if top >= s.rounds() || len(ps) < 2 {
		return Step{Round: top, Finished: true, Winner: Standings(s)[0].Name}, nil
	}
	round := top + 1
	return Step{Games: pairSwiss(ps, round), Round: round}, nil
}

// pairSwiss pairs one round: at the first level that can pair everyone,
// the bye (odd count) to the lowest-ranked player who can take it with the
// rest still pairable, then each player from the top, in turn, with the
// first candidate in Dutch order with whom the rest can still be paired.
func pairSwiss(ps []*swissPlayer, round int) []Game {
	for _, l := range levels {
		pairs, bye, ok := pairLevel(ps, l)
		if !ok {
			continue
		}
		games := make([]Game, 0, len(pairs)+1)
		for board, pq := range pairs {
			x, o := colours(pq[0], pq[1], board)
			games = append(games, Game{Round: round, Slot: board, X: x.Name, O: o.Name})
		}
		if bye != nil {
			games = append(games, Game{Round: round, Slot: len(pairs), X: bye.Name, Outcome: XWins})
		}
		return games
	}
	panic("tournament: the last Swiss level pairs any players") // unreachable: it allows every pair
}

// pairLevel pairs ps (in pairing order) with the pairs l allows, or
// reports that it cannot. The graph's vertices are the players, and with
// an odd count one more, the bye, joined to the players with the fewest
// byes; a matcher answers whether a choice leaves the rest pairable.
func pairLevel(ps []*swissPlayer, l level) ([][2]*swissPlayer, *swissPlayer, bool) {
	n := len(ps)
	fewest := ps[0].byes
	for _, p := range ps {
		fewest = min(fewest, p.byes)
	}
	if pairs, bye, ok := pairGreedy(ps, l, fewest); ok {
		return pairs, bye, true
	}
	vertices := n + n%2
	m := newMatcher(vertices, func(i, j int) bool {
		if i == n || j == n {
			return ps[i+j-n].byes == fewest
		}
		return l.edge(ps[i], ps[j])
	})
	m.maximum()
	if !m.perfect() {
		return nil, nil, false
	}
	var bye *swissPlayer
	if n%2 == 1 {
		for i := n - 1; i >= 0 && bye == nil; i-- {
			if ps[i].byes == fewest && m.pairOff(n, i) {
				bye = ps[i]
			}
		}
	}
	var pairs [][2]*swissPlayer
	idx := make([]int, 0, n)
	rest := make([]*swissPlayer, 0, n)
	for {
		idx, rest = idx[:0], rest[:0]
		for i := 0; i < n; i++ {
			if m.alive[i] {
				idx = append(idx, i)
				rest = append(rest, ps[i])
			}
		}
		if len(rest) == 0 {
			return pairs, bye, true
		}
		chosen := -1
		for _, j := range candidates(rest, l) {
			if l.edge(rest[0], rest[j]) && m.pairOff(idx[0], idx[j]) {
				chosen = j
				break
			}
		}
		if chosen < 0 {
			panic("tournament: a pairable Swiss round lost its pairing") // unreachable: the matching was perfect
		}
		pairs = append(pairs, [2]*swissPlayer{rest[0], rest[chosen]})
	}
}

// pairGreedy is pairLevel without the matcher: every choice the first
// allowed one. When it pairs everyone, each choice left a pairable rest
// (this pairing is the proof), and every candidate before it was not
// allowed, so pairLevel would have made the same choices: most rounds
// pair this way, in O(n²) steps with no matching built.
func pairGreedy(ps []*swissPlayer, l level, fewest int) ([][2]*swissPlayer, *swissPlayer, bool) {
	rest := ps
	var bye *swissPlayer
	if len(ps)%2 == 1 {
		for i := len(ps) - 1; i >= 0; i-- {
			if ps[i].byes == fewest {
				bye = ps[i]
				rest = make([]*swissPlayer, 0, len(ps)-1)
				rest = append(rest, ps[:i]...)
				rest = append(rest, ps[i+1:]...)
				break
			}
		}
	}
	pairs := make([][2]*swissPlayer, 0, len(rest)/2)
	for len(rest) > 0 {
		chosen := -1
		for _, j := range candidates(rest, l) {
			if l.edge(rest[0], rest[j]) {
				chosen = j
				break
			}
		}
		if chosen < 0 {
			return nil, nil, false
		}
		pairs = append(pairs, [2]*swissPlayer{rest[0], rest[chosen]})
		next := make([]*swissPlayer, 0, len(rest)-2)
		for k, p := range rest {
			if k != 0 && k != chosen {
				next = append(next, p)
			}
		}
		rest = next
	}
	return pairs, bye, true
}

// candidates returns the indexes in rest of the opponents of rest[0], in
// the Dutch order: in its score group of m players the one m/2 places
// below, then further down the group, then back up the group's top half;
// then the lower score groups from the top. At a level that may break the
// colour rules, the opponents who keep them come first.
func candidates(rest []*swissPlayer, l level) []int {
	p := rest[0]
	m := 1
	for m < len(rest) && rest[m].score == p.score {
		m++
	}
	out := make([]int, 0, len(rest)-1)
	if m > 1 {
		h := m / 2
		for j := h; j < m; j++ {
			out = append(out, j)
		}
		for j := h - 1; j >= 1; j-- {
			out = append(out, j)
		}
	}
	for j := m; j < len(rest); j++ {
		out = append(out, j)
	}
	if l.colour {
		sort.SliceStable(out, func(a, b int) bool {
			return colourOK(p, rest[out[a]]) && !colourOK(p, rest[out[b]])
		})
	}
	return out
}

// colours decides who of a pair (p ranked above q) takes X: the only way
// that keeps the colour rules if there is one; else both preferences when
// they differ; else the stronger preference; on a tie, the colours each
// had in the last game where they differed, swapped, or else the
// higher-ranked player's preference; with no preference at all, the
// higher-ranked player takes X on even boards and O on odd ones (round
// 1's alternation).
func colours(p, q *swissPlayer, board int) (x, o *swissPlayer) {
	pX := p.can('X') && q.can('O')
	pO := p.can('O') && q.can('X')
	switch {
	case pX && !pO:
		return p, q
	case pO && !pX:
		return q, p
	}
	cp, sp := p.preference()
	cq, sq := q.preference()
	want := cp // what p gets
	switch {
	case sp == 0 && sq == 0:
		want = 'X'
		if board%2 == 1 {
			want = 'O'
		}
	case sp == 0:
		want = other(cq)
	case cp == cq && sp == sq:
		// the same wish as strongly: colours alternate from the last game
		// (counted back from each one's last) in which they differed, or
		// the higher-ranked player has the wish.
		want = cp
		for i := 1; i <= len(p.colours) && i <= len(q.colours); i++ {
			if a := p.colours[len(p.colours)-i]; a != q.colours[len(q.colours)-i] {
				want = other(a)
				break
			}
		}
	case sq == 0 || cp != cq || sp > sq:
		want = cp
	default:
		want = other(cq)
	}
	if want == 'X' {
		return p, q
	}
	return q, p
}

func other(c byte) byte {
	if c == 'X' {
		return 'O'
	}
	return 'X'
}
