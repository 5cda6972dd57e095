package store

import (
	"context"
	"hash/fnv"
)

// ExplorerMove is one move of the opening explorer: how many finished
// games played it from a position, and their results.
type ExplorerMove struct {
	Move                       string // rules.Rules.MoveText
	Games, XWins, Draws, OWins int64
}

// explorerStore keeps the opening explorer's counts: for each
// rules and move prefix (the moves from the rules' own start), the moves
// the finished games played next and their results, so that a position's
// moves are one indexed read however many games are stored.
type ExplorerStore interface {
	// AddExplorerGame counts a finished game from the rules' own start:
	// each of its moves under the prefix before it, with the game's winner
	// ("x", "o", "draw"; any other counts as a game without a winner). A
	// game is counted once: false when it was counted already.
	AddExplorerGame(ctx context.Context, gameID, rules string, moves []string, winner string) (bool, error)
	// ExplorerMoves returns the moves played after the prefix under the
	// rules, the most played first.
	ExplorerMoves(ctx context.Context, rules string, prefix []string) ([]ExplorerMove, error)
	// ExplorerBackfill counts up to limit finished games from the rules'
	// own start that are not counted yet (games finished before the
	// explorer, or whose count a stopped process did not write), and
	// returns how many it counted.
	ExplorerBackfill(ctx context.Context, limit int) (int, error)
}

// ExplorerKey is the key of a move prefix under rules in the explorer's
// table: FNV-1a (64 bits) of the rules and the moves, as a signed integer
// (both databases' integer). The rules are stored beside it, so that a
// collision of two keys is told apart.
func ExplorerKey(rules string, prefix []string) int64 {
	h := fnv.New64a()
	h.Write([]byte(rules))
	for _, m := range prefix {
		h.Write([]byte{'\n'})
		h.Write([]byte(m))
	}
	return int64(h.Sum64())
}

// PlayedMoves is the moves of a game's log once takebacks are applied,
// without a resignation: the line the explorer counts.
func PlayedMoves(entries []Entry) []string {
	var out []string
	for _, e := range entries {
		switch {
		case e.Move == "":
			out = out[:max(0, len(out)-e.Undo)]
		case e.Move == "resign":
		default:
			out = append(out, e.Move)
		}
	}
	return out
}
