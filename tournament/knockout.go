package tournament

import (
	"fmt"
	"hash/fnv"
)

// A knockout match has at most matchSlots games: the two games, then up to
// maxDeciders deciders. Match i of a round owns slots i*matchSlots to
// i*matchSlots+matchSlots-1.
const (
	maxDeciders = 3
	matchSlots  = 2 + maxDeciders
)

// seedOrder returns the bracket's places for size (a power of two): seed
// numbers from 1, paired two by two, so that seed 1 meets seed 2 in the
// final at the earliest, seeds 1 to 4 in the semi-finals, and so on (for
// 8: 1 8 4 5 2 7 3 6).
func seedOrder(size int) []int {
	order := []int{1}
	for len(order) < size {
		m := 2 * len(order)
		next := make([]int, 0, m)
		for _, s := range order {
			next = append(next, s, m+1-s)
		}
		order = next
	}
	return order
}

// lotHigherSeedX is the deterministic lot of a decider's colours: whether
// the higher seed takes X, from an FNV-1a hash of the tournament id, the
// round, the match and the decider's number.
func lotHigherSeedX(id string, round, match, decider int) bool {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d/%d", id, round, match, decider)
	return h.Sum64()&1 == 0
}

// knockout is a knockout's bracket as far as the state decides it, and
// the games that are due now.
type knockout struct {
	tree    Tree
	current int    // the first round with an undecided match; 0 when over
	due     []Game // the games to create now
	winner  string
}

// buildKnockout plays the state's games through the bracket.
func buildKnockout(s State) knockout {
	seeds := s.seeded()
	seedOf := make(map[string]int, len(seeds))
	for i, p := range seeds {
		seedOf[p.Name] = i + 1
	}
	gone := s.withdrawn()
	rounds := s.rounds()
	size := 1 << rounds
	have := make(map[[2]int]Game, len(s.Games))
	for _, g := range s.Games {
		have[[2]int{g.Round, g.Slot}] = g
	}
	var k knockout
	order := seedOrder(size)
	// entrants of the round being built: seed numbers, 0 = nobody (a bye
	// place, or a winner not known yet).
	entrants := make([]int, size)
	for i, sd := range order {
		if sd <= len(seeds) {
			entrants[i] = sd
		}
	}
	known := true // every entrant of this round is known
	for r := 1; r <= rounds; r++ {
		br := BracketRound{Round: r}
		winners := make([]int, len(entrants)/2)
		roundKnown := known
		for m := range winners {
			a, b := entrants[2*m], entrants[2*m+1]
			if b != 0 && (a == 0 || b < a) {
				a, b = b, a
			}
			match := Match{Index: m, Seeds: [2]int{a, b}}
			if a != 0 {
				match.Players[0] = seeds[a-1].Name
			}
			if b != 0 {
				match.Players[1] = seeds[b-1].Name
			}
			if !known {
				br.Matches = append(br.Matches, match)
				continue
			}
			base := m * matchSlots
			if r == 1 && b == 0 {
				// a bye: the higher seed goes through.
				match.Bye = true
				match.Winner = match.Players[0]
				bye := Game{Round: r, Slot: base, X: match.Players[0], Outcome: XWins}
				if g, ok := have[[2]int{r, base}]; ok {
					match.Games = append(match.Games, g)
				} else {
					k.due = append(k.due, bye)
				}
				winners[m] = a
				br.Matches = append(br.Matches, match)
				continue
			}
			hi, lo := match.Players[0], match.Players[1]
			var due []Game
			for i := 0; i < matchSlots; i++ {
				if g, ok := have[[2]int{r, base + i}]; ok {
					match.Games = append(match.Games, g)
				}
			}
			g0, ok0 := have[[2]int{r, base}]
			g1, ok1 := have[[2]int{r, base + 1}]
			for _, g := range match.Games {
				x, o := g.points()
				if g.X == hi {
					match.Points[0] += x
					match.Points[1] += o
				} else {
					match.Points[0] += o
					match.Points[1] += x
				}
			}
			match.Winner = decided(match, gone)
			d := 0 // drawn deciders, in a row from the first
			for ; d < maxDeciders; d++ {
				g, ok := have[[2]int{r, base + 2 + d}]
				if !ok || !g.Finished() || g.Outcome == XWins || g.Outcome == OWins {
					break
				}
			}
			if match.Winner == "" && d == maxDeciders {
				match.Winner, match.ByHigherSeed = hi, true
			}
			if match.Winner == "" {
				switch {
				case !ok0:
					g := decide(Game{Round: r, Slot: base, X: hi, O: lo}, gone)
					due = append(due, g)
					if s.AllAtOnce && !g.Finished() && !ok1 {
						due = append(due, Game{Round: r, Slot: base + 1, X: lo, O: hi})
					}
				case !ok1:
					if g0.Finished() || s.AllAtOnce {
						due = append(due, decide(Game{Round: r, Slot: base + 1, X: lo, O: hi}, gone))
					}
				case g0.Finished() && g1.Finished():
					// tied (decided names a winner otherwise): the next decider.
					if _, ok := have[[2]int{r, base + 2 + d}]; !ok {
						x, o := hi, lo
						if !lotHigherSeedX(s.ID, r, m, d+1) {
							x, o = lo, hi
						}
						due = append(due, decide(Game{Round: r, Slot: base + 2 + d, X: x, O: o}, gone))
					}
				}
			}
			k.due = append(k.due, due...)
			if match.Winner != "" {
				winners[m] = seedOf[match.Winner]
			} else {
				roundKnown = false
			}
			br.Matches = append(br.Matches, match)
		}
		if known && !roundKnown && k.current == 0 {
			k.current = r
		}
		known = roundKnown
		entrants = winners
		k.tree.Rounds = append(k.tree.Rounds, br)
		if r == rounds && known {
			k.winner = seeds[winners[0]-1].Name
		}
	}
	return k
}

// decided returns a match's winner from its games, or "" while it is
// open: the player with more points once no game is pending and at least
// the two games are finished, or the higher seed when both players have
// withdrawn. A withdrawal decides a match through forfeited games (see
// decide), so that a result never changes once reached.
func decided(m Match, gone map[string]bool) string {
	hi, lo := m.Players[0], m.Players[1]
	finished := 0
	for _, g := range m.Games {
		if !g.Finished() {
			return ""
		}
		finished++
	}
	switch {
	case finished >= 2 && m.Points[0] > m.Points[1]:
		return hi
	case finished >= 2 && m.Points[0] < m.Points[1]:
		return lo
	case finished > 0 && gone[hi] && gone[lo]:
		return hi
	}
	return ""
}

// decide returns g forfeited if a player of it has withdrawn.
func decide(g Game, gone map[string]bool) Game {
	if f, ok := forfeited(g, gone); ok {
		return f
	}
	return g
}

// nextKnockout creates the due games of the first round still open (each
// match on its own: the first game, the second once the first is over or
// at once with AllAtOnce, a decider while tied); the next round starts
// when every match of this one is decided.
func nextKnockout(s State) (Step, error) {
	k := buildKnockout(s)
	if k.current == 0 {
		return Step{Games: k.due, Round: s.rounds(), Finished: len(k.due) == 0, Winner: k.winner}, nil
	}
	return Step{Games: k.due, Round: k.current}, nil
}

// knockoutReached returns, for each player, the bracket round reached:
// the last round they had a match in, and one more for the champion.
func knockoutReached(s State) map[string]int {
	k := buildKnockout(s)
	out := make(map[string]int, len(s.Players))
	for _, br := range k.tree.Rounds {
		for _, m := range br.Matches {
			for _, p := range m.Players {
				if p != "" {
					out[p] = br.Round
				}
			}
		}
	}
	if k.winner != "" {
		out[k.winner]++
	}
	return out
}

// Bracket returns a knockout's bracket: every round, its matches, their
// games and winners, as far as they are known; an empty Tree for the
// other formats, and for a state Next would refuse.
func Bracket(s State) Tree {
	if s.Format != FormatKnockout || s.validate() != nil {
		return Tree{}
	}
	return buildKnockout(s).tree
}
