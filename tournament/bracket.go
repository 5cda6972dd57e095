package tournament

// Tree is a knockout's bracket: its rounds from the first to the final.
type Tree struct {
	Rounds []BracketRound `json:"rounds"`
}

// BracketRound is one round of the bracket; Round counts from 1.
type BracketRound struct {
	Round   int     `json:"round"`
	Matches []Match `json:"matches"`
}

// Match is one match of the bracket, in bracket order (Index from 0: the
// winners of matches 2i and 2i+1 meet in match i of the next round).
// Seeds are the players' seed numbers (1 = highest rating; 0 where the
// place is not known yet, or is a bye); Players are "" until known.
// Games are the match's games in order: the two games, then the deciders.
// Winner is "" until the match is decided; ByHigherSeed tells that three
// drawn deciders left it to the higher seed.
type Match struct {
	Index        int        `json:"index"`
	Seeds        [2]int     `json:"seeds"`
	Players      [2]string  `json:"players"`
	Games        []Game     `json:"games"`
	Points       [2]float64 `json:"points"`
	Winner       string     `json:"winner,omitempty"`
	Bye          bool       `json:"bye,omitempty"`
	ByHigherSeed bool       `json:"by_higher_seed,omitempty"`
}
