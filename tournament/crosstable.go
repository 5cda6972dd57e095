package tournament

import "strings"

// Table is a round robin's crosstable: Names in standings order, and
// Cells[i][j] the games of Names[i] against Names[j] (none on the
// diagonal).
type Table struct {
	Names  []string  `json:"names"`
	Scores []float64 `json:"scores"`
	Cells  [][]Cell  `json:"cells"`
}

// Cell is the games of one player (the row) against another (the column),
// in round order.
type Cell struct {
	Games []CellGame `json:"games"`
}

// CellGame is one game seen from the row's player.
type CellGame struct {
	Round   int     `json:"round"`
	Slot    int     `json:"slot"`
	AsX     bool    `json:"as_x"`    // the row's player had X
	Pending bool    `json:"pending"` // no result yet
	Points  float64 `json:"points"`  // the row's player's points (0, 0.5 or 1)
	Forfeit bool    `json:"forfeit,omitempty"`
}

// String writes a cell as a crosstable shows it: "1", "½", "0" per game,
// "+" and "-" for a forfeit won or lost, "*" for a game in progress,
// separated by spaces; "" when the two have no game.
func (c Cell) String() string {
	parts := make([]string, 0, len(c.Games))
	for _, g := range c.Games {
		switch {
		case g.Pending:
			parts = append(parts, "*")
		case g.Forfeit && g.Points == 1:
			parts = append(parts, "+")
		case g.Forfeit:
			parts = append(parts, "-")
		case g.Points == 1:
			parts = append(parts, "1")
		case g.Points == 0.5:
			parts = append(parts, "½")
		default:
			parts = append(parts, "0")
		}
	}
	return strings.Join(parts, " ")
}

// Crosstable returns the state's crosstable: every player, in standings
// order, against every other. It is meant for round robins but is filled
// from the games of any format.
func Crosstable(s State) Table {
	st := Standings(s)
	idx := make(map[string]int, len(st))
	ct := Table{Names: make([]string, len(st)), Scores: make([]float64, len(st)), Cells: make([][]Cell, len(st))}
	for i, r := range st {
		idx[r.Name] = i
		ct.Names[i] = r.Name
		ct.Scores[i] = r.Score
		ct.Cells[i] = make([]Cell, len(st))
	}
	for _, g := range sortedGames(s.Games) {
		if g.Bye() {
			continue
		}
		x, o := idx[g.X], idx[g.O]
		px, po := g.points()
		ct.Cells[x][o].Games = append(ct.Cells[x][o].Games, CellGame{Round: g.Round, Slot: g.Slot, AsX: true, Pending: !g.Finished(), Points: px, Forfeit: g.Forfeit})
		ct.Cells[o][x].Games = append(ct.Cells[o][x].Games, CellGame{Round: g.Round, Slot: g.Slot, Pending: !g.Finished(), Points: po, Forfeit: g.Forfeit})
	}
	return ct
}
