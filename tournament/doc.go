// Package tournament is the pure logic of tournaments: pairing for round
// robins, Swiss and knockouts, standings with tie-breaks, the crosstable
// and the bracket. It does no I/O: the server stores a tournament's
// players and games, hands them to Next as a State, and creates the games
// Next returns, in one transaction keyed by (round, slot). Every decision
// is deterministic for a given state (ties broken by rating, then name;
// the knockout deciders' lot drawn from a hash of the tournament id), so
// calling Next again after a restart re-creates nothing.
//
//	st, err := tournament.Next(tournament.State{
//		ID: "t1", Format: tournament.FormatSwiss, Rounds: 5,
//		Players: players, Games: games,
//	})
//	// record st.Forfeits, create st.Games; st.Finished, st.Winner
//	table := tournament.Standings(state)
//
// Files: tournament.go (the types, validation, Next and withdrawals),
// roundrobin.go (the circle method in Berger order), swiss.go (score-group
// pairing after the FIDE Dutch system's principles), matching.go (Edmonds'
// maximum matching, kept while a round is paired: whether the rest can
// still be paired after each choice), knockout.go (the seeded bracket,
// matches and deciders), standings.go (scores, Sonneborn-Berger,
// Buchholz), crosstable.go and bracket.go (what the pages show).
// docs/tournaments.md says what each format does and what is simplified
// from the FIDE rules.
package tournament
