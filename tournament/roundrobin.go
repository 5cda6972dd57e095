package tournament

// roundRobinSchedule is the whole schedule of a (double) round robin by
// the circle method, rounds in Berger-table order: the players numbered by
// seed 0..N-1 (N even; with an odd count the last number is nobody, and
// its partner sits the round out), number N-1 fixed, the others on a
// circle that turns N/2 places a round, so that a player's colour
// alternates from round to round except around its game against the fixed
// number. The fixed number takes X in odd rounds (from 0) and O in even
// ones. A double round robin plays the same rounds again, colours swapped
// (the first cycle's last two rounds exchanged).
// Slot k of a round is its k-th pair (slot 0 the fixed number's), so an
// odd count leaves the sitting-out slot unused.
func roundRobinSchedule(s State) [][]Game {
	seeds := s.seeded()
	names := make([]string, len(seeds))
	for i, p := range seeds {
		names[i] = p.Name
	}
	if len(names)%2 == 1 {
		names = append(names, "")
	}
	n := len(names)
	cycle := make([][]Game, 0, n-1)
	for r := 0; r < n-1; r++ {
		shift := r * (n / 2) % (n - 1)
		at := func(i int) string { return names[(i+shift)%(n-1)] }
		var games []Game
		x, o := names[n-1], at(0)
		if r%2 == 0 {
			x, o = o, x
		}
		if x != "" && o != "" {
			games = append(games, Game{Round: r + 1, Slot: 0, X: x, O: o})
		}
		for k := 1; k < n/2; k++ {
			games = append(games, Game{Round: r + 1, Slot: k, X: at(k), O: at(n - 1 - k)})
		}
		cycle = append(cycle, games)
	}
	if s.Format != FormatDoubleRoundRobin {
		return cycle
	}
	// FIDE's advice for double round robins (C.05 Annex 1): the last two
	// rounds of the first cycle change places, so that nobody has the same
	// colour three times running where the cycles meet.
	out := make([][]Game, 0, 2*(n-1))
	for r := range cycle {
		from := r
		if n-1 >= 3 && r >= n-3 {
			from = 2*(n-2) - 1 - r // n-3 <-> n-2
		}
		front := make([]Game, len(cycle[from]))
		for i, g := range cycle[from] {
			g.Round = r + 1
			front[i] = g
		}
		out = append(out, front)
	}
	for r, games := range cycle {
		back := make([]Game, len(games))
		for i, g := range games {
			back[i] = Game{Round: n + r, Slot: g.Slot, X: g.O, O: g.X}
		}
		out = append(out, back)
	}
	return out
}

// nextRoundRobin creates the schedule's missing games: all of them at once
// (AllAtOnce), or those of the first round not yet finished. A withdrawn
// player's games are created already forfeited.
func nextRoundRobin(s State) (Step, error) {
	sched := roundRobinSchedule(s)
	have := make(map[[2]int]Game, len(s.Games))
	for _, g := range s.Games {
		have[[2]int{g.Round, g.Slot}] = g
	}
	gone := s.withdrawn()
	var st Step
	current := 0
	for r, games := range sched {
		done := true
		for _, g := range games {
			if h, ok := have[[2]int{g.Round, g.Slot}]; !ok || !h.Finished() {
				done = false
			}
		}
		if !done && current == 0 {
			current = r + 1
		}
		if current == 0 || (!s.AllAtOnce && r+1 > current) {
			continue
		}
		for _, g := range games {
			if _, ok := have[[2]int{g.Round, g.Slot}]; ok {
				continue
			}
			if f, ok := forfeited(g, gone); ok {
				g = f
			}
			st.Games = append(st.Games, g)
		}
	}
	if current == 0 {
		st.Round = len(sched)
		st.Finished = true
		st.Winner = Standings(s)[0].Name
		return st, nil
	}
	st.Round = current
	return st, nil
}
