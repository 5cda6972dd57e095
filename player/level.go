package player

import (
	"fmt"
	"strconv"
	"strings"
)

// levels maps the named levels, weakest first, to player specs. The
// strengths behind the order are measured in docs/strength.md. The top
// level is exact wherever the solver finishes within its time (lines of up
// to about 16 points); elsewhere it searches with alpha-beta.
var levels = []string{
	"random",
	"greedy",
	"alphabeta:depth=2",
	"alphabeta:depth=4",
	"mcts:playouts=1000",
	"alphabeta:time=300ms",
	"mcts:time=300ms",
	"mcts:time=1s",
	"perfect:time=3s",
}

// levelNames names the levels in words for people, as the levels above,
// weakest first.
var levelNames = []string{"Beginner", "Novice", "Casual", "Intermediate", "Club", "Advanced", "Strong", "Expert", "Perfect"}

// LevelName returns level n's name in words ("Casual"), or "" when there
// is no level n.
func LevelName(n int) string {
	if n < 1 || n > len(levelNames) {
		return ""
	}
	return levelNames[n-1]
}

// Levels returns the number of named levels.
func Levels() int { return len(levels) }

// Level returns the player spec of level n, from 1 (random) to Levels()
// (the strongest).
func Level(n int) (string, error) {
	if n < 1 || n > len(levels) {
		return "", fmt.Errorf("level %d: the levels are 1 (random) to %d (the strongest)", n, len(levels))
	}
	return levels[n-1], nil
}

func newLevelSpec(args string, seed uint64) (Player, error) {
	n, err := strconv.Atoi(strings.TrimSpace(args))
	if err != nil {
		return nil, fmt.Errorf("player level:%s: a level is a number from 1 to %d, such as level:3", args, len(levels))
	}
	spec, err := Level(n)
	if err != nil {
		return nil, err
	}
	return New(spec, seed)
}
