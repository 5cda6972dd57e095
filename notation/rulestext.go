package notation

import (
	"fmt"
	"strings"

	"alak/rules"
)

// RulesText describes the rules r in plain sentences, one rule a line, for
// people at a board (alak play's rules command, the play server's game
// page). docs/rules.md traces every rule to its source.
func RulesText(r rules.Rules) string {
	var lines []string
	add := func(format string, a ...any) { lines = append(lines, fmt.Sprintf(format, a...)) }
	name := r.Preset
	if name == "" {
		name = "alak"
	}
	if ch := r.Changed(false); len(ch) > 0 {
		name += " (" + strings.Join(ch, " ") + ")"
	}
	add("Rules: %s.", name)
	if r.Movement == rules.Sliding {
		add("The board is a line of %d slots; the pieces start as %s, x (Black) on the left, and x moves first.", r.Width, r.StartLayout())
		add("A move slides one of your pieces to the nearest empty slot on its left or on its right, jumping over any pieces between.")
		add("A run of enemy pieces closed in on both sides by the moved piece and another of yours%s is captured.", edgeWords(r))
		switch r.SelfCapture {
		case rules.SelfPiece:
			add("Enemy captures come first; then a moved piece left between two enemy pieces%s is removed.", edgeWords(r))
		case rules.SelfRun:
			add("Enemy captures come first; then a run of yours that the moved piece joins, closed in by enemy pieces, is removed.")
		default:
			add("The moved piece is never captured by its own move.")
		}
		if r.MinPieces > 0 {
			add("A player left with fewer than %d pieces loses.", r.MinPieces)
		}
	} else {
		if r.IsLine() {
			add("The board is a line of %d points, empty at the start; x (Black) moves first.", r.Width)
		} else {
			add("The board is a %s grid, empty at the start; x (Black) moves first.", r.SizeString())
		}
		add("A move places a stone of your colour on an empty point.")
		if r.IsLine() {
			add("A run of enemy stones closed in on both sides by your stones%s is captured and removed.", edgeWords(r))
		} else {
			add("An enemy chain left without an empty neighbour is captured and removed%s.", map[bool]string{true: "", false: " (edge=off: points off the board count as liberties)"}[r.EdgeCapture])
		}
		switch r.Own {
		case rules.OwnStays:
			add("You may fill your own last liberty: your stones then stay on the board.")
		case rules.OwnIllegal:
			add("You may not fill your own last liberty (no suicide), unless the move captures.")
		case rules.OwnRemoved:
			add("Filling your own last liberty removes your own stones, after the enemy stones the move captures.")
		case rules.OwnRemovedTogether:
			add("After every placement all stones without liberties are removed at once, yours included.")
		}
		switch r.Ko {
		case rules.KoCaptured:
			add("You may not place, on the very next move, where your stones were just captured: the points marked /.")
		case rules.KoSimple:
			add("Ko: no move may bring back the board as it was before the opponent's last move (the ko point is marked /).")
		case rules.KoPositional:
			add("Superko: no placement may bring back any board of the game so far.")
		case rules.KoSituational:
			add("Situational superko: no placement may bring back a board of the game so far with the same player to move.")
		}
		if r.UnchangedLoses {
			add("A placement that leaves the board unchanged loses the game.")
		}
		switch r.Safe {
		case rules.SafeEyeOnly:
			add("Instead of placing you may declare one of your eyes safe (an empty point whose neighbours are all your stones), written *N; nobody may place on a safe point, which stays a liberty and is counted as an empty point.")
		case rules.SafeField:
			add("Instead of placing you may declare any empty point safe, written *N; nobody may place on a safe point, which stays a liberty and is counted as an empty point.")
		}
		switch {
		case r.Pass:
			add("You may pass; %d passes in a row end the game.", r.EndPasses)
		case r.Safe != rules.SafeOff:
			add("There is no passing: the game ends when the player to move can neither place nor declare.")
		default:
			add("There is no passing: the game ends when the player to move has no legal placement.")
		}
	}
	switch r.Scoring {
	case rules.ScoreStones:
		add("At the end the stones on the board are counted: more stones wins.")
	case rules.ScoreArea:
		add("At the end each player counts stones plus the empty points bordered only by their stones (area).")
	case rules.ScoreTerritory:
		add("At the end each player counts the empty points bordered only by their stones plus the prisoners they took (territory).")
	case rules.ScoreAreaPrisoners:
		add("At the end each player counts stones, the empty points bordered only by their stones, and the prisoners they took.")
	case rules.ScoreNone:
		add("Nothing is counted: the game is only won by rule.")
	}
	if r.Komi != 0 && r.Scoring != rules.ScoreNone {
		add("White adds a komi of %s to its count.", num(r.Komi))
	}
	if r.Repetition > 0 {
		add("A position (stones, player to move, forbidden points) that occurs for the %s time is a draw.", ordinal(r.Repetition))
	}
	return strings.Join(lines, "\n") + "\n"
}

// edgeWords says whether the ends of the line close a run.
func edgeWords(r rules.Rules) string {
	if r.EdgeCapture {
		return " (or by an end of the line)"
	}
	return " (the ends of the line do not close a run)"
}

func ordinal(n int) string {
	switch n {
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return fmt.Sprintf("%dth", n)
}
